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
        if let source = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) {
            if bytes.count == 36, source[8] == 0x2D, source[13] == 0x2D, source[18] == 0x2D, source[23] == 0x2D,
               pack(source, pairsAt: dashedPairs, into: output + length + 1) {
                output[length] = dashedTag
                return length + 17
            }
            if bytes.count == 32, pack(source, pairsAt: plainPairs, into: output + length + 1) {
                output[length] = hexTag
                return length + 17
            }
        }
        output[length] = rawTag
        if bytes.count > 0 { (output + length + 1).initialize(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: bytes.count) }
        return length + 1 + bytes.count
    }

    /// Where each of a UUID's 16 bytes starts, as two hex digits, in its text.
    private static let dashedPairs: (UInt64, UInt64) = packedOffsets([0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34])
    private static let plainPairs: (UInt64, UInt64) = packedOffsets(Array(stride(from: 0, to: 32, by: 2)))

    private static func packedOffsets(_ offsets: [Int]) -> (UInt64, UInt64) {
        var low: UInt64 = 0
        var high: UInt64 = 0
        for (index, offset) in offsets.enumerated() {
            if index < 8 { low |= UInt64(offset) << UInt64(index * 8) } else { high |= UInt64(offset) << UInt64((index - 8) * 8) }
        }
        return (low, high)
    }

    /// Packs 16 pairs of lowercase hex digits; false (output undefined) if any is not one.
    @inline(__always)
    private static func pack(_ source: UnsafePointer<UInt8>, pairsAt offsets: (UInt64, UInt64), into output: UnsafeMutablePointer<UInt8>) -> Bool {
        var invalid: UInt8 = 0
        for index in 0..<16 {
            let word = index < 8 ? offsets.0 : offsets.1
            let offset = Int((word >> UInt64((index & 7) * 8)) & 0xFF)
            let high = nibble(source[offset])
            let low = nibble(source[offset + 1])
            invalid |= (high | low) & 0xF0
            output[index] = high << 4 | (low & 0x0F)
        }
        return invalid == 0
    }

    /// The token or user text of a stored key.
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
