/// Text that comes from the input (API names, file paths, SKU names of a billing export, a price
/// table's id) written into Markdown so that it reads as written and never as Markdown or HTML.
///
/// A name is shown as inline code, where every character is literal, unless it holds one a code
/// span cannot hold (a backtick, a table's `|`) or one that reads as HTML to someone looking
/// at the raw file (`< > &`, `\`). Then it is plain text with `< > &` as entities and every
/// other ASCII punctuation character backslash-escaped, which CommonMark and GitHub's tables
/// allow for any of them, so `#`, `|`, `<img>`, `*` and `[` stay literal. Control and format
/// characters (line breaks, bidirectional overrides) become U+FFFD, and a name is cut to
/// `maxLength` characters: one name can neither break the page's structure nor fill it.
enum MarkdownText {
    static let maxLength = 120

    /// `text` as a name in running text or a table cell.
    static func name(_ text: String) -> String {
        let cut = shortened(text)
        if !cut.isEmpty, cut.first != " ", cut.last != " ", cut.unicodeScalars.allSatisfy(isPlain) {
            return "`" + cut + "`"
        }
        return escaped(text)
    }

    /// `text` as plain text, every ASCII punctuation character escaped.
    static func escaped(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        for scalar in shortened(text).unicodeScalars {
            switch scalar {
            case "<": output += "&lt;".unicodeScalars
            case ">": output += "&gt;".unicodeScalars
            case "&": output += "&amp;".unicodeScalars
            default:
                if isASCIIPunctuation(scalar) { output.append("\\") }
                output.append(scalar)
            }
        }
        return String(output)
    }

    /// At most `maxLength` characters, control and format characters replaced.
    private static func shortened(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        var count = 0
        for scalar in text.unicodeScalars {
            if count == maxLength {
                output.append("…")
                break
            }
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
                output.append("\u{FFFD}")
            default:
                output.append(scalar)
            }
            count += 1
        }
        return String(output)
    }

    /// One of the 32 ASCII punctuation characters CommonMark lets a backslash escape.
    private static func isASCIIPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E: true
        default: false
        }
    }

    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "`", "|", "<", ">", "&", "\\", "\u{FFFD}": false
        default: true
        }
    }
}
