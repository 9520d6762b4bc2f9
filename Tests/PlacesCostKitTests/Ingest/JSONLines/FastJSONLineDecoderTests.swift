import Foundation
import Testing
@testable import PlacesCostKit
@testable import PlacesCostReference

/// The fast decoder against its slow twin (`JSONLineParser` + `CallDecoder`): whatever it accepts
/// must decode to the same `Call` the slow way, and it must accept the lines loggers write.
@Suite("FastJSONLineDecoder")
struct FastJSONLineDecoderTests {
    static let typicalLine = #"{"timestamp":"2026-10-01T00:46:37.450Z","api":"autocomplete","session_token":"7b94d68c-ff83-4f09-8e63-860a076469aa","input":"Sta","api_version":"legacy","user_id":"u-0098","platform":"ios","status":"OK"}"#

    @Test("Every line the fast decoder accepts gives the slow path's Call; normal lines are all accepted")
    func agreesWithSlowPath() {
        var generator = FastLineGenerator(seed: 0xFA57_2026_1001)
        var tally = FastTally()
        for _ in 0..<6_000 {
            let normal = generator.normalMembers()
            let line = generator.line(normal)
            tally.compare(line, normal: true)
            tally.compare(generator.mutatedBytes(line), normal: false)
            tally.compare(generator.mutatedBytes(generator.mutatedBytes(line)), normal: false)
            let adversarial = generator.line(generator.mutatedMembers(normal))
            tally.compare(adversarial, normal: false)
            tally.compare(generator.mutatedBytes(adversarial), normal: false)
        }
        for problem in tally.problems.prefix(10) {
            Issue.record("\(problem)")
        }
        #expect(tally.problems.count == 0)
        #expect(tally.compared == 30_000)
        #expect(tally.normalAccepted == 6_000)
        // Adversarial lines must exercise every answer, or agreement proves little: the fast path
        // taking unusual but valid lines, declining some the slow path accepts, and both rejecting.
        #expect(tally.adversarialFastAccepted > 2_000, "\(tally)")
        #expect(tally.declinedButValid > 1_000, "\(tally)")
        #expect(tally.slowRejected > 10_000, "\(tally)")
    }

    @Test("The typical line: spans of the exact values")
    func typicalLine() throws {
        let line = Array(Self.typicalLine.utf8)
        let record = try #require(line.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0) })
        let text = { (span: ByteSpan?) in span.map { String(decoding: line[Int($0.start)..<Int($0.start + $0.count)], as: UTF8.self) } }
        #expect(record.time == (try TimestampParser.parse("2026-10-01T00:46:37.450Z").get()))
        #expect(text(record.api) == "autocomplete")
        #expect(text(record.sessionToken) == "7b94d68c-ff83-4f09-8e63-860a076469aa")
        #expect(record.inputLength == 3)
        #expect(record.fields == nil)
        #expect(text(record.apiVersion) == "legacy")
        #expect(text(record.userID) == "u-0098")
        #expect(record.project == nil)
        #expect(text(record.platform) == "ios")
        #expect(text(record.status) == "OK")
        #expect(try #require(fastCall(line)) == (try slowCall(line).get()))
    }

    @Test("An escape in a known key's string is the slow path's to decode")
    func escapedToken() throws {
        let line = Array(#"{"timestamp":1790845200000,"api":"autocomplete","session_token":"a\"b\u00e9"}"#.utf8)
        #expect(line.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0) } == nil)
        #expect(try slowCall(line).get().sessionToken == "a\"bé")
        // In an unknown key's value, escapes are validated and the line stays on the fast path.
        let unknown = Array(#"{"timestamp":1790845200000,"api":"autocomplete","note":"a\"b\u00e9\ud83d\ude00\n"}"#.utf8)
        #expect(try #require(fastCall(unknown)) == (try slowCall(unknown).get()))
        for invalid in [#""\ud83d""#, #""\ude00""#, #""\ud83d\u0041""#, #""\x""#, #""\u12G4""#] {
            let bad = Array(#"{"timestamp":1790845200000,"api":"a","note":"#.utf8) + Array(invalid.utf8) + [0x7D]
            #expect(bad.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0) } == nil, "\(invalid)")
            #expect(throws: DecodeFailure.self) { try slowCall(bad).get() }
        }
    }

    @Test("A repeated known key, or both spellings of one, is the slow path's to decode (last wins)")
    func repeatedKeys() throws {
        for text in [
            #"{"timestamp":1790845200000,"api":"a","api":"getPlace"}"#,
            #"{"timestamp":1790845200000,"api":"a","session_token":"x","sessionToken":"y"}"#,
            #"{"timestamp":1790845200000,"api":"a","user_id":7,"userId":null}"#,
        ] {
            let line = Array(text.utf8)
            #expect(line.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0) } == nil, "\(text)")
            #expect((try? slowCall(line).get()) != nil, "\(text)")
        }
        #expect(try slowCall(Array(#"{"timestamp":1790845200000,"api":"a","session_token":"x","sessionToken":"y"}"#.utf8)).get().sessionToken == "y")
        // Unknown keys may repeat: RawRecord keeps none of them.
        let unknown = Array(#"{"timestamp":1790845200000,"api":"a","x":1,"x":[2]}"#.utf8)
        #expect(try #require(fastCall(unknown)) == (try slowCall(unknown).get()))
    }

    @Test("Labels: a number is its literal, an empty string a count-0 span that means absent")
    func labels() throws {
        let line = Array(#"{ "timestamp" : 0 , "api" : "geocode" , "userId" : -12.5e+3 , "project" : 0 , "platform" : "" , "status" : 200 , "sessionToken" : "" }"#.utf8)
        let record = try #require(line.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0) })
        let text = { (span: ByteSpan?) in span.map { String(decoding: line[Int($0.start)..<Int($0.start + $0.count)], as: UTF8.self) } }
        #expect(text(record.userID) == "-12.5e+3")
        #expect(text(record.project) == "0")
        #expect(record.platform?.count == 0)
        #expect(text(record.status) == "200")
        #expect(record.sessionToken?.count == 0)
        let call = try #require(fastCall(line))
        #expect(call == (try slowCall(line).get()))
        #expect(call.userID == "-12.5e+3" && call.platform == nil && call.sessionToken == nil)
    }

    @Test("Input length counts Unicode scalars; fields are the whole array text")
    func inputAndFields() throws {
        let line = Array(#"{"timestamp":"2026-10-01t09:00:00.123456789+05:30","api":"getPlace","input":"東京 e\#u{301}😀","fields":[ " id" , "displayName ", "" ]}"#.utf8)
        let record = try #require(line.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0) })
        #expect(record.inputLength == 6)
        let fields = try #require(record.fields)
        #expect(String(decoding: line[Int(fields.start)..<Int(fields.start + fields.count)], as: UTF8.self) == #"[ " id" , "displayName ", "" ]"#)
        let call = try #require(fastCall(line))
        #expect(call == (try slowCall(line).get()))
        #expect(call.fields == ["id", "displayName"] && call.generation == .new)
    }

    @Test("A stop byte at every offset of a string, across the eight-byte scan and its tail")
    func stopBytesAtEveryOffset() {
        let stops: [[UInt8]] = [[0x22], [0x5C], [0x5C, 0x6E], [0x00], [0x1F], [0x7F], [0x80], [0xC3, 0xA9], [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0x98, 0x80]]
        let prefix = Array(#"{"timestamp":0,"api":"a","session_token":""#.utf8)
        for stop in stops {
            for offset in 0..<24 {
                for suffixLength in [0, 3, 9] {
                    let content = Array(repeating: UInt8(ascii: "x"), count: offset) + stop + Array(repeating: UInt8(ascii: "y"), count: suffixLength)
                    let line = prefix + content + Array(#""}"#.utf8)
                    let fast = fastCall(line)
                    let slow = try? slowCall(line).get()
                    if [[0x7F], [0xC3, 0xA9], [0xF0, 0x9F, 0x98, 0x80]].contains(stop) {
                        #expect(fast != nil && fast == slow, "\(stop) at \(offset)")
                    } else if stop.first == 0x5C {
                        #expect(fast == nil, "\(stop) at \(offset)")
                    } else {
                        // A quote ends the token early: `"}` is then text after the object.
                        #expect(fast == nil && slow == nil, "\(stop) at \(offset)")
                    }
                    let cut = prefix + content
                    #expect(fastCall(cut) == nil && (try? slowCall(cut).get()) == nil)
                }
            }
        }
    }

    @Test("A token of exactly 36 bytes (read without a scan) with a stop byte at each offset, and a closing quote at 37")
    func uuidLengthTokens() {
        let stops: [[UInt8]] = [[0x22], [0x5C], [0x5C, 0x6E], [0x00], [0x1F], [0x7F], [0x80], [0xC3, 0xA9], [0xF0, 0x9F, 0x98, 0x80]]
        let prefix = Array(#"{"timestamp":"2026-10-01T00:46:37.450Z","api":"autocomplete","session_token":""#.utf8)
        let plain = Array("7b94d68c-ff83-4f09-8e63-860a076469aa".utf8)
        for suffix in [#""}"#, #"","input":"ab"}"#, #"""#] {
            let line = prefix + plain + Array(suffix.utf8)
            #expect(fastCall(line) == (try? slowCall(line).get()), "\(suffix)")
        }
        for stop in stops {
            for offset in 0...(36 - stop.count) {
                var content = plain
                content.replaceSubrange(offset ..< offset + stop.count, with: stop)
                for suffix in [#""}"#, #"","input":"ab"}"#] {
                    let line = prefix + content + Array(suffix.utf8)
                    let fast = fastCall(line)
                    let slow = try? slowCall(line).get()
                    if [[0x7F], [0xC3, 0xA9], [0xF0, 0x9F, 0x98, 0x80]].contains(stop) {
                        #expect(fast != nil && fast == slow, "\(stop) at \(offset)")
                    } else {
                        #expect(fast == nil, "\(stop) at \(offset)")
                    }
                }
            }
        }
    }

    @Test("A 24-byte timestamp is read in place only when all of it is the shape: the general reader decides the rest")
    func millisecondTimestampInPlace() throws {
        let good = "2026-10-01T00:46:37.450Z"
        let line = Array(#"{"timestamp":"\#(good)","api":"a"}"#.utf8)
        #expect(try #require(fastCall(line)) == (try slowCall(line).get()))
        // Any one byte of the 24 changed to a stop byte or a quote: never read as a time.
        for offset in 0..<24 {
            for replacement: UInt8 in [0x22, 0x5C, 0x00, 0x80, UInt8(ascii: "x")] {
                var bytes = Array(good.utf8)
                bytes[offset] = replacement
                let line = Array(#"{"timestamp":""#.utf8) + bytes + Array(#"","api":"a"}"#.utf8)
                let fast = fastCall(line)
                #expect(fast == (try? slowCall(line).get()) || fast == nil, "\(offset) \(replacement)")
            }
        }
    }

    @Test("Every wrong type for a known key makes the fast decoder decline")
    func wrongTypes() {
        let cases: [(key: String, values: [String])] = [
            ("timestamp", ["null", "true", "[]", "{}", "-1", "1.5", "1e3", "1790845200000000", "\"\"", "\"2026-02-30T00:00:00Z\"", "\"2026-10-01T09:00:00\""]),
            ("api", ["null", "\"\"", "1", "true", "[\"a\"]", "{}"]),
            ("session_token", ["1", "true", "[]", "{}"]),
            ("input", ["1", "false", "[\"a\"]", "{\"a\":1}"]),
            ("place_id", ["1", "true", "[]", "{}"]),
            ("fields", ["\"a,b\"", "1", "true", "{}", "[1]", "[\"a\",null]", "[[]]", "[\"a\\u0062\"]", "[\"a\",]"]),
            ("api_version", ["1", "true", "[]", "{}"]),
            ("user_id", ["true", "[]", "{}", "[\"a\"]"]),
            ("project", ["false", "[1]", "{\"a\":1}"]),
            ("platform", ["true", "[]"]),
            ("status", ["true", "[]", "{}"]),
        ]
        for (key, values) in cases {
            for value in values {
                var members = ["timestamp": "1790845200000", "api": "\"autocomplete\""]
                members[key] = value
                let text = "{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
                let line = Array(text.utf8)
                #expect(line.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0) } == nil, "\(text)")
            }
        }
    }

    @Test("Timestamps: the quick RFC 3339 reader gives TimestampParser's instant at the edges")
    func timestampEdges() throws {
        let strings = [
            "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999Z", "2024-02-29T23:59:59.9999999-23:59", "1970-01-01 00:00:00z",
            "2026-10-01T09:00:03.730+00:00", "2000-02-29t12:00:00.5+14:00", "1790845200000", "000000000000000001",
            // The word-at-a-time shape, and its near misses that the general reader takes.
            "2026-10-01T00:46:37.450Z", "2024-02-29T23:59:59.999Z", "0001-01-01T00:00:00.000Z", "2026-10-01t00:46:37.450Z",
            "2026-10-01 00:46:37.450Z", "2026-10-01T00:46:37.450z", "2026-10-01T00:46:37.45Z",
            // A leap second: the word-at-a-time shape leaves it to the general reader.
            "2026-10-01T00:00:60.000Z", "2016-12-31T23:59:60.999Z",
        ]
        for text in strings {
            let line = Array(#"{"timestamp":"\#(text)","api":"a"}"#.utf8)
            let record = try #require(line.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0) }, "\(text)")
            #expect(record.time == (try TimestampParser.parse(text).get()), "\(text)")
        }
        for number in ["0", "253402300799999", "1790845200000"] {
            let line = Array(#"{"timestamp":\#(number),"api":"a"}"#.utf8)
            #expect(try #require(fastCall(line)) == (try slowCall(line).get()))
        }
        // The word-at-a-time shape out of range or with a non-digit: the slow path decides.
        for text in ["2023-02-29T00:00:00.000Z", "2026-13-01T00:00:00.000Z", "0000-01-01T00:00:00.000Z", "2026-10-00T00:00:00.000Z",
                     "2026-10-01T24:00:00.000Z", "2026-10-01T00:60:00.000Z", "2026-10-01T00:00:61.000Z", "2026-1a-01T00:00:00.000Z",
                     "2026-10-01T00:00:00.00:Z", "2026/10/01T00:00:00.000Z", "2026-10-01T00:00:00.000+",
                     "2026-10-01T00:46:37,4500"] {
            let line = Array(#"{"timestamp":"\#(text)","api":"a"}"#.utf8)
            #expect(line.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0) } == nil, "\(text)")
            #expect((try? slowCall(line).get()) == nil, "\(text)")
        }
        // Out of range or not a plain integer: the slow path decides (and words the error).
        for number in ["253402300800000", "1790845200000.0", "-0", "1e3", "0123"] {
            let line = Array(#"{"timestamp":\#(number),"api":"a"}"#.utf8)
            #expect(line.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0) } == nil, "\(number)")
        }
    }

    @Test("Keys matched a word at a time: known names, near misses, and keys close to the line's end")
    func keyWords() {
        let names = ["timestamp", "api", "session_token", "sessionToken", "input", "place_id", "placeId", "fields", "api_version",
                     "apiVersion", "user_id", "userId", "project", "platform", "status", "other", "api_versions", "session_tokens"]
        var accepted = 0
        for name in names {
            let bytes = Array(name.utf8)
            var variants = [name, name + "x", String(name.dropLast()), "x" + name, name + "\\u0041", name + "é"]
            for index in bytes.indices {
                var changed = bytes
                changed[index] ^= 0x20
                variants.append(String(decoding: changed, as: UTF8.self))
            }
            for key in variants {
                for padding in 0..<18 {
                    let value = key == "fields" ? #"["a"]"# : #""7""#
                    let text = #"{"timestamp":0,"api":"a","\#(key)":\#(value)"# + String(repeating: " ", count: padding) + "}"
                    let line = Array(text.utf8)
                    let slow = try? slowCall(line).get()
                    if let fast = fastCall(line) {
                        accepted += 1
                        #expect(fast == slow, "\(text)")
                    }
                }
            }
        }
        #expect(accepted > 3_000)
    }

    @Test("Nesting in unknown keys: 64 levels are read, 65 declined, like JSONLineParser")
    func nesting() {
        func arrays(_ levels: Int, innermost: String) -> String {
            #"{"timestamp":0,"api":"a","x":"# + String(repeating: "[", count: levels) + innermost + String(repeating: "]", count: levels) + "}"
        }
        func objects(_ levels: Int) -> String {
            #"{"timestamp":0,"api":"a","x":"# + String(repeating: "{\"a\":", count: levels) + "1" + String(repeating: "}", count: levels) + "}"
        }
        for text in [arrays(64, innermost: ""), arrays(63, innermost: "1"), objects(63), arrays(1, innermost: "{}")] {
            let line = Array(text.utf8)
            #expect(fastCall(line) != nil)
            #expect(fastCall(line) == (try? slowCall(line).get()))
        }
        for text in [arrays(65, innermost: ""), arrays(64, innermost: "1"), objects(64)] {
            let line = Array(text.utf8)
            #expect(line.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0) } == nil)
            #expect((try? slowCall(line).get()) == nil)
        }
    }

    @Test("A newline inside a line is not whitespace to the fast decoder: it declines, the slow path decides")
    func newlineIsNotWhitespace() {
        let texts = [
            "{\"timestamp\":0,\n\"api\":\"a\"}", "{\"timestamp\":0,\"api\":\"a\"}\n", "\n{\"timestamp\":0,\"api\":\"a\"}",
            "{\"timestamp\":0,\"api\":\"a\",\"x\":[1,\n2]}", "{\"timestamp\":0,\"api\":\"a\",\"fields\":[\"id\"\r\n]}",
            "{\"timestamp\":0,\"api\":\"a\",\"x\":{\"y\":\n1}}",
        ]
        for text in texts {
            let line = Array(text.utf8)
            #expect(line.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0) } == nil, "\(text.debugDescription)")
            #expect((try? slowCall(line).get()) != nil, "\(text.debugDescription)")
            // Without the newline the fast decoder reads it.
            let joined = Array(text.replacingOccurrences(of: "\n", with: " ").utf8)
            #expect(fastCall(joined) != nil && fastCall(joined) == (try? slowCall(joined).get()), "\(text.debugDescription)")
        }
    }

    @Test("Decoding by the layouts of recent lines answers exactly as the general walk, line after line")
    func layoutsAgreeWithGeneralWalk() {
        var generator = FastLineGenerator(seed: 0x1A40_2026_1123)
        let layouts = JSONLineLayouts()
        var shapes = (0..<6).map { _ in generator.shape() }
        var problems: [String] = []
        var accepted = 0
        var mutated = 0
        for _ in 0..<20_000 {
            // Mostly three shapes, as one logger writes them; now and then others, and new ones.
            if generator.chance(0.002) { shapes[generator.int(0...5)] = generator.shape() }
            let shape = generator.chance(0.9) ? shapes[generator.int(0...2)] : shapes[generator.int(3...5)]
            var line = generator.line(shape)
            switch generator.int(0...9) {
            case 0:
                line = generator.mutatedBytes(line)
                mutated += 1
            case 1:
                line = generator.line(generator.mutatedMembers(shape.keys.map { FastLineGenerator.Member(key: $0, value: generator.value(forKey: $0)) }))
                mutated += 1
            default: break
            }
            let general = line.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0) }
            let byLayout = line.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0, layouts: layouts) }
            if general != nil { accepted += 1 }
            if byLayout != general, problems.count < 10 {
                problems.append("\(String(decoding: line, as: UTF8.self).debugDescription): \(String(describing: byLayout)) != \(String(describing: general))")
            }
        }
        for problem in problems {
            Issue.record("\(problem)")
        }
        #expect(mutated > 3_000)
        #expect(accepted > 15_000)
        // Most accepted lines were read by a layout, not learned.
        #expect(layouts.learnedLines > 100 && layouts.learnedLines < accepted / 5, "\(layouts.learnedLines) learned of \(accepted)")
    }

    @Test("Lines read by layouts as a block is walked, without a newline search, are the line reader's lines and records")
    func leadingLinesAgreeWithTheLineReader() {
        var generator = FastLineGenerator(seed: 0x1EAD_2026_1123)
        let shapes = (0..<4).map { _ in generator.shape() }
        var leadingRead = 0
        var lines = 0
        for blockIndex in 0..<300 {
            var text: [UInt8] = []
            for _ in 0..<generator.int(1...40) {
                var line = generator.line(shapes[generator.chance(0.8) ? 0 : generator.int(1...3)])
                if generator.chance(0.05) { line = generator.mutatedBytes(line) }
                if generator.chance(0.03) { line.insert(0x0A, at: generator.int(0...line.count)) }
                text += line
                switch generator.int(0...19) {
                case 0: text += [0x0D, 0x0A]
                case 1: text += [0x0D, 0x0D, 0x0A]
                case 2: text += [0x0A, 0x0A]
                case 3: text += [0x20, 0x0A]
                default: text += [0x0A]
                }
            }
            // The last line of a file may lack its newline, or end in a lone `\r`.
            switch generator.int(0...3) {
            case 0: text.removeLast()
            case 1: text[text.count - 1] = 0x0D
            default: break
            }
            let raw = RawBlock(index: blockIndex, fileIndex: 0, fileName: "block.jsonl", bytes: text)
            let maxLineLength = generator.chance(0.5) ? 1 << 20 : generator.int(150...400)
            var expected: [String] = []
            let expectedCount = raw.forEachLine(maxLineLength: maxLineLength) { event in
                switch event {
                case .text(let line, let number):
                    expected.append("\(number) \(Array(line)) \(String(describing: FastJSONLineDecoder.decode(line)))")
                case .overlong(let number):
                    expected.append("\(number) overlong")
                }
            }
            let layouts = JSONLineLayouts()
            var leadingRecord = FastJSONRecord.blank
            var actual: [String] = []
            let actualCount = raw.forEachLine(maxLineLength: maxLineLength, leading: { rest in
                FastJSONLineDecoder.decodeLeadingLine(rest, layouts: layouts, into: &leadingRecord)
            }) { event, readByLayout in
                switch event {
                case .text(let line, let number):
                    if readByLayout { leadingRead += 1 }
                    let record = readByLayout ? leadingRecord : FastJSONLineDecoder.decodeLearning(line, layouts: layouts)
                    actual.append("\(number) \(Array(line)) \(String(describing: record))")
                case .overlong(let number):
                    actual.append("\(number) overlong")
                }
            }
            lines += expectedCount
            #expect(actualCount == expectedCount)
            #expect(actual == expected, "block \(blockIndex)")
            if actual != expected { break }
        }
        #expect(lines > 5_000)
        #expect(leadingRead > lines / 3, "\(leadingRead) of \(lines) lines read by layout as the block was walked")
    }

    @Test("A layout's gaps are compared whole: a byte changed at any offset of a gap of any length is not matched")
    func layoutGapsEveryOffset() throws {
        let layouts = JSONLineLayouts()
        // Gaps of 1 to 32 bytes, the key `"api"` padded with spaces before the colon.
        for length in 7...32 {
            let gap = "," + "\"api\"" + String(repeating: " ", count: length - 7) + ":"
            let text = #"{"timestamp":0"# + gap + #""a"}"#
            let line = Array(text.utf8)
            let expected = try #require(line.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0) })
            _ = line.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0, layouts: layouts) }
            let learned = layouts.learnedLines
            // The same line again: read by its layout.
            #expect(line.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0, layouts: layouts) } == expected)
            #expect(layouts.learnedLines == learned, "\(length)")
            // A space turned into a tab anywhere in the gap: the same record, by the general walk.
            let gapStart = #"{"timestamp":0"#.utf8.count
            for offset in 6..<length - 1 {
                var changed = line
                changed[gapStart + offset] = 0x09
                let before = layouts.learnedLines
                #expect(changed.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0, layouts: layouts) } == expected)
                #expect(layouts.learnedLines == before + 1, "\(length) \(offset)")
                // And back: the original layout was learned again or is still kept.
                _ = line.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0, layouts: layouts) }
            }
        }
        // The first gap, the closing one, and the value next to them: one byte each way.
        let line = Array(#"{"timestamp":0,"api":"a"}"#.utf8)
        for index in line.indices {
            for replacement: UInt8 in [0x20, 0x22, 0x7D, 0x61, 0x30] where replacement != line[index] {
                var changed = line
                changed[index] = replacement
                let general = changed.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0) }
                _ = line.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0, layouts: layouts) }
                #expect(changed.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0, layouts: layouts) } == general, "\(index) \(replacement)")
            }
        }
    }

    @Test("A line that follows one layout up to a gap goes on by another that shares the steps before it")
    func layoutsSwitchAtTheFirstDifference() throws {
        let layouts = JSONLineLayouts()
        let autocomplete = #"{"timestamp":"2026-10-01T00:00:00.960Z","api":"autocomplete","session_token":"t","input":"K","status":"OK"}"#
        let details = #"{"timestamp":"2026-10-01T00:00:02.960Z","api":"place_details","session_token":"t","fields":["id"],"status":"OK"}"#
        let other = #"{"timestamp":"2026-10-01T00:00:03.960Z","api":"geocode","status":"OK"}"#
        for text in [autocomplete, details, other] {
            _ = Array(text.utf8).withUnsafeBufferPointer { FastJSONLineDecoder.decode($0, layouts: layouts) }
        }
        #expect(layouts.learnedLines == 3 && layouts.count == 3)
        #expect(layouts.stepsShared(0, 1) == 3 && layouts.stepsShared(0, 2) == 2 && layouts.stepsShared(1, 1) == JSONLineLayouts.maxSteps)
        // Each line starts by the last layout matched (`other`) and switches where it differs.
        for text in [autocomplete, details, autocomplete, other, details, other] {
            let line = Array(text.utf8)
            let general = try #require(line.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0) })
            #expect(line.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0, layouts: layouts) } == general)
        }
        #expect(layouts.learnedLines == 3)
        // A fifth shape replaces the oldest layout, once four are kept.
        for extra in [#","x":1}"#, #","y":2}"#] {
            let line = Array((String(other.dropLast()) + extra).utf8)
            _ = line.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0, layouts: layouts) }
        }
        #expect(layouts.learnedLines == 5 && layouts.count == JSONLineLayouts.capacity)
        _ = Array(autocomplete.utf8).withUnsafeBufferPointer { FastJSONLineDecoder.decode($0, layouts: layouts) }
        #expect(layouts.learnedLines == 6, "the autocomplete layout, unused longest, was replaced")
    }

    @Test("Lines read by layout reuse the last date: the same instants as the general walk, invalid dates still refused")
    func layoutDateMemo() {
        let layouts = JSONLineLayouts()
        let times = [
            "2026-02-28T23:59:59.999Z", "2026-02-28T00:00:00.000Z", "2026-02-30T00:00:00.000Z", "2026-02-28T24:00:00.000Z",
            "2026-02-28T10:60:00.000Z", "2024-02-29T12:00:00.000Z", "2025-02-29T12:00:00.000Z", "2025-03-01T00:00:00.001Z",
            "2025-03-01T00:00:00.002Z", "0000-03-01T00:00:00.000Z", "2025-13-01T00:00:00.000Z", "2025-03-00T00:00:00.000Z",
            "2025-03-10T00:00:00.000Z", "2025-03-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z",
        ]
        _ = Array(#"{"timestamp":"2026-01-01T00:00:00.000Z","api":"a"}"#.utf8).withUnsafeBufferPointer {
            FastJSONLineDecoder.decode($0, layouts: layouts)
        }
        var read = 0
        for time in times + times.reversed() {
            let line = Array(#"{"timestamp":"\#(time)","api":"a"}"#.utf8)
            let general = line.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0) }
            #expect(line.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0, layouts: layouts) } == general, "\(time)")
            if general != nil { read += 1 }
        }
        #expect(read == 16)
        #expect(layouts.learnedLines == 1, "every line was read by its layout")
    }

    @Test("A line never goes on by a layout whose earlier steps differ: that could repeat a key")
    func layoutsSwitchOnlyOnSharedSteps() {
        let layouts = JSONLineLayouts()
        for text in [#"{"timestamp":0,"input":"x","api":"a"}"#, #"{"timestamp":0,"api":"a","input":"x"}"#] {
            _ = Array(text.utf8).withUnsafeBufferPointer { FastJSONLineDecoder.decode($0, layouts: layouts) }
        }
        // By the second layout up to `"api"`, then the first one's `,"api":` gap would fit.
        let repeated = Array(#"{"timestamp":0,"api":"a","api":"b"}"#.utf8)
        #expect(repeated.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0) } == nil)
        #expect(repeated.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0, layouts: layouts) } == nil)
    }

    @Test("Lines with too many members or too long a gap are read by the general walk and not learned")
    func layoutLimits() throws {
        func line(members: Int, gapPadding: Int) -> [UInt8] {
            let extra = (2..<members).map { #","k\#($0)":\#($0)"# }.joined()
            return Array((#"{"timestamp":0,"api""# + String(repeating: " ", count: gapPadding) + #":"a""# + extra + "}").utf8)
        }
        // `,"api"` and the colon are 7 bytes.
        let cases: [(members: Int, padding: Int, learned: Bool)] = [
            (JSONLineLayouts.maxMembers, 0, true), (JSONLineLayouts.maxMembers + 1, 0, false), (40, 0, false),
            (2, JSONLineLayouts.maxGap - 7, true), (2, JSONLineLayouts.maxGap - 6, false),
        ]
        for (members, padding, learned) in cases {
            let layouts = JSONLineLayouts()
            let bytes = line(members: members, gapPadding: padding)
            let general = try #require(bytes.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0) })
            for _ in 0..<2 {
                #expect(bytes.withUnsafeBufferPointer { FastJSONLineDecoder.decode($0, layouts: layouts) } == general)
            }
            #expect(layouts.learnedLines == (learned ? 1 : 0), "\(members) members, \(padding) spaces")
            #expect(layouts.count == (learned ? 1 : 0))
        }
    }

    @Test("Speed on the typical line (PLACESCOST_FASTJSON_BENCH=1)",
          .enabled(if: ProcessInfo.processInfo.environment["PLACESCOST_FASTJSON_BENCH"] == "1"))
    func speed() {
        var line = Array(Self.typicalLine.utf8)
        // A byte the loop rewrites each time (a millisecond digit), so the work cannot be hoisted.
        let digit = Self.typicalLine.utf8.count - Self.typicalLine.utf8.drop { $0 != UInt8(ascii: "Z") }.count - 1
        let clock = ContinuousClock()
        let iterations = 10_000_000
        var checksum: Int64 = 0
        let fast = clock.measure {
            line.withUnsafeMutableBufferPointer { buffer in
                for index in 0..<iterations {
                    buffer[digit] = UInt8(ascii: "0") &+ UInt8(index % 10)
                    if let record = FastJSONLineDecoder.decode(UnsafeBufferPointer(buffer)) {
                        checksum &+= record.time.microseconds &+ Int64(record.api.count)
                    }
                }
            }
        }
        let slowIterations = iterations / 50
        let slow = clock.measure {
            for index in 0..<slowIterations {
                line[digit] = UInt8(ascii: "0") &+ UInt8(index % 10)
                if case .success(let call) = slowCall(line) { checksum &+= call.time.microseconds }
            }
        }
        func perLine(_ duration: Duration, _ count: Int) -> Double {
            (Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18) / Double(count)
        }
        let fastSeconds = perLine(fast, iterations)
        let slowSeconds = perLine(slow, slowIterations)
        print("""
            FastJSONLineDecoder: \(iterations) × \(line.count)-byte line in \(fast): \
            \(Int(Double(line.count) / fastSeconds / 1e6)) MB/s, \(Int(fastSeconds * 1e9)) ns/line; \
            slow path \(Int(Double(line.count) / slowSeconds / 1e6)) MB/s, \(Int(slowSeconds * 1e9)) ns/line; \
            \(String(format: "%.1f", slowSeconds / fastSeconds))× faster (checksum \(checksum))
            """)
        #expect(checksum != 0)
    }
}

// MARK: - The two paths

private func slowCall(_ line: [UInt8]) -> Result<Call, DecodeFailure> {
    line.withUnsafeBufferPointer { JSONLineTwins.slowCall($0) }
}

private func fastCall(_ line: [UInt8]) -> Call? {
    line.withUnsafeBufferPointer { JSONLineTwins.fastCall($0) }
}

/// Counts of the comparison, and every line where the fast path is wrong.
private struct FastTally: CustomStringConvertible {
    var compared = 0
    var normalAccepted = 0
    var adversarialFastAccepted = 0
    var declinedButValid = 0
    var slowRejected = 0
    var problems: [String] = []

    var description: String {
        "\(compared) lines: \(normalAccepted) normal accepted, \(adversarialFastAccepted) adversarial accepted by both, "
            + "\(declinedButValid) declined but valid, \(slowRejected) rejected by the slow path"
    }

    mutating func compare(_ line: [UInt8], normal: Bool) {
        compared += 1
        let fast = fastCall(line)
        let slow = slowCall(line)
        switch (fast, slow) {
        case (let fast?, .success(let slow)):
            if normal { normalAccepted += 1 } else { adversarialFastAccepted += 1 }
            // `==` on `String` equates canonically equivalent text; the bytes must match too.
            if fast != slow || Array(String(reflecting: fast).utf8) != Array(String(reflecting: slow).utf8) {
                problems.append("fast \(fast) != slow \(slow) for \(show(line))")
            }
        case (_?, .failure(let failure)):
            slowRejected += 1
            problems.append("fast accepts, slow rejects (\(failure.reason)): \(show(line))")
        case (nil, .success):
            declinedButValid += 1
            if normal { problems.append("fast declines a normal line: \(show(line))") }
        case (nil, .failure(let failure)):
            slowRejected += 1
            if normal { problems.append("the generator made an invalid normal line (\(failure.reason)): \(show(line))") }
        }
    }

    private func show(_ line: [UInt8]) -> String {
        if let text = String(validating: line, as: UTF8.self) { return text.debugDescription }
        return "bytes " + line.map { byte in
            (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "<" + String(byte, radix: 16) + ">"
        }.joined()
    }
}

// MARK: - Generating lines

/// Makes JSON Lines records from a seed: normal ones, as loggers write them, and mutations.
private struct FastLineGenerator {
    /// One member: the key as written (quotes included) and the value's JSON text.
    struct Member {
        var key: String
        var value: String
    }

    var random: SeededRandom

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + random.below(range.count)
    }

    mutating func pick<T>(_ options: [T]) -> T {
        options[random.below(options.count)]
    }

    mutating func chance(_ probability: Double) -> Bool {
        random.chance(probability)
    }

    static let apis = [
        "autocomplete", "Autocomplete", "AutocompletePlaces", "findAutocompletePredictions", "getPlace", "fetchPlace",
        "place_details", "PLACE_DETAILS", "geocode", "geocoding", "text_search", "find_place", "query_autocomplete",
        "address_validation", "nearby_search", "é-api", "東京",
    ]
    static let inputs = [
        "", "S", "Sta", "Starbucks Main St", "é", "café", "東京", "東京タワー", "😀", "pizza 😀🍕", "naïve résumé",
        "e\u{301}", "\u{7F}x", "O'Brien", "a/b", String(repeating: "x", count: 40), "\u{10FFFF}", "𝄞",
    ]
    static let labels = ["u-0098", "42", "", "ios", "android", "web", "OK", "ZERO_RESULTS", "proj-east", "Ünïcode", "東京", " "]
    static let numbers = ["0", "-0", "42", "-7", "1.5", "1e3", "2.5E-2", "-12.25e+2", "123456789012345678901234567890", "0.0"]
    static let fieldNames = ["id", "displayName", " formattedAddress ", "", "location", "places.id", "名前", " "]
    /// Unknown keys, near misses of the known ones among them (same length, one byte off).
    static let unknownKeys = [
        "latency_ms", "ok", "trace", "Timestamp", "API", "apiversion", "session token", "é", "ключ", "😀", "meta", "", "user",
        "session_tokem", "sessionTokeN", "api_versiom", "apiVersioN", "platforn", "projecT", "user_iD", "userID", "placeID",
        "place_iD", "timestamq", "apI", "inpuT", "fieldS", "statuS", "Api", "xpi",
    ]
    static let unknownStrings = [#""plain""#, #""he said \"hi\"\n""#, #""\u00e9\ud83d\ude00\/""#, #""""#, "\"日本\u{7F}\"", #""\\""#]
    static let versions = ["legacy", "new", "NEW", "Legacy", "v1", ""]

    /// Whitespace between tokens: usually none, as loggers write it. Never a newline: the line
    /// reader cuts lines there (`newlineIsNotWhitespace` covers one inside a line).
    mutating func whitespace() -> String {
        chance(0.85) ? "" : pick([" ", "  ", "\t", "\r", "\r ", " \t\r "])
    }

    func quoted(_ text: String) -> String {
        "\"" + text + "\""
    }

    func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    mutating func rfc3339() -> String {
        let year = chance(0.9) ? 2026 : int(1...9999)
        let month = int(1...12)
        let day = int(1...CivilDate.daysInMonth(year: year, month: month))
        var text = padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2) + pick(["T", "T", "T", "t", " "])
        text += padded(int(0...23), 2) + ":" + padded(int(0...59), 2) + ":" + padded(int(0...59), 2)
        if chance(0.7) {
            text += "." + (0..<int(1...9)).map { _ in String(int(0...9)) }.joined()
        }
        switch int(0...5) {
        case 0...2: text += "Z"
        case 3: text += "z"
        default: text += pick(["+", "-"]) + padded(int(0...23), 2) + ":" + padded(int(0...59), 2)
        }
        return text
    }

    mutating func timestamp() -> String {
        switch int(0...9) {
        case 0...5: quoted(rfc3339())
        case 6...8: String(int(0...253_402_300_799_999))
        default: quoted(String(int(0...253_402_300_799_999)))
        }
    }

    mutating func stringOrNull(_ options: [String]) -> String {
        chance(0.1) ? "null" : quoted(pick(options))
    }

    mutating func label() -> String {
        switch int(0...9) {
        case 0: "null"
        case 1...3: pick(FastLineGenerator.numbers)
        default: quoted(pick(FastLineGenerator.labels))
        }
    }

    mutating func fields() -> String {
        if chance(0.1) { return "null" }
        let names = (0..<int(0...4)).map { _ in whitespace() + quoted(pick(FastLineGenerator.fieldNames)) + whitespace() }
        return "[" + names.joined(separator: ",") + "]"
    }

    /// Any JSON value, for unknown keys.
    mutating func value(depth: Int) -> String {
        switch int(depth >= 4 ? 0...3 : 0...5) {
        case 0: return pick(FastLineGenerator.unknownStrings)
        case 1: return pick(FastLineGenerator.numbers)
        case 2: return pick(["true", "false", "null"])
        case 3: return pick(FastLineGenerator.unknownStrings)
        case 4: return "[" + (0..<int(0...3)).map { _ in whitespace() + value(depth: depth + 1) + whitespace() }.joined(separator: ",") + "]"
        default:
            let members = (0..<int(0...3)).map { _ in
                pick([#""a""#, #""\u0062""#, #""é""#]) + whitespace() + ":" + whitespace() + value(depth: depth + 1)
            }
            return "{" + whitespace() + members.joined(separator: "," + whitespace()) + whitespace() + "}"
        }
    }

    /// A record every logger could write: valid, no escapes in known keys, no repeated keys.
    mutating func normalMembers() -> [Member] {
        var members = [
            Member(key: quoted("timestamp"), value: timestamp()),
            Member(key: quoted("api"), value: quoted(pick(FastLineGenerator.apis))),
        ]
        if chance(0.7) {
            let token = chance(0.1) ? "" : (0..<4).map { _ in String(random.next(), radix: 16) }.joined(separator: "-")
            members.append(Member(key: quoted(pick(["session_token", "sessionToken"])), value: chance(0.1) ? "null" : quoted(token)))
        }
        if chance(0.6) { members.append(Member(key: quoted("input"), value: stringOrNull(FastLineGenerator.inputs))) }
        if chance(0.3) { members.append(Member(key: quoted(pick(["place_id", "placeId"])), value: stringOrNull(["ChIJN1t_tDeuEmsRUsoyG83frY4", ""]))) }
        if chance(0.3) { members.append(Member(key: quoted("fields"), value: fields())) }
        if chance(0.6) { members.append(Member(key: quoted(pick(["api_version", "apiVersion"])), value: stringOrNull(FastLineGenerator.versions))) }
        if chance(0.6) { members.append(Member(key: quoted(pick(["user_id", "userId"])), value: label())) }
        if chance(0.4) { members.append(Member(key: quoted("project"), value: label())) }
        if chance(0.5) { members.append(Member(key: quoted("platform"), value: label())) }
        if chance(0.5) { members.append(Member(key: quoted("status"), value: label())) }
        for _ in 0..<int(0...3) where chance(0.5) {
            members.append(Member(key: quoted(pick(FastLineGenerator.unknownKeys)), value: value(depth: 1)))
        }
        members.shuffle(using: &random)
        return members
    }

    /// A record shape as one logger writes it: the keys in their order and the whitespace around
    /// every token, fixed; `line(_:)` fills in new values.
    struct Shape {
        var keys: [String]
        /// For member `i`: before its key, after its key, after the colon and after its value at
        /// `4 i` to `4 i + 3`; then before `{`, before `}` and after it.
        var spaces: [String]
    }

    mutating func shape() -> Shape {
        let keys = normalMembers().map(\.key)
        return Shape(keys: keys, spaces: (0..<(4 * keys.count + 3)).map { _ in whitespace() })
    }

    mutating func line(_ shape: Shape) -> [UInt8] {
        let spaces = shape.spaces
        let count = shape.keys.count
        let body = shape.keys.indices.map { index in
            spaces[4 * index] + shape.keys[index] + spaces[4 * index + 1] + ":" + spaces[4 * index + 2] + value(forKey: shape.keys[index]) + spaces[4 * index + 3]
        }
        return Array((spaces[4 * count] + "{" + body.joined(separator: ",") + spaces[4 * count + 1] + "}" + spaces[4 * count + 2]).utf8)
    }

    /// A value of the kind `normalMembers` gives the key (quoted, as written).
    mutating func value(forKey key: String) -> String {
        switch key.dropFirst().dropLast() {
        case "timestamp": return timestamp()
        case "api": return quoted(pick(FastLineGenerator.apis))
        case "session_token", "sessionToken":
            if chance(0.1) { return "null" }
            return quoted(chance(0.1) ? "" : (0..<4).map { _ in String(random.next(), radix: 16) }.joined(separator: "-"))
        case "input": return stringOrNull(FastLineGenerator.inputs)
        case "place_id", "placeId": return stringOrNull(["ChIJN1t_tDeuEmsRUsoyG83frY4", ""])
        case "fields": return fields()
        case "api_version", "apiVersion": return stringOrNull(FastLineGenerator.versions)
        case "user_id", "userId", "project", "platform", "status": return label()
        default: return value(depth: 1)
        }
    }

    mutating func line(_ members: [Member]) -> [UInt8] {
        let body = members.map { $0.key + whitespace() + ":" + whitespace() + $0.value }
        let text = whitespace() + "{" + whitespace() + body.joined(separator: whitespace() + "," + whitespace()) + whitespace() + "}" + whitespace()
        return Array(text.utf8)
    }

    static let knownSpellings = [
        "timestamp", "api", "session_token", "sessionToken", "input", "place_id", "placeId", "fields", "api_version",
        "apiVersion", "user_id", "userId", "project", "platform", "status",
    ]
    static let aliases = [
        "session_token": "sessionToken", "sessionToken": "session_token", "place_id": "placeId", "placeId": "place_id",
        "api_version": "apiVersion", "apiVersion": "api_version", "user_id": "userId", "userId": "user_id",
    ]
    /// Values of every type and odd shape, valid JSON or not, for any key.
    static let oddValues = [
        "true", "false", "0", "-1", "1.5", "1e400", #""""#, #""x""#, "null", "[]", "{}", #"["a"]"#, "[1]", #"["a",null]"#,
        #"{"a":1}"#, #""a\nb""#, #""\u0041pi""#, #""2026-10-01T09:00:00.000Z""#, "1790845200000", "1790845200000.0",
        "-1790845200000", "253402300800000", "253402300799999", #""253402300799999""#, #""99999999999999999999""#,
        "01", #""\"""#, #""\ud83d""#, #""2026-02-30T00:00:00Z""#, #""2026-10-01T24:00:00Z""#, #""2026-10-01T09:00:00""#,
        #""2026-10-01T09:00:00+24:00""#, #""2026-10-01T09:00:00.Z""#, #""0000-01-01T00:00:00Z""#, #""2026-10-01T09:00:00+0530""#,
        #"[" a ", "b\t"]"#, #"["\u0061"]"#, "1.", "-", "[1,]", #"{"a":1,}"#, "tru", "nul", "fals", #""\x""#, #""\ude00""#,
        #""\u12G4""#, "1.5.5", "+1", ".5", "1e", "-01", "\"\u{0}\"", "\"\u{1F}\"", "\"é\"", #""  ""#,
    ]

    /// Deeply nested arrays and objects around the depth limit.
    mutating func deepValue() -> String {
        let levels = pick([62, 63, 64, 65, 66])
        let openers = (0..<levels).map { _ in chance(0.5) ? "[" : #"{"k":"# }
        let closers = openers.reversed().map { $0 == "[" ? "]" : "}" }
        return openers.joined() + pick(["", "1", #""s""#, "[]", "{}"]) + closers.joined()
    }

    /// Structural changes that keep the line mostly well-formed: repeats, alias pairs, other
    /// types, escapes, missing keys, deep nesting, text after the object.
    mutating func mutatedMembers(_ original: [Member]) -> [Member] {
        var members = original
        for _ in 0..<int(1...2) {
            switch int(0...7) {
            case 0:
                let member = pick(members)
                let spelling = String(member.key.dropFirst().dropLast())
                let key = chance(0.5) ? member.key : quoted(FastLineGenerator.aliases[spelling] ?? spelling)
                members.insert(Member(key: key, value: chance(0.5) ? member.value : pick(FastLineGenerator.oddValues)), at: int(0...members.count))
            case 1, 2:
                let index = random.below(members.count)
                members[index].value = pick(FastLineGenerator.oddValues)
            case 3:
                members.append(Member(key: quoted(pick(FastLineGenerator.knownSpellings)), value: pick(FastLineGenerator.oddValues)))
            case 4:
                let index = random.below(members.count)
                if members[index].value.hasPrefix("\"") {
                    members[index].value = "\"" + pick([#"\n"#, #"\u0061"#, #"\""#, #"\\"#, #"\/"#]) + members[index].value.dropFirst()
                } else {
                    members[index].key = "\"\\u00" + String(members[index].key.utf8.dropFirst().first ?? 0x61, radix: 16) + members[index].key.dropFirst(2)
                }
            case 5:
                members.removeAll { $0.key == quoted(pick(["timestamp", "api"])) }
            case 6:
                members.append(Member(key: quoted(pick(FastLineGenerator.unknownKeys)), value: deepValue()))
            default:
                let last = members.count - 1
                if last >= 0 { members[last].value += pick(["}", "} x", "},", "}{}", "} null", "]", "\u{0}"]) }
            }
            if members.isEmpty { break }
        }
        return members
    }

    static let specialBytes: [[UInt8]] = [
        [0x22], [0x5C], [0x7B], [0x7D], [0x5B], [0x5D], [0x2C], [0x3A], [0x00], [0x1F], [0x20], [0x7F], [0x80], [0xBF],
        [0xC0], [0xC2], [0xE0], [0xED], [0xF0], [0xF4], [0xF5], [0xFF], [0x30], [0x2D], [0x65], [0x2E], [0x6E], [0x74],
        [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xC3, 0xA9], [0xF0, 0x9F, 0x98, 0x80],
        [0x5C, 0x75, 0x30, 0x30, 0x65, 0x39], [0x5C, 0x6E],
    ]

    /// Byte-level damage: a cut, or an inserted, deleted or replaced byte or short sequence.
    mutating func mutatedBytes(_ line: [UInt8]) -> [UInt8] {
        var bytes = line
        guard !bytes.isEmpty else { return bytes }
        let index = random.below(bytes.count)
        switch int(0...3) {
        case 0: bytes.removeSubrange(index...)
        case 1: bytes.insert(contentsOf: pick(FastLineGenerator.specialBytes), at: index)
        case 2: bytes.remove(at: index)
        default: bytes.replaceSubrange(index...index, with: pick(FastLineGenerator.specialBytes))
        }
        return bytes
    }
}
