/// Writes gzip files in-process with no compression library: deflate's stored blocks (RFC 1951
/// section 3.2.4) in a gzip member (RFC 1952), so tests make gzip input of any log on any
/// machine, independently of the zlib the tool reads it with.
enum StoredGzipWriter {
    /// One gzip member holding `bytes`.
    static func member(_ bytes: [UInt8]) -> [UInt8] {
        // ID1 ID2, CM = deflate, no flags, no time, XFL 0, OS unknown.
        var out: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF]
        var offset = 0
        repeat {
            let count = min(0xFFFF, bytes.count - offset)
            let last = offset + count == bytes.count
            out.append(last ? 0x01 : 0x00)
            out += littleEndian(UInt16(count)) + littleEndian(~UInt16(count))
            out += bytes[offset..<offset + count]
            offset += count
        } while offset < bytes.count
        out += littleEndian(crc32(bytes)) + littleEndian(UInt32(truncatingIfNeeded: bytes.count))
        return out
    }

    /// `text` as one gzip member.
    static func member(_ text: String) -> [UInt8] {
        member(Array(text.utf8))
    }

    /// The CRC-32 of gzip (the reflected polynomial 0xEDB88320), a byte at a time from a table.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return ~crc
    }

    private static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 {
            crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
        }
        return crc
    }

    private static func littleEndian<Integer: FixedWidthInteger>(_ value: Integer) -> [UInt8] {
        (0..<Integer.bitWidth / 8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}
