/// Any JSON value, kept whole: what a web server's JSON access record holds, to be read by its
/// server's keys (`JSONAccessRecord`). Parsed by `JSONLineParser`'s strict scanner
/// (`JSONLineParser.parseTree`), numbers kept as their literal text.
package enum AnyJSON: Equatable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([AnyJSON])
    /// Members by key; of a key given twice, the last.
    case object([String: AnyJSON])

    /// The member `key` of an object; `nil` for a missing key or a value that is no object.
    subscript(key: String) -> AnyJSON? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// A value as a logged text: a string, unless it is empty or `-` (nginx's "not sent"), or a
    /// number's literal; `nil` for anything else.
    var text: String? {
        switch self {
        case .string(let string): string.isEmpty || string == "-" ? nil : string
        case .number(let literal): literal
        default: nil
        }
    }
}
