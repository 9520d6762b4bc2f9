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

    /// Rows aligned in columns two spaces apart. A row too wide for `width` wraps its last
    /// column (a table of labels and sentences); if that is not enough, the widest column is cut,
    /// and columns that fit in no way are left out from the right.
    func tableLines(_ rows: [[String]]) -> [String] {
        let plain = rows.map { $0.map { TerminalText(width: width, color: false).inline($0) } }
        var columns = plain.map(\.count).max() ?? 0
        var widths = (0..<columns).map { column in plain.map { column < $0.count ? $0[column].unicodeScalars.count : 0 }.max() ?? 0 }
        let fixed = widths.dropLast().reduce(0, +) + 2 * max(0, columns - 1)
        if columns >= 2, fixed + widths[columns - 1] > width, width - fixed >= 30 {
            // The last column wraps under itself.
            let lastWidth = width - fixed
            var lines: [String] = []
            for (index, row) in plain.enumerated() {
                var lead = ""
                for column in 0..<(columns - 1) {
                    let cell = column < row.count ? row[column] : ""
                    lead += cell + String(repeating: " ", count: widths[column] - cell.unicodeScalars.count) + "  "
                }
                let wrappedLast = TerminalText(width: lastWidth, color: false).wrapped(row.count == columns ? row[columns - 1] : "")
                for (part, text) in wrappedLast.enumerated() {
                    let line = (part == 0 ? lead : String(repeating: " ", count: fixed)) + text
                    lines.append(index == 0 ? styled(line, .bold) : line)
                }
            }
            return lines.map { line in
                var line = line
                while line.hasSuffix(" ") { line.removeLast() }
                return line
            }
        }
        // Columns that would not fit even cut to `minimumCut` are left out from the right (the
        // full report has them); then the widest columns are cut until the rest fits.
        func span(_ widths: ArraySlice<Int>) -> Int { widths.reduce(0, +) + 2 * max(0, widths.count - 1) }
        while columns > 2, span(widths.prefix(columns).map { min($0, TerminalText.minimumCut) }[...]) > width {
            columns -= 1
        }
        widths = Array(widths.prefix(columns))
        while span(widths[...]) > width, let widest = widths.indices.max(by: { widths[$0] < widths[$1] }), widths[widest] > TerminalText.minimumCut {
            widths[widest] -= 1
        }
        // A cut that would make two different cells of a column read the same (`session_details`
        // and `session_details_basic`) is made in the middle of that column's cells instead.
        let cutsInMiddle = (0..<columns).map { column in
            let cells = Set(plain.compactMap { column < $0.count ? $0[column] : nil })
            return Set(cells.map { TerminalText.truncated($0, to: widths[column]) }).count < cells.count
        }
        let numeric = (0..<columns).map { column in
            plain.dropFirst().allSatisfy { column >= $0.count || $0[column].isEmpty || $0[column].first.map { "$-0123456789".contains($0) } == true }
        }
        return plain.enumerated().map { index, row in
            var cells: [String] = []
            for column in 0..<columns {
                let full = column < row.count ? row[column] : ""
                let cell = cutsInMiddle[column] ? TerminalText.truncatedInMiddle(full, to: widths[column]) : TerminalText.truncated(full, to: widths[column])
                let pad = String(repeating: " ", count: widths[column] - cell.unicodeScalars.count)
                let text = numeric[column] && index > 0 ? pad + cell : cell + pad
                cells.append(index == 0 ? styled(text, .bold) : text)
            }
            var line = cells.joined(separator: "  ")
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }
}
