/// The protobuf fields the Maps JavaScript API writes into a URL's query, read by path.
///
/// The legacy Places library sends its requests as JSONP `GET`s whose query holds a protobuf
/// message flattened into components `<field number><type letter><value>`, joined by `&`:
/// `1sPiz&4sen-US&15e3&20s3BFA...x86&21m1&2e1` is field 1 the string `Piz`, field 4 `en-US`,
/// field 15 the enum 3, field 20 a string, and field 21 a message holding the next one component
/// (its field 2, the enum 1). A message `m<n>` holds the next `n` components, counted through
/// every level of nesting, so `14m1&1sChIJ...` is field 1 inside field 14: path `[14, 1]`.
/// Components of another shape (`callback=`, `key=`, `token=`, `r_url=`) are plain parameters,
/// not fields, and are never read here (`key=` is a secret).
///
/// Values arrive percent-decoded by `RequestTarget`.
struct ProtobufURLFields {
    /// Each field's path (outermost number first) and its value, in query order; a message's own
    /// entry has no value.
    private(set) var fields: [(path: [Int], value: Substring?)] = []

    init(_ query: [(name: String, value: String)]) {
        // Components still to come in each open message, innermost last.
        var open: [(field: Int, remaining: Int)] = []
        for (name, value) in query where value.isEmpty {
            guard let (number, type, rest) = ProtobufURLFields.component(name) else { continue }
            while let last = open.last, last.remaining <= 0 { open.removeLast() }
            let path = open.map(\.field) + [number]
            // The component is inside every open message: each counts it.
            for index in open.indices { open[index].remaining -= 1 }
            if type == UInt8(ascii: "m") {
                fields.append((path, nil))
                if let count = Int(rest), count > 0 { open.append((number, count)) }
            } else {
                fields.append((path, rest))
            }
        }
    }

    /// The first value at `path`, e.g. `[14, 1]` for the place id of a details request.
    func value(_ path: Int...) -> Substring? {
        fields.first { $0.path == path && $0.value != nil }?.value ?? nil
    }

    /// Whether a field (or message) at `path` is present.
    func has(_ path: Int...) -> Bool {
        fields.contains { $0.path == path }
    }

    /// `<digits><letter><rest>` with no `=`: a field's number, type letter and value.
    private static func component(_ text: String) -> (Int, UInt8, Substring)? {
        let utf8 = text.utf8
        var index = utf8.startIndex
        var number = 0
        var digits = 0
        while index != utf8.endIndex, let digit = Int(exactly: utf8[index] &- UInt8(ascii: "0")), digit < 10, digits < 9 {
            number = number * 10 + digit
            digits += 1
            index = utf8.index(after: index)
        }
        guard digits > 0, index != utf8.endIndex else { return nil }
        let type = utf8[index]
        guard type | 0x20 >= UInt8(ascii: "a"), type | 0x20 <= UInt8(ascii: "z") else { return nil }
        return (number, type, Substring(text[utf8.index(after: index)...]))
    }
}
