/// How a (project, token) or (project, user) pair is stored: the project's id, then the bytes,
/// with a UUID packed into its 16 bytes.
///
/// Every token ever seen is remembered for reuse detection, so its size sets the memory per
/// million searches. Session tokens are UUIDs (36 characters, or 32 hex digits in URLs); stored
/// packed they take 18 bytes instead of 38, and unpack to the same text.
enum TokenKey {
    private static let rawTag: UInt8 = 0
    private static let dashedTag: UInt8 = 1
    private static let hexTag: UInt8 = 2

    /// The stored form of (`project`, `bytes`).
    static func encoded(project: UInt32, _ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var key = [UInt8](repeating: 0, count: bytes.count + 8)
        let length = key.withUnsafeMutableBufferPointer { encode(project: project, bytes, into: $0.baseAddress!) }
        key.removeSubrange(length...)
        return key
    }

    /// Writes the stored form to `output`, which has room for `bytes.count + 8` bytes.
    ///
    /// - Returns: the stored form's length.
    static func encode(project: UInt32, _ bytes: UnsafeRawBufferPointer, into output: UnsafeMutablePointer<UInt8>) -> Int {
        var length = 0
        var value = project
        repeat {
            output[length] = UInt8(value & 0x7F) | (value >= 0x80 ? 0x80 : 0)
            length += 1
            value >>= 7
        } while value != 0
        if let source = bytes.baseAddress {
            if bytes.count == 36, bytes[8] == 0x2D, bytes[13] == 0x2D, bytes[18] == 0x2D, bytes[23] == 0x2D,
               packDashed(source, into: output + length + 1) {
                output[length] = dashedTag
                return length + 17
            }
            if bytes.count == 32, packPlain(source, into: output + length + 1) {
                output[length] = hexTag
                return length + 17
            }
        }
        output[length] = rawTag
        if bytes.count > 0 { (output + length + 1).initialize(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: bytes.count) }
        return length + 1 + bytes.count
    }

    /// Packs a dashed UUID's 32 lowercase hex digits (dashes already checked) into 16 bytes;
    /// `false` (output undefined) if any is not one. Eight digits a word (`hexWord`), never digit
    /// by digit: every new token passes here.
    @inline(__always)
    static func packDashed(_ source: UnsafeRawPointer, into output: UnsafeMutablePointer<UInt8>) -> Bool {
        @inline(__always) func half(_ offset: Int) -> UInt64 {
            UInt64(UInt32(littleEndian: source.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }
        @inline(__always) func word(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: source.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        return store((word(0), half(9) | half(14) << 32, half(19) | half(24) << 32, word(28)), into: output)
    }

    /// Packs 32 lowercase hex digits into 16 bytes; `false` (output undefined) if any is not one.
    @inline(__always)
    static func packPlain(_ source: UnsafeRawPointer, into output: UnsafeMutablePointer<UInt8>) -> Bool {
        @inline(__always) func word(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: source.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        return store((word(0), word(8), word(16), word(24)), into: output)
    }

    @inline(__always)
    private static func store(_ words: (UInt64, UInt64, UInt64, UInt64), into output: UnsafeMutablePointer<UInt8>) -> Bool {
        let packed = (hexWord(words.0), hexWord(words.1), hexWord(words.2), hexWord(words.3))
        guard let first = packed.0, let second = packed.1, let third = packed.2, let fourth = packed.3 else { return false }
        let raw = UnsafeMutableRawPointer(output)
        raw.storeBytes(of: first.littleEndian, toByteOffset: 0, as: UInt32.self)
        raw.storeBytes(of: second.littleEndian, toByteOffset: 4, as: UInt32.self)
        raw.storeBytes(of: third.littleEndian, toByteOffset: 8, as: UInt32.self)
        raw.storeBytes(of: fourth.littleEndian, toByteOffset: 12, as: UInt32.self)
        return true
    }

    /// Eight lowercase hex digits (the first in the low byte) as four bytes, two digits each, in
    /// text order; `nil` if any byte is not `0-9` or `a-f`.
    @inline(__always)
    static func hexWord(_ word: UInt64) -> UInt32? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs = ones &* 0x80
        // With each byte's high bit set first, subtracting a constant below 0x80 borrows from
        // no neighbour, and leaves the high bit set exactly where the byte is at least it.
        let set = word | highs
        @inline(__always) func atLeast(_ bound: UInt64) -> UInt64 { (set &- ones &* bound) & highs }
        let digits = atLeast(0x30) & ~atLeast(0x3A)
        let letters = atLeast(0x61) & ~atLeast(0x67)
        guard word & highs == 0, digits | letters == highs else { return nil }
        // A letter's low nibble is 1-6: 9 more is its value.
        let values = (word & (ones &* 0x0F)) &+ (letters >> 7) &* 9
        // Each even byte takes its digit as the high nibble and the next byte's as the low one.
        var pairs = ((values << 4) | (values >> 8)) & 0x00FF_00FF_00FF_00FF
        pairs = (pairs | pairs >> 8) & 0x0000_FFFF_0000_FFFF
        pairs = (pairs | pairs >> 16) & 0x0000_0000_FFFF_FFFF
        return UInt32(truncatingIfNeeded: pairs)
    }

    /// The slow twin of `packDashed` and `packPlain` (tests): each pair of digits by itself.
    static func packReference(_ source: UnsafePointer<UInt8>, dashed: Bool, into output: UnsafeMutablePointer<UInt8>) -> Bool {
        let offsets = dashed ? [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34] : Array(stride(from: 0, to: 32, by: 2))
        var invalid: UInt8 = 0
        for (index, offset) in offsets.enumerated() {
            let high = nibble(source[offset])
            let low = nibble(source[offset + 1])
            invalid |= (high | low) & 0xF0
            output[index] = high << 4 | (low & 0x0F)
        }
        return invalid == 0
    }

    /// Writes the token or user text of a stored key at the start of `text` (grown as needed),
    /// as `decode` gives it, without a `String`; returns its length.
    static func decode(_ stored: UnsafeRawBufferPointer, into text: inout [UInt8]) -> Int {
        var index = 0
        while stored[index] & 0x80 != 0 { index += 1 }
        index += 1
        let tag = stored[index]
        let body = UnsafeRawBufferPointer(rebasing: stored[(index + 1)...])
        let length = tag == dashedTag ? 36 : tag == hexTag ? 32 : body.count
        if text.count < length { text = [UInt8](repeating: 0, count: max(length, 64)) }
        text.withUnsafeMutableBufferPointer { text in
            let out = UnsafeMutableRawPointer(text.baseAddress!)
            guard tag == dashedTag || tag == hexTag else {
                if length > 0 { out.copyMemory(from: body.baseAddress!, byteCount: length) }
                return
            }
            // Four bytes are eight digits; a dashed UUID's digits go 8-4-4-4-12.
            @inline(__always)
            func digits(_ chunk: Int) -> UInt64 {
                hexDigits(UInt32(littleEndian: body.loadUnaligned(fromByteOffset: 4 * chunk, as: UInt32.self)))
            }
            @inline(__always)
            func put(_ digits: UInt64, at offset: Int) { out.storeBytes(of: digits.littleEndian, toByteOffset: offset, as: UInt64.self) }
            @inline(__always)
            func put(_ digits: UInt32, at offset: Int) { out.storeBytes(of: digits.littleEndian, toByteOffset: offset, as: UInt32.self) }
            guard tag == dashedTag else {
                for chunk in 0..<4 { put(digits(chunk), at: 8 * chunk) }
                return
            }
            let (second, third) = (digits(1), digits(2))
            put(digits(0), at: 0)
            put(UInt32(truncatingIfNeeded: second), at: 9)
            put(UInt32(truncatingIfNeeded: second >> 32), at: 14)
            put(UInt32(truncatingIfNeeded: third), at: 19)
            put(UInt32(truncatingIfNeeded: third >> 32), at: 24)
            put(digits(3), at: 28)
            for offset in stride(from: 8, through: 23, by: 5) { out.storeBytes(of: UInt8(ascii: "-"), toByteOffset: offset, as: UInt8.self) }
        }
        return length
    }

    /// The eight lowercase hex digits of four bytes (the first byte in the low bits), the first
    /// digit in the low byte: every byte's two nibbles spread to bytes of their own, then each
    /// nibble made a digit at once ('0' + n, and 39 more for 10-15).
    @inline(__always)
    static func hexDigits(_ bytes: UInt32) -> UInt64 {
        var spread = UInt64(bytes)
        spread = (spread | spread << 16) & 0x0000_FFFF_0000_FFFF
        spread = (spread | spread << 8) & 0x00FF_00FF_00FF_00FF
        let nibbles = (spread >> 4) & 0x000F_000F_000F_000F | (spread & 0x000F_000F_000F_000F) << 8
        let letters = ((nibbles &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        return nibbles &+ 0x3030_3030_3030_3030 &+ letters &* 0x27
    }

    /// The token or user text of a stored key: the slow twin of `decode(_:into:)`.
    static func decode(_ stored: ArraySlice<UInt8>) -> String {
        var index = stored.startIndex
        while stored[index] & 0x80 != 0 { index += 1 }
        index += 1
        let tag = stored[index]
        let body = stored[(index + 1)...]
        switch tag {
        case dashedTag, hexTag:
            let digits = Array("0123456789abcdef".utf8)
            var text: [UInt8] = []
            for (offset, byte) in body.enumerated() {
                if tag == dashedTag, [4, 6, 8, 10].contains(offset) { text.append(UInt8(ascii: "-")) }
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0F)])
            }
            return String(decoding: text, as: UTF8.self)
        default:
            return String(decoding: body, as: UTF8.self)
        }
    }

    /// Lowercase hex digits only, so unpacking gives back the same text.
    /// A digit's value, or 0xF0 or more for anything else.
    @inline(__always)
    private static func nibble(_ byte: UInt8) -> UInt8 {
        let digit = byte &- UInt8(ascii: "0")
        if digit < 10 { return digit }
        let letter = byte &- UInt8(ascii: "a")
        return letter < 6 ? letter + 10 : 0xF0
    }
}
