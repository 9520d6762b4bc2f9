import Foundation
import Testing
@testable import PlacesCostKit
@testable import PlacesCostReference

/// Privacy-first logs (issue 27): `input_length` in place of the typed text, hashed tokens,
/// `generate --privacy`, and the notice that a log with typed text needs only its length.
@Suite("input_length")
struct InputLengthTests {
    // MARK: - Readers

    static func fast(_ line: String) -> Call? {
        Array(line.utf8).withUnsafeBufferPointer { JSONLineTwins.fastCall($0) }
    }

    static func slow(_ line: String) -> Result<Call, DecodeFailure> {
        Array(line.utf8).withUnsafeBufferPointer { JSONLineTwins.slowCall($0) }
    }

    static func disagreement(_ line: String) -> String? {
        Array(line.utf8).withUnsafeBufferPointer { JSONLineTwins.disagreement($0) }
    }

    static let head = #"{"timestamp":"2026-10-01T09:00:00Z","api":"autocomplete","session_token":"t""#

    @Test("input_length gives the length the text gives, on both paths")
    func lengthEqualsText() throws {
        for (text, length) in [("", 0), ("Sta", 3), ("東京", 2), ("e\u{301}", 2), ("😀", 1), ("a\\\"b", 3)] {
            let withText = InputLengthTests.head + #","input":""# + text + #""}"#
            let withLength = InputLengthTests.head + #","input_length":"# + String(length) + "}"
            let camel = InputLengthTests.head + #","inputLength":"# + String(length) + "}"
            let both = InputLengthTests.head + #","input":""# + text + #"","input_length":"# + String(length) + "}"
            let expected = try InputLengthTests.slow(withText).get()
            #expect(expected.inputLength == length, "\(text)")
            for line in [withLength, camel, both] {
                #expect(try InputLengthTests.slow(line).get() == expected, "\(line)")
                #expect(InputLengthTests.disagreement(line) == nil, "\(line)")
            }
            // The common spellings are read by the fast path, not left to the slow one.
            #expect(InputLengthTests.fast(withLength) == expected)
            #expect(InputLengthTests.fast(camel) == expected)
        }
        // A string of digits, and null, as the slow path reads them.
        #expect(try InputLengthTests.slow(InputLengthTests.head + #","input_length":"7"}"#).get().inputLength == 7)
        #expect(try InputLengthTests.slow(InputLengthTests.head + #","input_length":null}"#).get().inputLength == nil)
        #expect(try InputLengthTests.slow(InputLengthTests.head + #","input":null,"input_length":4}"#).get().inputLength == 4)
        #expect(InputLengthTests.fast(InputLengthTests.head + #","input_length":2147483647}"#)?.inputLength == 2_147_483_647)
    }

    static let malformed: [(value: String, reason: String)] = [
        ("-3", "negative"), ("-0", "negative"), ("1.5", "fraction"), ("1e3", "exponent"), ("7.0", "fraction"),
        ("\"abc\"", "not one"), ("\"-4\"", "not one"), ("\" 4\"", "not one"), ("2147483648", "larger than"),
        ("99999999999999999999999", "larger than"), ("true", "boolean"), ("[1]", "array"), ("{\"n\":1}", "object"),
    ]

    @Test("A malformed input_length is a malformed record, its value never quoted, on both paths")
    func malformedValues() throws {
        for (value, reason) in InputLengthTests.malformed {
            let line = InputLengthTests.head + #","input_length":"# + value + "}"
            #expect(InputLengthTests.fast(line) == nil, "\(value)")
            guard case .failure(let failure) = InputLengthTests.slow(line) else {
                Issue.record("\(value) was accepted")
                continue
            }
            #expect(failure.reason.contains(reason), "\(value): \(failure.reason)")
            #expect(failure.reason.contains("input_length"))
            let digits = value.filter(\.isNumber)
            if digits.count > 1 { #expect(!failure.reason.contains(digits), "\(failure.reason)") }
            #expect(!failure.reason.contains("abc"))
        }
        // Text and length that disagree: named by their counts, never the text.
        let mismatch = InputLengthTests.head + #","input":"secret","input_length":5}"#
        #expect(InputLengthTests.fast(mismatch) == nil)
        guard case .failure(let failure) = InputLengthTests.slow(mismatch) else {
            Issue.record("accepted")
            return
        }
        #expect(failure.reason == "`input` has 6 code points but `input_length` says 5; log one of the two")
    }

    @Test("Malformed values are reported with file:line and counted, in JSON Lines and CSV")
    func malformedInLogs() throws {
        let directory = TemporaryDirectory()
        let good = #"{"timestamp":"2026-10-01T09:00:00Z","api":"autocomplete","session_token":"t","input_length":3}"#
        var lines = [good]
        for (value, _) in InputLengthTests.malformed { lines.append(#"{"timestamp":"2026-10-01T09:00:01Z","api":"autocomplete","input_length":"# + value + "}") }
        let jsonl = directory.write("log.jsonl", lines.joined(separator: "\n") + "\n")
        let csv = directory.write("log.csv", "timestamp,api,session_token,input_length\n2026-10-01T09:00:00Z,autocomplete,t,3\n2026-10-01T09:00:01Z,autocomplete,t,-1\n2026-10-01T09:00:02Z,autocomplete,t,1.5\n2026-10-01T09:00:03Z,autocomplete,t,secret\n2026-10-01T09:00:04Z,autocomplete,t,\n")
        let (jsonAnalysis, jsonRead) = try Analyzer().analyze(paths: [jsonl])
        #expect(jsonAnalysis.input.rejected == InputLengthTests.malformed.count)
        #expect(jsonRead.diagnostics.map(\.location.line) == Array(2...(InputLengthTests.malformed.count + 1)).prefix(LogReader.maxStoredDiagnostics).map { $0 })
        let (csvAnalysis, csvRead) = try Analyzer().analyze(paths: [csv])
        #expect(csvAnalysis.input.rejected == 3)
        #expect(csvRead.diagnostics.map(\.location.line) == [3, 4, 5])
        #expect(!csvRead.diagnostics.contains { "\($0)".contains("secret") })
        #expect(csvAnalysis.input.records == 2)
    }

    @Test("CSV: an input_length column reads as the input column's length, fast and slow")
    func csvColumn() throws {
        let columns: [RawRecord.Key?] = [.timestamp, .api, .sessionToken, .inputLength]
        for row in ["2026-10-01T09:00:00Z,autocomplete,t,4", "2026-10-01T09:00:00Z,autocomplete,t,\"4\"", "2026-10-01T09:00:00Z,autocomplete,t,0",
                    "2026-10-01T09:00:00Z,autocomplete,t,"] {
            let disagreement = Array(row.utf8).withUnsafeBufferPointer { CSVRowTwins.disagreement($0, columns: columns) }
            #expect(disagreement == nil, "\(row)")
        }
        let row = Array("2026-10-01T09:00:00Z,autocomplete,t,4".utf8)
        #expect(row.withUnsafeBufferPointer { CSVRowTwins.fastCall($0, columns: columns) }?.inputLength == 4)
        let both: [RawRecord.Key?] = [.timestamp, .api, .input, .inputLength]
        for (text, agree) in [("2026-10-01T09:00:00Z,autocomplete,東京,2", true), ("2026-10-01T09:00:00Z,autocomplete,東京,6", false)] {
            let bytes = Array(text.utf8)
            #expect(bytes.withUnsafeBufferPointer { CSVRowTwins.disagreement($0, columns: both) } == nil)
            let slow = bytes.withUnsafeBufferPointer { CSVRowTwins.slowCall($0, columns: both) }
            if agree { #expect(try slow?.get().inputLength == 2) } else { #expect(throws: DecodeFailure.self) { try slow?.get() } }
        }
    }

    @Test("Any non-empty string is a session token: hex digests, base64 with +/=")
    func hashedTokens() throws {
        let tokens = [
            SHA256.hex("6513270e-269e-4d37-b2a7-4de452e6b438"), "ZXhhbXBsZSB0b2tlbg+/==", "a", "tok en", "東京-token",
        ]
        for token in tokens {
            var text = ""
            text += #"{"timestamp":"2026-10-01T09:00:00.000Z","api":"autocomplete","session_token":"\#(token)","input_length":1}"# + "\n"
            text += #"{"timestamp":"2026-10-01T09:00:01.000Z","api":"autocomplete","session_token":"\#(token)","input_length":2}"# + "\n"
            text += #"{"timestamp":"2026-10-01T09:00:03.000Z","api":"place_details","session_token":"\#(token)","place_id":"p","fields":["id"]}"# + "\n"
            let directory = TemporaryDirectory()
            let (analysis, _) = try Analyzer().analyze(paths: [directory.write("log.jsonl", text)])
            #expect(analysis.statistics.total == 1, "\(token)")
            #expect(analysis.statistics.completed == 1, "\(token)")
            #expect(analysis.input.rejected == 0)
        }
    }

    // MARK: - Byte-identical figures

    /// `line` with its `"input":"TEXT"` replaced by `"input_length":N`, N the text's code points.
    static func withLength(_ line: Substring) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let text = object["input"] as? String,
              let range = line.range(of: #","input":""#)
        else { return String(line) }
        var end = range.upperBound
        while line[end] != "\"" { end = line.index(after: line[end] == "\\" ? line.index(after: end) : end) }
        return String(line[..<range.lowerBound]) + #","input_length":\#(text.unicodeScalars.count)"# + String(line[line.index(after: end)...])
    }

    /// The report files of `analyze` on `first` and on `second`, each written to the same path
    /// in turn, so that the reports name the same file.
    static func outputs(_ first: String, _ second: String, name: String) -> [[String: String]] {
        let directory = TemporaryDirectory()
        return [first, second].enumerated().map { index, text in
            let path = directory.write(name, text)
            let out = directory.path + "/out\(index)"
            let result = runCLI(["analyze", path, "--out", out, "--quiet"])
            #expect(result.code == .success, "\(result.stderr)")
            var files: [String: String] = [:]
            for file in ["report.json", "report.md", "report.html", "searches.csv", "costs.csv"] {
                files[file] = try? String(contentsOfFile: out + "/" + file, encoding: .utf8)
                #expect(files[file] != nil, "\(file)")
            }
            return files
        }
    }

    @Test("A log with input_length gives byte-identical reports to the same log with the text", arguments: [1, 5, 23])
    func sameFiguresGenerated(seed: Int) {
        let text = runCLI(["generate", "--searches", "600", "--seed", String(seed)]).stdout
        let rewritten = text.split(separator: "\n").map(InputLengthTests.withLength).joined(separator: "\n") + "\n"
        #expect(!rewritten.contains(#""input":"#))
        #expect(rewritten.contains(#""input_length":"#))
        let outputs = InputLengthTests.outputs(text, rewritten, name: "log.jsonl")
        #expect(outputs[0] == outputs[1])
    }

    @Test("The same, with non-ASCII text, empty inputs, calls without input and a CSV")
    func sameFiguresHandWritten() {
        var lines: [String] = []
        let texts = ["", "S", "Sta", "東京", "東京タワー", "e\u{301}", "😀", "👩‍👩‍👧", "Mün", "a\\\"b"]
        for user in 0..<12 {
            let minute = String(format: "%02d", user)
            for (index, text) in texts.enumerated() {
                lines.append(#"{"timestamp":"2026-10-01T09:\#(minute):\#(String(format: "%02d", index)).000Z","api":"autocomplete","session_token":"t\#(user)","input":"\#(text)","user_id":"u\#(user)"}"#)
            }
            lines.append(#"{"timestamp":"2026-10-01T09:\#(minute):30.000Z","api":"autocomplete","session_token":"t\#(user)","user_id":"u\#(user)"}"#)
            lines.append(#"{"timestamp":"2026-10-01T09:\#(minute):40.000Z","api":"place_details","session_token":"t\#(user)","place_id":"p","fields":["id"]}"#)
        }
        let text = lines.joined(separator: "\n") + "\n"
        let rewritten = lines.map { InputLengthTests.withLength($0[...]) }.joined(separator: "\n") + "\n"
        #expect(rewritten.contains(#""input_length":3"#) && rewritten.contains(#""input_length":0"#))
        let outputs = InputLengthTests.outputs(text, rewritten, name: "log.jsonl")
        #expect(outputs[0] == outputs[1])
    }

    @Test("generate --privacy and generate with the same seed analyze to the same figures", arguments: ["jsonl", "csv"])
    func generatePrivacy(format: String) throws {
        let plain = runCLI(["generate", "--searches", "800", "--seed", "4", "--format", format])
        let private_ = runCLI(["generate", "--searches", "800", "--seed", "4", "--format", format, "--privacy"])
        #expect(private_.code == .success && private_.stderr.isEmpty)
        #expect(!private_.stdout.contains("\"input\"") && !private_.stdout.contains(",input,"))
        #expect(!private_.stdout.contains("東京"))
        let name = "log." + format
        let outputs = InputLengthTests.outputs(plain.stdout, private_.stdout, name: name)
        let (a, b) = (outputs[0], outputs[1])
        // Every figure is the same; only `searches.csv`'s token pseudonyms differ, as the tokens do.
        for file in ["report.json", "report.md", "report.html", "costs.csv"] { #expect(a[file] == b[file], "\(file)") }
        func withoutTokens(_ csv: String?) -> [String] {
            (csv ?? "").split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).enumerated().filter { $0.offset != 1 }.map(\.element).joined(separator: ",") }
        }
        #expect(withoutTokens(a["searches.csv"]) == withoutTokens(b["searches.csv"]))
        let token = try #require(private_.stdout.firstMatch(of: /[0-9a-f]{64}/))
        #expect(token.output.count == 64)
    }

    @Test("generate --privacy refuses the formats that carry the text by nature", arguments: ["access-log", "har"])
    func generatePrivacyRefused(format: String) {
        let result = runCLI(["generate", "--searches", "10", "--format", format, "--privacy"])
        #expect(result.code == .usage)
        #expect(result.stderr.contains("--privacy writes canonical logs"))
        #expect(result.stdout.isEmpty)
    }

    // MARK: - The notice

    @Test("analyze says once that typed text is not needed; --quiet silences it; no text quoted")
    func notice() {
        let directory = TemporaryDirectory()
        let withText = #"{"timestamp":"2026-10-01T09:00:00Z","api":"autocomplete","session_token":"t","input":"secret words"}"# + "\n"
        let withLength = #"{"timestamp":"2026-10-01T09:00:00Z","api":"autocomplete","session_token":"t","input_length":12}"# + "\n"
        let a = directory.write("a.jsonl", String(repeating: withText, count: 3))
        let b = directory.write("b.jsonl", withText)
        let c = directory.write("c.csv", "timestamp,api,input\n2026-10-01T09:00:00Z,autocomplete,secret words\n")
        let d = directory.write("d.jsonl", withLength)
        let one = runCLI(["analyze", a, d])
        let notes = one.stderr.split(separator: "\n").filter { $0.contains("typed text") }
        #expect(notes == ["placescost: note: \(a)" + #" holds typed text in "input" (3 records); only its length is used: log "input_length" (code points) instead, and no user's words need to be kept (docs/formats.md)."#])
        let all = runCLI(["analyze", a, b, c])
        #expect(all.stderr.split(separator: "\n").filter { $0.contains("typed text") }
            == ["placescost: note: \(a)" + #" and 2 more files hold typed text in "input" (5 records); only its length is used: log "input_length" (code points) instead, and no user's words need to be kept (docs/formats.md)."#])
        #expect(!all.stderr.contains("secret"))
        #expect(runCLI(["analyze", a, "--quiet"]).stderr.isEmpty)
        #expect(!runCLI(["analyze", d]).stderr.contains("typed text"))
        let compare = runCLI(["compare", a, b])
        #expect(compare.stderr.split(separator: "\n").filter { $0.contains("typed text") }.count == 1)
    }

    @Test("The notice counts records on every read path: blocks, standard input and the whole-read twin")
    func noticeCountedOnce() throws {
        let directory = TemporaryDirectory()
        var text = ""
        for index in 0..<5000 {
            text += #"{"timestamp":"2026-10-01T09:00:00Z","api":"autocomplete","session_token":"t\#(index)","input":"ab\#(index % 3 == 0 ? "\\u00e9" : "")"}"# + "\n"
        }
        text += #"{"timestamp":"2026-10-01T09:00:00Z","api":"autocomplete","input":""}"# + "\n"
        let path = directory.write("log.jsonl", text)
        let (_, read) = try Analyzer().analyze(paths: [path])
        #expect(read.typedTextRecords == 5000)
        #expect(read.typedTextFiles == [path])
        let whole = try LogReader().read([path])
        #expect(whole.typedTextRecords == 5000)
        #expect(whole.typedTextFiles == [path])
    }
}
