/// Reading `timestamp` values without an allocation: each reader answers only with the instant
/// `TimestampParser` gives, or `nil` for that parser to decide.
extension FastJSONLineDecoder.Scanner {
    /// The shape loggers write, `"YYYY-MM-DDTHH:MM:SS.mmmZ"`, read in place and skipped, or
    /// `nil` (cursor unmoved) for `timestamp` to decide. `rfc3339Milliseconds` checks every one
    /// of the 24 bytes against its template, so none is a quote, backslash or control byte and
    /// the string ends exactly at the quote checked here: the string need not be scanned.
    @inline(__always)
    mutating func quotedMillisecondTimestamp(_ first: UInt8, dates: UnsafeMutablePointer<DateMemo>?) -> Timestamp? {
        guard first == .quote, position &+ 26 <= count, base[position &+ 25] == .quote,
              let time = rfc3339Milliseconds(at: position &+ 1, dates: dates)
        else { return nil }
        position &+= 26
        return time
    }

    /// `timestamp`: an RFC 3339 string (or digits), or a JSON number of epoch milliseconds.
    @inline(never)
    mutating func timestamp(_ first: UInt8) -> Timestamp? {
        if first == .quote {
            guard let span = plainString() else { return nil }
            let start = Int(span.start)
            let end = start + Int(span.count)
            if let time = rfc3339(from: start, to: end) { return time }
            // Digits, and shapes the quick reader does not take: the shared parser decides.
            return try? TimestampParser.parse(bytes: UnsafeBufferPointer(start: base + start, count: end - start)).get()
        }
        guard first == UInt8(ascii: "-") || first.isDigit, let (span, plain) = outOfLine({ $0.number() }) else { return nil }
        // Fractions, exponents and long literals go through `Double` on the slow path: leave
        // them to it. Fifteen digits hold every accepted value and cannot overflow.
        guard plain, span.count <= 15 else { return nil }
        var value: Int64 = 0
        for index in Int(span.start)..<Int(span.start + span.count) {
            value = value * 10 + Int64(base[index] &- UInt8(ascii: "0"))
        }
        return try? TimestampParser.epochMilliseconds(value).get()
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±hh:mm)`, exactly as `TimestampParser.parse(bytes:)`
    /// reads it, or `nil` to let that parser decide.
    ///
    /// `TimestampParser` builds its error message (a `String`) before it knows it needs it, an
    /// allocation per line this path must not make; this twin only answers when it has a
    /// value, and the tests check it gives the same instants.
    @inline(__always)
    func rfc3339(from start: Int, to end: Int) -> Timestamp? {
        if end &- start == 24, let time = rfc3339Milliseconds(at: start) { return time }
        return rfc3339General(from: start, to: end)
    }

    /// The shape loggers write, `YYYY-MM-DDTHH:MM:SS.mmmZ`, in three word loads and straight-line
    /// arithmetic, or `nil` for `rfc3339General` to decide (other separators, out-of-range fields).
    ///
    /// - Parameter dates: when given, the date is looked up there first (the lines of a log
    ///   mostly share their date with the line before: its check and day count took a tenth
    ///   of the decoder) and a new valid date is noted.
    @inline(__always)
    func rfc3339Milliseconds(at start: Int, dates: UnsafeMutablePointer<DateMemo>? = nil) -> Timestamp? {
        let raw = UnsafeRawPointer(base + start)
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

    func rfc3339General(from start: Int, to end: Int) -> Timestamp? {
        guard end - start >= 20 else { return nil }
        @inline(__always)
        func digits(_ at: Int, _ length: Int) -> Int? {
            var value = 0
            for index in at..<at + length {
                let byte = base[index]
                guard byte.isDigit else { return nil }
                value = value * 10 + Int(byte &- UInt8(ascii: "0"))
            }
            return value
        }
        let separator = base[start + 10]
        guard let year = digits(start, 4), base[start + 4] == UInt8(ascii: "-"),
              let month = digits(start + 5, 2), base[start + 7] == UInt8(ascii: "-"),
              let day = digits(start + 8, 2),
              separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t") || separator == 0x20,
              let hour = digits(start + 11, 2), base[start + 13] == .colon,
              let minute = digits(start + 14, 2), base[start + 16] == .colon,
              let second = digits(start + 17, 2)
        else { return nil }
        var cursor = start + 19
        var microseconds = 0
        if base[cursor] == UInt8(ascii: ".") {
            cursor += 1
            let fractionStart = cursor
            var scale = 100_000
            while cursor < end, base[cursor].isDigit {
                microseconds += Int(base[cursor] &- UInt8(ascii: "0")) * scale
                scale /= 10
                cursor += 1
            }
            guard cursor > fractionStart, cursor < end else { return nil }
        }
        var offsetSeconds = 0
        switch base[cursor] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            cursor += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard end - cursor == 6, let offsetHours = digits(cursor + 1, 2), base[cursor + 3] == .colon,
                  let offsetMinutes = digits(cursor + 4, 2), offsetHours <= 23, offsetMinutes <= 59
            else { return nil }
            offsetSeconds = (offsetHours * 3600 + offsetMinutes * 60) * (base[cursor] == UInt8(ascii: "-") ? -1 : 1)
            cursor += 6
        default:
            return nil
        }
        guard cursor == end, year >= 1, (1...12).contains(month), day >= 1,
              day <= CivilDate.daysInMonth(year: year, month: month), hour <= 23, minute <= 59, second <= 60
        else { return nil }
        let (clockSecond, clockMicroseconds) = Timestamp.clock(second: second, microseconds: microseconds)
        let days = CivilDate.daysSinceEpoch(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + clockSecond - offsetSeconds)
        return Timestamp(microseconds: seconds * 1_000_000 + Int64(clockMicroseconds))
    }
}
