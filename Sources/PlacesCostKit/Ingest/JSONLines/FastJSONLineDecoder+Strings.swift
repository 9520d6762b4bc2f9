/// Scanning strings eight bytes at a time, validating escapes and UTF-8 as `JSONLineParser`
/// does: a known key's string with an escape declines the line, an unknown key's may have them.
extension FastJSONLineDecoder.Scanner {
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

    /// Validates and skips one multi-byte UTF-8 sequence by the one rule the strict parser
    /// applies too (`UTF8Validation.sequenceLength`).
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
}
