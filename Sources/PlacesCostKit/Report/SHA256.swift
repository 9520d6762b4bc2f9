/// SHA-256 (FIPS 180-4), written out so that reports can pseudonymize session tokens and user ids.
///
/// CryptoKit does not exist on Linux and the package takes no dependencies, so this is the
/// textbook algorithm: pad, split into 64-byte blocks, compress each into eight 32-bit words.
/// Reports hash millions of short strings, so nothing is allocated per block: the state is a
/// value (`State`), the message schedule and the padding block live on the stack, and contiguous
/// input is compressed where it lies. `HMACSHA256` starts from states prepared once per key.
/// The byte-by-byte path stays for other sequences, and the tests check that both agree.
enum SHA256 {
    /// The eight working words between blocks.
    struct State: Equatable {
        var words: SIMD8<UInt32>

        static let initial = State(words: SIMD8(
            0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
        ))

        /// Folds one 64-byte block into the state (FIPS 180-4 section 6.2.2): with libcrypto's
        /// block function when the platform has it (`LibCrypto`), else `SHA256`'s own.
        @inline(__always)
        mutating func compress(_ block: UnsafeRawPointer) {
            if let library = LibCrypto.chosen {
                library.compress(block, into: &words)
            } else {
                SHA256.compressWithoutLibrary(block, into: &words)
            }
        }

        /// Pads and compresses the last `count` bytes of a message of `length` bytes in all,
        /// whose earlier blocks are already compressed.
        mutating func finish(_ tail: UnsafeRawPointer, count: Int, length: UInt64) {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { block in
                let raw = UnsafeMutableRawPointer(block.baseAddress!)
                raw.copyMemory(from: tail, byteCount: count)
                raw.storeBytes(of: 0x80, toByteOffset: count, as: UInt8.self)
                let blocks = count + 9 > 64 ? 2 : 1
                let end = blocks * 64
                (raw + count + 1).initializeMemory(as: UInt8.self, repeating: 0, count: end - 8 - count - 1)
                raw.storeBytes(of: (length &* 8).bigEndian, toByteOffset: end - 8, as: UInt64.self)
                compress(raw)
                if blocks == 2 { compress(raw + 64) }
            }
        }

        /// The digest's bytes: the words, big-endian.
        var digest: [UInt8] {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(32)
            for index in 0..<8 {
                let word = words[index]
                bytes += [UInt8(truncatingIfNeeded: word >> 24), UInt8(truncatingIfNeeded: word >> 16),
                          UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)]
            }
            return bytes
        }
    }

    /// The digest of `bytes`: 32 bytes.
    static func digest(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        if let digest = bytes.withContiguousStorageIfAvailable({ digest(contiguous: $0) }) {
            return digest
        }
        return digest(streaming: bytes)
    }

    /// The digest of the UTF-8 bytes of `text`, as 64 lowercase hexadecimal digits.
    static func hex(_ text: String) -> String {
        let digest = digest(text.utf8)
        var characters: [UInt8] = []
        characters.reserveCapacity(64)
        for byte in digest {
            characters.append(hexDigits[Int(byte >> 4)])
            characters.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: characters, as: UTF8.self)
    }

    /// The fast path: whole blocks are compressed where they lie; only the tail is copied, to be
    /// padded.
    static func digest(contiguous bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var state = State.initial
        state.absorb(UnsafeRawBufferPointer(bytes), lengthBefore: 0)
        return state.digest
    }

    /// The slow twin: any sequence, one byte at a time into a block buffer.
    static func digest(streaming bytes: some Sequence<UInt8>) -> [UInt8] {
        var state = State.initial
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { block in
            var filled = 0
            var length: UInt64 = 0
            for byte in bytes {
                block[filled] = byte
                filled += 1
                length &+= 1
                if filled == 64 {
                    state.compress(UnsafeRawPointer(block.baseAddress!))
                    filled = 0
                }
            }
            state.finish(UnsafeRawPointer(block.baseAddress!), count: filled, length: length)
        }
        return state.digest
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let roundConstants: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// Folds one 64-byte block into `state` (FIPS 180-4 section 6.2.2): the message schedule
    /// on the stack, read through plain pointers, no allocation.
    static func compressWithoutLibrary(_ block: UnsafeRawPointer, into state: inout SIMD8<UInt32>) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { buffer in
            let schedule = buffer.baseAddress!
            for index in 0..<16 {
                schedule[index] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 &* index, as: UInt32.self))
            }
            for index in 16..<64 {
                let w15 = schedule[index &- 15], w2 = schedule[index &- 2]
                let sigma0 = rotateRight(w15, 7) ^ rotateRight(w15, 18) ^ (w15 &>> 3)
                let sigma1 = rotateRight(w2, 17) ^ rotateRight(w2, 19) ^ (w2 &>> 10)
                schedule[index] = schedule[index &- 16] &+ sigma0 &+ schedule[index &- 7] &+ sigma1
            }
            var a = state[0], b = state[1], c = state[2], d = state[3]
            var e = state[4], f = state[5], g = state[6], h = state[7]
            // Eight rounds a turn, the working variables' roles rotated by the arguments rather
            // than by moves (which the compiler otherwise shuffles through vector registers).
            @inline(__always)
            func round(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ constant: UInt32, _ word: UInt32) {
                let sum1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)
                let choose = (e & f) ^ (~e & g)
                let temp1 = h &+ sum1 &+ choose &+ constant &+ word
                let sum0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                d &+= temp1
                h = temp1 &+ sum0 &+ majority
            }
            roundConstants.withUnsafeBufferPointer { constants in
                let k = constants.baseAddress!
                var index = 0
                while index < 64 {
                    round(a, b, c, &d, e, f, g, &h, k[index], schedule[index])
                    round(h, a, b, &c, d, e, f, &g, k[index &+ 1], schedule[index &+ 1])
                    round(g, h, a, &b, c, d, e, &f, k[index &+ 2], schedule[index &+ 2])
                    round(f, g, h, &a, b, c, d, &e, k[index &+ 3], schedule[index &+ 3])
                    round(e, f, g, &h, a, b, c, &d, k[index &+ 4], schedule[index &+ 4])
                    round(d, e, f, &g, h, a, b, &c, k[index &+ 5], schedule[index &+ 5])
                    round(c, d, e, &f, g, h, a, &b, k[index &+ 6], schedule[index &+ 6])
                    round(b, c, d, &e, f, g, h, &a, k[index &+ 7], schedule[index &+ 7])
                    index &+= 8
                }
            }
            state &+= SIMD8(a, b, c, d, e, f, g, h)
        }
    }

    @inline(__always)
    private static func rotateRight(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value &>> count) | (value &<< (32 &- count))
    }
}

extension SHA256.State {
    /// Compresses the whole blocks of `bytes` where they lie and finishes with the rest, for a
    /// message of `lengthBefore` bytes already compressed (whole blocks) followed by `bytes`.
    mutating func absorb(_ bytes: UnsafeRawBufferPointer, lengthBefore: UInt64) {
        var offset = 0
        if let base = bytes.baseAddress {
            while bytes.count - offset >= 64 {
                compress(base + offset)
                offset += 64
            }
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { empty in
            let tail = bytes.baseAddress.map { UnsafeRawPointer($0 + offset) } ?? UnsafeRawPointer(empty.baseAddress!)
            finish(tail, count: bytes.count - offset, length: lengthBefore + UInt64(bytes.count))
        }
    }
}
