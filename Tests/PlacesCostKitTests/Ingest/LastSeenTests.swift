import Testing
@testable import PlacesCostKit

@Suite("The builder's last-seen strings")
struct LastSeenTests {
    @Test("A remembered string matches itself and nothing that differs in one byte or in length, at every length up to 64")
    func matchesOnlyTheSameBytes() {
        let source = Array("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-_".utf8)
        for length in 0...source.count {
            let text = Array(source[..<length])
            var seen = LastSeen()
            text.withUnsafeBytes { seen.remember($0, id: 7) }
            #expect(text.withUnsafeBytes { seen.id(for: $0) } == 7, "length \(length)")
            for position in 0..<length {
                var changed = text
                changed[position] ^= 0x20
                #expect(changed.withUnsafeBytes { seen.id(for: $0) } == nil, "length \(length), byte \(position)")
            }
            let longer = Array(source[..<min(length + 1, source.count)]) + (length == source.count ? [0x21] : [])
            #expect(longer.withUnsafeBytes { seen.id(for: $0) } == nil, "length \(length) + 1")
        }
    }

    @Test("A string over 64 bytes is not remembered")
    func tooLong() {
        let text = Array(repeating: UInt8(ascii: "x"), count: 65)
        var seen = LastSeen()
        text.withUnsafeBytes { seen.remember($0, id: 3) }
        #expect(text.withUnsafeBytes { seen.id(for: $0) } == nil)
    }
}
