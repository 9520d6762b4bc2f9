/// Parses the timestamp forms of `docs/formats.md`: RFC 3339 and Unix epoch milliseconds, or
/// epoch seconds for a number below `epochSecondsLimit`.
///
/// Written by hand on bytes rather than with `ISO8601DateFormatter`, which is slow, needs a
/// formatter per option set, and rejects valid RFC 3339 variants (lowercase `t`, a space
/// separator, more than three fractional digits).
enum TimestampParser {
    /// Epoch milliseconds accepted: 1970-01-01 up to the end of year 9999.
    static let epochMillisecondsRange: ClosedRange<Int64> = 0...253_402_300_799_999

    /// An epoch number below this (10^11) is seconds, not milliseconds. As milliseconds it would
    /// be a time before 1973-03-03, decades before any Places call; as seconds it is any time up
    /// to the year 5138, and Unix time is what many loggers write (`1790845203`, or with a
    /// fraction, `1790845203.73`). Read as milliseconds, a week of such a log became ten minutes
    /// of January 1970, priced by the wrong table, with no warning.
    static let epochSecondsLimit: Int64 = 100_000_000_000

    /// Parses an RFC 3339 date-time (`2026-10-01T09:00:03.730Z`, any offset) or a string of digits
    /// holding epoch milliseconds.
    ///
    /// - Returns: the timestamp, or a reason it is not one.
    static func parse(_ text: String) -> Result<Timestamp, TimestampError> {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    /// Parses a JSON number as epoch milliseconds, or seconds below `epochSecondsLimit`.
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
        let scale = value < Double(epochSecondsLimit) ? 1_000_000.0 : 1_000.0
        return .success(Timestamp(microseconds: Int64((value * scale).rounded())))
    }

    /// An integral epoch number: milliseconds, or seconds below `epochSecondsLimit`.
    static func epochMilliseconds(_ value: Int64) -> Result<Timestamp, TimestampError> {
        guard epochMillisecondsRange.contains(value) else { return .failure(.epochOutOfRange(ValueShape(String(value)))) }
        return .success(value < epochSecondsLimit ? Timestamp(microseconds: value * 1_000_000) : Timestamp(epochMilliseconds: value))
    }

    /// Parses RFC 3339 or a string of epoch-millisecond digits: the common shape through
    /// `millisecondsUTC(_:dates:)`, any other through `parseGeneral(bytes:)`.
    static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Result<Timestamp, TimestampError> {
        if bytes.count == 24, let base = bytes.baseAddress, let time = millisecondsUTC(base) { return .success(time) }
        return parseGeneral(bytes: bytes)
    }

    /// Every accepted shape, field by field. Allocation-free: a failure's `ValueShape` is measured
    /// only once there is a failure, so the fast decoders may call it on any line.
    static func parseGeneral(bytes: UnsafeBufferPointer<UInt8>) -> Result<Timestamp, TimestampError> {
        guard !bytes.isEmpty else { return .failure(.empty) }
        if bytes.allSatisfy(\.isDigit) {
            guard bytes.count <= 18 else { return .failure(.epochOutOfRange(ValueShape(bytes: bytes))) }
            var value: Int64 = 0
            for digit in bytes { value = value * 10 + Int64(digit &- UInt8(ascii: "0")) }
            return epochMilliseconds(value)
        }
        var cursor = 0
        func digits(_ count: Int) -> Int? {
            guard cursor + count <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<count {
                let byte = bytes[cursor + offset]
                guard byte.isDigit else { return nil }
                value = value * 10 + Int(byte &- UInt8(ascii: "0"))
            }
            cursor += count
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard cursor < bytes.count, bytes[cursor] == byte else { return false }
            cursor += 1
            return true
        }
        func expectSeparator() -> Bool {
            expect(UInt8(ascii: "T")) || expect(UInt8(ascii: "t")) || expect(UInt8(ascii: " "))
        }
        func notRFC3339() -> Result<Timestamp, TimestampError> {
            .failure(.notATimestamp(ValueShape(bytes: bytes)))
        }
        guard let year = digits(4), expect(UInt8(ascii: "-")), let month = digits(2), expect(UInt8(ascii: "-")),
              let day = digits(2), expectSeparator(),
              let hour = digits(2), expect(.colon), let minute = digits(2), expect(.colon),
              let second = digits(2)
        else { return notRFC3339() }
        var microseconds = 0
        if expect(UInt8(ascii: ".")) {
            var scale = 100_000
            let fractionStart = cursor
            while cursor < bytes.count, bytes[cursor].isDigit {
                microseconds += Int(bytes[cursor] &- UInt8(ascii: "0")) * scale
                scale /= 10
                cursor += 1
            }
            guard cursor > fractionStart else { return notRFC3339() }
        }
        var offsetSeconds = 0
        if expect(UInt8(ascii: "Z")) || expect(UInt8(ascii: "z")) {
            offsetSeconds = 0
        } else if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "+") || bytes[cursor] == UInt8(ascii: "-") {
            let sign = bytes[cursor] == UInt8(ascii: "-") ? -1 : 1
            cursor += 1
            guard let offsetHours = digits(2), expect(.colon), let offsetMinutes = digits(2) else {
                return notRFC3339()
            }
            guard offsetHours <= 23, offsetMinutes <= 59 else { return .failure(.fieldOutOfRange(.offset)) }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return .failure(.noOffset)
        }
        guard cursor == bytes.count else { return notRFC3339() }
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

    /// The shape loggers write, the 24 bytes `YYYY-MM-DDTHH:MM:SS.mmmZ` at `start`, in three word
    /// loads and straight-line arithmetic; `nil` for anything else (other separators, a leap
    /// second, fields out of range), which `parse(bytes:)` then decides. Every one of the 24
    /// bytes is checked against its template, so none is a quote, backslash or control byte.
    ///
    /// - Parameter dates: when given, the date is looked up there first (the lines of a log
    ///   mostly share their date with the line before) and a new valid date is noted.
    @inline(__always)
    static func millisecondsUTC(_ start: UnsafePointer<UInt8>, dates: UnsafeMutablePointer<DateMemo>? = nil) -> Timestamp? {
        let raw = UnsafeRawPointer(start)
        // Each word XOR its template is 0 at separators and the digit's value at digits.
        let date = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)) ^ 0x2D30_302D_3030_3030  // "0000-00-"
        let time = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) ^ 0x3030_3A30_3054_3030  // "00T00:00"
        let rest = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)) ^ 0x5A30_3030_2E30_303A  // ":00.000Z"
        let dateHigh: UInt64 = 0xFFF0_F0FF_F0F0_F0F0
        let timeHigh: UInt64 = 0xF0F0_FFF0_F0FF_F0F0
        let restHigh: UInt64 = 0xFFF0_F0F0_FFF0_F0FF
        // Every byte now below 16, so adding 6 to a digit carries into its high nibble only
        // when the digit was above 9.
        let sixes: UInt64 = 0x0606_0606_0606_0606
        guard (date & dateHigh) | (time & timeHigh) | (rest & restHigh) == 0,
              ((date &+ (sixes & ~dateHigh)) & dateHigh) | ((time &+ (sixes & ~timeHigh)) & timeHigh)
              | ((rest &+ (sixes & ~restHigh)) & restHigh) == 0
        else { return nil }
        @inline(__always)
        func digit(_ word: UInt64, _ index: Int) -> Int {
            Int(truncatingIfNeeded: word &>> UInt64(index &* 8)) & 0xF
        }
        let hour = digit(time, 3) &* 10 &+ digit(time, 4)
        let minute = digit(time, 6) &* 10 &+ digit(time, 7)
        let second = digit(rest, 1) &* 10 &+ digit(rest, 2)
        let milliseconds = digit(rest, 4) &* 100 &+ digit(rest, 5) &* 10 &+ digit(rest, 6)
        guard hour <= 23, minute <= 59, second <= 59 else { return nil }
        // The date's eight digits, in the bytes of `date` less its two separators (zero now).
        let dateKey = date | (time & 0xFF) << 32 | (time & 0xFF00) << 48
        let days: Int
        if let dates, dates.pointee.key == dateKey {
            days = dates.pointee.days
        } else {
            let year = digit(date, 0) &* 1000 &+ digit(date, 1) &* 100 &+ digit(date, 2) &* 10 &+ digit(date, 3)
            let month = digit(date, 5) &* 10 &+ digit(date, 6)
            let day = digit(time, 0) &* 10 &+ digit(time, 1)
            guard year >= 1, month >= 1, month <= 12, day >= 1, day <= CivilDate.daysInMonth(year: year, month: month)
            else { return nil }
            days = CivilDate.daysSinceEpoch(year: year, month: month, day: day)
            dates?.pointee = DateMemo(key: dateKey, days: days)
        }
        let seconds = Int64(days) &* 86_400 &+ Int64(hour &* 3600 &+ minute &* 60 &+ second)
        return Timestamp(microseconds: seconds &* 1_000_000 &+ Int64(milliseconds &* 1000))
    }
}
