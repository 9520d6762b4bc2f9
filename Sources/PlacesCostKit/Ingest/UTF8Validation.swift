/// UTF-8 validation for the per-record readers, with a fast path for ASCII.
///
/// `String(validating:as:)` is generic over the encoding and instantiates its metadata on every
/// call: about a seventh of reading a CSV log. Most log text is ASCII, which is valid UTF-8 and
/// is checked eight bytes at a time here; anything else still goes to the standard library.
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
}
