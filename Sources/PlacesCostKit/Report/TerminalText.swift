/// Text for a terminal: Markdown's inline marks turned into styles, lines wrapped to a width, and
/// Markdown tables aligned into columns, so nothing a command prints on a terminal runs past
/// `width` columns.
///
/// Styles are ANSI escape sequences only when `color` is on (a terminal, no `NO_COLOR`, no
/// `--color never`); otherwise the marks are dropped and the text is plain. Widths count
/// Unicode scalars, which is what a terminal shows for the text this tool writes.
struct TerminalText: Sendable {
    var width: Int
    var color: Bool

    enum Style: String, Sendable {
        case bold = "1"
        case dim = "2"
        case green = "32"
        case yellow = "33"
        case cyan = "36"
    }

    /// `text` in `style`, when colour is on.
    func styled(_ text: String, _ style: Style) -> String {
        color ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// A line of Markdown's inline marks made terminal text: `**bold**` bold, `` `code` `` cyan.
    func inline(_ markdown: String) -> String {
        var out = ""
        var rest = Substring(markdown)
        while let mark = rest.firstIndex(where: { $0 == "*" || $0 == "`" }) {
            out += rest[..<mark]
            if rest[mark...].hasPrefix("**"), let close = rest[rest.index(mark, offsetBy: 2)...].range(of: "**") {
                out += styled(inline(String(rest[rest.index(mark, offsetBy: 2)..<close.lowerBound])), .bold)
                rest = rest[close.upperBound...]
            } else if rest[mark] == "`", let close = rest[rest.index(after: mark)...].firstIndex(of: "`") {
                out += styled(String(rest[rest.index(after: mark)..<close]), .cyan)
                rest = rest[rest.index(after: close)...]
            } else {
                out.append(rest[mark])
                rest = rest[rest.index(after: mark)...]
            }
        }
        return out + rest
    }

    /// The columns `text` takes on a terminal: its scalars, escape sequences not counted.
    static func visibleWidth(_ text: String) -> Int {
        var count = 0
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if scalar == "m" { inEscape = false }
            } else if scalar == "\u{1B}" {
                inEscape = true
            } else {
                count += 1
            }
        }
        return count
    }

    /// `text` (terminal text, styles allowed) wrapped at spaces to `width`, every line after the
    /// first indented by `indent` spaces; a word longer than a line is cut.
    func wrapped(_ text: String, indent: Int = 0, firstIndent: Int = 0) -> [String] {
        var lines: [String] = []
        var line = String(repeating: " ", count: firstIndent)
        var lineWidth = firstIndent
        let limit = max(width, indent + 20)
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            var word = String(word)
            var wordWidth = TerminalText.visibleWidth(word)
            let start = lines.isEmpty ? firstIndent : indent
            if lineWidth > start, lineWidth + 1 + wordWidth > limit {
                lines.append(line)
                line = String(repeating: " ", count: indent)
                lineWidth = indent
            }
            while lineWidth + wordWidth > limit, lineWidth == (lines.isEmpty ? firstIndent : indent) {
                // A word wider than a line (a URL): cut it; it has no styles.
                let room = limit - lineWidth
                line += word.prefix(room)
                lines.append(line)
                word = String(word.dropFirst(room))
                wordWidth = TerminalText.visibleWidth(word)
                line = String(repeating: " ", count: indent)
                lineWidth = indent
            }
            if wordWidth == 0 { continue }
            if lineWidth > (lines.isEmpty ? firstIndent : indent) {
                line += " "
                lineWidth += 1
            }
            line += word
            lineWidth += wordWidth
        }
        lines.append(line)
        return lines
    }

    /// `text` cut to `width` columns with an ellipsis (plain text only).
    static func truncated(_ text: String, to width: Int) -> String {
        guard text.unicodeScalars.count > width else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.prefix(max(0, width - 1)))) + "…"
    }

    /// `text` cut to `width` columns in the middle: its start and its end, an ellipsis between.
    static func truncatedInMiddle(_ text: String, to width: Int) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > width else { return text }
        let kept = max(0, width - 1)
        let head = (kept + 1) / 2
        return String(String.UnicodeScalarView(scalars.prefix(head))) + "…" + String(String.UnicodeScalarView(scalars.suffix(kept - head)))
    }

    /// A Markdown document for a terminal: headings bold, paragraphs and list items wrapped,
    /// tables aligned, each cell cut so that a row fits `width`.
    func document(_ markdown: String) -> String {
        var out: [String] = []
        var table: [[String]] = []
        func flushTable() {
            guard !table.isEmpty else { return }
            out += tableLines(table)
            table = []
        }
        for rawLine in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(rawLine)
            if line.hasPrefix("|") {
                let cells = line.dropFirst().dropLast(line.hasSuffix("|") ? 1 : 0).split(separator: "|", omittingEmptySubsequences: false)
                    .map { String($0).trimmingSpaces() }
                if cells.allSatisfy({ $0.allSatisfy { $0 == "-" || $0 == ":" } }) { continue }
                table.append(cells)
                continue
            }
            flushTable()
            if line.hasPrefix("#") {
                out.append(styled(String(line.drop { $0 == "#" || $0 == " " }), .bold))
            } else if line.hasPrefix("![") {
                continue  // a chart: a terminal cannot show it
            } else if let marker = TerminalText.listMarker(line) {
                out += wrapped(inline(String(line.dropFirst(marker.count))), indent: marker.count, firstIndent: marker.count)
                    .enumerated().map { $0.offset == 0 ? marker + $0.element.dropFirst(marker.count) : $0.element }
            } else {
                out += wrapped(inline(line), indent: line.prefix { $0 == " " }.count, firstIndent: line.prefix { $0 == " " }.count)
            }
        }
        flushTable()
        return out.joined(separator: "\n") + "\n"
    }

    /// `1. ` or `- ` at a line's start.
    private static func listMarker(_ line: String) -> String? {
        if line.hasPrefix("- ") { return "- " }
        let digits = line.prefix { $0.isNumber }
        if !digits.isEmpty, line.dropFirst(digits.count).hasPrefix(". ") { return String(digits) + ". " }
        return nil
    }

    /// The narrowest a table's column is cut to.
    static let minimumCut = 8

    /// Rows aligned in columns two spaces apart, the first row their header. In a table too wide
    /// for `width`, a header wider than its column's cells wraps at spaces over more lines rather
    /// than widen the column (numbers under `estimated count` need not take 15 columns), so the
    /// key column keeps its room. A row
    /// too wide for `width` wraps its last column (a table of labels and sentences); if that is
    /// not enough, text columns are cut, widest first, never a number, and columns that fit in
    /// no way are left out from the right.
    func tableLines(_ rows: [[String]]) -> [String] {
        let plain = rows.map { $0.map { TerminalText(width: width, color: false).inline($0) } }
        var columns = plain.map(\.count).max() ?? 0
        let header = plain.first ?? []
        let cellWidths = (0..<columns).map { column in plain.dropFirst().map { column < $0.count ? $0[column].unicodeScalars.count : 0 }.max() ?? 0 }
        let headings = (0..<columns).map { column in column < header.count ? header[column] : "" }
        var widths = (0..<columns).map { max(cellWidths[$0], headings[$0].unicodeScalars.count) }
        if widths.reduce(0, +) + 2 * max(0, columns - 1) > width {
            // Too wide with its headers on one line: each wraps at spaces to its column's cells.
            widths = (0..<columns).map { column in
                max(cellWidths[column], min(widths[column], headings[column].split(separator: " ").map(\.unicodeScalars.count).max() ?? 0))
            }
        }
        /// The header's cells over as many lines as its widest wrap takes, each cut to its column.
        func headerRows(_ widths: [Int]) -> [[String]] {
            let wrapped = (0..<widths.count).map { column in
                TerminalText.wordWrapped(column < header.count ? header[column] : "", to: widths[column])
            }
            let count = wrapped.map(\.count).max() ?? 1
            return (0..<count).map { line in wrapped.map { line < $0.count ? $0[line] : "" } }
        }
        let fixed = widths.dropLast().reduce(0, +) + 2 * max(0, columns - 1)
        if columns >= 2, fixed + widths[columns - 1] > width, width - fixed >= 30 {
            // The last column wraps under itself.
            let lastWidth = width - fixed
            var lines: [String] = []
            let titles = headerRows(Array(widths.dropLast()) + [lastWidth])
            for (index, row) in (titles + plain.dropFirst()).enumerated() {
                var lead = ""
                for column in 0..<(columns - 1) {
                    let cell = column < row.count ? row[column] : ""
                    lead += cell + String(repeating: " ", count: widths[column] - cell.unicodeScalars.count) + "  "
                }
                let wrappedLast = TerminalText(width: lastWidth, color: false).wrapped(row.count == columns ? row[columns - 1] : "")
                for (part, text) in wrappedLast.enumerated() {
                    let line = (part == 0 ? lead : String(repeating: " ", count: fixed)) + text
                    lines.append(index < titles.count ? styled(line, .bold) : line)
                }
            }
            return lines.map { line in
                var line = line
                while line.hasSuffix(" ") { line.removeLast() }
                return line
            }
        }
        let numeric = (0..<columns).map { column in
            plain.dropFirst().allSatisfy { column >= $0.count || $0[column].isEmpty || $0[column].first.map { "$-0123456789".contains($0) } == true }
        }
        // A number is never cut: a numeric column narrows only to its widest value (its header is
        // cut past that); a text column to `minimumCut`.
        let floors = (0..<columns).map { column in
            numeric[column] ? min(widths[column], plain.dropFirst().map { column < $0.count ? $0[column].unicodeScalars.count : 0 }.max() ?? 0) : min(widths[column], TerminalText.minimumCut)
        }
        // Columns that would not fit even at their floors are left out from the right (the full
        // report has them); then columns are cut until the rest fits: text columns, widest first,
        // then numeric headers.
        func span(_ widths: ArraySlice<Int>) -> Int { widths.reduce(0, +) + 2 * max(0, widths.count - 1) }
        while columns > 2, span(floors.prefix(columns)) > width {
            columns -= 1
        }
        widths = Array(widths.prefix(columns))
        while span(widths[...]) > width {
            let cuttable = widths.indices.filter { widths[$0] > floors[$0] }
            let order: [[Int]] = [cuttable.filter { !numeric[$0] }, cuttable.filter { numeric[$0] }]
            guard let group = order.first(where: { !$0.isEmpty }), let widest = group.max(by: { widths[$0] < widths[$1] }) else { break }
            widths[widest] -= 1
        }
        let titles = headerRows(widths)
        // A cut that would make two different cells of a column read the same (`session_details`
        // and `session_details_basic`) is made in the middle of that column's cells instead.
        let cutsInMiddle = (0..<columns).map { column in
            let cells = Set(plain.dropFirst().compactMap { column < $0.count ? $0[column] : nil })
            return Set(cells.map { TerminalText.truncated($0, to: widths[column]) }).count < cells.count
        }
        // Columns left out are said, never dropped in silence.
        let leftOut = (plain.map(\.count).max() ?? 0) - columns
        let note = leftOut > 0 ? ["(\(Money.count(leftOut, "more column", "more columns")) in the full report)"] : []
        return (titles + plain.dropFirst()).enumerated().map { index, row in
            let isTitle = index < titles.count
            var cells: [String] = []
            for column in 0..<columns {
                let full = column < row.count ? row[column] : ""
                let cell = cutsInMiddle[column] && !isTitle ? TerminalText.truncatedInMiddle(full, to: widths[column]) : TerminalText.truncated(full, to: widths[column])
                let pad = String(repeating: " ", count: widths[column] - cell.unicodeScalars.count)
                let text = numeric[column] && !isTitle ? pad + cell : cell + pad
                cells.append(isTitle ? styled(text, .bold) : text)
            }
            var line = cells.joined(separator: "  ")
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        } + note
    }

    /// `text` wrapped at spaces into lines of at most `width` columns where its words allow
    /// (a longer word keeps a line of its own, cut by the table); plain text only.
    static func wordWrapped(_ text: String, to width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.unicodeScalars.count + 1 + word.unicodeScalars.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        return lines
    }
}
