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

    func number(_ value: String?, option: String, range: ClosedRange<Double>) throws -> Double? {
        guard let value else { return nil }
        guard let number = Double(value), number.isFinite, range.contains(number) else {
            throw error("\(option) takes a number from \(JSONValue.format(range.lowerBound)) to \(JSONValue.format(range.upperBound)), not `\(value)`.")
        }
        return number
    }

    func positive(_ value: String?, option: String) throws -> Double? {
        guard let value else { return nil }
        guard let number = Double(value), number.isFinite, number > 0 else {
            throw error("\(option) takes a positive number, not `\(value)`.")
        }
        return number
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
