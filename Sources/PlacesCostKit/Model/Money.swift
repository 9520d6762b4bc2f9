import Foundation

/// Number formats for people (reports for machines use `JSONValue`).
enum Money {
    /// `$1,234.56`; small amounts keep `digits` decimals so per-search figures stay visible.
    static func usd(_ value: Double, digits: Int = 2) -> String {
        let factor = pow10(digits)
        let rounded = (value * factor).rounded() / factor
        if rounded < 0 { return "-" + usd(-value, digits: digits) }
        var text = String(format: "%.\(digits)f", rounded)
        if digits > 2 {
            while text.hasSuffix("0"), !text.hasSuffix(".00") { text.removeLast() }
        }
        return "$" + groupThousands(text)
    }

    /// Up to `digits` decimals (default two), no trailing zeros.
    static func plain(_ value: Double, digits: Int = 2) -> String {
        let factor = pow10(digits)
        let rounded = (value * factor).rounded() / factor
        if rounded == rounded.rounded() { return groupThousands(String(Int64(rounded))) }
        var text = String(format: "%.\(digits)f", rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return groupThousands(text)
    }

    static func count(_ value: Int) -> String {
        groupThousands(String(value))
    }

    private static func pow10(_ digits: Int) -> Double {
        (0..<digits).reduce(1.0) { result, _ in result * 10 }
    }

    private static func groupThousands(_ text: String) -> String {
        let negative = text.hasPrefix("-")
        let unsigned = negative ? String(text.dropFirst()) : text
        let parts = unsigned.split(separator: ".", maxSplits: 1)
        var integer = String(parts[0])
        var grouped = ""
        while integer.count > 3 {
            grouped = "," + integer.suffix(3) + grouped
            integer = String(integer.dropLast(3))
        }
        grouped = integer + grouped
        return (negative ? "-" : "") + grouped + (parts.count > 1 ? "." + parts[1] : "")
    }
}
