/// RFC 4180 text: fields with a comma, quote or line break are quoted, quotes doubled; lines end
/// with LF.
///
/// A cell a spreadsheet would read as a formula (one that begins with `=`, `+`, `-`, `@`, a tab
/// or a carriage return, as a SKU name from a user's price table might) is neutralised with a
/// leading `'`, as OWASP advises against CSV injection. Numbers are left as they are: `-200`
/// (a credit) is a number to a spreadsheet, not a formula.
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
        let value = neutralised(value)
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `value`, with a `'` in front when a spreadsheet would run it as a formula.
    static func neutralised(_ value: String) -> String {
        guard let first = value.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return value }
        if isPlainNumber(value) { return value }
        return "'" + value
    }

    /// An optional sign, digits with at most one decimal point, and an optional exponent.
    private static func isPlainNumber(_ value: String) -> Bool {
        var bytes = Substring(value).utf8[...]
        if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        let mantissa = bytes.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
        let digits = mantissa.filter { $0 != UInt8(ascii: ".") }
        guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }), mantissa.count - digits.count <= 1 else { return false }
        var exponent = bytes.dropFirst(mantissa.count)
        guard !exponent.isEmpty else { return true }
        exponent = exponent.dropFirst()
        if exponent.first == UInt8(ascii: "-") || exponent.first == UInt8(ascii: "+") { exponent = exponent.dropFirst() }
        return !exponent.isEmpty && exponent.allSatisfy { (0x30...0x39).contains($0) }
    }
}
