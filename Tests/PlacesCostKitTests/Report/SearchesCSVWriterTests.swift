import Foundation
import Testing
@testable import PlacesCostKit

/// `searches.csv` streamed from the walks' rows (`SearchesCSVWriter`) against its oracle, the
/// renderer of whole searches (`SearchesCSVRenderer`): byte for byte, for generated and
/// disordered logs, on one and two threads, with rows spilled in tiny runs and kept whole, formatted
/// in blocks of any size on one to three threads.
@Suite("searches.csv streamed")
struct SearchesCSVWriterTests {
    /// The oracle's `searches.csv` of `path`.
    static func oracle(_ path: String, key: [UInt8], options base: Analyzer.Options) throws -> [UInt8] {
        var options = base
        options.keepSearches = true
        let analysis = try Analyzer(options: options).analyze(paths: [path]).0
        let text = SearchesCSVRenderer(pseudonymizer: Pseudonymizer(key: key)).render(analysis.sessions.keptSearches, listCosts: analysis.searchListCosts)
        return Array(text.utf8)
    }

    /// The streamed `searches.csv` of `path`.
    static func streamed(
        _ path: String, key: [UInt8], threads: Int, runLength: Int, options base: Analyzer.Options, formatters: Int? = nil, blockRows: Int = 8192
    ) throws -> [UInt8] {
        let spill = TemporaryDirectory()
        var options = base
        options.threads = threads
        options.searchRows = SearchRowOptions(pseudonymizer: Pseudonymizer(key: key), directory: spill.path, runLength: runLength)
        let analysis = try Analyzer(options: options).analyze(paths: [path]).0
        let rows = try #require(analysis.searchRows)
        var bytes: [UInt8] = []
        var reported = 0
        var writer = SearchesCSVWriter()
        writer.formatters = formatters
        writer.blockRows = blockRows
        let written = try writer.write(rows, flush: { bytes += $0 }, progress: { rows, bytesSoFar in
            reported = rows
            #expect(bytesSoFar <= bytes.count)
        })
        #expect(written == rows.count && reported == written)
        #expect(rows.failure == nil)
        return bytes
    }

    /// A generated log's lines, some moved far from their place (a late export page) and
    /// neighbours swapped, by a seeded choice.
    static func disordered(_ text: String, seed: UInt64) -> String {
        var lines = text.split(separator: "\n").map(String.init)
        var random = SeededRandom(seed: seed)
        for _ in 0..<(lines.count / 20) {
            let from = Int.random(in: 0..<lines.count, using: &random)
            let to = Bool.random(using: &random) ? min(lines.count - 1, from + Int.random(in: 1...5, using: &random)) : Int.random(in: 0..<lines.count, using: &random)
            lines.swapAt(from, to)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A generated log of 1,500 searches over 40 days in `directory`, and the same disordered.
    static func generatedLogs(seed: UInt64, in directory: TemporaryDirectory) throws -> [String] {
        let path = directory.path + "/log.jsonl"
        #expect(runCLI(["generate", "--searches", "1500", "--seed", String(seed), "--days", "40", "--out", path]).code == .success)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return [path, directory.write("shuffled.jsonl", disordered(text, seed: seed))]
    }

    /// The first line where `actual` and `expected` differ, for a failure's message.
    static func firstDifference(_ actual: [UInt8], _ expected: [UInt8]) -> String {
        let got = String(decoding: actual, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let want = String(decoding: expected, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let line = zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }
        return "line \(line.map { $0.offset + 1 } ?? min(got.count, want.count) + 1): \(line?.element.0 ?? "") against \(line?.element.1 ?? "")"
    }

    @Test("Byte for byte the oracle's, for generated and disordered logs, on 1 and 2 threads, spilled and not",
          arguments: [1 as UInt64, 2, 3])
    func agreesWithOracle(seed: UInt64) throws {
        let directory = TemporaryDirectory()
        let logs = try Self.generatedLogs(seed: seed, in: directory)
        var options = Analyzer.Options()
        // A small window: the disordered log is read a second time, as a very late one would be.
        options.reorderWindowSeconds = seed == 2 ? 1 : 600
        let key = seed == 3 ? Array("a key of the team's".utf8) : (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seed)) }
        for log in logs {
            let expected = try Self.oracle(log, key: key, options: options)
            #expect(expected.count > 1500 * 60)
            // Blocks of every size from one row, formatted on one to three threads.
            for (threads, runLength, formatters, blockRows) in [(1, 1 << 20, 1, 8192), (2, 1 << 20, 2, 8192), (1, 7, 3, 1), (2, 64, 2, 37), (2, 64, 1, 2)] {
                let actual = try Self.streamed(log, key: key, threads: threads, runLength: runLength, options: options, formatters: formatters, blockRows: blockRows)
                if actual != expected {
                    Issue.record("\(log), \(threads) threads, runs of \(runLength): \(Self.firstDifference(actual, expected))")
                }
            }
        }
    }

    @Test("Tokens compacted away and seen again while rows are made keep their pseudonyms: the oracle's file", arguments: [1, 16, 200])
    func compactedTokens(compactAfter: Int) throws {
        let directory = TemporaryDirectory()
        var options = Analyzer.Options()
        options.compactAfter = compactAfter
        let key = Array("compacted".utf8)
        // A generated log, and tokens used again long after they were spent (moved out of the
        // table of open tokens, then interned anew).
        var records: [TestRecord] = []
        for index in 0..<400 {
            let token = "again-\(index % 23)"
            records.append(ac(Double(index * 500), token, "ab", user: "u-\(index % 5)"))
            if index % 2 == 0 { records.append(details(Double(index * 500 + 1), token, user: "u-\(index % 5)")) }
        }
        let again = directory.write("again.jsonl", records.map(\.jsonLine).joined(separator: "\n") + "\n")
        let logs = try [Self.generatedLogs(seed: 4, in: directory)[0], again]
        for log in logs {
            let expected = try Self.oracle(log, key: key, options: options)
            for (threads, runLength) in [(1, 1 << 20), (2, 5)] {
                let actual = try Self.streamed(log, key: key, threads: threads, runLength: runLength, options: options)
                #expect(actual == expected, "\(log), \(threads) threads, compaction after \(compactAfter): \(Self.firstDifference(actual, expected))")
            }
        }
    }

    @Test("Sessions that expire after they were emitted, reused tokens, users' inferred searches and timeouts of every walk")
    func reshapedSessions() throws {
        var records: [TestRecord] = []
        for index in 0..<300 {
            let base = Double(index * 37)
            let token = "tok-\(index % 97)"
            records.append(ac(base, token, "ab", user: "u-\(index % 13)"))
            records.append(ac(base + 1, token, "abc", user: "u-\(index % 13)"))
            if index % 3 == 0 { records.append(details(base + 2, token, fields: index % 2 == 0 ? nil : ["formatted_address"], user: "u-\(index % 13)")) }
            if index % 5 == 0 { records.append(ac(base + 400, token, "late", user: "u-\(index % 7)")) }
            if index % 4 == 0 {
                records.append(ac(base + 3, nil, "pi", user: "v-\(index % 11)"))
                records.append(geocode(base + 4, user: "v-\(index % 11)"))
            }
        }
        let directory = TemporaryDirectory()
        let path = directory.write("log.jsonl", records.map(\.jsonLine).joined(separator: "\n") + "\n")
        let key = Array("reshape".utf8)
        let expected = try Self.oracle(path, key: key, options: Analyzer.Options())
        #expect(String(decoding: expected, as: UTF8.self).contains("expired"))
        for (threads, runLength) in [(1, 1 << 20), (2, 3), (1, 1)] {
            #expect(try Self.streamed(path, key: key, threads: threads, runLength: runLength, options: Analyzer.Options()) == expected)
        }
    }

    @Test("RFC3339Writer writes Timestamp.rfc3339's text, milliseconds or microseconds, across days, before 1970 too")
    func times() {
        var random = SystemRandomNumberGenerator()
        var writer = RFC3339Writer()
        var buffer = [UInt8](repeating: 0, count: 64)
        var times: [Int64] = [0, 86_399_999_999, 86_400_000_000, 253_402_300_799_999_999, 1_790_845_203_730_000, 1_790_845_203_730_001]
        // Back to 0001-01-01: the day of a time before 1970 is its floor.
        times += [-1, -86_400_000_000, -86_400_000_001, -62_135_596_800_000_000]
        for _ in 0..<5_000 { times.append(Int64.random(in: -62_135_596_800_000_000...253_402_300_799_999_999, using: &random)) }
        for _ in 0..<1_000 { times.append(1_790_845_203_000_000 + Int64.random(in: 0...1_000_000, using: &random) * 1000) }
        for time in times {
            let end = buffer.withUnsafeMutableBufferPointer { writer.put(time, at: $0.baseAddress!) - $0.baseAddress! }
            #expect(String(decoding: buffer[..<end], as: UTF8.self) == Timestamp(microseconds: time).rfc3339)
        }
    }

    @Test("A spill file that cannot be made leaves no partial searches.csv: the report says why and what to do, exit 74")
    func spillFailure() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/log.jsonl"
        #expect(runCLI(["generate", "--searches", "200", "--out", path]).code == .success)
        var options = Analyzer.Options()
        options.searchRows = SearchRowOptions(pseudonymizer: Pseudonymizer(key: [1]), directory: directory.path + "/missing", runLength: 5)
        let analysis = try Analyzer(options: options).analyze(paths: [path]).0
        let rows = try #require(analysis.searchRows)
        #expect(rows.failure != nil)
        let out = directory.path + "/out"
        // As analyze --out writes: searches.csv started first, the other files committed with it.
        let error = #expect(throws: CLIError.self) {
            let staging = try ReportDirectoryWriter(directory: out).begin()
            staging.start(ReportBundle.searchesFile(rows))
            try staging.commit(ReportBundle().reportFiles(analysis))
        }
        // The message names the folder and what to do about it.
        #expect(error?.description.contains(
            "its rows could not be kept in a temporary file in \(directory.path)/missing: No such file or directory; free space there, or set TMPDIR to a directory with room"
        ) == true, "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: out + "/searches.csv"))
        #expect(!FileManager.default.fileExists(atPath: out + "/report.md"))
    }
}
