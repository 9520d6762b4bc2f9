/// RFC 4180 text: fields with a comma, quote or line break are quoted, quotes doubled; lines end
/// with LF.
enum CSVText {
    static func document(header: [String], rows: [[String]]) -> String {
        var text = line(header)
        for row in rows { text += line(row) }
        return text
    }

    static func line(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\n"
    }

    static func field(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
