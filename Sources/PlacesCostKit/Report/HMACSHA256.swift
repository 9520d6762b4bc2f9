/// HMAC-SHA256 (RFC 2104) under one key, with the states after the key's inner and outer pads
/// compressed once: a short message then costs two compressions, not four.
struct HMACSHA256: Sendable {
    private let inner: SHA256.State
    private let outer: SHA256.State
    /// The block function: libcrypto's when the process uses it (`LibCrypto.chosen`), looked up
    /// once here rather than at every block.
    private let library: LibCrypto?

    /// The longest message whose padding fits its one block (RFC 6234: a 0x80 byte and the
    /// 8-byte bit length): every token and nearly every user id.
    private static let oneBlockMessage = 55

    /// - Parameters:
    ///   - key: any bytes; a key longer than a block is hashed first, as RFC 2104 says.
    ///   - library: the block function's library for the key and for one-block messages; `nil`
    ///     for `SHA256`'s own (the tests run both). Longer messages go through `SHA256.State`.
    init(key: [UInt8], library: LibCrypto? = LibCrypto.chosen) {
        var block = key.count > 64 ? SHA256.digest(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        var inner = SHA256.State.initial.words
        var outer = SHA256.State.initial.words
        (block.map { $0 ^ 0x36 }).withUnsafeBytes { HMACSHA256.compress($0.baseAddress!, into: &inner, library) }
        (block.map { $0 ^ 0x5C }).withUnsafeBytes { HMACSHA256.compress($0.baseAddress!, into: &outer, library) }
        self.inner = SHA256.State(words: inner)
        self.outer = SHA256.State(words: outer)
        self.library = library
    }

    @inline(__always)
    private static func compress(_ block: UnsafeRawPointer, into words: inout SIMD8<UInt32>, _ library: LibCrypto?) {
        if let library {
            library.compress(block, into: &words)
        } else {
            SHA256.compressWithoutLibrary(block, into: &words)
        }
    }

    /// The code of `message`: the outer digest's eight words.
    @inline(__always)
    func code(_ message: UnsafeRawBufferPointer) -> SIMD8<UInt32> {
        guard message.count > HMACSHA256.oneBlockMessage else { return shortCode(message) }
        var state = inner
        state.absorb(message, lengthBefore: 64)
        var digest = SIMD8<UInt32>()
        for index in 0..<8 { digest[index] = state.words[index].bigEndian }
        var result = outer
        withUnsafeBytes(of: &digest) { result.absorb($0, lengthBefore: 64) }
        return result.words
    }

    /// The code of a message of one padded block: both blocks built in one buffer on the stack,
    /// the outer one's padding fixed (a 32-byte digest after the 64-byte pad).
    @inline(__always)
    private func shortCode(_ message: UnsafeRawBufferPointer) -> SIMD8<UInt32> {
        withUnsafeTemporaryAllocation(byteCount: 64, alignment: 16) { buffer in
            let block = buffer.baseAddress!
            block.initializeMemory(as: UInt8.self, repeating: 0, count: 64)
            if let bytes = message.baseAddress { block.copyMemory(from: bytes, byteCount: message.count) }
            block.storeBytes(of: 0x80, toByteOffset: message.count, as: UInt8.self)
            block.storeBytes(of: (UInt64(64 + message.count) &* 8).bigEndian, toByteOffset: 56, as: UInt64.self)
            var words = inner.words
            HMACSHA256.compress(block, into: &words, library)
            for index in 0..<8 { block.storeBytes(of: words[index].bigEndian, toByteOffset: 4 * index, as: UInt32.self) }
            block.storeBytes(of: 0x80, toByteOffset: 32, as: UInt8.self)
            (block + 33).initializeMemory(as: UInt8.self, repeating: 0, count: 56 - 33)
            block.storeBytes(of: UInt64((64 + 32) * 8).bigEndian, toByteOffset: 56, as: UInt64.self)
            words = outer.words
            HMACSHA256.compress(block, into: &words, library)
            return words
        }
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
