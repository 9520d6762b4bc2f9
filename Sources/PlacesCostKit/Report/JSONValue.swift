/// A JSON document with ordered keys, written deterministically.
///
/// Reports are compared byte for byte (golden files, `--out` against stdout, two runs against each
/// other), so key order is the order of construction and numbers have one spelling: money, ratios
/// and means rounded to 1e-6 and printed in the shortest form that reads back exactly.
enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    /// A non-integer number; written rounded to 1e-6. Built by `number(_:)`.
    case finite(JSONNumber)
    case string(String)
    case array([JSONValue])
    /// An array written on one line (`[0, "session", 3]`): a row of a long table of small rows
    /// (`traffic` in `report.json`), where one element a line would multiply the document's size.
    case row([JSONValue])
    case object([(String, JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.rendered() == rhs.rendered()
    }

    /// A number: finite values as they are; NaN and the infinities, which no stage should let
    /// through, as `null`, so that the document stays JSON whatever happens upstream.
    static func number(_ value: Double) -> JSONValue {
        JSONNumber(value).map(JSONValue.finite) ?? .null
    }

    /// Rounds to the 1e-6 grid reports use for money, ratios and means.
    ///
    /// From 1e15 on a `Double` has no digit below 1e-6 left to round, and scaling it by a
    /// million could overflow to infinity: such values are returned as they are.
    static func rounded(_ value: Double) -> Double {
        guard value.isFinite, abs(value) < 1e15 else { return value }
        let scaled = (value * 1_000_000).rounded()
        return scaled == 0 ? 0 : scaled / 1_000_000
    }

    /// The document as pretty-printed JSON (two-space indent, newline at the end).
    func rendered() -> String {
        var output: [UInt8] = []
        output.reserveCapacity(1 << 12)
        write(to: &output, indent: 0)
        output.append(UInt8(ascii: "\n"))
        return String(decoding: output, as: UTF8.self)
    }

    /// Writes the value's UTF-8 bytes: a report's `traffic` table runs to a megabyte, so text is
    /// appended as bytes, never built as a `String` per member.
    private func write(to output: inout [UInt8], indent: Int) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): JSONValue.writeInteger(value, to: &output)
        case .finite(let number): output.append(contentsOf: JSONValue.format(number.value).utf8)
        case .string(let value): JSONValue.writeString(value, to: &output)
        case .array(let elements):
            guard !elements.isEmpty else { output.append(contentsOf: "[]".utf8); return }
            output.append(contentsOf: "[\n".utf8)
            for (position, element) in elements.enumerated() {
                JSONValue.writeIndent(indent + 1, to: &output)
                element.write(to: &output, indent: indent + 1)
                output.append(contentsOf: (position == elements.count - 1 ? "\n" : ",\n").utf8)
            }
            JSONValue.writeIndent(indent, to: &output)
            output.append(UInt8(ascii: "]"))
        case .row(let elements):
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(contentsOf: ", ".utf8) }
                element.write(to: &output, indent: indent)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { output.append(contentsOf: "{}".utf8); return }
            output.append(contentsOf: "{\n".utf8)
            for (position, (key, value)) in members.enumerated() {
                JSONValue.writeIndent(indent + 1, to: &output)
                JSONValue.writeString(key, to: &output)
                output.append(contentsOf: ": ".utf8)
                value.write(to: &output, indent: indent + 1)
                output.append(contentsOf: (position == members.count - 1 ? "\n" : ",\n").utf8)
            }
            JSONValue.writeIndent(indent, to: &output)
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func writeIndent(_ indent: Int, to output: inout [UInt8]) {
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }

    /// `value` in decimal, as `String(value)` spells it.
    private static func writeInteger(_ value: Int, to output: inout [UInt8]) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        // 20 digits hold any `UInt64`.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// A number on the 1e-6 grid: integers without a fraction, others in their shortest form;
    /// `null` for NaN and the infinities (total: any `Double` gives valid JSON, never a trap).
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let rounded = JSONValue.rounded(value)
        // Below 1e18 a whole number is an exact `Int64`; above, Swift's `1e+18` form is JSON.
        if rounded == rounded.rounded(), abs(rounded) < 1e18 {
            return String(Int64(rounded))
        }
        let text = "\(rounded)"
        // On the bytes: `String.contains` of a string is Foundation's search, with a locale,
        // and this runs for every number of every report and every shape of `searches.csv`.
        guard text.utf8.contains(UInt8(ascii: "e")), abs(rounded) < 1 else { return text }
        // Swift prints 1e-06 style exponents for tiny values; JSON readers accept them, but a
        // fixed-point form reads better in a report.
        return fixedPoint(rounded)
    }

    /// `value` (under 1 in magnitude, so its micros fit any integer) in fixed-point notation.
    private static func fixedPoint(_ value: Double) -> String {
        let micros = Int64((value * 1_000_000).rounded())
        let sign = micros < 0 ? "-" : ""
        let magnitude = micros.magnitude
        var fraction = String(magnitude % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(sign)\(magnitude / 1_000_000)" + (fraction.isEmpty ? "" : ".\(fraction)")
    }

    /// `value` as a JSON string: quotes, backslashes and control characters escaped, every
    /// other character as its UTF-8 bytes.
    private static func writeString(_ value: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: "\\\\".utf8)
            case UInt8(ascii: "\n"): output.append(contentsOf: "\\n".utf8)
            case UInt8(ascii: "\r"): output.append(contentsOf: "\\r".utf8)
            case UInt8(ascii: "\t"): output.append(contentsOf: "\\t".utf8)
            case ..<0x20:
                output.append(contentsOf: "\\u00".utf8)
                for digit in [byte >> 4, byte & 0x0F] {
                    output.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
                }
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
