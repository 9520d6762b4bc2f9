/// HMAC-SHA256 (RFC 2104) under one key, with the states after the key's inner and outer pads
/// compressed once: a short message then costs two compressions, not four.
struct HMACSHA256: Sendable {
    private let inner: SHA256.State
    private let outer: SHA256.State

    /// - Parameter key: any bytes; a key longer than a block is hashed first, as RFC 2104 says.
    init(key: [UInt8]) {
        var block = key.count > 64 ? SHA256.digest(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        var inner = SHA256.State.initial
        var outer = SHA256.State.initial
        (block.map { $0 ^ 0x36 }).withUnsafeBytes { inner.compress($0.baseAddress!) }
        (block.map { $0 ^ 0x5C }).withUnsafeBytes { outer.compress($0.baseAddress!) }
        self.inner = inner
        self.outer = outer
    }

    /// The code of `message`: the outer digest's eight words.
    @inline(__always)
    func code(_ message: UnsafeRawBufferPointer) -> SIMD8<UInt32> {
        var state = inner
        state.absorb(message, lengthBefore: 64)
        var digest = SIMD8<UInt32>()
        for index in 0..<8 { digest[index] = state.words[index].bigEndian }
        var result = outer
        withUnsafeBytes(of: &digest) { result.absorb($0, lengthBefore: 64) }
        return result.words
    }

    /// The full code as bytes.
    func code(_ message: [UInt8]) -> [UInt8] {
        SHA256.State(words: message.withUnsafeBytes { code($0) }).digest
    }

    /// The first 64 bits of the code, as a big-endian number: its first 16 hex digits are the
    /// code's.
    @inline(__always)
    func prefix64(_ message: UnsafeRawBufferPointer) -> UInt64 {
        let words = code(message)
        return UInt64(words[0]) << 32 | UInt64(words[1])
    }
}
