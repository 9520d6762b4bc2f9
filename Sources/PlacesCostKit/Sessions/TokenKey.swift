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

    static func encode(project: UInt32, _ bytes: UnsafeRawBufferPointer, into key: inout [UInt8]) {
        key.removeAll(keepingCapacity: true)
        var value = project
        repeat {
            key.append(UInt8(value & 0x7F) | (value >= 0x80 ? 0x80 : 0))
            value >>= 7
        } while value != 0
        if bytes.count == 36, packDashed(bytes, into: &key) { return }
        if bytes.count == 32, packHex(bytes, into: &key) { return }
        key.append(rawTag)
        key.append(contentsOf: bytes)
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

    private static func packDashed(_ bytes: UnsafeRawBufferPointer, into key: inout [UInt8]) -> Bool {
        guard bytes[8] == 0x2D, bytes[13] == 0x2D, bytes[18] == 0x2D, bytes[23] == 0x2D else { return false }
        let start = key.count
        key.append(dashedTag)
        var index = 0
        while index < 36 {
            if index == 8 || index == 13 || index == 18 || index == 23 { index += 1; continue }
            guard let high = nibble(bytes[index]), let low = nibble(bytes[index + 1]) else {
                key.removeSubrange(start...)
                return false
            }
            key.append(high << 4 | low)
            index += 2
        }
        return true
    }

    private static func packHex(_ bytes: UnsafeRawBufferPointer, into key: inout [UInt8]) -> Bool {
        let start = key.count
        key.append(hexTag)
        var index = 0
        while index < 32 {
            guard let high = nibble(bytes[index]), let low = nibble(bytes[index + 1]) else {
                key.removeSubrange(start...)
                return false
            }
            key.append(high << 4 | low)
            index += 2
        }
        return true
    }

    /// Lowercase hex digits only, so unpacking gives back the same text.
    @inline(__always)
    private static func nibble(_ byte: UInt8) -> UInt8? {
        let digit = byte &- UInt8(ascii: "0")
        if digit < 10 { return digit }
        let letter = byte &- UInt8(ascii: "a")
        return letter < 6 ? letter + 10 : nil
    }
}
