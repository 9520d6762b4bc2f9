/// Parses the two timestamp forms of `formats.md`: RFC 3339 and Unix epoch milliseconds.
///
/// Written by hand on bytes rather than with `ISO8601DateFormatter`, which is slow, needs a
/// formatter per option set, and rejects valid RFC 3339 variants (lowercase `t`, a space
/// separator, more than three fractional digits).
public enum TimestampParser {
    /// Epoch milliseconds accepted: 1970-01-01 up to the end of year 9999.
    public static let epochMillisecondsRange: ClosedRange<Int64> = 0...253_402_300_799_999

    /// Parses an RFC 3339 date-time (`2026-10-01T09:00:03.730Z`, any offset) or a string of digits
    /// holding epoch milliseconds.
    ///
    /// - Returns: the timestamp, or a reason it is not one.
    public static func parse(_ text: String) -> Result<Timestamp, TimestampError> {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    /// Parses a JSON number as epoch milliseconds.
    public static func parseEpochMilliseconds(literal: String) -> Result<Timestamp, TimestampError> {
        if let integer = Int64(literal) {
            return epochMilliseconds(integer)
        }
        guard let value = Double(literal), value.isFinite else {
            return .failure(.invalid("`\(literal)` is not a number of epoch milliseconds"))
        }
        guard value >= Double(epochMillisecondsRange.lowerBound), value <= Double(epochMillisecondsRange.upperBound) else {
            return .failure(.outOfRange(literal))
        }
        return .success(Timestamp(microseconds: Int64((value * 1_000).rounded())))
    }

    static func epochMilliseconds(_ value: Int64) -> Result<Timestamp, TimestampError> {
        guard epochMillisecondsRange.contains(value) else { return .failure(.outOfRange(String(value))) }
        return .success(Timestamp(epochMilliseconds: value))
    }

    public static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Result<Timestamp, TimestampError> {
        let text = { String(decoding: bytes, as: UTF8.self) }
        guard !bytes.isEmpty else { return .failure(.invalid("the timestamp is empty")) }
        if bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            guard bytes.count <= 18, let value = Int64(text()) else { return .failure(.outOfRange(text())) }
            return epochMilliseconds(value)
        }
        var cursor = 0
        func digits(_ count: Int) -> Int? {
            guard cursor + count <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<count {
                let byte = bytes[cursor + offset]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            cursor += count
            return value
        }
        func expect(_ allowed: UInt8...) -> Bool {
            guard cursor < bytes.count, allowed.contains(bytes[cursor]) else { return false }
            cursor += 1
            return true
        }
        let notRFC3339 = TimestampError.invalid("`\(text())` is neither RFC 3339 (2026-10-01T09:00:03.730Z) nor epoch milliseconds")
        guard let year = digits(4), expect(UInt8(ascii: "-")), let month = digits(2), expect(UInt8(ascii: "-")),
              let day = digits(2), expect(UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")),
              let hour = digits(2), expect(UInt8(ascii: ":")), let minute = digits(2), expect(UInt8(ascii: ":")),
              let second = digits(2)
        else { return .failure(notRFC3339) }
        var microseconds = 0
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: ".") {
            cursor += 1
            var scale = 100_000
            let fractionStart = cursor
            while cursor < bytes.count, bytes[cursor] >= UInt8(ascii: "0"), bytes[cursor] <= UInt8(ascii: "9") {
                microseconds += Int(bytes[cursor] - UInt8(ascii: "0")) * scale
                scale /= 10
                cursor += 1
            }
            guard cursor > fractionStart else { return .failure(notRFC3339) }
        }
        var offsetSeconds = 0
        if expect(UInt8(ascii: "Z"), UInt8(ascii: "z")) {
            offsetSeconds = 0
        } else if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "+") || bytes[cursor] == UInt8(ascii: "-") {
            let sign = bytes[cursor] == UInt8(ascii: "-") ? -1 : 1
            cursor += 1
            guard let offsetHours = digits(2), expect(UInt8(ascii: ":")), let offsetMinutes = digits(2) else {
                return .failure(notRFC3339)
            }
            guard offsetHours <= 23, offsetMinutes <= 59 else { return .failure(.outOfRange(text())) }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return .failure(.invalid("`\(text())` has no UTC offset (end it with Z or ±hh:mm)"))
        }
        guard cursor == bytes.count else { return .failure(notRFC3339) }
        guard year >= 1, (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: year, month: month),
              hour <= 23, minute <= 59, second <= 60
        else { return .failure(.outOfRange(text())) }
        let (clockSecond, clockMicroseconds) = Timestamp.clock(second: second, microseconds: microseconds)
        let days = CivilDate.daysSinceEpoch(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + clockSecond - offsetSeconds)
        return .success(Timestamp(microseconds: seconds * 1_000_000 + Int64(clockMicroseconds)))
    }
}

/// Why a timestamp was rejected.
public enum TimestampError: Error, Equatable, CustomStringConvertible {
    case invalid(String)
    case outOfRange(String)

    public var description: String {
        switch self {
        case .invalid(let message): message
        case .outOfRange(let text): "timestamp `\(text)` is out of range"
        }
    }
}
