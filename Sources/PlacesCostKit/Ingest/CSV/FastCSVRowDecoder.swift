/// Reads the common CSV row straight to byte spans, or declines.
///
/// `CSVRecordParser` copies every cell into an array, then `CallDecoder` makes a `String` of
/// each known one; keep this path free of such allocations. This decoder splits the row in place
/// (eight bytes at a time between commas and quotes), checks the known cells' UTF-8 as it goes,
/// and hands the values on as spans of the line, as `FastJSONLineDecoder` does for JSON Lines.
/// It answers only when it is sure: a row whose quoted cell holds a `""` escape or does not close
/// on its line, text after a closing quote, another number of cells than the header's, invalid
/// UTF-8 or a NUL byte in a known cell, a missing or unreadable timestamp, a missing api; for
/// those it returns `nil` and the caller gives the line to `CSVRecordParser` + `CallDecoder`,
/// which produce the same `Call` or word the diagnostic. It never reports errors itself.
///
/// The tests check that every row it accepts gives the slow path's `Call` (`CSVRowTwins`).
package enum FastCSVRowDecoder {
    /// Decodes one row under a header whose known keys each have one column.
    ///
    /// - Parameters:
    ///   - line: the row's bytes, without its `\n` and trailing `\r`.
    ///   - columns: the known key of each of the header's columns.
    /// - Returns: the record (`fields` is the cell's text), or `nil` when the slow path must decide.
    package static func decode(_ line: UnsafeBufferPointer<UInt8>, columns: UnsafeBufferPointer<RawRecord.Key?>) -> FastJSONRecord? {
        // Spans are 32-bit, as in the JSON decoder; a longer row is not the common case.
        guard line.count < Int(Int32.max), let base = line.baseAddress else { return nil }
        let count = line.count
        var values = FastJSONRecord.Values()
        var position = 0
        var column = 0
        while true {
            guard column < columns.count else { return nil }  // more cells than the header has
            let key = columns[column]
            let start: Int
            let end: Int
            var ascii = true
            if position < count, base[position] == .quote {
                start = position + 1
                guard let (quote, plain) = scan(base, from: start, to: count, until: .quote, checking: key != nil) else { return nil }
                // A quote still open at the line's end continues on the next line; a quote after
                // the closing one is an escape (`""`); any other text there is malformed.
                guard quote < count, quote + 1 == count || base[quote + 1] == .comma else { return nil }
                end = quote
                position = quote + 1
                ascii = plain
            } else {
                start = position
                guard let (comma, plain) = scan(base, from: start, to: count, until: .comma, checking: key != nil) else { return nil }
                end = comma
                position = comma
                ascii = plain
            }
            // An empty cell is an absent value.
            if let key, end > start {
                let span = ByteSpan(start: Int32(start), count: Int32(end - start))
                switch key {
                case .timestamp:
                    guard let value = timestamp(UnsafeBufferPointer(start: base + start, count: end - start)) else { return nil }
                    values.time = value
                case .api: values.api = span
                case .sessionToken: values.sessionToken = span
                case .input:
                    let length = ascii ? span.count : scalarCount(base, from: start, to: end)
                    // An `input_length` cell before must agree; the slow path words the mismatch.
                    guard values.inputLength == nil || values.inputLength == length else { return nil }
                    values.inputLength = length
                    values.typedText = true
                case .inputLength:
                    guard let length = digits(base, from: start, to: end), values.inputLength == nil || values.inputLength == length else { return nil }
                    values.inputLength = length
                case .placeID: break  // checked, not kept
                case .fields: values.fields = span
                case .apiVersion: values.apiVersion = span
                case .userID: values.userID = span
                case .project: values.project = span
                case .platform: values.platform = span
                case .status: values.status = span
                }
            }
            column += 1
            if position >= count { break }
            position += 1  // the comma
        }
        guard column == columns.count else { return nil }
        return values.record
    }

    /// Finds the byte that ends a cell's text (`,` after a plain cell, `"` in a quoted one) from
    /// `start`, and for a known key's cell checks what `CSVRecordParser` checks: valid UTF-8,
    /// no NUL byte.
    ///
    /// - Returns: where the cell's text ends (`end` when no such byte comes) and whether the
    ///   text is ASCII; `nil` for invalid UTF-8 or a NUL in a checked cell.
    @inline(__always)
    private static func scan(
        _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, until terminator: UInt8, checking: Bool
    ) -> (Int, ascii: Bool)? {
        let raw = UnsafeRawPointer(base)
        var position = start
        var ascii = true
        while true {
            while position &+ 8 <= end {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                let stops = stops(in: word, terminator: terminator, checking: checking)
                if stops != 0 {
                    position &+= stops.trailingZeroBitCount >> 3
                    break
                }
                position &+= 8
            }
            // Within the last eight bytes, one at a time.
            while position < end {
                let byte = base[position]
                if byte == terminator || (checking && (byte == 0 || byte >= 0x80)) { break }
                position += 1
            }
            guard position < end else { return (end, ascii) }
            let byte = base[position]
            if byte == terminator { return (position, ascii) }
            guard byte != 0, let length = UTF8Validation.sequenceLength(base, at: position, end: end) else { return nil }
            ascii = false
            position += length
        }
    }

    /// The high bit of each byte of `word` (little-endian) that is `terminator`, and when
    /// `checking`, 0 or >= 0x80, by Bit Twiddling Hacks' "has zero byte": its borrows can flag
    /// bytes after a true one, never before, so the lowest flag is the first stop.
    @inline(__always)
    private static func stops(in word: UInt64, terminator: UInt8, checking: Bool) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let matched = word ^ (ones &* UInt64(terminator))
        var stops = (matched &- ones) & ~matched
        if checking { stops |= ((word &- ones) & ~word) | word }
        return stops & highs
    }


    /// Unicode scalars in valid UTF-8: the bytes that are not continuation bytes.
    private static func scalarCount(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int32 {
        var scalars: Int32 = 0
        for index in start..<end where base[index] & 0xC0 != 0x80 {
            scalars += 1
        }
        return scalars
    }

    /// An `input_length` cell of up to 10 ASCII digits whose value fits `CallDecoder.maxInputLength`;
    /// `nil` for anything else, for the strict path to word.
    private static func digits(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int32? {
        guard end - start <= 10 else { return nil }
        var value: Int64 = 0
        for index in start..<end {
            guard base[index].isDigit else { return nil }
            value = value * 10 + Int64(base[index] &- UInt8(ascii: "0"))
        }
        return value <= Int64(CallDecoder.maxInputLength) ? Int32(value) : nil
    }

    /// A timestamp cell, as `TimestampParser` reads it; `nil` for the strict path to word the error.
    private static func timestamp(_ text: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        try? TimestampParser.parse(bytes: text).get()
    }
}
