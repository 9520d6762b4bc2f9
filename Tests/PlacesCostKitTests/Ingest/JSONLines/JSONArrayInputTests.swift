import Foundation
import Testing
@testable import PlacesCostKit
@testable import PlacesCostReference

/// A log saved as one JSON array (`gcloud logging read --format=json`, the Cloud Logging
/// console's download, `jq .`) reads as the same records one a line: the same report, however
/// the array is printed, compressed or piped, and a malformed element is warned at the line it
/// starts on. `JSONArrayLines` keeps every byte a reader would judge and every line number it can.
@Suite("JSON array input")
struct JSONArrayInputTests {
    // MARK: - The conversion

    /// How an array is printed: what `gcloud`, `jq`, `json.dump(indent=...)` and
    /// `JSON.stringify(x, null, 2)` write, and a few that stress the conversion.
    enum Style: CaseIterable {
        case indentTwo, indentFourCRLF, tabs, closeAndOpenOnOneLine, oneLine, byteOrderMark
    }

    /// A JSON value written by the tests' own printer, so that the expected lines are known.
    indirect enum Value {
        case object([(String, Value)])
        case array([Value])
        case string(String)
        case number(String)
        case literal(String)

        /// As the conversion must write it: no whitespace outside strings.
        var compact: String {
            switch self {
            case .object(let members): "{" + members.map { Value.quoted($0.0) + ":" + $0.1.compact }.joined(separator: ",") + "}"
            case .array(let elements): "[" + elements.map(\.compact).joined(separator: ",") + "]"
            case .string(let text): Value.quoted(text)
            case .number(let text), .literal(let text): text
            }
        }

        /// Printed over lines, as `indent` and `newline` say, starting at `level`.
        func pretty(indent: String, newline: String, level: Int) -> String {
            let inner = String(repeating: indent, count: level + 1)
            let outer = String(repeating: indent, count: level)
            switch self {
            case .object(let members) where !members.isEmpty:
                return "{" + newline + members.map { inner + Value.quoted($0.0) + ": " + $0.1.pretty(indent: indent, newline: newline, level: level + 1) }
                    .joined(separator: "," + newline) + newline + outer + "}"
            case .array(let elements) where !elements.isEmpty:
                return "[" + newline + elements.map { inner + $0.pretty(indent: indent, newline: newline, level: level + 1) }
                    .joined(separator: "," + newline) + newline + outer + "]"
            default:
                return compact
            }
        }

        static func quoted(_ text: String) -> String {
            JSONStringWriter.quoted(text)
        }
    }

    /// A record with nested members and strings that hold what the conversion must not read as
    /// structure: brackets, braces, commas, quotes and backslashes, spaces, escapes, UTF-8.
    static func record(_ random: inout SystemRandomNumberGenerator.Seeded) -> Value {
        let texts = ["plain", "a ] b", "{ \"not\": [an, object] }", "back\\slash\\", "quote \" inside", "  spaced  ",
                     "tab\tand\nnewline", "Café de Flore", "東京タワー", "😀", "", ",", "\\\"", "]}", "\u{1}"]
        func text() -> Value { .string(texts[Int(random.next() % UInt64(texts.count))]) }
        func leaf() -> Value {
            switch random.next() % 4 {
            case 0: text()
            case 1: .number(["0", "-1.5e3", "17", "3.25"][Int(random.next() % 4)])
            case 2: .literal(["true", "false", "null"][Int(random.next() % 3)])
            default: .array((0..<Int(random.next() % 3)).map { _ in text() })
            }
        }
        var members: [(String, Value)] = [("timestamp", .string("2026-10-01T00:00:20.007919123Z"))]
        for index in 0..<Int(random.next() % 5) {
            members.append(("k\(index) ]", random.next() % 3 == 0 ? .object([("nested", leaf()), ("empty", .object([]))]) : leaf()))
        }
        return .object(members)
    }

    /// `elements` printed as an array in `style`, and the line each element starts on.
    static func printed(_ elements: [Value], _ style: Style) -> (text: String, lines: [Int]) {
        var text = style == .byteOrderMark ? "\u{FEFF}" : ""
        let newline = style == .indentFourCRLF ? "\r\n" : "\n"
        let indent = switch style {
        case .indentFourCRLF: "    "
        case .tabs: "\t"
        default: "  "
        }
        var lines: [Int] = []
        var line = 1
        func add(_ piece: String) {
            text += piece
            line += piece.filter { $0 == "\n" || $0 == "\r\n" }.count
        }
        switch style {
        case .oneLine:
            add("[")
            for (index, element) in elements.enumerated() {
                if index > 0 { add(", ") }
                lines.append(line)
                add(element.compact)
            }
            add("]")
        case .closeAndOpenOnOneLine:
            add("[")
            for (index, element) in elements.enumerated() {
                add(index == 0 ? newline + indent : ", ")
                lines.append(line)
                add(element.pretty(indent: indent, newline: newline, level: 1))
            }
            add(newline + "]" + newline)
        default:
            add("[" + newline)
            for (index, element) in elements.enumerated() {
                add(indent)
                lines.append(line)
                add(element.pretty(indent: indent, newline: newline, level: 1))
                add((index < elements.count - 1 ? "," : "") + newline)
            }
            add("]" + newline)
        }
        return (text, lines)
    }

    /// `text` converted, fed in chunks of the sizes `chunks` gives in turn.
    static func converted(_ text: String, chunks: [Int] = [1 << 20]) -> [String] {
        let bytes = Array(text.utf8)
        var lines = JSONArrayLines()
        var output: [UInt8] = []
        var start = 0
        var turn = 0
        while start < bytes.count {
            let end = min(bytes.count, start + max(1, chunks[turn % chunks.count]))
            bytes[start..<end].withUnsafeBytes { lines.convert($0, into: &output) }
            start = end
            turn += 1
        }
        lines.finish(into: &output)
        return String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test("Each element is one compact line, on the line it starts on, whatever the printing and however the bytes arrive", arguments: Style.allCases)
    func everyStyle(_ style: Style) {
        var random = SystemRandomNumberGenerator.Seeded(seed: 23)
        for round in 0..<60 {
            let elements = (0..<Int(random.next() % 7)).map { _ in Self.record(&random) }
            let (text, starts) = Self.printed(elements, style)
            let chunks = round % 3 == 0 ? [1 << 20] : (0..<5).map { _ in Int(random.next() % 9) + 1 }
            let lines = Self.converted(text, chunks: chunks)
            let written = lines.enumerated().filter { !$0.element.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" } }
            #expect(written.map(\.element) == elements.map(\.compact), "\(style) \(text)")
            if style == .oneLine {
                // No line to spare: the elements are numbered 1, 2, 3...
                #expect(written.map { $0.offset + 1 } == elements.indices.map { $0 + 1 })
            } else {
                #expect(written.map { $0.offset + 1 } == starts, "\(style) \(text)")
            }
        }
    }

    @Test("An array cut short at any byte keeps its whole elements and passes the one cut on as a last line, as far as it goes")
    func cutShort() {
        var random = SystemRandomNumberGenerator.Seeded(seed: 5)
        let values = (0..<4).map { _ in Self.record(&random) }
        let elements = values.map { Array($0.compact.utf8) }
        let bytes = Array(Self.printed(values, .indentTwo).text.utf8)
        for cut in 0...bytes.count {
            var lines = JSONArrayLines()
            var output: [UInt8] = []
            bytes[..<cut].withUnsafeBytes { lines.convert($0, into: &output) }
            lines.finish(into: &output)
            let written = output.split(separator: .newline).map(Array.init)
            #expect(written.count <= elements.count, "cut at \(cut)")
            for (index, line) in written.enumerated() {
                // Every line but the last is a whole element; the last, its element or a start of it.
                let whole = line == elements[index]
                #expect(whole || (index == written.count - 1 && elements[index].starts(with: line)), "cut at \(cut)")
            }
        }
    }

    @Test("What is not an element, a separator or the array's brackets is passed on as a line for the reader to reject", arguments: [
        ("[1, \"x\", {\"a\": 1}]", ["1", "\"x\"", "{\"a\":1}"]),
        ("[{\"a\": 1}]\n[{\"b\": 2}]\n", ["{\"a\":1}", "{\"b\":2}", ""]),
        ("[{\"a\": 1}] trailing\n", ["{\"a\":1}", "trailing", ""]),
        ("[\n{\"a\": 1}\n{\"b\": 2}\n]", ["", "{\"a\":1}", "{\"b\":2}", ""]),
        ("[{\"a\": \"x\ny\"}]", ["{\"a\":\"x", "y\"}"]),
        ("[{\"a\": [1, {\"b\": \"]}\\\"\"}]}, {}]", ["{\"a\":[1,{\"b\":\"]}\\\"\"}]}", "{}"]),
        // The second element moved to line 2 runs a line ahead; the blank line 2 makes it up.
        ("[{\"a\": 1}, {\"b\": 2}\n\n{\"c\": 3}]", ["{\"a\":1}", "{\"b\":2}", "{\"c\":3}"]),
        ("[]", [""]),
        ("[{\"a\": 1}\n", ["{\"a\":1}", ""]),
        ("[{\"a\": {\"b\": ", ["{\"a\":{\"b\":"]),
    ])
    func brokenArrays(_ text: String, _ lines: [String]) {
        #expect(Self.converted(text) == lines)
        #expect(Self.converted(text, chunks: [1]) == lines)
    }

    @Test("An array of objects is told from its first bytes; an error log's `[date]` and other arrays are not")
    func detection() {
        for head in ["[{", "[\n  {", "\u{FEFF}[\r\n\t{", "  \n[ ]", "[]", "[\n]"] {
            #expect(JSONArrayLines.isArray(Array(head.utf8)), "\(head)")
        }
        for head in ["[Fri Nov 27 10:00:00 2026] [error]", "[\"a\"]", "[1, 2]", "[[", "{\"a\": 1}", "", "["] {
            #expect(!JSONArrayLines.isArray(Array(head.utf8)), "\(head)")
        }
    }

    // MARK: - Analyzing an array

    static let arguments = ["--json", "--pricing", "legacy-list", "--threads", "2"]

    /// The clean corpus log's records and a generated day's, as JSON objects.
    static func records() throws -> [String] {
        let directory = TemporaryDirectory()
        let generated = directory.path + "/generated.jsonl"
        try #require(runCLI(["generate", "--searches", "400", "--seed", "3", "--days", "1", "--out", generated]).code == .success)
        return try [MalformedCorpusTests.folder + "/jsonl/clean.jsonl", generated].flatMap { path in
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        }
    }

    /// `lines` (JSON objects) as `json.dumps(..., indent=2)` would print their array.
    static func prettyArray(_ lines: [String]) throws -> String {
        let objects = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) }
        let data = try JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    @Test("An array of call records, pretty-printed, on one line or newest first, plain, gzip or piped, gives the JSON Lines report")
    func callRecords() throws {
        let lines = try Self.records()
        let expected = try GzipInputTests.plainReport(lines.joined(separator: "\n") + "\n", arguments: Self.arguments)
        let directory = TemporaryDirectory()
        let pretty = try Self.prettyArray(lines)
        // Each array, with the JSON Lines log of its records in its order.
        let arrays = [
            (directory.write("pretty.json", pretty), lines),
            (directory.write("newest-first.json", try Self.prettyArray(lines.reversed())), lines.reversed()),
            (directory.write("one-line.json", "[" + lines.joined(separator: ",") + "]"), lines),
            (directory.write("export", bytes: StoredGzipWriter.member(pretty)), lines),
        ]
        for (path, records) in arrays {
            let run = runCLI(["analyze", path] + Self.arguments)
            #expect(run.code == .success, "\(path): \(run.stderr)")
            #expect(try GzipInputTests.comparable(run.stdout) == expected, "\(path)")
            #expect(!run.stderr.contains("warning"), "\(path): \(run.stderr)")
            // The line reader, the pipeline's twin, reads the same calls in the same order.
            let plain = directory.write("plain.jsonl", records.joined(separator: "\n") + "\n")
            #expect(try LogReader().read([path]).calls == LogReader().read([plain]).calls, "\(path)")
        }
        let piped = try ProcessRun.placescost(["analyze", "-"] + Self.arguments, stdin: Data(pretty.utf8), timeout: 120)
        #expect(try GzipInputTests.comparable(piped.stdout) == expected, "\(piped.stderr)")
    }

    @Test("Cloud Logging entries as `gcloud logging read --format=json` writes them give the entries' JSON Lines report")
    func gcloudEntries() throws {
        let entries = try JSONAccessLogTests.requests().map { try JSONAccessLogTests.line($0, as: .cloudLogging) }
        let expected = try GzipInputTests.plainReport(entries.joined(separator: "\n") + "\n", arguments: Self.arguments)
        let directory = TemporaryDirectory()
        // gcloud writes the newest entry first.
        let path = directory.write("requests.json", try Self.prettyArray(entries.reversed()))
        let run = runCLI(["analyze", path] + Self.arguments)
        #expect(run.code == .success, "\(run.stderr)")
        #expect(try GzipInputTests.comparable(run.stdout) == expected)
    }

    @Test("A malformed element is warned at the line it starts on, on the pipeline and the line reader, without its values; the rest is read")
    func malformedElement() throws {
        var lines = try Array(Self.records().prefix(40))
        let secret = "Geheimstrasse 42"
        lines[7] = "{\"timestamp\": \"not a time\", \"api\": \"autocomplete\", \"input\": \"\(secret)\"}"
        lines[20] = "{\"timestamp\": \"2026-10-01T00:00:00Z\", \"api\": 17, \"input\": \"\(secret)\"}"
        let text = try Self.prettyArray(lines)
        let starts = Self.elementStarts(text)
        let directory = TemporaryDirectory()
        let path = directory.write("calls.json", text)
        let run = runCLI(["analyze", path] + Self.arguments)
        #expect(run.code == .success, "\(run.stderr)")
        let warned = run.stderr.split(separator: "\n").filter { $0.contains(": warning: ") }.map { $0.split(separator: ":")[1] }
        #expect(warned == ["\(starts[7])", "\(starts[20])"], "\(run.stderr)")
        #expect(!run.stderr.contains(secret) && !run.stdout.contains(secret))
        let read = try LogReader().read([path])
        #expect(read.diagnostics.map(\.location.line) == [starts[7], starts[20]])
        var kept = lines
        kept.remove(at: 20)
        kept.remove(at: 7)
        #expect(read.calls == (try LogReader().read([directory.write("kept.jsonl", kept.joined(separator: "\n") + "\n")])).calls)
    }

    /// The line each top-level element of a pretty-printed array starts on.
    static func elementStarts(_ text: String) -> [Int] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().filter { $0.element.hasPrefix("  {") }.map { $0.offset + 1 }
    }
}
