import Foundation

/// Number formats for people (reports for machines use `JSONValue`).
///
/// Every function here is total: any `Double` (huge, tiny, NaN, infinite) gives text, never a
/// trap. Whole numbers are printed with `%.0f`, not through `Int64`, which traps past 2^63.
enum Money {
    /// An amount in whole micro-dollars, as reports round it, so sums taken in different orders
    /// compare equal (a `Double`: a bill past 9.2 trillion dollars is still a number). Every
    /// comparison of money the advice and the anomaly rows make goes through it.
    static func micros(_ usd: Double) -> Double {
        (usd * 1_000_000).rounded()
    }

    /// `$1,234.56`; small amounts keep `digits` decimals so per-search figures stay visible.
    /// - Parameter fixed: keep every decimal (`$0.0090` beside `$0.0086` in a column; nothing
    ///   is `$0.00`); else a value with more than two drops its trailing zeros (`$0.017`).
    static func usd(_ value: Double, digits: Int = 2, fixed: Bool = false) -> String {
        guard value.isFinite else { return nonFinite(value) }
        let rounded = round(value, digits: digits)
        if fixed, rounded == 0 { return "$0.00" }
        if rounded < 0 { return "-" + usd(-value, digits: digits, fixed: fixed) }
        // A value that rounds to zero from below is -0.0, which `%f` prints as `-0.00`.
        var text = String(format: "%.\(digits)f", rounded == 0 ? 0 : rounded)
        if digits > 2, !fixed {
            while text.hasSuffix("0"), !text.hasSuffix(".00") { text.removeLast() }
        }
        return "$" + groupThousands(text)
    }

    /// Up to `digits` decimals (default two), no trailing zeros.
    static func plain(_ value: Double, digits: Int = 2) -> String {
        guard value.isFinite else { return nonFinite(value) }
        let rounded = round(value, digits: digits)
        if rounded == rounded.rounded() { return groupThousands(String(format: "%.0f", rounded == 0 ? 0 : rounded)) }
        var text = String(format: "%.\(digits)f", rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return groupThousands(text)
    }

    /// A number as an option's value on the command line: as `plain`, without thousands separators,
    /// so that a report's suggested `--scale 5100` runs as shown (the option reads no `5,100`),
    /// and with the decimals a factor below 1 needs to keep two significant digits
    /// (`0.000021`, never `0`).
    static func argument(_ value: Double, digits: Int) -> String {
        let significant = value > 0 && value < 1 ? Int((-log10(value)).rounded(.down)) + 2 : 0
        return plain(value, digits: max(digits, significant)).replacingOccurrences(of: ",", with: "")
    }

    static func count(_ value: Int) -> String {
        groupThousands(String(value))
    }

    /// `value` with its noun, the singular for exactly one: `1 call`, `2 calls`, `1,000 searches`.
    static func count(_ value: Int, _ singular: String, _ plural: String) -> String {
        counted(count(value), singular, plural)
    }

    /// A count computed in `Double`, rounded, with its noun as `count(_:_:_:)` gives it.
    static func count(_ value: Double, _ singular: String, _ plural: String) -> String {
        counted(count(value), singular, plural)
    }

    /// A number already written (`1`, `2.5`, `1,000`) with its noun: the singular when it reads `1`.
    static func counted(_ number: String, _ singular: String, _ plural: String) -> String {
        "\(number) \(number == "1" ? singular : plural)"
    }

    /// A count computed in `Double` (a volume times `--scale`), rounded to a whole number.
    static func count(_ value: Double) -> String {
        guard value.isFinite else { return nonFinite(value) }
        let rounded = value.rounded()
        return groupThousands(String(format: "%.0f", rounded == 0 ? 0 : rounded))
    }

    private static func pow10(_ digits: Int) -> Double {
        (0..<digits).reduce(1.0) { result, _ in result * 10 }
    }

    /// `value` rounded to `digits` decimals; values too large to have such decimals as they are
    /// (scaling them could overflow to infinity).
    private static func round(_ value: Double, digits: Int) -> Double {
        let factor = pow10(digits)
        guard abs(value) < 1e15 else { return value }
        return (value * factor).rounded() / factor
    }

    /// NaN and the infinities, which the stages keep out of reports, in words should one slip by.
    private static func nonFinite(_ value: Double) -> String {
        value.isNaN ? "not a number" : (value < 0 ? "minus infinity" : "infinity")
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
