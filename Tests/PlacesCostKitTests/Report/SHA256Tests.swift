import Testing
@testable import PlacesCostKit

/// SHA-256 against the FIPS 180-4 examples and `sha256sum` around the padding boundaries.
@Suite("SHA-256")
struct SHA256Tests {
    /// The first `count` bytes of "abcdefghijklmnopqrstuvwxyzabcd...".
    static func alphabet(_ count: Int) -> String {
        String(decoding: (0..<count).map { UInt8(ascii: "a") + UInt8($0 % 26) }, as: UTF8.self)
    }

    @Test("The NIST examples: empty, \"abc\", 448 bits, 896 bits")
    func nistVectors() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu") == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    @Test("One million \"a\"")
    func millionA() {
        #expect(SHA256.hex(String(repeating: "a", count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// 55 bytes is the most that pads within one block; 56 to 63 spill the length into a second.
    @Test("Inputs around the block and padding boundaries agree with sha256sum", arguments: [
        (55, "595615dbe4f0f407ae397d08b4c2cb870cb9b0e11937416f950c5160acf9c005"),
        (56, "784f623b787495078e93ff28a25b581df0584055a7e71d8cd90c454716b92f51"),
        (63, "5ca3e1ef5207490eac01a795e5cc94d59582a5118bf9534665c8668d87aa647c"),
        (64, "2fcd5a0d60e4c941381fcc4e00a4bf8be422c3ddfafb93c809e8d1e2bfffae8e"),
        (65, "1b3cd1877ab2f2f19f7be001722554f336cb799df0329de0bb4c118dc6abc06d"),
        (119, "faef67da856d6fd9c8d12f9ed0a4fefd3cf0ce085ab43e2907418d457e3c354b"),
        (120, "c9512b08619c19fbb503c7da6b46ef20301e5f7a7a5f43989182398536f5c5c8"),
    ])
    func boundaries(length: Int, expected: String) {
        #expect(SHA256.hex(SHA256Tests.alphabet(length)) == expected)
    }

    @Test("hex hashes the UTF-8 bytes of the text")
    func utf8() {
        #expect(SHA256.hex("héllo wörld €") == "a3260bb658a2bce4e8e8b9cd613904a51582e107bd16c453b5530bd56be4937a")
    }

    @Test("digest takes any byte sequence and returns 32 bytes")
    func digestOfSequence() {
        let bytes = SHA256.digest([UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "c")])
        #expect(bytes.count == 32)
        #expect(bytes.prefix(4) == [0xba, 0x78, 0x16, 0xbf])
        #expect(SHA256.digest("abc".utf8.lazy.map { $0 }) == bytes)
    }

    @Test("The contiguous fast path and the byte-by-byte path agree at every length up to three blocks")
    func pathsAgree() {
        for length in 0...192 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
            let fast = bytes.withUnsafeBufferPointer { SHA256.digest(contiguous: $0) }
            #expect(fast == SHA256.digest(streaming: bytes), "length \(length)")
            #expect(SHA256.digest(bytes) == fast)
        }
    }

    @Test("libcrypto's block function, when the platform has it, compresses every block as SHA256's own does")
    func libraryAgrees() throws {
        #if canImport(Darwin)
        let candidates: [String] = []
        #else
        let candidates = ["libcrypto.so.3", "libcrypto.so"]
        #endif
        guard let library = LibCrypto.load(candidates: candidates) else { return }
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var state = SIMD8<UInt32>()
            for index in 0..<8 { state[index] = random.next() }
            let block = (0..<64).map { _ in UInt8.random(in: 0...255, using: &random) }
            var own = state
            var theirs = state
            block.withUnsafeBytes { SHA256.compressWithoutLibrary($0.baseAddress!, into: &own) }
            block.withUnsafeBytes { library.compress($0.baseAddress!, into: &theirs) }
            #expect(own == theirs)
        }
        #expect(LibCrypto.load(candidates: ["libplacescost-no-such-library.so"]) == nil)
    }
}
