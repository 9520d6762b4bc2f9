import Foundation

/// Parsers for option values several commands share; each throws a usage error naming the option.
struct OptionValues {
    let usage: String

    func error(_ message: String) -> CLIError {
        .usage(message: message, usage: usage)
    }

    /// `--delays 1,2,3`: non-negative whole numbers of characters.
    func delays(_ value: String?, option: String = "--delays") throws -> [Int]? {
        guard let value else { return nil }
        let parts = value.split(separator: ",", omittingEmptySubsequences: false)
        let delays = parts.compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard delays.count == parts.count, delays.allSatisfy({ (0...1000).contains($0) }) else {
            throw error("\(option) takes comma-separated whole numbers of characters (1,2,3), not `\(value)`.")
        }
        return delays
    }

    func wholeNumber(_ value: String?, option: String, range: ClosedRange<Int>) throws -> Int? {
        guard let value else { return nil }
        guard let number = Int(value), range.contains(number) else {
            throw error("\(option) takes a whole number from \(range.lowerBound) to \(range.upperBound), not `\(value)`.")
        }
        return number
    }

    /// A number within `range`; `meaning` (such as "seconds") is named in the error.
    ///
    /// Every numeric option is read through here or `wholeNumber`, each with the range the tool
    /// can represent and compute with: values outside it (1e20, 1e400, nan, inf) are usage
    /// errors naming the option and the range, never a trap or a non-finite result further on.
    func number(_ value: String?, option: String, range: ClosedRange<Double>, meaning: String = "a number") throws -> Double? {
        guard let value else { return nil }
        // Decimal only: `Double` would also take hexadecimal (`0x10` is 16) and `nan`.
        let text = value.trimmingCharacters(in: .whitespaces)
        let decimal = !text.isEmpty && text.unicodeScalars.allSatisfy { "0123456789.eE+-".unicodeScalars.contains($0) }
        guard decimal, let number = Double(text), number.isFinite, range.contains(number) else {
            throw error("\(option) takes \(meaning) from \(JSONValue.format(range.lowerBound)) to \(JSONValue.format(range.upperBound)), not `\(value)`.")
        }
        return number
    }

    /// A length of time in seconds (`--session-timeout`, `--user-gap`, `--reorder-window`):
    /// a microsecond up to the span of the years 1 to 9999 (`Duration64.secondsRange`).
    func seconds(_ value: String?, option: String) throws -> Double? {
        try number(value, option: option, range: Duration64.secondsRange, meaning: "a number of seconds")
    }

    /// `--timezone`: an IANA name (`Europe/Paris`) or `UTC`.
    func timeZone(_ value: String?) throws -> TimeZone? {
        guard let value else { return nil }
        guard let zone = TimeZone(identifier: value) else {
            throw error("--timezone takes a time zone name such as UTC or Europe/Paris, not `\(value)`.")
        }
        return zone
    }

    func yesNoAuto(_ value: String?, option: String) throws -> Bool? {
        switch value {
        case nil, "auto": nil
        case "yes": true
        case "no": false
        case let other?: throw error("\(option) takes auto, yes or no, not `\(other)`.")
        }
    }
}
