/// Parses the two timestamp forms of `docs/formats.md`: RFC 3339 and Unix epoch milliseconds.
///
/// Written by hand on bytes rather than with `ISO8601DateFormatter`, which is slow, needs a
/// formatter per option set, and rejects valid RFC 3339 variants (lowercase `t`, a space
/// separator, more than three fractional digits).
enum TimestampParser {
    /// Epoch milliseconds accepted: 1970-01-01 up to the end of year 9999.
    static let epochMillisecondsRange: ClosedRange<Int64> = 0...253_402_300_799_999

    /// Parses an RFC 3339 date-time (`2026-10-01T09:00:03.730Z`, any offset) or a string of digits
    /// holding epoch milliseconds.
    ///
    /// - Returns: the timestamp, or a reason it is not one.
    static func parse(_ text: String) -> Result<Timestamp, TimestampError> {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    /// Parses a JSON number as epoch milliseconds.
    static func parseEpochMilliseconds(literal: String) -> Result<Timestamp, TimestampError> {
        if let integer = Int64(literal) {
            return epochMilliseconds(integer)
        }
        guard let value = Double(literal), value.isFinite else {
            return .failure(.notEpochMilliseconds(ValueShape(literal)))
        }
        guard value >= Double(epochMillisecondsRange.lowerBound), value <= Double(epochMillisecondsRange.upperBound) else {
            return .failure(.epochOutOfRange(ValueShape(literal)))
        }
        return .success(Timestamp(microseconds: Int64((value * 1_000).rounded())))
    }

    static func epochMilliseconds(_ value: Int64) -> Result<Timestamp, TimestampError> {
        guard epochMillisecondsRange.contains(value) else { return .failure(.epochOutOfRange(ValueShape(String(value)))) }
        return .success(Timestamp(epochMilliseconds: value))
    }

    static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Result<Timestamp, TimestampError> {
        guard !bytes.isEmpty else { return .failure(.empty) }
        if bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            guard bytes.count <= 18, let value = Int64(String(decoding: bytes, as: UTF8.self)) else {
                return .failure(.epochOutOfRange(ValueShape(bytes: bytes)))
            }
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
        let notRFC3339 = TimestampError.notATimestamp(ValueShape(bytes: bytes))
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
            guard offsetHours <= 23, offsetMinutes <= 59 else { return .failure(.fieldOutOfRange(.offset)) }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return .failure(.noOffset)
        }
        guard cursor == bytes.count else { return .failure(notRFC3339) }
        guard year >= 1 else { return .failure(.fieldOutOfRange(.year)) }
        guard (1...12).contains(month) else { return .failure(.fieldOutOfRange(.month)) }
        guard day >= 1, day <= CivilDate.daysInMonth(year: year, month: month) else { return .failure(.fieldOutOfRange(.day)) }
        guard hour <= 23 else { return .failure(.fieldOutOfRange(.hour)) }
        guard minute <= 59 else { return .failure(.fieldOutOfRange(.minute)) }
        // 60 is a leap second (`Timestamp.clock`).
        guard second <= 60 else { return .failure(.fieldOutOfRange(.second)) }
        let (clockSecond, clockMicroseconds) = Timestamp.clock(second: second, microseconds: microseconds)
        let days = CivilDate.daysSinceEpoch(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + clockSecond - offsetSeconds)
        return .success(Timestamp(microseconds: seconds * 1_000_000 + Int64(clockMicroseconds)))
    }
}

/// Why a timestamp was rejected: the field and its shape, never its text (`ValueShape`).
enum TimestampError: Error, Equatable, CustomStringConvertible {
    /// The parts of an RFC 3339 time, as a range error names them.
    enum Field: String, Sendable {
        case year, month, day, hour, minute, second, offset
    }

    case empty
    /// Neither RFC 3339 nor a string of digits.
    case notATimestamp(ValueShape)
    /// A JSON number that is not a finite number.
    case notEpochMilliseconds(ValueShape)
    /// RFC 3339 but without `Z` or `±hh:mm`.
    case noOffset
    /// RFC 3339 with one part outside its range.
    case fieldOutOfRange(Field)
    /// Epoch milliseconds before 1970 or after 9999.
    case epochOutOfRange(ValueShape)

    var description: String {
        switch self {
        case .empty:
            "the timestamp is empty"
        case .notATimestamp(let shape):
            "the timestamp (\(shape)) is neither RFC 3339 (2026-10-01T09:00:03.730Z) nor epoch milliseconds"
        case .notEpochMilliseconds(let shape):
            "the timestamp (\(shape)) is not a finite number of epoch milliseconds"
        case .noOffset:
            "the timestamp has no UTC offset (end it with Z or ±hh:mm)"
        case .fieldOutOfRange(let field):
            "the timestamp's \(field.rawValue) is out of range (\(field.allowed))"
        case .epochOutOfRange(let shape):
            "the timestamp (\(shape)) is out of range: epoch milliseconds from 0 (1970-01-01) to \(TimestampParser.epochMillisecondsRange.upperBound) (9999-12-31)"
        }
    }
}

extension TimestampError.Field {
    /// The values the part may take, for the message.
    var allowed: String {
        switch self {
        case .year: "0001 to 9999"
        case .month: "01 to 12"
        case .day: "01 to the month's last day"
        case .hour: "00 to 23"
        case .minute: "00 to 59"
        case .second: "00 to 60, 60 being a leap second"
        case .offset: "up to ±23:59"
        }
    }
}
