/// A JSON document with ordered keys, written deterministically.
///
/// Reports are compared byte for byte (golden files, `--out` against stdout, two runs against each
/// other), so key order is the order of construction and numbers have one spelling: money, ratios
/// and means rounded to 1e-6 and printed in the shortest form that reads back exactly.
indirect enum JSONValue: Equatable, Sendable {
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
        var output = ""
        write(to: &output, indent: 0)
        output += "\n"
        return output
    }

    private func write(to output: inout String, indent: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .finite(let number): output += JSONValue.format(number.value)
        case .string(let value): JSONValue.writeString(value, to: &output)
        case .array(let elements):
            guard !elements.isEmpty else { output += "[]"; return }
            output += "[\n"
            for (position, element) in elements.enumerated() {
                output += String(repeating: "  ", count: indent + 1)
                element.write(to: &output, indent: indent + 1)
                output += position == elements.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: "  ", count: indent) + "]"
        case .row(let elements):
            output += "["
            for (position, element) in elements.enumerated() {
                if position > 0 { output += ", " }
                element.write(to: &output, indent: indent)
            }
            output += "]"
        case .object(let members):
            guard !members.isEmpty else { output += "{}"; return }
            output += "{\n"
            for (position, (key, value)) in members.enumerated() {
                output += String(repeating: "  ", count: indent + 1)
                JSONValue.writeString(key, to: &output)
                output += ": "
                value.write(to: &output, indent: indent + 1)
                output += position == members.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: "  ", count: indent) + "}"
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
        guard text.contains("e"), abs(rounded) < 1 else { return text }
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

    private static func writeString(_ value: String, to output: inout String) {
        output += "\""
        for scalar in value.unicodeScalars {
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
