import Foundation
import Testing
@testable import PlacesCostKit

#if canImport(Glibc)
import Glibc
#endif

/// HAR diagnostics point at FILE:LINE like every other format: the line where the entry starts
/// (or where the capture is cut off or stops being JSON); and one entry of any size is skipped
/// without being held.
@Suite("HAR lines and entry bounds")
struct HARLineTests {
    /// A pretty-printed capture, entries of several lines, with the line each entry starts on.
    static func capture(entries: [String]) -> (text: String, lines: [Int]) {
        var text = "{\n  \"log\": {\n    \"version\": \"1.2\",\n    \"entries\": [\n"
        var lines: [Int] = []
        for (index, entry) in entries.enumerated() {
            lines.append(text.filter { $0 == "\n" }.count + 1)
            text += entry + (index + 1 < entries.count ? ",\n" : "\n")
        }
        text += "    ]\n  }\n}\n"
        return (text, lines)
    }

    static func entry(_ second: Int, url: String = "https://maps.googleapis.com/maps/api/place/autocomplete/json?input=ab&sessiontoken=t1") -> String {
        """
              {
                "startedDateTime": "2026-10-01T09:00:\(String(format: "%02d", second))Z",
                "request": {
                  "method": "GET",
                  "url": "\(url)",
                  "headers": []
                },
                "response": {"status": 200}
              }
        """
    }

    static func lines(_ text: String, chunkSize: Int, maxEntryLength: Int = HARReader.defaultMaxEntryLength) throws -> (entries: [(HARReader.Entry, Int)], error: HARReader.PositionedError?) {
        let directory = TemporaryDirectory()
        let path = directory.write("capture.har", text)
        let descriptor = open(path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var entries: [(HARReader.Entry, Int)] = []
        do {
            try HARReader(chunkSize: chunkSize, maxEntryLength: maxEntryLength).forEachEntry(fileDescriptor: descriptor) { entries.append(($0, $1)) }
        } catch let error as HARReader.PositionedError {
            return (entries, error)
        }
        return (entries, nil)
    }

    @Test("Each entry comes with the line it starts on, whatever the read boundaries", arguments: [1, 7, 64, 1 << 20])
    func entryLines(_ chunkSize: Int) throws {
        let entries = [Self.entry(1), "      42", Self.entry(3), "      {\"startedDateTime\": \"2026-10-01T09:00:04Z\",\n       \"request\": \"GET\"}", Self.entry(5)]
        let (text, lines) = Self.capture(entries: entries)
        let read = try Self.lines(text, chunkSize: chunkSize)
        #expect(read.error == nil)
        #expect(read.entries.map(\.1) == lines)
        #expect(read.entries.map(\.0.index) == [1, 2, 3, 4, 5])
    }

    @Test("A capture cut off inside an entry is reported at the line that entry starts on", arguments: [1, 7, 1 << 20])
    func cutOff(_ chunkSize: Int) throws {
        let (text, lines) = Self.capture(entries: [Self.entry(1), Self.entry(2), Self.entry(3)])
        let cut = String(text.utf8.prefix(text.utf8.count - 120))!
        let read = try Self.lines(cut, chunkSize: chunkSize)
        #expect(read.entries.map(\.1) == Array(lines.prefix(2)))
        #expect(read.error == HARReader.PositionedError(error: .truncated(entriesRead: 2), line: lines[2]))
    }

    @Test("analyze warns at FILE:LINE of each malformed entry, naming the entry's number")
    func warningsAtLines() throws {
        let entries = [Self.entry(1), "      42", Self.entry(3), "      {\"startedDateTime\": \"2026-10-01T09:00:04Z\",\n       \"request\": \"GET\"}", Self.entry(5)]
        let (text, lines) = Self.capture(entries: entries)
        let directory = TemporaryDirectory()
        let path = directory.write("capture.har", text)
        let run = runCLI(["analyze", path, "--json"])
        #expect(run.code == .success)
        let warnings = run.stderr.split(separator: "\n").filter { $0.hasPrefix(path + ":") }
        #expect(warnings.count == 2)
        #expect(warnings.first?.hasPrefix("\(path):\(lines[1]): warning: entry 2 of log.entries: ") == true)
        #expect(warnings.last?.hasPrefix("\(path):\(lines[3]): warning: entry 4 of log.entries: ") == true)
        let strict = runCLI(["analyze", path, "--strict"])
        #expect(strict.stderr.hasPrefix("placescost: error: \(path):\(lines[1]): malformed record: entry 2 of log.entries: "))
    }

    @Test("An entry longer than the limit is skipped at its line; the entries after it are read", arguments: [7, 4096])
    func overlongEntry(_ chunkSize: Int) throws {
        let huge = Self.entry(2, url: "https://example.com/?" + String(repeating: "x", count: 200_000))
        let (text, lines) = Self.capture(entries: [Self.entry(1), huge, Self.entry(3)])
        let read = try Self.lines(text, chunkSize: chunkSize, maxEntryLength: 64 << 10)
        #expect(read.error == nil)
        #expect(read.entries.map(\.1) == lines)
        #expect(read.entries[1].0 == .malformed(reason: HARReader.overlongReason(limit: 64 << 10), index: 2))
        if case .request = read.entries[2].0 {} else { Issue.record("the entry after the long one was not read: \(read.entries[2].0)") }
    }

    @Test("A key of any length is invalid JSON at its line, not read whole")
    func overlongKey() throws {
        let text = "{\n\"log\": {\n\"" + String(repeating: "k", count: 100_000) + "\": 1}}\n"
        let read = try Self.lines(text, chunkSize: 4096)
        #expect(read.error == HARReader.PositionedError(error: .invalidJSON(byteOffset: HARByteStream.maxKeyLength + 12, reason: "a key is longer than 64 KiB"), line: 3))
    }

    @Test("A HAR entry of hundreds of MB is skipped at its line in bounded memory")
    func hugeEntryMemory() throws {
        let directory = TemporaryDirectory()
        let path = directory.write("huge.har", bytes: [])
        let handle = try #require(FileHandle(forWritingAtPath: path))
        let (head, lines) = Self.capture(entries: [Self.entry(1), "BODY", Self.entry(3)])
        let parts = head.components(separatedBy: "BODY")
        try handle.write(contentsOf: Data((parts[0] + "{\"startedDateTime\": \"2026-10-01T09:00:02Z\", \"response\": {\"content\": {\"text\": \"").utf8))
        let chunk = Data(repeating: UInt8(ascii: "x"), count: 4 << 20)
        for _ in 0..<(OverlongInputTests.lineBytes / chunk.count) { try handle.write(contentsOf: chunk) }
        try handle.write(contentsOf: Data(("\"}}}" + parts[1]).utf8))
        try handle.close()
        let (run, peak) = try OverlongInputTests.measured(["analyze", path, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("\(path):\(lines[1]): warning: entry 2 of log.entries: \(HARReader.overlongReason(limit: HARReader.defaultMaxEntryLength))"), "\(run.stderr)")
        #expect(peak < 200 << 10, "peak resident memory \(peak) KB for a \(OverlongInputTests.lineBytes >> 20) MB entry")
    }
}
