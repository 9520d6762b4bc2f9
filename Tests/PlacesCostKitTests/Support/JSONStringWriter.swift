@testable import PlacesCostKit

/// The slow twin of `JSONValue.rendered()`: the document built as a `String`, a scalar at a time,
/// as reports were written before the writer moved to bytes. Every report must stay
/// byte-identical to it.
enum JSONStringWriter {
    static func rendered(_ value: JSONValue) -> String {
        var output = ""
        write(value, to: &output, indent: 0)
        return output + "\n"
    }

    private static func write(_ value: JSONValue, to output: inout String, indent: Int) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .int(let number): output += String(number)
        case .finite(let number): output += JSONValue.format(number.value)
        case .string(let text): writeString(text, to: &output)
        case .array(let elements):
            guard !elements.isEmpty else { output += "[]"; return }
            output += "[\n"
            for (position, element) in elements.enumerated() {
                output += String(repeating: "  ", count: indent + 1)
                write(element, to: &output, indent: indent + 1)
                output += position == elements.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: "  ", count: indent) + "]"
        case .row(let elements):
            output += "[" + elements.map { element in
                var text = ""
                write(element, to: &text, indent: indent)
                return text
            }.joined(separator: ", ") + "]"
        case .object(let members):
            guard !members.isEmpty else { output += "{}"; return }
            output += "{\n"
            for (position, (key, member)) in members.enumerated() {
                output += String(repeating: "  ", count: indent + 1)
                writeString(key, to: &output)
                output += ": "
                write(member, to: &output, indent: indent + 1)
                output += position == members.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: "  ", count: indent) + "}"
        }
    }

    /// `text` as a JSON string literal, escaped as the reports escape it.
    static func quoted(_ text: String) -> String {
        var output = ""
        writeString(text, to: &output)
        return output
    }

    private static func writeString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
