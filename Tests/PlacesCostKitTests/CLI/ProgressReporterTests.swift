import Synchronization
import Testing
@testable import PlacesCostKit

@Suite("Progress on standard error")
struct ProgressReporterTests {
    @Test("The line gives bytes read, the share of the total, MB/s and the time left")
    func line() {
        let text = ProgressReporter.line(bytesRead: 500_000_000, totalBytes: 1_400_000_000, elapsedSeconds: 1)
        #expect(text == "placescost: read 500 MB of 1.40 GB (35%), 500 MB/s, 1.8 s left")
        #expect(ProgressReporter.line(bytesRead: 2_000_000, totalBytes: nil, elapsedSeconds: 2) == "placescost: read 2 MB, 1 MB/s")
    }

    @Test("Nothing is shown when standard error is not a terminal, or with --no-progress")
    func quietWhenNotATerminal() {
        let err = StringSink()
        let context = CommandContext(standardOutput: StringSink(), standardError: err, workingDirectory: "/")
        let parser = AnalysisOptionsParser(usage: "")
        let scanner = ArgumentScanner(AnalyzeCommand.table)
        let parsed = try! scanner.scan([])
        #expect(parser.progressReporter(parsed, paths: [], writingOut: false, context: context) == nil)
        let terminal = TerminalSink()
        let onTerminal = CommandContext(standardOutput: StringSink(), standardError: terminal, workingDirectory: "/")
        #expect(parser.progressReporter(parsed, paths: [], writingOut: false, context: onTerminal) != nil)
        #expect(parser.progressReporter(try! scanner.scan(["--no-progress"]), paths: [], writingOut: false, context: onTerminal) == nil)
    }

    @Test("`-` with a terminal on standard input says it waits for the log, unless --quiet; a pipe says nothing")
    func standardInputFromTerminal() throws {
        let parser = AnalysisOptionsParser(usage: "")
        let scanner = ArgumentScanner(AnalyzeCommand.table)
        for (terminal, arguments, noted) in [(true, ["-"], true), (true, ["a.jsonl", "-"], true), (true, ["-", "--quiet"], false), (false, ["-"], false), (true, ["a.jsonl"], false)] {
            let err = StringSink()
            let context = CommandContext(standardOutput: StringSink(), standardError: err, workingDirectory: "/", standardInputIsTerminal: terminal)
            _ = try parser.inputPaths(try scanner.scan(arguments), context: context, verb: "analyzing")
            let note = "placescost: note: reading standard input from the terminal: paste the log and press Ctrl-D, or pipe it in (cat calls.jsonl | placescost ...); Ctrl-C stops.\n"
            #expect(err.text == (noted ? note : ""), "\(terminal) \(arguments)")
        }
    }

    @Test("A read shorter than a second shows nothing; finish clears a shown line")
    func throttled() {
        let terminal = TerminalSink()
        let reporter = ProgressReporter(sink: terminal, totalBytes: 100)
        reporter.update(50)
        reporter.finish()
        #expect(terminal.text.isEmpty)
    }
}

extension ProgressReporterTests {
    @Test("While reading for --out, the time left counts the writing to come; then the rows written show")
    func writingPhase() {
        // 400 MB of 1 GB in 1 s: 1.5 s of reading left, and a fifth of the whole read's 2.5 s to write.
        #expect(ProgressReporter.line(bytesRead: 400_000_000, totalBytes: 1_000_000_000, elapsedSeconds: 1)
            == "placescost: read 400 MB of 1.00 GB (40%), 400 MB/s, 1.5 s left")
        #expect(ProgressReporter.line(bytesRead: 400_000_000, totalBytes: 1_000_000_000, elapsedSeconds: 1, writingShare: 0.2)
            == "placescost: read 400 MB of 1.00 GB (40%), 400 MB/s, 2.0 s left")
        #expect(ProgressReporter.line(bytesRead: 1_000_000_000, totalBytes: 1_000_000_000, elapsedSeconds: 2.5, writingShare: 0.2)
            == "placescost: read 1.00 GB of 1.00 GB (100%), 400 MB/s, 0.5 s left")
        #expect(ProgressReporter.writingLine(rows: 312_000, totalRows: 537_335, bytes: 41_000_000, elapsedSeconds: 0.5)
            == "placescost: wrote 312,000 of 537,335 rows of searches.csv (58%), 41 MB at 82 MB/s, 0.4 s left")
        let terminal = TerminalSink()
        let reporter = ProgressReporter(sink: terminal, totalBytes: 100, writingShare: 0.2)
        reporter.beginWriting(rows: 10)
        reporter.wrote(rows: 5, bytes: 500)
        #expect(terminal.text.isEmpty, "nothing within the first second")
    }

    @Test("The time left to write is measured from the first block on, not from the start of the writing")
    func writingRate() {
        let time = Mutex<UInt64>(0)
        let terminal = TerminalSink()
        let reporter = ProgressReporter(sink: terminal, totalBytes: 100, writingShare: 0.2) { time.withLock { $0 } }
        time.withLock { $0 = 2_000_000_000 }
        reporter.beginWriting(rows: 100_000)
        // The shapes take a second to describe, then blocks of 8,192 rows come every 0.1 s.
        time.withLock { $0 = 3_000_000_000 }
        reporter.wrote(rows: 8_192, bytes: 1_000_000)
        #expect(terminal.text.isEmpty, "no rate from one block")
        time.withLock { $0 = 3_100_000_000 }
        reporter.wrote(rows: 16_384, bytes: 2_000_000)
        #expect(terminal.text.hasSuffix("wrote 16,384 of 100,000 rows of searches.csv (16%), 2 MB at 10 MB/s, 1.0 s left"), "\(terminal.text)")
    }
}

/// A sink that says it is a terminal.
final class TerminalSink: OutputSink, @unchecked Sendable {
    private(set) var text = ""
    /// The width the terminal reports, if any.
    let terminalColumns: Int?

    init(columns: Int? = nil) {
        terminalColumns = columns
    }

    func write(_ text: String) { self.text += text }
    var isTerminal: Bool { true }
}
