import Foundation
import Testing
@testable import PlacesCostKit

/// The malformed-input corpus (`Fixtures/Malformed/manifest.json`, written by
/// `scripts/make_malformed_corpus.py`): every malformed record is skipped and counted at its
/// FILE:LINE, and everything else about the analysis equals the clean log's.
@Suite("Malformed input corpus")
struct MalformedCorpusTests {
    static let folder = packageRoot + "/Tests/PlacesCostKitTests/Fixtures/Malformed"

    struct Case: Decodable, CustomTestStringConvertible, Sendable {
        struct Rejection: Decodable, Sendable {
            /// Where the diagnostic points, in every format: for a HAR, the line its entry starts on.
            var line: Int?
            var kind: String
        }

        var file: String
        var format: String
        var clean: String
        var rejected: [Rejection]
        var note: String
        var testDescription: String { "\(file): \(note)" }
    }

    struct Manifest: Decodable {
        var schema: String
        var cases: [Case]
    }

    static let cases: [Case] = {
        let data = FileManager.default.contents(atPath: folder + "/manifest.json") ?? Data()
        guard let manifest = try? JSONDecoder().decode(Manifest.self, from: data), manifest.schema == "placescost.malformed-corpus/1" else {
            return []
        }
        return manifest.cases
    }()

    @Test("The manifest lists cases for every format")
    func manifestCoversEveryFormat() {
        #expect(Set(Self.cases.map(\.format)) == Set(InputFormat.allCases.map(\.rawValue)))
        #expect(Self.cases.count >= 15)
    }

    @Test("Each malformed record is skipped and counted at its position; every other figure equals the clean log's", arguments: cases)
    func skippedAndCounted(_ corpusCase: Case) throws {
        let path = Self.folder + "/" + corpusCase.file
        let run = runCLI(["analyze", path, "--format", corpusCase.format, "--pricing", "legacy-list", "--report", "json", "--threads", "2"])
        #expect(run.code == .success)
        let clean = runCLI(["analyze", Self.folder + "/" + corpusCase.clean, "--format", corpusCase.format, "--pricing", "legacy-list", "--report", "json", "--quiet"])
        let report = try Self.object(run.stdout)
        let input = try #require(report["input"] as? [String: Any])
        #expect(input["rejected"] as? Int == corpusCase.rejected.count)
        #expect(Self.withoutInputFiles(report) == Self.withoutInputFiles(try Self.object(clean.stdout)))
        let warned = run.stderr.split(separator: "\n").compactMap { line -> Int? in
            let prefix = path + ":"
            guard line.hasPrefix(prefix) else { return nil }
            return Int(line.dropFirst(prefix.count).prefix { $0.isNumber })
        }
        let expected = corpusCase.rejected.compactMap(\.line).filter { $0 > 0 }
        #expect(warned == expected, "warnings at \(warned), expected \(expected): \(run.stderr)")
    }

    @Test("--strict exits 65 at the first malformed record of each case, naming FILE:LINE", arguments: cases.filter { !$0.rejected.isEmpty && $0.rejected[0].line != nil })
    func strict(_ corpusCase: Case) throws {
        let path = Self.folder + "/" + corpusCase.file
        let run = runCLI(["analyze", path, "--format", corpusCase.format, "--strict", "--report", "json"])
        #expect(run.code == .dataError)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("placescost: error: \(path):\(corpusCase.rejected[0].line!): malformed record: "))
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test("A 5 MB line among clean records is skipped and counted; the rest equals the clean log", arguments: [0x78 as UInt8, 0x7B])
    func fiveMegabyteLine(_ filler: UInt8) throws {
        let directory = TemporaryDirectory()
        let cleanPath = Self.folder + "/jsonl/clean.jsonl"
        var lines = try String(contentsOfFile: cleanPath, encoding: .utf8).split(separator: "\n").map { Array($0.utf8) }
        // Junk, or a record padded to 5 MB with a huge input: neither is a log record.
        let huge: [UInt8] = filler == 0x78
            ? [UInt8](repeating: filler, count: 5 << 20)
            : Array(#"{"timestamp":"2026-10-02T03:48:40.000Z","api":"autocomplete","input":""#.utf8) + [UInt8](repeating: 0x61, count: 5 << 20) + Array(#""}"#.utf8)
        lines.insert(huge, at: 10)
        let path = directory.write("huge.jsonl", bytes: Array(lines.joined(separator: [0x0A])) + [0x0A])
        let run = runCLI(["analyze", path, "--report", "json", "--pricing", "legacy-list"])
        let clean = runCLI(["analyze", cleanPath, "--report", "json", "--pricing", "legacy-list"])
        let report = try Self.object(run.stdout)
        #expect((report["input"] as? [String: Any])?["rejected"] as? Int == 1)
        #expect(run.stderr.hasPrefix("\(path):11: warning: \(LineReader.overlongReason)"))
        #expect(Self.withoutInputFiles(report) == Self.withoutInputFiles(try Self.object(clean.stdout)))
    }

    @Test("An unknown api name is not malformed: counted under its name, reported as unpriced, no part in sessions")
    func unknownAPI() throws {
        let directory = TemporaryDirectory()
        let cleanPath = Self.folder + "/jsonl/clean.jsonl"
        let clean = try String(contentsOfFile: cleanPath, encoding: .utf8)
        let path = directory.write("unknown.jsonl", clean + #"{"timestamp":"2026-10-02T03:49:00.000Z","api":"nearby_search","session_token":"t-1"}"# + "\n")
        let run = runCLI(["analyze", path, "--report", "json", "--pricing", "legacy-list"])
        let report = try Self.object(run.stdout)
        let input = try #require(report["input"] as? [String: Any])
        #expect(input["rejected"] as? Int == 0)
        #expect((input["by_api"] as? [String: Any])?["nearby_search"] as? Int == 1)
        let cleanReport = try Self.object(runCLI(["analyze", cleanPath, "--report", "json", "--pricing", "legacy-list"]).stdout)
        #expect(Self.json(report["searches"]) == Self.json(cleanReport["searches"]))
        #expect(Self.json(report["anomalies"]) == Self.json(cleanReport["anomalies"]))
        #expect(run.stdout.contains("\"nearby_search (not priced)\": 1"))
    }

    @Test("Every warning and error is one line of bounded length, whatever text the record quotes")
    func oneLineDiagnostics() throws {
        let directory = TemporaryDirectory()
        let long = String(repeating: "9", count: 5000)
        let lines = [
            #"{"timestamp":"2026-10-01\nT09:00:00Z","api":"autocomplete"}"#,
            #"{"timestamp":"\u2028\u001b[31m","api":"autocomplete"}"#,
            #"{"timestamp":"\#(long)","api":"autocomplete"}"#,
            #"{"timestamp":"2026-10-01T09:00:00Z","api":"autocomplete"}"#,
        ]
        let path = directory.write("quoted.jsonl", lines.joined(separator: "\n") + "\n")
        let run = runCLI(["analyze", path, "--report", "json"])
        let warnings = run.stderr.split(separator: "\n", omittingEmptySubsequences: false).filter { $0.hasPrefix(path) }
        #expect(warnings.count == 3)
        #expect(warnings.allSatisfy { $0.count < 400 && !$0.contains("\u{1B}") && !$0.contains("\u{2028}") })
        let strict = runCLI(["analyze", path, "--strict"])
        #expect(strict.code == .dataError)
        #expect(strict.stderr.split(separator: "\n").count == 1)
        #expect(strict.stderr.hasPrefix("placescost: error: \(path):1: malformed record: "))
    }

    @Test("Inputs the fuzzers found (fuzz-*) are read to the end with a documented exit code, in any format", arguments: InputFormat.allCases)
    func fuzzFindings(_ format: InputFormat) throws {
        let folders = ["jsonl", "csv", "access-log", "har"]
        let findings = folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: Self.folder + "/" + folder)) ?? [])
                .filter { $0.hasPrefix("fuzz-") }.map { Self.folder + "/" + folder + "/" + $0 }
        }
        #expect(findings.count >= 3)
        for path in findings.sorted() {
            let run = runCLI(["analyze", path, "--format", format.rawValue, "--report", "json", "--quiet"])
            #expect([ExitCode.success, .dataError].contains(run.code), "\(path) as \(format): \(run.code) \(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count <= 1)
        }
    }

    @Test("A timestamp years from the rest: the walk holds every call instead of a bucket per second, and stays exact")
    func farOutlier() throws {
        let path = Self.folder + "/jsonl/fuzz-far-future-timestamp.jsonl"
        let streamed = try Analyzer(options: Analyzer.Options()).analyze(paths: [path]).0
        var options = Analyzer.Options()
        options.reorderWindowSeconds = 1e9
        let heldWhole = try Analyzer(options: options).analyze(paths: [path]).0
        #expect(ReportBundle().render(streamed, as: .json) == ReportBundle().render(heldWhole, as: .json))
        #expect(streamed.input.lastCall?.rfc3339.hasPrefix("4052-") == true)
    }

    @Test("--strict stops reading at the first malformed record instead of reading the whole log")
    func strictStopsEarly() throws {
        let directory = TemporaryDirectory()
        let clean = try String(contentsOfFile: Self.folder + "/jsonl/clean.jsonl", encoding: .utf8)
        let text = "{broken\n" + String(repeating: clean, count: 200)
        let path = directory.write("long.jsonl", text)
        var options = Analyzer.Options()
        options.reader.strict = true
        options.blockSize = 4096
        options.threads = 2
        let furthest = Furthest()
        options.progress = { furthest.note($0) }
        #expect(throws: IngestError.malformedRecord(Diagnostic(location: SourceLocation(file: path, line: 1), reason: "invalid JSON: expected a key at column 2"))) {
            try Analyzer(options: options).analyze(paths: [path])
        }
        #expect(furthest.value < text.utf8.count / 10, "read \(furthest.value) of \(text.utf8.count) bytes")
    }

    /// The largest byte count the progress callback saw.
    final class Furthest: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes = 0
        var value: Int { lock.withLock { bytes } }
        func note(_ count: Int) { lock.withLock { bytes = max(bytes, count) } }
    }

    // MARK: - Helpers

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The report as canonical JSON text without `input.files` and `input.rejected`, which name
    /// and count what the clean log lacks.
    static func withoutInputFiles(_ report: [String: Any]) -> String {
        var report = report
        if var input = report["input"] as? [String: Any] {
            input["files"] = nil
            input["rejected"] = nil
            report["input"] = input
        }
        return json(report)
    }

    static func json(_ value: Any?) -> String {
        guard let value, let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}
