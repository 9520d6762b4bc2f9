/// UTF-8 validation for the per-record readers, with a fast path for ASCII.
///
/// `String(validating:as:)` is generic over the encoding and instantiates its metadata on every
/// call, so keep ASCII away from it: most log text is ASCII, which is valid UTF-8 and is checked
/// eight bytes at a time here; anything else still goes to the standard library.
enum UTF8Validation {
    /// The text of `bytes`, or `nil` when they are not valid UTF-8.
    static func string<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
        let ascii = bytes.withContiguousStorageIfAvailable { isASCII(UnsafeRawBufferPointer($0)) } ?? bytes.allSatisfy { $0 < 0x80 }
        if ascii { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Whether `bytes` are valid UTF-8.
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        isASCII(UnsafeRawBufferPointer(bytes)) || String(validating: bytes, as: UTF8.self) != nil
    }

    /// Whether every byte is below 0x80.
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        var high: UInt64 = 0
        while offset + 8 <= bytes.count {
            high |= bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        while offset < bytes.count {
            high |= UInt64(bytes[offset])
            offset += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// Whether every byte is below 0x80 and none is 0: a NUL never belongs in a log line (a
    /// file written past a crash holds runs of them). Eight bytes at a time, by Bit Twiddling
    /// Hacks' "has zero byte", which is exact for whether a word holds one.
    static func isASCIIWithoutNUL(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        var flags: UInt64 = 0
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            flags |= word | ((word &- ones) & ~word)
            offset += 8
        }
        while offset < bytes.count {
            let byte = bytes[offset]
            flags |= UInt64(byte) | (byte == 0 ? 0x80 : 0)
            offset += 1
        }
        return flags & 0x8080_8080_8080_8080 == 0
    }

    /// The length of the UTF-8 sequence at `position` (RFC 3629: no overlongs, no surrogates,
    /// nothing above U+10FFFF, as `String(validating:)` decides), or `nil` when it is invalid.
    static func sequenceLength(_ base: UnsafePointer<UInt8>, at position: Int, end: Int) -> Int? {
        let lead = base[position]
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: return nil
        }
        guard position + length <= end else { return nil }
        let second = base[position + 1]
        guard second >= lower, second <= upper else { return nil }
        for offset in 2..<length where base[position + offset] & 0xC0 != 0x80 {
            return nil
        }
        return length
    }
}
