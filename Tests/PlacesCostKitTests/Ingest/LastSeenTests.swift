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

@Suite("The builder's recent strings")
struct RecentStringsTests {
    @Test("The last four strings are found with their ids; a fifth replaces the oldest")
    func keepsTheLastFour() {
        let words = ["autocomplete", "ios", "android", "web", "place_details", "a-much-longer-project-name-than-sixteen-bytes"].map { Array($0.utf8) }
        var recent = RecentStrings()
        func id(_ word: [UInt8]) -> UInt32? { word.withUnsafeBytes { recent.id(for: $0) } }
        for (index, word) in words.prefix(4).enumerated() {
            #expect(id(word) == nil)
            word.withUnsafeBytes { recent.remember($0, id: UInt32(index + 1)) }
        }
        for (index, word) in words.prefix(4).enumerated() { #expect(id(word) == UInt32(index + 1)) }
        #expect(id(Array("iOS".utf8)) == nil)
        words[4].withUnsafeBytes { recent.remember($0, id: 5) }
        #expect(id(words[0]) == nil, "the oldest is replaced")
        #expect(id(words[4]) == 5 && id(words[1]) == 2)
        words[5].withUnsafeBytes { recent.remember($0, id: 6) }
        #expect(id(words[5]) == nil && id(words[1]) == 2, "a string over 16 bytes is not remembered, and takes no slot")
    }

    @Test("A remembered short string matches only itself: one byte or the length changed misses, at every length up to 16")
    func shortStringsExactly() {
        let source = Array("abcdefghijklmnopq".utf8)
        for length in 0...16 {
            var recent = RecentStrings()
            let text = Array(source[..<length])
            text.withUnsafeBytes { recent.remember($0, id: 9) }
            #expect(text.withUnsafeBytes { recent.id(for: $0) } == 9, "length \(length)")
            for position in 0..<length {
                var changed = text
                changed[position] ^= 0x20
                #expect(changed.withUnsafeBytes { recent.id(for: $0) } == nil, "length \(length), byte \(position)")
            }
            let longer = Array(source[..<(length + 1)])
            #expect(longer.withUnsafeBytes { recent.id(for: $0) } == nil, "length \(length) + 1")
        }
    }
}
