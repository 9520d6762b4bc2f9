import Foundation
import Testing
@testable import PlacesCostKit
@testable import PlacesCostReference

/// The fast byte parser against its Foundation twin, on generated, mutated and hand-picked lines.
@Suite("JSONLineParser")
struct JSONLineParserTests {
    @Test("Fast and Foundation parsers agree on thousands of generated and mutated lines")
    func agreesWithFoundation() {
        var generator = JSONLineGenerator(seed: 0x5EED_2026_1001)
        var tally = Tally()
        for _ in 0..<4_000 {
            let line = generator.record()
            tally.compare(line)
            tally.compare(generator.mutated(line))
            tally.compare(generator.mutated(generator.mutated(line)))
        }
        for mismatch in tally.mismatches.prefix(10) {
            Issue.record("\(mismatch)")
        }
        #expect(tally.mismatches.isEmpty, "\(tally.mismatches.count) disagreements")
        #expect(tally.compared == 12_000)
        // The generator must exercise both answers, or agreement proves little.
        #expect(tally.bothAccepted > 3_000)
        #expect(tally.bothRejected > 3_000)
        #expect(tally.knownValuesCompared > 20_000)
        // Lines Foundation cannot read (a number beyond Double) are rare and explained in the twin.
        #expect(tally.numberOutOfRange < 50)
    }

    @Test("The whole-tree parse accepts the lines the record parse accepts, and holds what Foundation reads")
    func treeAgrees() throws {
        /// Whether `tree` is what Foundation made of the same JSON (numbers by value).
        func same(_ tree: AnyJSON, _ value: Any) -> Bool {
            switch tree {
            case .null: return value is NSNull
            // Foundation's booleans and long numbers as its twin reads them.
            case .bool(let flag): return FoundationJSONLineParser.rawValue(value) == .bool(flag)
            case .number(let literal):
                guard case .number(let text) = FoundationJSONLineParser.rawValue(value) else { return false }
                return Double(literal) == Double(text)
            case .string(let string): return (value as? String) == string
            case .array(let elements):
                guard let others = value as? [Any], others.count == elements.count else { return false }
                return zip(elements, others).allSatisfy(same)
            case .object(let members):
                guard let others = value as? [String: Any], others.count == members.count else { return false }
                return members.allSatisfy { key, member in others[key].map { same(member, $0) } ?? false }
            }
        }
        var generator = JSONLineGenerator(seed: 0x7EE_2026_1127)
        var accepted = 0
        var compared = 0
        for _ in 0..<2_000 {
            let record = generator.record()
            for line in [record, generator.mutated(record), generator.mutated(generator.mutated(record))] {
                var bytes = line
                let (tree, flat) = bytes.withUnsafeMutableBufferPointer { buffer in
                    (JSONLineParser.parseTree(UnsafeBufferPointer(buffer)), JSONLineParser.parse(UnsafeBufferPointer(buffer)))
                }
                #expect((try? tree.get()) != nil && (try? flat.get()) != nil || (try? tree.get()) == nil && (try? flat.get()) == nil, "\(line)")
                guard case .success(let members) = tree else { continue }
                accepted += 1
                // Foundation cannot read a number beyond Double, and drops a raw U+FEFF: those lines prove nothing here.
                guard let foundation = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any],
                      !String(decoding: line, as: UTF8.self).contains("\u{FEFF}") else { continue }
                compared += 1
                #expect(same(AnyJSON.object(members), foundation), "\(line)")
            }
        }
        #expect(accepted > 1_500 && compared > 1_400)
        for example in JSONAdversarialLine.all {
            #expect(throws: JSONLineParser.Failure.self) { try example.bytes.withUnsafeBufferPointer { JSONLineParser.parseTree($0) }.get() }
        }
    }

    @Test("Known keys, aliases and escapes are read to exact values; unknown keys are skipped")
    func exactValues() throws {
        let line = #"{"timestamp":1695000000000,"api":"autocomplete","sessionToken":"t\u00e9\"\\\n\ud83d\ude00/\/","placeId":"ChIJ","fields":["a", "b",[]],"user_id":-0,"extra":{"x":[1,{"y":null}]},"status":null,"project":true,"platform":1.5E-3,"apiVersion":{"a":1},"input":"日本"}"#
        let record = try JSONLineParser.parse(line).get()
        #expect(record[.timestamp] == .number("1695000000000"))
        #expect(record[.api] == .string("autocomplete"))
        #expect(record[.sessionToken].flatMap(stringBytes) == Array("té\"\\\n😀//".utf8))
        #expect(record[.placeID] == .string("ChIJ"))
        #expect(record[.fields] == .array([.string("a"), .string("b"), .array([])]))
        #expect(record[.userID] == .number("-0"))
        #expect(record[.status] == .null)
        #expect(record[.project] == .bool(true))
        #expect(record[.platform] == .number("1.5E-3"))
        #expect(record[.apiVersion] == .object)
        #expect(record[.input] == .string("日本"))
        let twin = try FoundationJSONLineParser.parse(line).get()
        #expect(mismatch(record, twin) == nil)
        #expect(twin[.timestamp] == .number("1695000000000"))
    }

    @Test("A key repeated in a line keeps its last value in both parsers")
    func repeatedKey() throws {
        let line = #"{"api":"a","timestamp":1,"api":"b"}"#
        #expect(try JSONLineParser.parse(line).get()[.api] == .string("b"))
        #expect(try FoundationJSONLineParser.parse(line).get()[.api] == .string("b"))
    }

    @Test("Both parsers reject each RFC 8259 violation", arguments: JSONAdversarialLine.all)
    func rejectsViolation(_ example: JSONAdversarialLine) {
        let fast = example.bytes.withUnsafeBufferPointer { JSONLineParser.parse($0) }
        let slow = example.bytes.withUnsafeBufferPointer { FoundationJSONLineParser.parse($0) }
        #expect(throws: JSONLineParser.Failure.self) { try fast.get() }
        #expect(throws: JSONLineParser.Failure.self) { try slow.get() }
    }

    @Test("Foundation's leniencies are normalised in the twin, not copied into the fast parser")
    func foundationLeniencies() throws {
        let deep = "{\"a\":" + String(repeating: "[", count: 65) + String(repeating: "]", count: 65) + "}"
        let lenient: [[UInt8]] = [
            Array(#"{"api":"x","fields":["a",]}"#.utf8),
            Array(#"{"api":"x",}"#.utf8),
            [0xEF, 0xBB, 0xBF] + Array(#"{"api":"x"}"#.utf8),
            Array(deep.utf8),
        ]
        for bytes in lenient {
            // Foundation on its own takes these lines: the reason the twin exists with its rules.
            #expect((try? JSONSerialization.jsonObject(with: Data(bytes))) != nil)
            #expect((try? bytes.withUnsafeBufferPointer { JSONLineParser.parse($0) }.get()) == nil)
            #expect((try? bytes.withUnsafeBufferPointer { FoundationJSONLineParser.parse($0) }.get()) == nil)
        }
        // UTF-16LE: Foundation guesses the encoding from the NUL bytes.
        let utf16 = Array(#"{"api":"x"}"#.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect((try? JSONSerialization.jsonObject(with: Data(utf16))) != nil)
        #expect((try? utf16.withUnsafeBufferPointer { JSONLineParser.parse($0) }.get()) == nil)
        #expect((try? utf16.withUnsafeBufferPointer { FoundationJSONLineParser.parse($0) }.get()) == nil)
    }

    @Test("A raw U+FEFF after an escape or at a string's start is kept, though Foundation alone drops it")
    func zeroWidthNoBreakSpace() throws {
        for (line, expected) in [(#"{"api":"\u00e9"# + "\u{FEFF}x\"}", "é\u{FEFF}x"), ("{\"api\":\"\u{FEFF}\u{FEFF}a\"}", "\u{FEFF}\u{FEFF}a")] {
            let foundation = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect((foundation["api"] as? String).map { Array($0.unicodeScalars) } != Array(expected.unicodeScalars))
            let fast = try JSONLineParser.parse(line).get()
            let twin = try FoundationJSONLineParser.parse(line).get()
            #expect(fast[.api].flatMap(stringBytes) == Array(expected.utf8))
            #expect(twin[.api].flatMap(stringBytes) == Array(expected.utf8))
        }
        // A backslash before a raw U+FEFF is an invalid escape in both, not turned into `\\uFEFF`.
        let invalid = "{\"api\":\"\\\u{FEFF}\"}"
        #expect((try? JSONLineParser.parse(invalid).get()) == nil)
        #expect((try? FoundationJSONLineParser.parse(invalid).get()) == nil)
    }

    @Test("Nesting: 64 levels are read, 65 are rejected, by both parsers")
    func nestingLimit() {
        // A key's value is level 1; an element or member of a container at level n is at n + 1.
        func arrays(_ levels: Int, innermost: String) -> String {
            "{\"x\":" + String(repeating: "[", count: levels) + innermost + String(repeating: "]", count: levels) + "}"
        }
        func objects(_ levels: Int) -> String {
            "{\"x\":" + String(repeating: "{\"a\":", count: levels) + "1" + String(repeating: "}", count: levels) + "}"
        }
        for line in [arrays(64, innermost: ""), arrays(63, innermost: "1"), objects(63)] {
            #expect((try? JSONLineParser.parse(line).get()) != nil)
            #expect((try? FoundationJSONLineParser.parse(line).get()) != nil)
        }
        // The column is that of the first value at level 65: after `{"x":` and 64 openers.
        for (line, column) in [(arrays(65, innermost: ""), 70), (arrays(64, innermost: "1"), 70), (objects(64), 326)] {
            #expect(JSONLineParser.parse(line) == .failure(JSONLineParser.Failure(reason: "invalid JSON: nesting deeper than 64 at column \(column)")))
            #expect((try? FoundationJSONLineParser.parse(line).get()) == nil)
        }
    }

    @Test("A number beyond Double: the fast parser keeps the literal, Foundation cannot read the line")
    func numberBeyondDouble() throws {
        let line = #"{"timestamp":"2026-10-01T09:00:00Z","api":"autocomplete","user_id":1e400}"#
        #expect(try JSONLineParser.parse(line).get()[.userID] == .number("1e400"))
        #expect(FoundationJSONLineParser.parse(line) == .failure(JSONLineParser.Failure(reason: FoundationJSONLineParser.numberOutOfRangeReason)))
        // The literal survives to the decoder, which rejects it where a number must be finite.
        let timestamp = try JSONLineParser.parse(#"{"timestamp":1e400,"api":"x"}"#).get()
        #expect(throws: DecodeFailure.self) { try CallDecoder(fieldsAsDelimitedCell: false).decode(timestamp).get() }
    }

    @Test("Numbers of every JSON shape agree by value, including ones Foundation keeps as decimals")
    func numberShapes() throws {
        let literals = ["-0", "0", "1e5", "1.5E-3", "1695000000000", "-12.25e+2", "0.30000000000000004441",
                        "123456789012345678901234567890", "9223372036854775808", "-9223372036854775809", "1e-400", "2.5e-320"]
        for literal in literals {
            let line = "{\"user_id\":\(literal)}"
            let fast = try JSONLineParser.parse(line).get()
            let slow = try FoundationJSONLineParser.parse(line).get()
            #expect(fast[.userID] == .number(literal))
            #expect(mismatch(fast, slow) == nil, "\(literal)")
        }
        let long = try FoundationJSONLineParser.parse(#"{"user_id":0.30000000000000004441}"#).get()
        #expect(long[.userID].flatMap(doubleValue) == 0.30000000000000004)
    }
}

// MARK: - Comparing the two parsers

/// A string value's exact bytes (`==` on `String` would equate canonically equivalent text).
private func stringBytes(_ value: RawRecord.Value) -> [UInt8]? {
    guard case .string(let text) = value else { return nil }
    return Array(text.utf8)
}

private func doubleValue(_ value: RawRecord.Value) -> Double? {
    guard case .number(let literal) = value else { return nil }
    return Double(literal)
}

/// Why two values differ, or `nil` when they are the same: numbers by `Double` value (the twin
/// spells them its own way), strings byte for byte (Swift's `==` would equate canonically
/// equivalent strings, hiding a normalisation).
private func mismatch(_ fast: RawRecord.Value?, _ slow: RawRecord.Value?) -> String? {
    switch (fast, slow) {
    case (nil, nil):
        return nil
    case (.number(let a)?, .number(let b)?):
        guard let x = Double(a), let y = Double(b) else { return "unreadable numbers \(a) / \(b)" }
        return x == y ? nil : "numbers \(a) = \(x) / \(b) = \(y)"
    case (.string(let a)?, .string(let b)?):
        return Array(a.utf8) == Array(b.utf8) ? nil : "strings \(a.debugDescription) / \(b.debugDescription)"
    case (.array(let a)?, .array(let b)?):
        guard a.count == b.count else { return "arrays of \(a.count) / \(b.count) elements" }
        return zip(a, b).lazy.compactMap { mismatch($0, $1) }.first
    case (.null?, .null?), (.object?, .object?):
        return nil
    case (.bool(let a)?, .bool(let b)?):
        return a == b ? nil : "booleans \(a) / \(b)"
    default:
        return "\(String(describing: fast)) / \(String(describing: slow))"
    }
}

private func mismatch(_ fast: RawRecord, _ slow: RawRecord) -> String? {
    for key in RawRecord.Key.allCases {
        if let difference = mismatch(fast[key], slow[key]) { return "`\(key.name)`: \(difference)" }
    }
    return nil
}

/// Counts of the comparison and the lines the parsers disagree on.
private struct Tally {
    var compared = 0
    var bothAccepted = 0
    var bothRejected = 0
    var numberOutOfRange = 0
    var knownValuesCompared = 0
    var mismatches: [String] = []

    mutating func compare(_ line: [UInt8]) {
        compared += 1
        compareOnce(line)
    }

    private mutating func compareOnce(_ line: [UInt8]) {
        let fast = line.withUnsafeBufferPointer { JSONLineParser.parse($0) }
        let slow = line.withUnsafeBufferPointer { FoundationJSONLineParser.parse($0) }
        switch (fast, slow) {
        case (.success(let a), .success(let b)):
            bothAccepted += 1
            knownValuesCompared += RawRecord.Key.allCases.filter { a[$0] != nil }.count
            if let difference = mismatch(a, b) { mismatches.append("\(difference) in \(show(line))") }
        case (.failure, .failure):
            bothRejected += 1
        case (.success, .failure(let failure)) where failure.reason == FoundationJSONLineParser.numberOutOfRangeReason:
            // The one answer the twin cannot normalise. Check the rest of the line instead: with
            // every number beyond Double replaced by 0 (in strings too: both sides see the same
            // text), the two must agree again.
            numberOutOfRange += 1
            let tamed = replacingNumbersBeyondDouble(line)
            if tamed == line {
                mismatches.append("Foundation finds a number beyond Double where there is none: \(show(line))")
            } else {
                compareOnce(tamed)
            }
        case (.success, .failure(let failure)):
            mismatches.append("fast accepts, Foundation rejects (\(failure.reason)): \(show(line))")
        case (.failure(let failure), .success):
            mismatches.append("fast rejects (\(failure.reason)), Foundation accepts: \(show(line))")
        }
    }

    /// The line with each run of number characters whose value overflows `Double` replaced by `0`.
    private func replacingNumbersBeyondDouble(_ line: [UInt8]) -> [UInt8] {
        let numberBytes = Set("-+.0123456789eE".utf8)
        var result: [UInt8] = []
        var index = 0
        while index < line.count {
            guard numberBytes.contains(line[index]) else {
                result.append(line[index])
                index += 1
                continue
            }
            let start = index
            while index < line.count, numberBytes.contains(line[index]) { index += 1 }
            let run = Array(line[start..<index])
            let overflows = Double(String(decoding: run, as: UTF8.self)).map { !$0.isFinite } ?? false
            result += overflows ? [UInt8(ascii: "0")] : run
        }
        return result
    }

    private func show(_ line: [UInt8]) -> String {
        if let text = String(validating: line, as: UTF8.self) { return text.debugDescription }
        return "bytes " + line.map { byte in
            (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "<" + String(byte, radix: 16) + ">"
        }.joined()
    }
}

// MARK: - Generating lines

/// Makes canonical-log lines, valid and adversarial, from a seed.
private struct JSONLineGenerator {
    var random: SeededRandom

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &random) < probability
    }

    mutating func pick<T>(_ options: [T]) -> T {
        options[Int.random(in: 0..<options.count, using: &random)]
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &random)
    }

    // Spellings of the known keys, aliases included (each record uses one spelling per key).
    static let spellings: [RawRecord.Key: [String]] = [
        .timestamp: ["timestamp"], .api: ["api"], .sessionToken: ["session_token", "sessionToken"],
        .input: ["input"], .placeID: ["place_id", "placeId"], .fields: ["fields"],
        .apiVersion: ["api_version", "apiVersion"], .userID: ["user_id", "userId"], .project: ["project"],
        .platform: ["platform"], .status: ["status"], .inputLength: ["input_length", "inputLength"],
    ]

    static let unknownKeys = ["extra", "meta", "sessiontoken", "Timestamp", "API", "", "é", "ключ", "place id", "api ", "nested", "😀", "a\\\"b"]

    static let numbers = [
        "-0", "0", "1e5", "1.5E-3", "1695000000000", "1790845200000", "-12.25", "3.14159e+2", "0.1", "1E-7", "-1E+2",
        "2e-308", "1.7976931348623157e308", "1e-400", "123456789012345678901234567890", "0.30000000000000004441",
        "-9223372036854775808", "9223372036854775807", "18446744073709551616", "100", "0.0", "-0.0e-0",
    ]

    static let escapes = [
        "\\n", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\r", "\\t", "\\u00e9", "\\u00E9", "\\u0000", "\\u001f",
        "\\ud83d\\ude00", "\\uD83D\\uDE00", "\\udbff\\udfff", "\\u2028", "\\uFFFF", "\\u0041",
    ]

    static let raw = ["é", "ñ", "日本語", "😀", "\u{7F}", "\u{FEFF}", "\u{10FFFF}", "e\u{301}", "ß", "𝄞"]

    /// Values that break RFC 8259, dropped in place of a value.
    static let poison = [
        "01", "-01", "00", "[1,]", "{\"a\":1,}", "1.", ".5", "+1", "-", "1e", "1e+", "\"\\ud83d\"", "\"\\ude00x\"",
        "\"\\ud83d\\u0041\"", "\"\\ud83dx\"", "tru", "nul", "fals", "NaN", "Infinity", "\"\\x\"", "\"\\u12G4\"", "\"\\u12\"",
        "1e400", "-1e309", "[1 2]", "{\"a\" 1}", "'x'", "0x10", "[,1]", "{,}", "[1,,2]", "\"\\'\"", "truex", "1.5.5",
        String(repeating: "[", count: 65) + String(repeating: "]", count: 65),
        String(repeating: "[", count: 64) + "0" + String(repeating: "]", count: 64),
        String(repeating: "[", count: 63) + "0" + String(repeating: "]", count: 63),
    ]

    mutating func whitespace() -> String {
        chance(0.7) ? "" : pick([" ", "  ", "\t", " \t ", "\r\n", "\n"])
    }

    mutating func string() -> String {
        var text = "\""
        for _ in 0..<int(0...6) {
            switch int(0...3) {
            case 0: text += pick(JSONLineGenerator.escapes)
            case 1: text += pick(JSONLineGenerator.raw)
            default: text += pick(["a", "b", "16", "Main St", "6513270e-269e", "x y", "'", ",", ":", "{", "]", "/", "#"])
            }
        }
        return text + "\""
    }

    mutating func number() -> String {
        switch int(0...3) {
        case 0: return pick(JSONLineGenerator.numbers)
        case 1: return String(int(-1_000_000_000...2_000_000_000_000))
        case 2: return "\(int(-999...999)).\(int(0...999_999))"
        default: return "\(int(-9...9))\(chance(0.5) ? ".\(int(0...99))" : "")\(pick(["e", "E"]))\(pick(["", "+", "-"]))\(int(0...30))"
        }
    }

    mutating func value(depth: Int) -> String {
        switch int(depth >= 4 ? 0...4 : 0...6) {
        case 0: return string()
        case 1: return number()
        case 2: return pick(["true", "false"])
        case 3: return "null"
        case 4: return string()
        case 5: return "[" + (0..<int(0...3)).map { _ in whitespace() + value(depth: depth + 1) + whitespace() }.joined(separator: ",") + "]"
        default:
            let members = (0..<int(0...3)).map { _ in keyText(pick(JSONLineGenerator.unknownKeys)) + ":" + whitespace() + value(depth: depth + 1) }
            return "{" + members.joined(separator: "," + whitespace()) + "}"
        }
    }

    /// A key as JSON text, sometimes with its first letter written as a `\u` escape.
    mutating func keyText(_ name: String) -> String {
        guard let first = name.unicodeScalars.first, first.isASCII, first != "\\", chance(0.1) else { return "\"\(name)\"" }
        let hex = String(first.value, radix: 16)
        return "\"\\u" + String(repeating: "0", count: 4 - hex.count) + hex + name.unicodeScalars.dropFirst().map(String.init).joined() + "\""
    }

    /// A value of the shape a key normally has, or now and then any value.
    mutating func knownValue(_ key: RawRecord.Key) -> String {
        if chance(0.15) { return value(depth: 1) }
        switch key {
        case .timestamp:
            return chance(0.5) ? number() : pick(["\"2026-10-01T09:00:03.730Z\"", "\"2026-10-01t09:00:03+02:00\"", "\"1790845200000\"", string()])
        case .fields:
            return "[" + (0..<int(0...4)).map { _ in chance(0.8) ? "\"\(pick(["formattedAddress", "coordinate", "name", "place_id"]))\"" : string() }.joined(separator: ",") + "]"
        case .userID, .project, .status:
            return chance(0.5) ? number() : string()
        case .inputLength:
            return chance(0.5) ? pick(["0", "3", "12", "\"7\"", "2147483647", "2147483648", "-1", "1.5", "null"]) : number()
        default:
            return chance(0.1) ? "null" : string()
        }
    }

    /// One line, most of them valid JSON.
    mutating func record() -> [UInt8] {
        var members: [String] = []
        for key in RawRecord.Key.allCases where chance(0.6) {
            let spelling = keyText(pick(JSONLineGenerator.spellings[key]!))
            members.append(spelling + whitespace() + ":" + whitespace() + knownValue(key))
            if chance(0.05) { members.append(spelling + ":" + knownValue(key)) }
        }
        for _ in 0..<int(0...3) {
            members.append(keyText(pick(JSONLineGenerator.unknownKeys)) + ":" + whitespace() + value(depth: 1))
        }
        members.shuffle(using: &random)
        if !members.isEmpty, chance(0.08) {
            let index = int(0...members.count - 1)
            let colon = members[index].firstIndex(of: ":")!
            members[index] = String(members[index][...colon]) + pick(JSONLineGenerator.poison)
        }
        var line = whitespace() + "{" + whitespace() + members.joined(separator: whitespace() + "," + whitespace()) + whitespace()
        if chance(0.02) { line += "," }
        line += "}" + whitespace()
        return Array(line.utf8)
    }

    static let invalidUTF8: [[UInt8]] = [
        [0xC3, 0x28], [0xED, 0xA0, 0x80], [0xF8], [0xC0, 0xAF], [0xE0, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80],
        [0x80], [0xBF], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xFF], [0xFE], [0xC1, 0xBF], [0xEF, 0xBB, 0xBF],
    ]

    static let garbage: [[UInt8]] = [
        Array("x".utf8), Array("}".utf8), Array(",".utf8), Array("{}".utf8), Array(" 1".utf8), [0], Array("]".utf8),
        Array("//".utf8), Array(#"{"api":"x"}"#.utf8), [0x0C], [0x0B], [0xC2, 0xA0],
    ]

    /// The line with one adversarial change.
    mutating func mutated(_ line: [UInt8]) -> [UInt8] {
        var bytes = line
        let position = int(0...bytes.count)
        switch int(0...7) {
        case 0:
            bytes.removeSubrange(position...)
        case 1:
            if position < bytes.count { bytes[position] ^= UInt8(1) << UInt8(int(0...7)) }
        case 2:
            bytes.insert(UInt8(truncatingIfNeeded: int(0...255)), at: position)
        case 3:
            if position < bytes.count { bytes.remove(at: position) }
        case 4:
            bytes.insert(UInt8(int(0...0x1F)), at: position)
        case 5:
            bytes.insert(contentsOf: pick(JSONLineGenerator.invalidUTF8), at: position)
        case 6:
            bytes += pick(JSONLineGenerator.garbage)
        default:
            // Inside a string where possible: just after a quote.
            let quotes = bytes.indices.filter { bytes[$0] == UInt8(ascii: "\"") }
            let at = quotes.isEmpty ? position : pick(quotes) + 1
            bytes.insert(contentsOf: Array(pick(["\\ud83d", "\\ude00", "\\ud83d\\u0041", "\\", "\\u", "\\uZZZZ", "\\q"]).utf8), at: at)
        }
        return bytes
    }
}

/// A hand-picked line that no RFC 8259 parser accepts as one record.
struct JSONAdversarialLine: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]

    var testDescription: String { name }

    init(_ name: String, _ text: String) {
        self.init(name, bytes: Array(text.utf8))
    }

    init(_ name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    static let all: [JSONAdversarialLine] = [
        JSONAdversarialLine("empty line", ""),
        JSONAdversarialLine("truncated object", #"{"api":"autocomplete","timestamp":17"#),
        JSONAdversarialLine("truncated string", #"{"api":"autoc"#),
        JSONAdversarialLine("leading zero", #"{"api":"x","timestamp":01}"#),
        JSONAdversarialLine("trailing comma in an array", #"{"api":"x","fields":[1,]}"#),
        JSONAdversarialLine("trailing comma in the object", #"{"api":"x",}"#),
        JSONAdversarialLine("trailing garbage", #"{"api":"x"}x"#),
        JSONAdversarialLine("two objects", #"{"api":"x"}{"api":"y"}"#),
        JSONAdversarialLine("an array, not an object", #"[{"api":"x"}]"#),
        JSONAdversarialLine("a string, not an object", #""api""#),
        JSONAdversarialLine("lone high surrogate", #"{"api":"\ud83d"}"#),
        JSONAdversarialLine("lone low surrogate", #"{"api":"\ude00"}"#),
        JSONAdversarialLine("high surrogate then a letter escape", #"{"api":"\ud83d\u0041"}"#),
        JSONAdversarialLine("invalid escape", #"{"api":"\x"}"#),
        JSONAdversarialLine("short \\u escape", #"{"api":"\u12"}"#),
        JSONAdversarialLine("single quotes", #"{'api':'x'}"#),
        JSONAdversarialLine("unquoted key", #"{api:"x"}"#),
        JSONAdversarialLine("NaN", #"{"api":"x","timestamp":NaN}"#),
        JSONAdversarialLine("plus sign", #"{"api":"x","timestamp":+1}"#),
        JSONAdversarialLine("bare dot", #"{"api":"x","timestamp":1.}"#),
        JSONAdversarialLine("form feed as whitespace", bytes: Array(#"{"api":"x"}"#.utf8) + [0x0C]),
        JSONAdversarialLine("raw newline in a string", bytes: Array(#"{"api":"a"#.utf8) + [0x0A] + Array(#"b"}"#.utf8)),
        JSONAdversarialLine("raw tab in a string", bytes: Array(#"{"api":"a"#.utf8) + [0x09] + Array(#"b"}"#.utf8)),
        JSONAdversarialLine("NUL in a string", bytes: Array(#"{"api":"a"#.utf8) + [0x00] + Array(#"b"}"#.utf8)),
        JSONAdversarialLine("NUL after the object", bytes: Array(#"{"api":"x"}"#.utf8) + [0x00]),
        JSONAdversarialLine("invalid UTF-8 C3 28", bytes: Array(#"{"api":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)),
        JSONAdversarialLine("UTF-8 surrogate ED A0 80", bytes: Array(#"{"api":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8)),
        JSONAdversarialLine("invalid UTF-8 F8", bytes: Array(#"{"api":""#.utf8) + [0xF8] + Array(#""}"#.utf8)),
        JSONAdversarialLine("overlong UTF-8 C0 AF", bytes: Array(#"{"api":""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8)),
        JSONAdversarialLine("beyond U+10FFFF F4 90 80 80", bytes: Array(#"{"api":""#.utf8) + [0xF4, 0x90, 0x80, 0x80] + Array(#""}"#.utf8)),
        JSONAdversarialLine("invalid UTF-8 in a key", bytes: [0x7B, 0x22, 0xFF, 0x22] + Array(#":1}"#.utf8)),
        JSONAdversarialLine("byte-order mark at the start of a line", bytes: [0xEF, 0xBB, 0xBF] + Array(#"{"api":"x"}"#.utf8)),
        JSONAdversarialLine("UTF-16LE text", bytes: Array(#"{"a":1}"#.utf8).flatMap { [$0, 0] }),
    ]
}
