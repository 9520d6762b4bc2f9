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
        let parsed = try! AnalyzeCommand.scanner.scan([])
        #expect(parser.progressReporter(parsed, paths: [], context: context) == nil)
        let terminal = TerminalSink()
        let onTerminal = CommandContext(standardOutput: StringSink(), standardError: terminal, workingDirectory: "/")
        #expect(parser.progressReporter(parsed, paths: [], context: onTerminal) != nil)
        #expect(parser.progressReporter(try! AnalyzeCommand.scanner.scan(["--no-progress"]), paths: [], context: onTerminal) == nil)
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

/// A sink that says it is a terminal.
final class TerminalSink: OutputSink, @unchecked Sendable {
    private(set) var text = ""
    func write(_ text: String) { self.text += text }
    var isTerminal: Bool { true }
}
