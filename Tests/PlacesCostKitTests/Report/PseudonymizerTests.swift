import Testing
@testable import PlacesCostKit

@Suite("Keyed pseudonyms")
struct PseudonymizerTests {
    func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test("HMAC-SHA256 gives RFC 4231's test vectors (short key, long key)")
    func rfc4231() {
        let jefe = Pseudonymizer(key: Array("Jefe".utf8))
        #expect(hex(jefe.authenticationCode(Array("what do ya want for nothing?".utf8)))
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // Test case 6: a 131-byte key, hashed first.
        let long = Pseudonymizer(key: [UInt8](repeating: 0xAA, count: 131))
        #expect(hex(long.authenticationCode(Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
            == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        #expect(jefe.pseudonym("what do ya want for nothing?") == "5bdcc146bf60754e")
    }

    @Test("RFC 4231 test cases 1, 2, 3, 4 and 7: short and long keys, messages of one to three blocks")
    func moreVectors() {
        let cases: [([UInt8], [UInt8], String)] = [
            ([UInt8](repeating: 0x0B, count: 20), Array("Hi There".utf8),
             "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
            (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
             "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
            ([UInt8](repeating: 0xAA, count: 20), [UInt8](repeating: 0xDD, count: 50),
             "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
            (Array(1...25), [UInt8](repeating: 0xCD, count: 50),
             "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
            ([UInt8](repeating: 0xAA, count: 131),
             Array("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.".utf8),
             "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
        ]
        for (key, message, expected) in cases {
            #expect(hex(HMACSHA256(key: key).code(message)) == expected)
        }
    }

    @Test("The prepared states give RFC 2104's formula for every message length from 0 to 200 bytes, with libcrypto's block function and without",
          arguments: [false, true])
    func preparedStatesAgree(withLibrary: Bool) throws {
        let library = withLibrary ? LibCrypto.chosen : nil
        // Without libcrypto on this platform, the second run would only repeat the first.
        guard library != nil || !withLibrary else { return }
        for keyLength in [0, 1, 32, 64, 65, 100] {
            let key = (0..<keyLength).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            var block = key.count > 64 ? SHA256.digest(streaming: key) : key
            block += [UInt8](repeating: 0, count: 64 - block.count)
            let hmac = HMACSHA256(key: key, library: library)
            for length in 0...200 {
                let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ length) }
                // RFC 2104 as written, each digest by the byte-by-byte path.
                let expected = SHA256.digest(streaming: block.map { $0 ^ 0x5C } + SHA256.digest(streaming: block.map { $0 ^ 0x36 } + message))
                let code = hmac.code(message)
                #expect(code == expected, "key \(keyLength), message \(length)")
                let prefix = message.withUnsafeBytes { hmac.prefix64($0) }
                #expect(prefix == code.prefix(8).reduce(0) { $0 << 8 | UInt64($1) })
            }
        }
    }

    @Test("putHex writes all sixteen digits of every nibble value, most significant first, as String(radix: 16) does")
    func hexDigits() {
        var values: [UInt64] = [0, 1, 9, 10, 15, 16, 0xA, 0xF0, 0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210, .max, 1 << 63, 0x9999_9999_AAAA_AAAA]
        // Every nibble value at every position.
        for position in 0..<16 {
            for nibble in UInt64(0)...15 { values.append(nibble << UInt64(4 * position)) }
        }
        var random = SystemRandomNumberGenerator()
        for _ in 0..<10_000 { values.append(random.next()) }
        var buffer = [UInt8](repeating: 0, count: 17)
        for value in values {
            let end = buffer.withUnsafeMutableBufferPointer { Pseudonymizer.putHex(value, at: $0.baseAddress!) - $0.baseAddress! }
            let text = String(value, radix: 16)
            #expect(end == 16)
            #expect(String(decoding: buffer[..<16], as: UTF8.self) == String(repeating: "0", count: 16 - text.count) + text)
            #expect(buffer[16] == 0, "nothing written past the digits")
        }
    }
}
