import Foundation
import Testing
@testable import PlacesCostKit
@testable import PlacesCostReference

/// A line of any length is rejected at its FILE:LINE with memory bounded by the line limit, in
/// every format and through every kind of input: measured on the real process.
@Suite("Overlong lines in bounded memory")
struct OverlongInputTests {
    /// Far more than the memory a bounded read may take, so a reader that holds the line (or
    /// keeps the pages it searched resident) shows in the peak.
    static let lineBytes = 256 << 20
    /// The peak a bounded read stays under (the debug executable alone takes about 35 MB).
    static let peakLimitKB = 160 << 10

    enum Source: String, CaseIterable, CustomTestStringConvertible {
        case file, standardInput
        var testDescription: String { rawValue }
    }

    /// A log whose line 3 is `lineBytes` long: records on lines 2 and 4.
    static func log(_ format: InputFormat, directory: TemporaryDirectory) throws -> String {
        let (head, tail): (String, String) = switch format {
        case .jsonl:
            (#"{"timestamp":"2026-10-01T09:00:00Z","api":"autocomplete","session_token":"t1"}"# + "\n\n",
             "\n" + #"{"timestamp":"2026-10-01T09:00:01Z","api":"place_details","session_token":"t1"}"# + "\n")
        case .csv:
            // The long line opens a quoted cell it never closes.
            ("timestamp,api,session_token\n2026-10-01T09:00:00Z,autocomplete,t1\n\"",
             "\n2026-10-01T09:00:01Z,place_details,t1\n")
        case .accessLog:
            (#"203.0.113.7 - u1 [01/Oct/2026:09:00:00 +0000] "GET /maps/api/place/autocomplete/json?input=ab&sessiontoken=t1 HTTP/1.1" 200 10 "-" "-""# + "\n\n",
             "\n" + #"203.0.113.7 - u1 [01/Oct/2026:09:00:01 +0000] "GET /maps/api/place/details/json?place_id=p&sessiontoken=t1 HTTP/1.1" 200 10 "-" "-""# + "\n")
        case .har:
            preconditionFailure("a HAR capture has no lines to make long")
        }
        let path = directory.write("long.\(format.rawValue)", bytes: [])
        let handle = try #require(FileHandle(forWritingAtPath: path))
        defer { try? handle.close() }
        try handle.write(contentsOf: Data(head.utf8))
        // A line of 'x' with the blank line before it (line 2 of JSON Lines and access logs is blank).
        let chunk = Data(repeating: UInt8(ascii: "x"), count: 4 << 20)
        for _ in 0..<(lineBytes / chunk.count) { try handle.write(contentsOf: chunk) }
        try handle.write(contentsOf: Data(tail.utf8))
        return path
    }

    /// Runs `placescost` under `/usr/bin/time` and returns its run and its peak resident memory.
    static func measured(_ arguments: [String], stdinFile: String? = nil) throws -> (run: ProcessRun, peakKB: Int) {
        let executable = try #require(EndToEndTests.executable)
        let directory = TemporaryDirectory()
        let report = directory.path + "/time"
        let quoted = ([executable] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let script = "/usr/bin/time -f %M -o '\(report)' " + quoted + (stdinFile.map { " < '\($0)'" } ?? "")
        let run = try ProcessRun.run("/bin/sh", ["-c", script], timeout: 300)
        let peak = try #require(Int((try String(contentsOfFile: report, encoding: .utf8)).split(separator: "\n").last ?? ""))
        return (run, peak)
    }

    @Test("A line of hundreds of MB is rejected at FILE:3, the records around it read, memory bounded",
          arguments: [InputFormat.jsonl, .csv, .accessLog], Source.allCases)
    func overlongLine(_ format: InputFormat, _ source: Source) throws {
        let directory = TemporaryDirectory()
        let path = try Self.log(format, directory: directory)
        let input = source == .file ? path : "-"
        let name = source == .file ? path : "<stdin>"
        let (run, peak) = try Self.measured(["analyze", input, "--format", format.rawValue, "--json", "--pricing", "legacy-list"], stdinFile: source == .file ? nil : path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("\(name):3: warning: \(LineReader.overlongReason)"), "\(run.stderr)")
        let report = try MalformedCorpusTests.object(run.stdout)
        let inputReport = try #require(report["input"] as? [String: Any])
        #expect(inputReport["records"] as? Int == 2)
        #expect(inputReport["rejected"] as? Int == 1)
        #expect(peak < Self.peakLimitKB, "peak resident memory \(peak) KB for a \(Self.lineBytes >> 20) MB line")
    }

    @Test("A file of one line with no newline at all is rejected without holding it", arguments: [InputFormat.jsonl, .csv, .accessLog])
    func noNewlineAtAll(_ format: InputFormat) throws {
        let directory = TemporaryDirectory()
        let path = directory.write("one-line", bytes: [])
        let handle = try #require(FileHandle(forWritingAtPath: path))
        let chunk = Data(repeating: UInt8(ascii: "x"), count: 4 << 20)
        for _ in 0..<(Self.lineBytes / chunk.count) { try handle.write(contentsOf: chunk) }
        try handle.close()
        let (run, peak) = try Self.measured(["analyze", path, "--format", format.rawValue, "--json"])
        #expect(run.status == 65)
        #expect(peak < Self.peakLimitKB, "peak resident memory \(peak) KB for a \(Self.lineBytes >> 20) MB line")
    }

    @Test("CSV rows whose stray quotes chain on past any block are read by the line reader: the same report as the twin")
    func chainedQuotes() throws {
        let directory = TemporaryDirectory()
        // Each line opens a quoted cell the next line closes with text after it: the parser gives
        // up on every record and reads on from its second line, so no safe cut ever comes.
        var text = "timestamp,api,session_token\n2026-10-01T09:00:00Z,autocomplete,t1\n"
        text += String(repeating: "\"a,b\n", count: 1_000_000)
        text += "2026-10-01T09:00:01Z,place_details,t1\n"
        let path = directory.write("chain.csv", text)
        let twin = try LogReader(options: LogReader.Options(format: .csv)).read([path])
        var options = Analyzer.Options()
        options.pricing = "legacy-list"
        options.blockSize = 64 << 10
        let (analysis, read) = try Analyzer(options: options).analyze(paths: [path])
        #expect(analysis.input.records == twin.calls.count)
        #expect(read.rejected == twin.rejected)
        #expect(read.diagnostics == twin.diagnostics)
        #expect(read.diagnostics.first?.location.line == 3)
    }
}
