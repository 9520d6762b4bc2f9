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
}
