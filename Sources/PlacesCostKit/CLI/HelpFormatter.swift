/// Lays out usage lines and `--help` for a terminal `width` columns wide.
///
/// A usage line is cut only between its parts (`[--format auto|jsonl|csv|access-log|har]` is
/// never split), each continuation line indented under the first option. An OPTIONS line is
/// `  -o, --out DIR     help` with the help wrapped in a column of its own (the ARGUMENTS lines
/// too, in the same column); an option too wide for the column has its help on the next lines. Help text is wrapped to at most 100 columns
/// whatever the width, as the hand-wrapped prose around it is.
struct HelpFormatter: Sendable {
    /// The terminal's width in columns.
    let width: Int

    /// Help text is never wider than this: the hand-wrapped prose of the help pages is.
    static let proseWidth = 100

    init(width: Int) {
        self.width = width
    }

    /// The whole `--help` of a command: the page's prose around the table's usage line and options.
    func page(_ page: HelpPage, table: OptionTable) -> String {
        var sections = [page.intro, "USAGE\n" + usage(table.usage, prefix: "  ")]
        if let description = page.description { sections.append(description) }
        let arguments = page.arguments.map { (left: "  " + $0.name, help: $0.help) }
        let options = table.options.map { option in
            (left: "  " + (option.shortFlag.map { $0 + ", " } ?? "    ") + option.synopsis,
             help: option.help + (option.repeats ? " May be repeated." : ""))
        }
        var column = HelpFormatter.column(arguments.map(\.left) + options.map(\.left))
        // A narrow terminal: every help under its option, a few columns in.
        if min(width, HelpFormatter.proseWidth) - column < HelpFormatter.minTextWidth { column = 8 }
        if !arguments.isEmpty { sections.append("ARGUMENTS\n" + lines(arguments, column: column)) }
        sections.append("OPTIONS\n" + lines(options, column: column))
        if let epilogue = page.epilogue { sections.append(epilogue) }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// `line` after `prefix` (`usage: `, or the indent of a help page), wrapped to the width.
    ///
    /// Continuation lines start under the part after the command's name (`placescost analyze`),
    /// or a few columns in when that would leave less than half the width.
    func usage(_ line: String, prefix: String) -> String {
        let parts = HelpFormatter.usageParts(line)
        guard parts.count > 2 else { return prefix + line }
        let head = prefix + parts[0] + " " + parts[1]
        var indent = head.count + 1
        if indent > width / 2 { indent = prefix.count + 4 }
        var lines = [head]
        for part in parts.dropFirst(2) {
            if lines[lines.count - 1].count + 1 + part.count <= width {
                lines[lines.count - 1] += " " + part
            } else {
                lines.append(String(repeating: " ", count: indent) + part)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The parts of a usage line: words outside brackets, or whole bracketed groups.
    static func usageParts(_ line: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        for character in line {
            switch character {
            case "[", "(": depth += 1
            case "]", ")": depth -= 1
            default: break
            }
            if character == " " && depth == 0 {
                if !current.isEmpty { parts.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }

    /// The help column: after the widest left part (`  -o, --out DIR`) that is not too wide to
    /// share its line.
    static func column(_ lefts: [String]) -> Int {
        (lefts.map(\.count).filter { $0 <= maxLeftWidth }.max() ?? 0) + 2
    }

    /// The narrowest column of help text beside the options.
    static let minTextWidth = 30

    /// The widest left part that shares its line with its help.
    static let maxLeftWidth = 26

    /// Each left part with its help wrapped in `column`; a left part too wide for the column has
    /// its help on the next lines.
    func lines(_ entries: [(left: String, help: String)], column: Int) -> String {
        let textWidth = max(min(width, HelpFormatter.proseWidth) - column, HelpFormatter.minTextWidth)
        var lines: [String] = []
        for (left, help) in entries {
            var text = HelpFormatter.wrap(help, width: textWidth)
            if left.count + 2 <= column {
                lines.append(left + String(repeating: " ", count: column - left.count) + text.removeFirst())
            } else {
                lines.append(left)
            }
            lines += text.map { String(repeating: " ", count: column) + $0 }
        }
        return lines.joined(separator: "\n")
    }

    /// `text` cut into lines of at most `width` characters between words; a newline in `text`
    /// always starts a line, and a word wider than `width` has a line of its own.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                if line.isEmpty {
                    line = String(word)
                } else if line.count + 1 + word.count <= width {
                    line += " " + word
                } else {
                    lines.append(line)
                    line = String(word)
                }
            }
            lines.append(line)
        }
        return lines
    }
}
