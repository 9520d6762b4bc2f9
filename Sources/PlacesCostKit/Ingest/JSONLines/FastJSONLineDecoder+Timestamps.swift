/// Reading `timestamp` values in place with `TimestampParser`, the one timestamp parser: each
/// reader answers with its instant, or `nil` for the strict parser to word the error.
extension FastJSONLineDecoder.Scanner {
    /// The shape loggers write, `"YYYY-MM-DDTHH:MM:SS.mmmZ"`, read in place and skipped, or
    /// `nil` (cursor unmoved) for `timestamp` to decide. `TimestampParser.millisecondsUTC` checks
    /// every one of the 24 bytes against its template, so none is a quote, backslash or control
    /// byte and the string ends exactly at the quote checked here: the string need not be scanned.
    @inline(__always)
    mutating func quotedMillisecondTimestamp(_ first: UInt8, dates: UnsafeMutablePointer<DateMemo>?) -> Timestamp? {
        guard first == .quote, position &+ 26 <= count, base[position &+ 25] == .quote,
              let time = TimestampParser.millisecondsUTC(base + (position &+ 1), dates: dates)
        else { return nil }
        position &+= 26
        return time
    }

    /// `timestamp`: an RFC 3339 string (or digits), or a JSON number of epoch milliseconds.
    @inline(never)
    mutating func timestamp(_ first: UInt8) -> Timestamp? {
        if first == .quote {
            guard let span = plainString() else { return nil }
            return try? TimestampParser.parse(bytes: UnsafeBufferPointer(start: base + Int(span.start), count: Int(span.count))).get()
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
}
