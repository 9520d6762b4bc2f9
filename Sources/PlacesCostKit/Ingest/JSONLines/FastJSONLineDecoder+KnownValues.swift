/// The other known keys' values (token, labels, `fields`, `input`): each reads the value as the
/// slow path would keep it, or declines the line.
extension FastJSONLineDecoder.Scanner {
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

    /// `input_length`: a plain non-negative integer that fits in 32 bits, at its first digit, or
    /// `nil` (a sign, a fraction, an exponent, too many digits) for the slow path to word.
    @inline(never)
    mutating func inputLength() -> Int32? {
        guard let (span, plainInteger) = number(), plainInteger, span.count <= 10 else { return nil }
        var value: Int64 = 0
        for index in Int(span.start)..<Int(span.start + span.count) {
            value = value * 10 + Int64(base[index] &- UInt8(ascii: "0"))
        }
        return value <= Int64(CallDecoder.maxInputLength) ? Int32(value) : nil
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
}
