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
            "the timestamp (\(shape)) is neither RFC 3339 (2026-10-01T09:00:03.730Z) nor epoch milliseconds (or seconds)"
        case .notEpochMilliseconds(let shape):
            "the timestamp (\(shape)) is not a finite number of epoch milliseconds (or seconds)"
        case .noOffset:
            "the timestamp has no UTC offset (end it with Z or ±hh:mm)"
        case .fieldOutOfRange(let field):
            "the timestamp's \(field.rawValue) is out of range (\(field.allowed))"
        case .epochOutOfRange(let shape):
            "the timestamp (\(shape)) is out of range: epoch seconds below \(TimestampParser.epochSecondsLimit), or milliseconds up to \(TimestampParser.epochMillisecondsRange.upperBound) (9999-12-31)"
                + TimestampError.finerUnit(shape)
        }
    }
}

extension TimestampError {
    /// For a whole number of 16 to 19 digits, the unit it most likely is: epoch microseconds or
    /// nanoseconds of today (2026 is 1.79 * 10^15 microseconds), with what to log instead.
    static func finerUnit(_ shape: ValueShape) -> String {
        guard shape.hasDigits, !shape.hasLetters, !shape.hasSpaces, !shape.hasPunctuation, !shape.hasOtherCharacters else { return "" }
        switch shape.length {
        case 16: return ", and 16 digits look like epoch microseconds: log milliseconds (divided by 1,000) or RFC 3339"
        case 19: return ", and 19 digits look like epoch nanoseconds: log milliseconds (divided by 1,000,000) or RFC 3339"
        default: return ""
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
