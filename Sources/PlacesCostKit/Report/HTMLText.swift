/// Text written into `report.html` so that it reads as written and never as markup.
///
/// `escaped` turns the five markup characters into entities, so no input can open a tag, end
/// an attribute or start an entity; control and format characters (line breaks in a name,
/// bidirectional overrides) become U+FFFD, as in `MarkdownText`. `name` also cuts input-derived
/// names to `MarkdownText.maxLength` characters. `inline` is for the engine's own sentences,
/// which mark code with backticks and emphasis with `**`: it escapes first, then turns only
/// balanced markers into `<code>` and `<strong>`, so it can add no other tag whatever the text.
enum HTMLText {
    /// `text` for HTML character data and quoted attribute values.
    static func escaped(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;".unicodeScalars
            case "<": output += "&lt;".unicodeScalars
            case ">": output += "&gt;".unicodeScalars
            case "\"": output += "&quot;".unicodeScalars
            case "'": output += "&#39;".unicodeScalars
            case "\n", "\t": output.append(" ")
            default:
                switch scalar.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
                    output.append("\u{FFFD}")
                default:
                    output.append(scalar)
                }
            }
        }
        return String(output)
    }

    /// A name from the input (file, API, SKU, price table) as code, cut to
    /// `MarkdownText.maxLength` characters.
    static func name(_ text: String) -> String {
        let cut = text.count > MarkdownText.maxLength ? String(text.prefix(MarkdownText.maxLength)) + "…" : text
        return "<code>" + escaped(cut) + "</code>"
    }

    /// One of the engine's sentences, with its `` `code` `` and `**emphasis**` as elements.
    ///
    /// Code spans are atomic and emphasis may hold them, so the elements always nest; an
    /// unpaired backtick or `**` stays text.
    static func inline(_ text: String) -> String {
        var pieces = escaped(text).components(separatedBy: "`")
        if pieces.count % 2 == 0 { pieces = [pieces.joined(separator: "`")] }
        let markers = pieces.enumerated().filter { $0.offset % 2 == 0 }.map { $0.element.components(separatedBy: "**").count - 1 }.reduce(0, +)
        var output = ""
        var strong = false
        for (index, piece) in pieces.enumerated() {
            if index % 2 == 1 {
                output += "<code>" + piece + "</code>"
            } else if markers % 2 == 1 {
                output += piece
            } else {
                for (part, text) in piece.components(separatedBy: "**").enumerated() {
                    if part > 0 {
                        output += strong ? "</strong>" : "<strong>"
                        strong.toggle()
                    }
                    output += text
                }
            }
        }
        return output
    }
}
