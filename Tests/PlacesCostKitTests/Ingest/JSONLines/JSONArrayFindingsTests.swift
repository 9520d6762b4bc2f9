import Foundation
import Testing
@testable import PlacesCostKit

/// What a JSON array shows beside its elements and no line of its own can: an array cut off
/// between elements (`gcloud logging read --format=json > f` killed halfway), and separators with
/// no element (`[a,,b]`, `[a,]`). Each is a warning about the file at its line, never silent.
@Suite("JSON array findings")
struct JSONArrayFindingsTests {
    static let record = #"{"timestamp":"2026-10-01T09:00:00Z","api":"autocomplete","session_token":"SECRETTOKEN123","input_length":3}"#

    /// The findings of `text` converted in pieces of `chunk` bytes.
    static func findings(_ text: String, chunk: Int) -> [JSONArrayLines.Finding] {
        var lines = JSONArrayLines()
        var output: [UInt8] = []
        let bytes = Array(text.utf8)
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            bytes[start..<min(start + chunk, bytes.count)].withUnsafeBytes { lines.convert($0, into: &output) }
        }
        lines.finish(into: &output)
        return lines.findings
    }

    @Test("Cut off between elements, and empty elements, are found at their lines, however the bytes arrive", arguments: [
        ("[{\"a\": 1},", [JSONArrayLines.Finding(kind: .cutOff(elementsRead: 1), line: 1)]),
        ("[\n  {\"a\": 1},\n  {\"b\": 2}\n", [.init(kind: .cutOff(elementsRead: 2), line: 3)]),
        ("[\n  {\"a\": 1},\n  {\"b\": 2},\n\n", [.init(kind: .cutOff(elementsRead: 2), line: 3)]),
        ("[{\"a\": 1}, 42", []),  // an element that ends the input is a line of its own
        ("[{\"a\": {\"b\": ", []),  // so is one cut short: the reader rejects it
        ("[{\"a\": 1},,{\"b\": 2}]", [.init(kind: .emptyElements(count: 1), line: 1)]),
        ("[,{\"a\": 1}]", [.init(kind: .emptyElements(count: 1), line: 1)]),
        ("[\n  {\"a\": 1},\n  {\"b\": 2},\n]\n", [.init(kind: .emptyElements(count: 1), line: 3)]),
        ("[{\"a\": 1},\n,\n,{\"b\": \",,]\"},]", [.init(kind: .emptyElements(count: 3), line: 2)]),
        ("[{\"a\": 1},,{\"b\": 2},", [.init(kind: .emptyElements(count: 1), line: 1), .init(kind: .cutOff(elementsRead: 2), line: 1)]),
        ("[1, 2,]", [.init(kind: .emptyElements(count: 1), line: 1)]),
        ("[]", []),
        ("[{\"a\": [1, 2]}]", []),
        ("[{\"a\": 1}]\n[{\"b\": 2}]\n", []),
        ("[{\"a\": 1}] [{\"b\": 2},", [.init(kind: .cutOff(elementsRead: 2), line: 1)]),
    ])
    func found(_ text: String, _ expected: [JSONArrayLines.Finding]) {
        for chunk in [1, 3, 1 << 16] {
            #expect(Self.findings(text, chunk: chunk) == expected, "in pieces of \(chunk)")
        }
    }

    @Test("The warnings' sentences quote nothing of the input")
    func reasons() {
        #expect(JSONArrayLines.Finding(kind: .cutOff(elementsRead: 1), line: 1).reason
            == "the JSON array is cut off after 1 complete element (no `]` closes it); those were read. Export the log again if it was still being written.")
        #expect(JSONArrayLines.Finding(kind: .emptyElements(count: 2), line: 1).reason.hasPrefix("the JSON array has 2 empty elements, the first here "))
    }

    @Test("analyze warns once at FILE:LINE of an array cut off or with empty elements, plain or gzip, reads every record, and stops under --strict",
          arguments: [false, true])
    func analyze(compressed: Bool) throws {
        if compressed, ZLib.platform == nil { return }
        let directory = TemporaryDirectory()
        let cases: [(name: String, text: String, records: Int, warnings: [(line: Int, reason: String)])] = [
            ("cut.json", "[\n  \(Self.record),\n  \(Self.record),\n", 2,
             [(3, JSONArrayLines.Finding(kind: .cutOff(elementsRead: 2), line: 3).reason)]),
            ("comma.json", "[\n  \(Self.record),\n  \(Self.record),\n]\n", 2,
             [(3, JSONArrayLines.Finding(kind: .emptyElements(count: 1), line: 3).reason)]),
            ("double.json", "[\(Self.record),,\(Self.record)]", 2,
             [(1, JSONArrayLines.Finding(kind: .emptyElements(count: 1), line: 1).reason)]),
            ("whole.json", "[\n  \(Self.record),\n  \(Self.record)\n]\n", 2, []),
        ]
        for (name, text, records, warnings) in cases {
            let path = compressed
                ? directory.write(name + ".gz", bytes: StoredGzipWriter.member(Array(text.utf8)))
                : directory.write(name, text)
            let run = runCLI(["analyze", path, "--json"])
            #expect(run.code == .success, "\(name): \(run.stderr)")
            #expect(run.stdout.contains("\"records\": \(records),") && run.stdout.contains("\"rejected\": 0,"), "\(name): \(run.stdout.prefix(600))")
            let shown = run.stderr.split(separator: "\n").filter { $0.contains("warning") }.map(String.init)
            #expect(shown == warnings.map { "\(path):\($0.line): warning: \($0.reason)" }, "\(name): \(run.stderr)")
            #expect(!run.stderr.contains("SECRETTOKEN123"))
            let strict = runCLI(["analyze", path, "--json", "--strict"])
            #expect(strict.code == (warnings.isEmpty ? .success : .dataError), "\(name): \(strict.stderr)")
        }
    }
}
