import Foundation
import Testing
@testable import PlacesCostKit

/// `JSONValue.rendered()` writes bytes; its slow twin (`JSONStringWriter`) builds a `String`.
/// Every document must come out byte-identical from both, and read back as the same JSON.
@Suite("JSON writer")
struct JSONValueTests {
    /// Every control character, the characters JSON escapes, and multi-byte UTF-8 (accents,
    /// a combining mark, an emoji, a character outside the BMP).
    static let strings: [String] = [
        "", "plain", "quote \" and backslash \\ and slash /",
        String((0 ..< 0x20).map { Character(Unicode.Scalar($0)!) }),
        "line\nbreak\r\ttab", "\u{7F} delete", "Café Zürich", "e\u{301}", "🗺️ map", "𝄞 clef", "\u{2028}\u{2029}",
    ]

    static let integers: [Int] = [0, 1, -1, 9, 10, -10, 1234567890, Int.max, Int.min, Int(Int32.max) + 1]

    static var documents: [JSONValue] {
        let scalars: [JSONValue] = [.null, .bool(true), .bool(false)]
            + integers.map(JSONValue.int)
            + [0.5, -0.000001, 123.4567891, 1e15, 1e19, -2.25].map(JSONValue.number)
            + strings.map(JSONValue.string)
        let row = JSONValue.row(scalars)
        let object = JSONValue.object(strings.enumerated().map { (index, key) in (key, scalars[index % scalars.count]) })
        let nested = JSONValue.object([
            ("empty_array", .array([])), ("empty_object", .object([])), ("empty_row", .row([])),
            ("rows", .array([row, row])), ("object", object),
            ("deep", .array([.object([("inner", .array([.array([.int(1)]), .object([("x", .string("y"))])]))])])),
        ])
        return scalars + [row, object, nested, .array(scalars)]
    }

    @Test("Bytes equal the String writer's for every kind of value")
    func sameAsStringWriter() {
        for document in JSONValueTests.documents {
            #expect(document.rendered() == JSONStringWriter.rendered(document))
        }
    }

    @Test("Strings read back as they were, whatever characters they hold")
    func stringsRoundTrip() throws {
        for text in JSONValueTests.strings {
            let rendered = JSONValue.array([.string(text)]).rendered()
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(rendered.utf8)) as? [String])
            #expect(parsed == [text])
        }
    }

    @Test("Integers read back exactly, the extremes included")
    func integersRoundTrip() {
        for number in JSONValueTests.integers {
            #expect(JSONValue.int(number).rendered() == "\(number)\n")
        }
    }
}
