import Foundation
import Testing
@testable import PlacesCostKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A sink whose descriptor fails as a real one does: every write fails with `code` once
/// `capacity` bytes are in, and it counts the writes it was asked for.
final class FailingSink: OutputSink {
    let code: Int32
    let capacity: Int
    private(set) var text = ""
    private(set) var writes = 0
    private(set) var failure: Int32?
    let isTerminal = false

    init(_ code: Int32, after capacity: Int = 0) {
        self.code = code
        self.capacity = capacity
    }

    func write(_ text: String) {
        writes += 1
        guard failure == nil else { return }
        if self.text.utf8.count + text.utf8.count > capacity {
            failure = code
        } else {
            self.text += text
        }
    }
}

/// Output that cannot be written is never reported as success: a full disk or an I/O error is
/// exit 74 with one line, a reader closing the pipe is exit 74 with none, and both stop the
/// command at once.
@Suite("Standard output failures")
struct StandardOutputFailureTests {
    /// Every command that writes to standard output, on inputs that work.
    static func commands(_ directory: TemporaryDirectory) -> [[String]] {
        let log = ReconcileCommandTests.log(directory)
        let bill = directory.write("bill.csv", ReconcileCommandTests.bill)
        return [
            [], ["--help"], ["--version"], ["analyze", "--help"],
            ["analyze", log, "--quiet"], ["analyze", log, "--json", "--quiet"], ["analyze", log, "--report", "csv", "--quiet"],
            ["analyze", log, "--out", directory.path + "/out", "--json", "--quiet"],
            ["simulate", "--searches", "1000", "--chars", "7", "--delay", "3", "--pricing", "legacy-list"],
            ["simulate", "--searches", "1000", "--requests", "4", "--report", "json", "--pricing", "legacy-list"],
            ["reconcile", log, "--billing", bill, "--pricing", "legacy-list", "--quiet"],
            ["pricing", "list"], ["pricing", "show", "legacy-list"],
            ["generate", "--searches", "50"], ["generate", "--searches", "50", "--format", "csv"],
            ["sql", "--dialect", "duckdb", "--quiet"], ["sql", "--dialect", "bigquery", "--quiet"],
        ]
    }

    func run(_ arguments: [String], standardOutput: OutputSink, in directory: TemporaryDirectory) -> (code: ExitCode, stderr: String) {
        let standardError = StringSink()
        let context = CommandContext(standardOutput: standardOutput, standardError: standardError, workingDirectory: packageRoot)
        return (CLI(arguments: arguments, context: context).run(), standardError.text)
    }

    @Test("A failed write to standard output is exit 74 with one line naming the reason, for every command")
    func fullDisk() {
        let directory = TemporaryDirectory()
        for arguments in StandardOutputFailureTests.commands(directory) {
            for capacity in [0, 10] {
                let result = run(arguments, standardOutput: FailingSink(ENOSPC, after: capacity), in: directory)
                #expect(result.code == .ioError, "\(arguments)")
                let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("placescost: error: ") }
                #expect(errors == ["placescost: error: cannot write standard output: No space left on device."], "\(arguments): \(result.stderr)")
            }
            let io = run(arguments, standardOutput: FailingSink(EIO), in: directory)
            #expect(io.code == .ioError)
            #expect(io.stderr.hasSuffix("placescost: error: cannot write standard output: Input/output error.\n"), "\(arguments)")
        }
    }

    @Test("A reader that closed the pipe ends the command quietly with exit 74, for every command")
    func closedPipe() {
        let directory = TemporaryDirectory()
        for arguments in StandardOutputFailureTests.commands(directory) {
            let result = run(arguments, standardOutput: FailingSink(EPIPE, after: 5), in: directory)
            #expect(result.code == .ioError, "\(arguments)")
            #expect(!result.stderr.contains("error"), "\(arguments): \(result.stderr)")
        }
    }

    @Test("The real descriptor sink keeps the first error and writes nothing after it")
    func descriptorSink() throws {
        let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try #require(full >= 0)
        defer { close(full) }
        let sink = FileDescriptorSink(descriptor: full)
        #expect(sink.failure == nil)
        sink.write("a line\n")
        #expect(sink.failure == ENOSPC)
        let closed = FileDescriptorSink(descriptor: 1_000_000)
        closed.write("x")
        #expect(closed.failure == EBADF)
        let result = run(["--version"], standardOutput: FileDescriptorSink(descriptor: full), in: TemporaryDirectory())
        #expect(result.code == .ioError)
        #expect(result.stderr == "placescost: error: cannot write standard output: No space left on device.\n")
    }

    @Test("generate stops at the first failed write instead of generating the rest", arguments: [ENOSPC, EPIPE])
    func generateStops(_ code: Int32) {
        let sink = FailingSink(code)
        let started = ContinuousClock.now
        let result = run(["generate", "--searches", "300000"], standardOutput: sink, in: TemporaryDirectory())
        #expect(result.code == .ioError)
        #expect(sink.writes == 1)
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test("generate --out FILE on a full disk is exit 74 naming the file")
    func generateToFullFile() throws {
        // /dev/full opens like a file and fails every write, as a full disk does.
        let result = runCLI(["generate", "--searches", "100", "--out", "/dev/full"])
        #expect(result.code == .ioError)
        #expect(result.stderr == "placescost: error: cannot write /dev/full: No space left on device.\n")
    }

    // MARK: The real process

    @Test("The built tool writing to /dev/full exits 74 with one error line", arguments: [
        ["analyze", packageRoot + "/SampleLogs/ios-app.jsonl", "--quiet"], ["generate", "--searches", "2000"],
        ["simulate", "--searches", "1000", "--chars", "7", "--delay", "3", "--pricing", "legacy-list"],
        ["sql", "--dialect", "duckdb", "--quiet"], ["--version"],
    ])
    func realFullDisk(_ arguments: [String]) throws {
        let result = try SpawnedTool.toFullDisk(arguments)
        #expect(result.status == 74)
        #expect(result.stderr == "placescost: error: cannot write standard output: No space left on device.\n")
    }

    @Test("The built tool piped into a reader that closes after the first line stops quietly with exit 74")
    func realHead() throws {
        let started = ContinuousClock.now
        let result = try SpawnedTool.toClosedPipe(["generate", "--searches", "2000000"], readingLines: 1)
        #expect(result.read.hasPrefix("{\"timestamp\":"))
        #expect(result.status == 74)
        #expect(result.stderr == "")
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test("The built tool writing into a pipe already closed stops quietly with exit 74", arguments: [
        ["analyze", packageRoot + "/SampleLogs/ios-app.jsonl", "--quiet"], ["sql", "--dialect", "bigquery", "--quiet"], ["pricing", "list"],
    ])
    func realClosedPipe(_ arguments: [String]) throws {
        let result = try SpawnedTool.toClosedPipe(arguments, readingLines: 0)
        #expect(result.status == 74)
        #expect(result.stderr == "")
    }
}
