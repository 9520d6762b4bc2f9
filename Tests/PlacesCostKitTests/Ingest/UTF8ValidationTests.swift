import Testing
@testable import PlacesCostKit

@Suite("UTF-8 validation with an ASCII fast path")
struct UTF8ValidationTests {
    @Test("Agrees with the standard library on ASCII, valid and invalid UTF-8 of every length")
    func agreesWithStandardLibrary() {
        var random = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array("é".utf8), Array("東".utf8), Array("😀".utf8),
            [0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xFF], [0x00], [0x7F],
        ]
        for length in 0..<40 {
            for _ in 0..<50 {
                var bytes: [UInt8] = []
                while bytes.count < length { bytes += pieces.randomElement(using: &random)! }
                let expected = String(validating: bytes, as: UTF8.self)
                #expect(UTF8Validation.string(bytes) == expected, "\(bytes)")
                #expect(bytes.withUnsafeBufferPointer { UTF8Validation.isValid($0) } == (expected != nil), "\(bytes)")
                #expect(bytes.withUnsafeBytes { UTF8Validation.isASCII($0) } == bytes.allSatisfy { $0 < 0x80 })
            }
        }
    }

    @Test("ASCII without NUL, word by word: a zero or high byte at any position of any length is found, and nothing else")
    func asciiWithoutNUL() {
        var random = SystemRandomNumberGenerator.Seeded(seed: 9)
        for length in 0...40 {
            for _ in 0..<200 {
                var bytes = (0..<length).map { _ in UInt8(0x01 + random.next() % 0x7F) }
                // Now and then one byte (or two) made a NUL or a high byte, anywhere.
                for _ in 0..<Int(random.next() % 3) where length > 0 {
                    bytes[Int(random.next() % UInt64(length))] = [0x00, 0x80, 0xFF, 0x01, 0x7F][Int(random.next() % 5)]
                }
                let expected = bytes.allSatisfy { $0 != 0 && $0 < 0x80 }
                #expect(bytes.withUnsafeBytes { UTF8Validation.isASCIIWithoutNUL($0) } == expected, "\(bytes)")
            }
        }
    }
}
