/// A byte range of a line: where a value's text starts and how many bytes it has.
package struct ByteSpan: Equatable, Sendable {
    package var start: Int32
    package var count: Int32

    package init(start: Int32, count: Int32) {
        self.start = start
        self.count = count
    }
}

/// One JSON Lines record as `FastJSONLineDecoder` read it: the values a `Call` needs, as spans of
/// the line's bytes, for the caller to turn into a `Call` with `CallDecoder`'s rules.
/// `FastCSVRowDecoder` fills it from a CSV row's cells (then `fields` is the cell's text).
package struct FastJSONRecord: Equatable, Sendable {
    /// A record with no values, to be overwritten (`FastJSONLineDecoder.decodeLeadingLine`).
    static let blank = FastJSONRecord(
        time: Timestamp(microseconds: 0), api: ByteSpan(start: 0, count: 0), sessionToken: nil, inputLength: nil, fields: nil,
        apiVersion: nil, userID: nil, project: nil, platform: nil, status: nil
    )

    package var time: Timestamp
    /// The `api` string's content (never empty, no escapes).
    package var api: ByteSpan
    /// `session_token`/`sessionToken` string content; nil when absent or null. May be empty
    /// (count 0) when the value was "" (which means "no token").
    package var sessionToken: ByteSpan?
    /// Unicode scalars in `input`; nil when absent or null.
    package var inputLength: Int32?
    /// The whole `fields` array text from `[` to `]` inclusive, when the value is an array of plain
    /// strings; nil when absent or null.
    package var fields: ByteSpan?
    /// `api_version`/`apiVersion` string content; nil when absent or null.
    package var apiVersion: ByteSpan?
    /// For user_id/userId, project, platform and status: the string content or, for a JSON number,
    /// the number literal; nil when absent or null. An empty string is a count-0 span, which the
    /// caller treats as absent, as `CallDecoder` does.
    package var userID: ByteSpan?
    package var project: ByteSpan?
    package var platform: ByteSpan?
    /// `Call.status` comes from this key too, so the fast path must return it to build the same
    /// `Call` as the slow one.
    package var status: ByteSpan?
}

extension FastJSONRecord {
    /// The values of a record's known keys as a decoder reads them.
    struct Values {
        var time: Timestamp?
        var api: ByteSpan?
        var sessionToken: ByteSpan?
        var inputLength: Int32?
        var fields: ByteSpan?
        var apiVersion: ByteSpan?
        var userID: ByteSpan?
        var project: ByteSpan?
        var platform: ByteSpan?
        var status: ByteSpan?

        /// The record, when it has the two values every call needs.
        @inline(__always)
        var record: FastJSONRecord? {
            guard let time, let api else { return nil }
            return FastJSONRecord(
                time: time, api: api, sessionToken: sessionToken, inputLength: inputLength, fields: fields,
                apiVersion: apiVersion, userID: userID, project: project, platform: platform, status: status
            )
        }
    }
}

/// The last valid date a millisecond timestamp named, with its day number: `key` is the date's
/// eight digits as `FastJSONLineDecoder` packs them (never all ones, its value before any date).
struct DateMemo {
    var key: UInt64 = .max
    var days = 0
}

/// Reads the common JSON Lines record straight to byte spans, or declines.
///
/// `JSONLineParser` + `CallDecoder` build a `RawRecord` of `String`s and arrays for every line;
/// on multi-gigabyte logs those allocations are most of the ingest time. This decoder walks the
/// line once and must allocate nothing. It answers only when it is sure: for anything unusual (an
/// escape in a known key's string, a repeated known key, a wrong type, a syntax error, invalid
/// UTF-8, nesting deeper than the limit) it returns `nil` and the caller parses the line the
/// slow way, which then produces the same `Call` or the same error message. It never reports
/// errors itself, so the two paths cannot disagree on wording.
///
/// The tests generate tens of thousands of valid and mutated lines and check that every line
/// this decoder accepts decodes to the same `Call` on the slow path.
package enum FastJSONLineDecoder {
    /// Decodes one record.
    ///
    /// - Parameter line: the line's bytes, without its `\n` and trailing `\r`.
    /// - Returns: the record, or `nil` when the slow path must decide.
    package static func decode(_ line: UnsafeBufferPointer<UInt8>) -> FastJSONRecord? {
        // Spans are 32-bit to keep the record small; a longer line is not the common case.
        guard line.count < Int(Int32.max), let base = line.baseAddress else { return nil }
        var scanner = Scanner(base: base, count: line.count)
        return scanner.record()
    }

    /// Decodes one record by the layouts of recent lines when it follows one, else by the general
    /// walk, learning the line's layout when that accepts it. Answers exactly as `decode(_:)`.
    /// The line-at-a-time form, for the tests and the fuzzer; `JSONLinesBlockParser` reads a
    /// block with `decodeLeadingLine` and `decodeLearning`.
    ///
    /// - Parameter layouts: the worker's layouts, updated.
    @inline(__always)
    package static func decode(_ line: UnsafeBufferPointer<UInt8>, layouts: JSONLineLayouts) -> FastJSONRecord? {
        guard line.count < Int(Int32.max), let base = line.baseAddress else { return nil }
        var scanner = Scanner(base: base, count: line.count)
        if let record = scanner.record(by: layouts), scanner.position == line.count { return record }
        return decodeLearning(line, layouts: layouts)
    }

    /// Decodes the line at the start of `rest` (the rest of a block) by the layouts of recent
    /// lines, without first finding where it ends.
    ///
    /// No walk reads past a newline (strings refuse control bytes, and a newline is not
    /// whitespace here), so when a layout's closing gap is followed by the line's end (the
    /// block's end, `\n`, or `\r\n`) the line is `rest[..<length]` exactly as a line reader
    /// would cut it, trailing `\r` dropped, and the record is the one `decode(_:layouts:)` gives
    /// for it. The caller still checks the line's length against its limit.
    ///
    /// - Parameter record: receives the record when the line is read (a variable the caller
    ///   keeps across lines: a record handed back inside an optional was copied twice a line).
    /// - Returns: the line's length (without its line end), or `nil` for the caller to cut the
    ///   line itself and call `decodeLearning(_:layouts:)`.
    @inline(__always)
    static func decodeLeadingLine(_ rest: UnsafeBufferPointer<UInt8>, layouts: JSONLineLayouts, into record: inout FastJSONRecord) -> Int? {
        guard rest.count < Int(Int32.max), let base = rest.baseAddress else { return nil }
        var scanner = Scanner(base: base, count: rest.count)
        guard let decoded = scanner.record(by: layouts) else { return nil }
        let end = scanner.position
        // The closing gap is never empty, so `end >= 1`. A line reader drops one `\r` before the
        // line end: the line must not end in one, unless that `\r` is the one dropped.
        if end < rest.count, base[end] == .carriageReturn {
            guard end + 1 == rest.count || base[end + 1] == .newline else { return nil }
        } else {
            guard end == rest.count || base[end] == .newline, base[end - 1] != .carriageReturn else { return nil }
        }
        record = decoded
        return end
    }

    /// The general walk, learning the line's layout when it accepts the line. Answers exactly as
    /// `decode(_:)`.
    @inline(never)
    static func decodeLearning(_ line: UnsafeBufferPointer<UInt8>, layouts: JSONLineLayouts) -> FastJSONRecord? {
        guard line.count < Int(Int32.max), let base = line.baseAddress else { return nil }
        var scanner = Scanner(base: base, count: line.count)
        guard let record = scanner.record(members: layouts.members) else { return nil }
        layouts.learn(line)
        return record
    }

    /// Reads an RFC 3339 timestamp's text as the decoder reads a quoted one (the shapes loggers
    /// write, without an allocation), or `nil` for `TimestampParser` to decide.
    static func rfc3339(_ text: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        guard let base = text.baseAddress else { return nil }
        return Scanner(base: base, count: text.count).rfc3339(from: 0, to: text.count)
    }

    /// The cursor over one line. Every method returns `false`/`nil` on anything it does not
    /// handle, and the caller gives up on the line at once.
    private struct Scanner {
        // A plain pointer rather than an `UnsafeBufferPointer`: no optional base address to
        // unwrap at every word load, and the same code in debug builds (the tests) as in release.
        // Every read is guarded by `position < count` or an explicit length check.
        let base: UnsafePointer<UInt8>
        let count: Int
        var position = 0

        init(base: UnsafePointer<UInt8>, count: Int) {
            self.base = base
            self.count = count
        }

        /// The general walk: every key read and matched, every separator checked.
        ///
        /// - Parameter members: when given, receives each member's key and value bounds (for
        ///   learning the line's layout), then `Member.end`; or `Member.tooMany` in place of the
        ///   members past `JSONLineLayouts.maxMembers`.
        @inline(__always)
        mutating func record(members: UnsafeMutablePointer<JSONLineLayouts.Member>? = nil) -> FastJSONRecord? {
            var values = FastJSONRecord.Values()
            var memberCount = 0
            // Known keys read so far: a repeat (alias pairs included) would overwrite the earlier
            // value in `RawRecord`; rare enough to leave to the slow path.
            var seen: UInt16 = 0

            skipWhitespace()
            guard position < count, base[position] == .openBrace else { return nil }
            position += 1
            skipWhitespace()
            // `{}` has no timestamp: the slow path says so.
            guard position < count, base[position] == .quote else { return nil }
            while true {
                var known: RawRecord.Key?
                guard key(into: &known) else { return nil }
                skipWhitespace()
                guard position < count, base[position] == .colon else { return nil }
                position += 1
                skipWhitespace()
                guard position < count else { return nil }
                let valueStart = position

                if let key = known {
                    let bit: UInt16 = 1 << UInt16(key.rawValue)
                    guard seen & bit == 0 else { return nil }
                    seen |= bit
                    guard value(of: key, first: base[position], into: &values) else { return nil }
                } else {
                    guard outOfLine({ $0.skipValue() }) else { return nil }
                }
                if let members {
                    if memberCount < JSONLineLayouts.maxMembers {
                        members[memberCount] = JSONLineLayouts.Member(
                            key: known, valueStart: Int32(truncatingIfNeeded: valueStart), valueEnd: Int32(truncatingIfNeeded: position))
                    }
                    memberCount += 1
                }

                skipWhitespace()
                guard position < count else { return nil }
                if base[position] == .comma {
                    position += 1
                    skipWhitespace()
                    guard position < count, base[position] == .quote else { return nil }
                    continue
                }
                guard base[position] == .closeBrace else { return nil }
                position += 1
                break
            }
            skipWhitespace()
            guard position == count else { return nil }
            if let members {
                members[min(memberCount, JSONLineLayouts.maxMembers)] = memberCount <= JSONLineLayouts.maxMembers ? .end : .tooMany
            }
            return values.record
        }

        /// The walk by layout: each gap compared whole, each value read as the general walk reads
        /// it. Switches to another layout that shares the steps so far when a gap differs.
        ///
        /// - Returns: the record, with `position` after the closing gap (the caller checks that
        ///   the line ends there), or `nil` when the line follows no layout or a value declines
        ///   (the general walk decides then).
        @inline(always)
        mutating func record(by layouts: JSONLineLayouts) -> FastJSONRecord? {
            guard layouts.count > 0 else { return nil }
            var layout = layouts.current
            var step = 0
            var values = FastJSONRecord.Values()
            while true {
                var slot = JSONLineLayouts.slot(layout, step)
                if !gap(layouts.gaps + slot &* JSONLineLayouts.maxGap, length: Int(layouts.gapLengths[slot])) {
                    guard let other = outOfLine({ $0.otherLayout(layouts, than: layout, at: step) }) else { return nil }
                    layout = other
                    slot = JSONLineLayouts.slot(layout, step)
                }
                position &+= Int(layouts.gapLengths[slot])
                let code = layouts.keys[slot]
                if code == JSONLineLayouts.endOfLine {
                    layouts.matched(layout)
                    return values.record
                }
                guard position < count else { return nil }
                if let key = RawRecord.Key(rawValue: Int(code)) {
                    guard value(of: key, first: base[position], into: &values, dates: layouts.dates) else { return nil }
                } else {
                    guard outOfLine({ $0.skipValue() }) else { return nil }
                }
                step &+= 1
            }
        }

        /// A layout other than `layout` that has the same steps before `step` and whose gap at
        /// `step` is the line's.
        @inline(never)
        func otherLayout(_ layouts: JSONLineLayouts, than layout: Int, at step: Int) -> Int? {
            for other in 0..<layouts.count where other != layout && layouts.stepsShared(layout, other) >= step {
                let slot = JSONLineLayouts.slot(other, step)
                if gap(layouts.gaps + slot * JSONLineLayouts.maxGap, length: Int(layouts.gapLengths[slot])) { return other }
            }
            return nil
        }

        /// Whether the `length` bytes at `position` are `expected`'s.
        @inline(__always)
        func gap(_ expected: UnsafePointer<UInt8>, length: Int) -> Bool {
            position &+ length <= count && ByteInterner.equal(base + position, expected, length)
        }

        /// Reads the value of known key `key` at its first byte, `first`.
        ///
        /// - Returns: `false` to decline the line.
        ///
        /// - Parameter dates: the last date a timestamp named, to reuse, or `nil`.
        @inline(always)
        mutating func value(
            of key: RawRecord.Key, first: UInt8, into values: inout FastJSONRecord.Values, dates: UnsafeMutablePointer<DateMemo>? = nil
        ) -> Bool {
            switch key {
            case .timestamp:
                if let value = quotedMillisecondTimestamp(first, dates: dates) {
                    values.time = value
                } else {
                    guard let value = outOfLine({ $0.timestamp(first) }) else { return false }
                    values.time = value
                }
            case .api:
                guard first == .quote, let span = plainString(), span.count > 0 else { return false }
                values.api = span
            case .sessionToken:
                if let span = quotedUUIDLength(first) {
                    values.sessionToken = span
                } else {
                    guard nullOrPlainString(first, into: &values.sessionToken) else { return false }
                }
            case .input:
                if first == .letterN {
                    guard null() else { return false }
                } else {
                    guard first == .quote, let (span, ascii) = plainStringReportingASCII() else { return false }
                    values.inputLength = ascii ? span.count : scalarCount(in: span)
                }
            case .placeID:
                var ignored: ByteSpan?
                guard nullOrPlainString(first, into: &ignored) else { return false }
            case .fields:
                if first == .letterN {
                    guard null() else { return false }
                } else {
                    guard first == .openBracket, let span = outOfLine({ $0.stringArray() }) else { return false }
                    values.fields = span
                }
            case .apiVersion:
                guard nullOrPlainString(first, into: &values.apiVersion) else { return false }
            case .userID:
                guard label(first, into: &values.userID) else { return false }
            case .project:
                guard label(first, into: &values.project) else { return false }
            case .platform:
                guard label(first, into: &values.platform) else { return false }
            case .status:
                guard label(first, into: &values.status) else { return false }
            }
            return true
        }

        /// Runs a step that is rare on typical lines, kept out of line, on a copy of the cursor.
        ///
        /// `record` is inlined into `decode`, where the scanner is a local: as long as its address
        /// never escapes, `position` lives in a register. Passing `self` inout to an out-of-line
        /// function would pin it to memory for the whole walk, and every token would pay a store
        /// and a reload: keep `position` in a register, never pass `self` inout.
        @inline(__always)
        mutating func outOfLine<Result>(_ step: (inout Scanner) -> Result) -> Result {
            var copy = self
            let result = step(&copy)
            position = copy.position
            return result
        }

        // MARK: Tokens

        /// Skips JSON whitespace, except a newline. Most calls find none: one compare decides that.
        ///
        /// A line never holds a newline, so stopping at one changes no answer on a line (a walk
        /// that meets one declines), and it keeps a walk over the rest of a block
        /// (`decodeLeadingLine`) from running into the next line.
        @inline(__always)
        mutating func skipWhitespace() {
            guard position < count, base[position] <= 0x20 else { return }
            outOfLine { $0.skipSomeWhitespace() }
        }

        @inline(never)
        mutating func skipSomeWhitespace() {
            while position < count {
                switch base[position] {
                case 0x20, 0x09, 0x0D: position += 1
                default: return
                }
            }
        }

        /// Reads a top-level key at its opening quote, without escapes (an escaped key could
        /// spell a known one), and sets `key` to the known key it spells, if any.
        ///
        /// A key of up to 15 plain ASCII bytes is found and matched in one or two 8-byte words,
        /// never byte by byte: every line has several keys. Others (and keys near the end of the
        /// line) take the general string reader.
        ///
        /// - Returns: `false` to decline the line.
        @inline(__always)
        mutating func key(into key: inout RawRecord.Key?) -> Bool {
            let start = position &+ 1
            if start &+ 16 <= count {
                let raw = UnsafeRawPointer(base + start)
                let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
                let firstStops = Self.stops(in: first)
                if firstStops != 0 {
                    let length = firstStops.trailingZeroBitCount >> 3
                    if base[start &+ length] == .quote {
                        position = start &+ length &+ 1
                        key = Self.knownKey(length: length, first: first & ((1 << UInt64(length &* 8)) &- 1), second: 0)
                        return true
                    }
                } else {
                    let second = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                    let secondStops = Self.stops(in: second)
                    if secondStops != 0 {
                        let tail = secondStops.trailingZeroBitCount >> 3
                        if base[start &+ 8 &+ tail] == .quote {
                            position = start &+ 8 &+ tail &+ 1
                            key = Self.knownKey(length: 8 &+ tail, first: first, second: second & ((1 << UInt64(tail &* 8)) &- 1))
                            return true
                        }
                    }
                }
            }
            guard let (span, ascii) = plainStringReportingASCII() else { return false }
            key = ascii ? knownKey(start: Int(span.start), length: Int(span.count)) : nil
            return true
        }

        /// The known key whose bytes, little-endian, are `first` and `second` (zero past the end).
        @inline(__always)
        static func knownKey(length: Int, first: UInt64, second: UInt64) -> RawRecord.Key? {
            switch length {
            case 3: return first == 0x69_7061 ? .api : nil  // "api"
            case 5: return first == 0x74_7570_6E69 ? .input : nil  // "input"
            case 6:
                switch first {
                case 0x7364_6C65_6966: return .fields  // "fields"
                case 0x6449_7265_7375: return .userID  // "userId"
                case 0x7375_7461_7473: return .status  // "status"
                default: return nil
                }
            case 7:
                switch first {
                case 0x64_695F_7265_7375: return .userID  // "user_id"
                case 0x74_6365_6A6F_7270: return .project  // "project"
                case 0x64_4965_6361_6C70: return .placeID  // "placeId"
                default: return nil
                }
            case 8:
                switch first {
                case 0x6D72_6F66_7461_6C70: return .platform  // "platform"
                case 0x6469_5F65_6361_6C70: return .placeID  // "place_id"
                default: return nil
                }
            case 9: return first == 0x6D61_7473_656D_6974 && second == 0x70 ? .timestamp : nil  // "timestamp"
            case 10: return first == 0x6973_7265_5669_7061 && second == 0x6E6F ? .apiVersion : nil  // "apiVersion"
            case 11: return first == 0x7372_6576_5F69_7061 && second == 0x6E_6F69 ? .apiVersion : nil  // "api_version"
            case 12: return first == 0x546E_6F69_7373_6573 && second == 0x6E65_6B6F ? .sessionToken : nil  // "sessionToken"
            case 13: return first == 0x5F6E_6F69_7373_6573 && second == 0x6E_656B_6F74 ? .sessionToken : nil  // "session_token"
            default: return nil
            }
        }

        /// Which known key the raw bytes spell, by length first so most keys cost one comparison.
        @inline(__always)
        func knownKey(start: Int, length: Int) -> RawRecord.Key? {
            switch length {
            case 3: return matches(start, "api") ? .api : nil
            case 5: return matches(start, "input") ? .input : nil
            case 6:
                switch base[start] {
                case UInt8(ascii: "f"): return matches(start, "fields") ? .fields : nil
                case UInt8(ascii: "u"): return matches(start, "userId") ? .userID : nil
                case UInt8(ascii: "s"): return matches(start, "status") ? .status : nil
                default: return nil
                }
            case 7:
                switch base[start] {
                case UInt8(ascii: "u"): return matches(start, "user_id") ? .userID : nil
                case UInt8(ascii: "p"):
                    if matches(start, "project") { return .project }
                    return matches(start, "placeId") ? .placeID : nil
                default: return nil
                }
            case 8:
                if matches(start, "platform") { return .platform }
                return matches(start, "place_id") ? .placeID : nil
            case 9: return matches(start, "timestamp") ? .timestamp : nil
            case 10: return matches(start, "apiVersion") ? .apiVersion : nil
            case 11: return matches(start, "api_version") ? .apiVersion : nil
            case 12: return matches(start, "sessionToken") ? .sessionToken : nil
            case 13: return matches(start, "session_token") ? .sessionToken : nil
            default: return nil
            }
        }

        /// Whether the bytes at `start` are `literal` (the caller has checked the length).
        ///
        /// Compares two overlapping words, never byte by byte: it runs for every key of every
        /// line. Keep it inlined, so the literal's words are constants.
        @inline(__always)
        func matches(_ start: Int, _ literal: StaticString) -> Bool {
            let length = literal.utf8CodeUnitCount
            let expected = UnsafeRawPointer(literal.utf8Start)
            let actual = UnsafeRawPointer(base + start)
            func equal<Word: FixedWidthInteger>(_: Word.Type, at offset: Int) -> Bool {
                actual.loadUnaligned(fromByteOffset: offset, as: Word.self) == expected.loadUnaligned(fromByteOffset: offset, as: Word.self)
            }
            switch length {
            case 8...16: return equal(UInt64.self, at: 0) && equal(UInt64.self, at: length - 8)
            case 4..<8: return equal(UInt32.self, at: 0) && equal(UInt32.self, at: length - 4)
            case 2..<4: return equal(UInt16.self, at: 0) && equal(UInt16.self, at: length - 2)
            default:
                for offset in 0..<length where actual.load(fromByteOffset: offset, as: UInt8.self) != literal.utf8Start[offset] {
                    return false
                }
                return true
            }
        }

        /// Reads a string at its opening quote, refusing escapes.
        ///
        /// - Returns: the content's span, or `nil`.
        @inline(__always)
        mutating func plainString() -> ByteSpan? {
            plainStringReportingASCII()?.span
        }

        @inline(__always)
        mutating func plainStringReportingASCII() -> (span: ByteSpan, ascii: Bool)? {
            position += 1  // opening quote
            let start = position
            var ascii = true
            while true {
                skipPlainASCII()
                guard position < count else { return nil }
                let byte = base[position]
                if byte == .quote {
                    position += 1
                    return (ByteSpan(start: Int32(start), count: Int32(position - 1 - start)), ascii)
                }
                // Else a backslash, a raw control character (which JSON forbids) or UTF-8.
                guard byte >= 0x80, outOfLine({ $0.skipUTF8Sequence() }) else { return nil }
                ascii = false
            }
        }

        /// Validates and skips a string at its opening quote, escapes allowed (unknown keys' values).
        mutating func skipString() -> Bool {
            position += 1  // opening quote
            while true {
                skipPlainASCII()
                guard position < count else { return false }
                let byte = base[position]
                switch byte {
                case .quote:
                    position += 1
                    return true
                case .backslash:
                    guard skipEscape() else { return false }
                case 0x80...:
                    guard skipUTF8Sequence() else { return false }
                default:
                    return false  // a raw control character
                }
            }
        }

        /// Skips bytes 0x20...0x7F other than `"` and `\`, eight at a time while it can: most of
        /// a log line is such bytes inside strings, so keep this loop word-wide.
        @inline(__always)
        mutating func skipPlainASCII() {
            let raw = UnsafeRawPointer(base)
            while position &+ 8 <= count {
                let stops = Self.stops(in: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self)))
                if stops != 0 {
                    position &+= stops.trailingZeroBitCount >> 3
                    return
                }
                position &+= 8
            }
            while position < count {
                let byte = base[position]
                guard byte >= 0x20, byte < 0x80, byte != .quote, byte != .backslash else { return }
                position += 1
            }
        }

        /// The high bit of each byte of `word` (little-endian) that is >= 0x80, < 0x20, `"` or `\`,
        /// by the "has zero byte" and "has less than" tricks of Bit Twiddling Hacks. Their borrows
        /// can flag bytes after a true one, never before, so the lowest flag is the first stop.
        @inline(__always)
        static func stops(in word: UInt64) -> UInt64 {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            let quotes = word ^ (ones &* 0x22)
            let backslashes = word ^ (ones &* 0x5C)
            let control = (word &- (ones &* 0x20)) & ~word
            let quote = (quotes &- ones) & ~quotes
            let backslash = (backslashes &- ones) & ~backslashes
            return (word | control | quote | backslash) & highs
        }

        /// Validates and skips one multi-byte UTF-8 sequence (`UTF8Validation.sequenceLength`,
        /// which decides as `JSONLineParser.Scanner.skipUTF8Sequence`, the slow twin, does).
        @inline(never)
        mutating func skipUTF8Sequence() -> Bool {
            guard let length = UTF8Validation.sequenceLength(base, at: position, end: count), length > 1 else { return false }
            position += length
            return true
        }

        /// Validates an escape at its backslash, with `JSONLineParser`'s surrogate rules: a high
        /// surrogate must be followed by a `\u` low surrogate, a low one must not stand alone.
        mutating func skipEscape() -> Bool {
            guard position + 1 < count else { return false }
            switch base[position + 1] {
            case .quote, .backslash, UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), .letterN,
                 UInt8(ascii: "r"), UInt8(ascii: "t"):
                position += 2
                return true
            case UInt8(ascii: "u"):
                position += 2
                guard let unit = hex4() else { return false }
                switch unit {
                case 0xD800...0xDBFF:
                    guard position + 1 < count, base[position] == .backslash, base[position + 1] == UInt8(ascii: "u") else {
                        return false
                    }
                    position += 2
                    guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return false }
                    return true
                case 0xDC00...0xDFFF:
                    return false
                default:
                    return true
                }
            default:
                return false
            }
        }

        mutating func hex4() -> UInt32? {
            guard position + 4 <= count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = base[position]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte &- UInt8(ascii: "A") &+ 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
                position += 1
            }
            return value
        }

        /// Reads a number by the JSON grammar at its first byte (`-` or a digit).
        ///
        /// - Returns: the literal's span and whether it is a plain non-negative integer (no sign,
        ///   fraction or exponent), or `nil` when it is not a JSON number.
        @inline(never)
        mutating func number() -> (span: ByteSpan, plainInteger: Bool)? {
            let start = position
            var plain = true
            if base[position] == UInt8(ascii: "-") {
                plain = false
                position += 1
            }
            guard position < count, base[position].isDigit else { return nil }
            if base[position] == UInt8(ascii: "0") {
                position += 1
            } else {
                skipDigits()
            }
            if position < count, base[position] == UInt8(ascii: ".") {
                plain = false
                position += 1
                guard position < count, base[position].isDigit else { return nil }
                skipDigits()
            }
            if position < count, base[position] | 0x20 == UInt8(ascii: "e") {
                plain = false
                position += 1
                if position < count, base[position] == UInt8(ascii: "+") || base[position] == UInt8(ascii: "-") {
                    position += 1
                }
                guard position < count, base[position].isDigit else { return nil }
                skipDigits()
            }
            return (ByteSpan(start: Int32(start), count: Int32(position - start)), plain)
        }

        mutating func skipDigits() {
            while position < count, base[position].isDigit { position += 1 }
        }

        /// Skips `literal` (`true`, `false`, `null`) at `position`.
        @inline(__always)
        mutating func skipLiteral(_ literal: StaticString) -> Bool {
            let length = literal.utf8CodeUnitCount
            guard position + length <= count, matches(position, literal) else { return false }
            position += length
            return true
        }

        @inline(__always)
        mutating func null() -> Bool {
            skipLiteral("null")
        }

        // MARK: Known keys' values

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

        /// A string of exactly 36 plain ASCII bytes (a UUID's length, as session tokens mostly are),
        /// checked in five word loads without a loop and skipped, or `nil` (cursor unmoved) for
        /// the general string reader. Its content need not be a UUID: any 36 plain bytes are the
        /// same string `plainString` would read.
        @inline(__always)
        mutating func quotedUUIDLength(_ first: UInt8) -> ByteSpan? {
            guard first == .quote, position &+ 38 <= count, base[position &+ 37] == .quote else { return nil }
            let raw = UnsafeRawPointer(base + (position &+ 1))
            func word(_ offset: Int) -> UInt64 { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
            guard Self.stops(in: word(0)) | Self.stops(in: word(8)) | Self.stops(in: word(16))
                | Self.stops(in: word(24)) | Self.stops(in: word(28)) == 0
            else { return nil }
            let span = ByteSpan(start: Int32(truncatingIfNeeded: position &+ 1), count: 36)
            position &+= 38
            return span
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

        /// A string or null (`session_token`, `place_id`, `api_version`); null leaves `value` nil.
        @inline(__always)
        mutating func nullOrPlainString(_ first: UInt8, into value: inout ByteSpan?) -> Bool {
            if first == .quote {
                guard let span = plainString() else { return false }
                value = span
                return true
            }
            return first == .letterN && null()
        }

        /// A grouping label: a string, a number (its literal) or null.
        @inline(__always)
        mutating func label(_ first: UInt8, into value: inout ByteSpan?) -> Bool {
            switch first {
            case .quote:
                guard let span = plainString() else { return false }
                value = span
                return true
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard let (span, _) = outOfLine({ $0.number() }) else { return false }
                value = span
                return true
            case .letterN:
                return null()
            default:
                return false
            }
        }

        /// `fields`: an array of strings without escapes, at its `[`.
        ///
        /// - Returns: the span of the whole array text, brackets included.
        @inline(never)
        mutating func stringArray() -> ByteSpan? {
            let start = position
            position += 1
            skipWhitespace()
            guard position < count else { return nil }
            if base[position] != .closeBracket {
                while true {
                    guard position < count, base[position] == .quote, plainString() != nil else { return nil }
                    skipWhitespace()
                    guard position < count else { return nil }
                    if base[position] == .comma {
                        position += 1
                        skipWhitespace()
                        continue
                    }
                    guard base[position] == .closeBracket else { return nil }
                    break
                }
            }
            position += 1
            return ByteSpan(start: Int32(start), count: Int32(position - start))
        }

        /// Unicode scalars in already validated UTF-8: every byte that is not a continuation byte.
        func scalarCount(in span: ByteSpan) -> Int32 {
            var scalars: Int32 = 0
            for index in Int(span.start)..<Int(span.start + span.count) where base[index] & 0xC0 != 0x80 {
                scalars += 1
            }
            return scalars
        }

        // MARK: Unknown keys' values

        /// Validates and skips any JSON value of an unknown key at its first byte.
        @inline(never)
        mutating func skipValue() -> Bool {
            switch base[position] {
            case .quote: return skipString()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number() != nil
            case UInt8(ascii: "t"): return skipLiteral("true")
            case UInt8(ascii: "f"): return skipLiteral("false")
            case .letterN: return null()
            case .openBracket, .openBrace: return skipContainer()
            default: return false
            }
        }

        /// Validates and skips a nested array or object at its opening bracket, without recursion.
        ///
        /// `JSONLineParser` rejects any value deeper than `JSONLineParser.maxDepth` (64), counting a
        /// key's value as depth 1; so an open container may hold members only while at most 63
        /// containers are open. That bound also lets one `UInt64` remember which levels are objects.
        mutating func skipContainer() -> Bool {
            var open = 0
            var objectLevels: UInt64 = 0
            nextValue: while true {
                // A value is due at `position`.
                guard position < count else { return false }
                let first = base[position]
                if first == .openBracket || first == .openBrace {
                    let isObject = first == .openBrace
                    position += 1
                    skipWhitespace()
                    guard position < count else { return false }
                    if base[position] == (isObject ? .closeBrace : .closeBracket) {
                        position += 1
                    } else {
                        guard open < JSONLineParser.maxDepth - 1 else { return false }
                        if isObject {
                            objectLevels |= 1 << UInt64(open)
                            guard memberKey() else { return false }
                        }
                        open += 1
                        continue nextValue
                    }
                } else {
                    guard skipValue() else { return false }
                }
                // After a value: separators and closers until the next value is due.
                while open > 0 {
                    skipWhitespace()
                    guard position < count else { return false }
                    let inObject = objectLevels >> UInt64(open - 1) & 1 == 1
                    let byte = base[position]
                    if byte == .comma {
                        position += 1
                        skipWhitespace()
                        if inObject {
                            guard memberKey() else { return false }
                        }
                        continue nextValue
                    }
                    guard byte == (inObject ? .closeBrace : .closeBracket) else { return false }
                    position += 1
                    open -= 1
                    objectLevels &= ~(1 << UInt64(open))
                }
                return true
            }
        }

        /// A nested object's `"key":` and the whitespace after it.
        mutating func memberKey() -> Bool {
            guard position < count, base[position] == .quote, skipString() else { return false }
            skipWhitespace()
            guard position < count, base[position] == .colon else { return false }
            position += 1
            skipWhitespace()
            return true
        }
    }
}

// Computed rather than stored so that no use pays a lazy-global check.
private extension UInt8 {
    static var quote: UInt8 { 0x22 }
    static var backslash: UInt8 { 0x5C }
    static var openBrace: UInt8 { 0x7B }
    static var closeBrace: UInt8 { 0x7D }
    static var openBracket: UInt8 { 0x5B }
    static var closeBracket: UInt8 { 0x5D }
    static var colon: UInt8 { 0x3A }
    static var comma: UInt8 { 0x2C }
    static var letterN: UInt8 { 0x6E }
    static var newline: UInt8 { 0x0A }
    static var carriageReturn: UInt8 { 0x0D }

    var isDigit: Bool {
        self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9")
    }
}
