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

    /// The cursor over one line. Every method returns `false`/`nil` on anything it does not
    /// handle, and the caller gives up on the line at once. Here: the walks and the dispatch by
    /// key; the readers live in `FastJSONLineDecoder+*.swift`, one concern per file.
    struct Scanner {
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
                    let length = ascii ? span.count : scalarCount(in: span)
                    // An `input_length` read before must agree; the slow path words the mismatch.
                    guard values.inputLength == nil || values.inputLength == length else { return false }
                    values.inputLength = length
                    values.typedText = length > 0
                }
            case .inputLength:
                if first == .letterN {
                    guard null() else { return false }
                } else {
                    guard first.isDigit, let length = outOfLine({ $0.inputLength() }) else { return false }
                    guard values.inputLength == nil || values.inputLength == length else { return false }
                    values.inputLength = length
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
    }
}
