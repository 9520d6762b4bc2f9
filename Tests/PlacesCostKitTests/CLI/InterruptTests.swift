import Foundation
import Testing

/// Ctrl-C, `kill` or a closed terminal in the middle of a run (`InterruptCleanup`): the run ends
/// as killed by the signal, and leaves nothing half-made behind: no staging folder with a partial
/// `searches.csv` inside `--out`, no folder it made for the report, no hidden file of `generate`.
/// The runs read a FIFO no one writes to, so they are waiting in the middle of their work, their
/// staging folder made, when the signal comes.
@Suite("Interrupted runs")
struct InterruptTests {
    /// Starts placescost with `arguments` and waits (up to a minute) until `ready` holds; with
    /// `ignoringSIGINT`, through a shell that ignores SIGINT first, as for a background job.
    static func started(_ arguments: [String], ignoringSIGINT: Bool = false, until ready: () -> Bool) throws -> Process {
        let executable = try #require(EndToEndTests.executable, "placescost was not built beside the tests")
        let process = Process()
        if ignoringSIGINT {
            // The disposition is inherited through `exec`: the shell's pid becomes placescost's.
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "trap '' INT; exec \"$@\"", "sh", executable] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while !ready(), process.isRunning, Date() < deadline { usleep(10_000) }
        return process
    }

    /// Sends `signal` and waits for the end, killing the run after a minute.
    static func interrupt(_ process: Process, with signal: Int32) {
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    static func hiddenEntries(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(".") }
    }

    @Test("An interrupted --out into a new folder leaves no folder", arguments: [SIGINT, SIGTERM, SIGHUP])
    func newFolder(signal: Int32) throws {
        let directory = TemporaryDirectory()
        let fifo = directory.path + "/calls.jsonl"
        #expect(mkfifo(fifo, 0o600) == 0)
        let out = directory.path + "/report"
        let process = try Self.started(["analyze", fifo, "--out", out, "--quiet"]) { !Self.hiddenEntries(out).isEmpty }
        #expect(Self.hiddenEntries(out).count == 1, "the staging folder was never made")
        Self.interrupt(process, with: signal)
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == signal)
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("An interrupted --out over an earlier report leaves that report byte-identical and nothing else")
    func earlierReport() throws {
        let directory = TemporaryDirectory()
        let log = directory.write("log.jsonl", (0..<40).map { ac(Double($0), "t\($0 % 7)", "abc").jsonLine }.joined(separator: "\n") + "\n")
        let out = directory.path + "/report"
        #expect(runCLI(["analyze", log, "--out", out, "--quiet"]).code == .success)
        let names = try FileManager.default.subpathsOfDirectory(atPath: out).sorted()
        let before = names.map { try? Data(contentsOf: URL(fileURLWithPath: out + "/" + $0)) }
        let fifo = directory.path + "/calls.jsonl"
        #expect(mkfifo(fifo, 0o600) == 0)
        let process = try Self.started(["analyze", fifo, "--out", out, "--quiet"]) { !Self.hiddenEntries(out).isEmpty }
        Self.interrupt(process, with: SIGINT)
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: out).sorted() == names)
        #expect(names.map { try? Data(contentsOf: URL(fileURLWithPath: out + "/" + $0)) } == before)
    }

    @Test("An interrupted generate --out FILE removes its hidden file and leaves no FILE")
    func generate() throws {
        let directory = TemporaryDirectory()
        let file = directory.path + "/big.jsonl"
        // Far more than can be written before the signal comes.
        let process = try Self.started(["generate", "--searches", "5000000", "--out", file]) { !Self.hiddenEntries(directory.path).isEmpty }
        #expect(Self.hiddenEntries(directory.path).count == 1, "the hidden file was never made")
        Self.interrupt(process, with: SIGINT)
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("A run started with SIGINT ignored, as a background job is, goes on when it comes")
    func ignoredStaysIgnored() throws {
        let directory = TemporaryDirectory()
        let fifo = directory.path + "/calls.jsonl"
        #expect(mkfifo(fifo, 0o600) == 0)
        let out = directory.path + "/report"
        let process = try Self.started(["analyze", fifo, "--out", out, "--quiet"], ignoringSIGINT: true) { !Self.hiddenEntries(out).isEmpty }
        kill(process.processIdentifier, SIGINT)
        usleep(300_000)
        #expect(process.isRunning)
        // Fed its log, it finishes the report.
        let log = (0..<40).map { ac(Double($0), "t\($0 % 7)", "abc").jsonLine }.joined(separator: "\n") + "\n"
        let writer = try #require(FileHandle(forWritingAtPath: fifo))
        try writer.write(contentsOf: Data(log.utf8))
        try writer.close()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: out + "/report.md"))
        #expect(Self.hiddenEntries(out).isEmpty)
    }
}
