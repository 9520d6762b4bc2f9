import Foundation
import Testing
@testable import PlacesCostKit

/// `searches.csv` written while the log is read (`SearchesCSVSpeculator`) and kept where it proves
/// true (`SearchesCSVWriter.keep`): the file `analyze --out` leaves is byte for byte the one
/// written after the walks, whatever was guessed wrong, and the guess is kept when nothing changed.
@Suite("searches.csv written during the walk")
struct SearchesCSVSpeculatorTests {
    /// What writing `path`'s `searches.csv` during the walk gave: the file, the rows written
    /// during the walk and the rows of them kept.
    struct Outcome {
        var bytes: [UInt8]
        var speculated: Int
        var kept: Int
        /// A session changed after it was emitted, or a run the writing took had rows up to those
        /// already written: the rows written are merged again to be checked.
        var reshaped: Bool
        var skipped: Int
    }

    /// `searches.csv` of `path` as `analyze --out` writes it: begun in the staging folder during
    /// the walk, finished after it, swapped in. With `drains`, everything published is written
    /// during the walk, one publication at a time, however the threads ran; without, the writing
    /// stops when the walks end.
    static func speculated(_ path: String, key: [UInt8], threads: Int, runLength: Int, options base: Analyzer.Options, drains: Bool = true) throws -> Outcome {
        let directory = TemporaryDirectory()
        var options = base
        options.threads = threads
        options.searchRows = SearchRowOptions(pseudonymizer: Pseudonymizer(key: key), directory: directory.path, runLength: runLength)
        let staging = try ReportDirectoryWriter(directory: directory.path + "/out").begin()
        options.speculatedSearchesPath = try staging.stagedPath(of: ReportBundle.searchesPath)
        options.speculationDrains = drains
        let analysis = try Analyzer(options: options).analyze(paths: [path]).0
        let rows = try #require(analysis.searchRows)
        let speculated = try #require(rows.speculated)
        let (kept, _, _) = SearchesCSVWriter.keep(speculated, rows, tails: SearchesCSVWriter.describe(rows))
        staging.start(ReportBundle.searchesFile(rows))
        try staging.commit([])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory.path + "/out/searches.csv")))
        return Outcome(bytes: bytes, speculated: speculated.rows, kept: kept.rows, reshaped: rows.anyReshaped, skipped: speculated.skippedRows)
    }

    @Test("The file written during the walk is the oracle's, for generated and disordered logs, on 1 and 2 threads",
          arguments: [1 as UInt64, 2, 3])
    func agreesWithOracle(seed: UInt64) throws {
        let directory = TemporaryDirectory()
        let logs = try SearchesCSVWriterTests.generatedLogs(seed: seed, in: directory)
        var options = Analyzer.Options()
        // Seed 2: a window so small that the disordered log is read twice.
        options.reorderWindowSeconds = seed == 2 ? 1 : 600
        let key = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 5 &+ Int(seed)) }
        for log in logs {
            let expected = try SearchesCSVWriterTests.oracle(log, key: key, options: options)
            for (threads, runLength, drains) in [(1, 1 << 20, true), (2, 40, true), (1, 7, true), (2, 1, true), (2, 40, false)] {
                let outcome = try Self.speculated(log, key: key, threads: threads, runLength: runLength, options: options, drains: drains)
                let same = outcome.bytes == expected
                #expect(same, "\(log), \(threads) threads, runs of \(runLength): \(SearchesCSVWriterTests.firstDifference(outcome.bytes, expected))")
                #expect(outcome.kept <= outcome.speculated)
                if runLength < 100, log == logs[0], drains {
                    // Spilled often, an ordered log is mostly written during the walk, and kept.
                    #expect(outcome.kept * 2 > 1500, "\(outcome.kept) of \(outcome.speculated) rows kept, \(threads) threads, runs of \(runLength)")
                }
            }
        }
    }

    /// A log of `count` searches a minute apart, each completed, with `extra` calls mixed in.
    static func steadyLog(count: Int, extra: [TestRecord]) -> String {
        var records = extra
        for index in 0..<count {
            let token = "steady-\(index)"
            records.append(ac(Double(index * 60), token, "ab", user: "u-\(index % 17)"))
            records.append(ac(Double(index * 60 + 1), token, "abc", user: "u-\(index % 17)"))
            records.append(details(Double(index * 60 + 2), token, user: "u-\(index % 17)"))
        }
        records.sort { $0.at < $1.at }
        return records.map(\.jsonLine).joined(separator: "\n") + "\n"
    }

    /// How a row written during the walk changes.
    enum Change: CaseIterable {
        /// A session counted abandoned is shown expired: the rows written are merged again.
        case sessionShownExpired
        /// A run on a spent token written as it stood is extended to the end of the log: checked
        /// against the rows published as they stood.
        case runExtended
        /// The same run extended and completed, its row spilled in a run the writing takes (and
        /// leaves out, being written already): merged again.
        case runCompleted
    }

    @Test("A row written during the walk that a later call changes is rewritten, and the rows after it",
          arguments: Change.allCases)
    func changedAfterWritten(change: Change) throws {
        // Either token `waits`: a session past every timeout, counted abandoned, shown expired
        // five hours later (checked by merging the rows written again); or token `spent`:
        // completed, then a run on the spent token idle for hours (written as it stood), then
        // extended (checked against the rows published as they stood). Token `quiet`: a run on a
        // spent token idle to the end, written as it stood and kept.
        let run = [ac(1_000, "spent", "p", user: "b"), details(1_001, "spent", user: "b"), ac(1_100, "spent", "again", user: "b"),
                   ac(20_000, "spent", "again and again", user: "b")]
        let changing = switch change {
        case .sessionShownExpired: [ac(1_000, "waits", "x", user: "a"), ac(1_001, "waits", "xy", user: "a"), ac(19_000, "waits", "late", user: "a")]
        case .runExtended: run
        case .runCompleted: run + [details(20_001, "spent", user: "b")]
        }
        let quiet = [ac(2_000, "quiet", "q", user: "c"), details(2_001, "quiet", user: "c"), ac(2_100, "quiet", "qq", user: "c")]
        let directory = TemporaryDirectory()
        let path = directory.write("log.jsonl", Self.steadyLog(count: 600, extra: changing + quiet))
        let key = Array("changed".utf8)
        let expected = try SearchesCSVWriterTests.oracle(path, key: key, options: Analyzer.Options())
        for threads in [1, 2] {
            let outcome = try Self.speculated(path, key: key, threads: threads, runLength: 16, options: Analyzer.Options())
            let same = outcome.bytes == expected
            #expect(same, "\(threads) threads: \(SearchesCSVWriterTests.firstDifference(outcome.bytes, expected))")
            #expect(outcome.reshaped == (change == .sessionShownExpired))
            // Which rows are written before a run arrives depends, with two walks, on how far the
            // other walk has come; with one, on nothing.
            if threads == 1 { #expect((outcome.skipped > 0) == (change == .runCompleted)) }
            // Written past the changed row (about the 17th search), then cut before it.
            #expect(outcome.speculated > 100)
            #expect(outcome.kept < 17, "\(outcome.kept) kept of \(outcome.speculated)")
        }
        // Without the late call nothing changes after it is written: all is kept.
        let unchanged = directory.write("unchanged.jsonl", Self.steadyLog(count: 600, extra: changing.filter { $0.at < 10_000 } + quiet))
        let want = try SearchesCSVWriterTests.oracle(unchanged, key: key, options: Analyzer.Options())
        let outcome = try Self.speculated(unchanged, key: key, threads: 2, runLength: 16, options: Analyzer.Options())
        let same = outcome.bytes == want
        #expect(same, "\(SearchesCSVWriterTests.firstDifference(outcome.bytes, want))")
        #expect(!outcome.reshaped)
        #expect(outcome.kept == outcome.speculated && outcome.kept > 500, "\(outcome.kept) kept of \(outcome.speculated)")
    }

    @Test("With --by, and with a key of the team's, the file is the same as without speculation")
    func groupsAndKeys() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/log.jsonl"
        #expect(runCLI(["generate", "--searches", "800", "--seed", "9", "--days", "20", "--out", path]).code == .success)
        for by in [GroupDimension.day, .platform] {
            var options = Analyzer.Options()
            options.groupBy = by
            let key = Array("a key of the team's".utf8)
            let expected = try SearchesCSVWriterTests.streamed(path, key: key, threads: 2, runLength: 1 << 20, options: options)
            let outcome = try Self.speculated(path, key: key, threads: 2, runLength: 9, options: options)
            let same = outcome.bytes == expected
            #expect(same, "--by \(by): \(SearchesCSVWriterTests.firstDifference(outcome.bytes, expected))")
            #expect(outcome.kept > 0)
        }
    }
}
