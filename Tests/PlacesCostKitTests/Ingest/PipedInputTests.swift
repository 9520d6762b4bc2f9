import Foundation
import Testing
@testable import PlacesCostKit

#if canImport(Glibc)
import Glibc
#endif

/// Inputs that cannot be read twice (standard input, FIFOs, `/dev/fd/N`, process substitution)
/// give exactly the report of the same bytes in a regular file, even when the log is so far out
/// of time order that `analyze` reads it a second time; and entries of a log directory that are
/// not regular files are skipped, never read, never waited on.
@Suite("Inputs that are pipes")
struct PipedInputTests {
    static let corpus = MalformedCorpusTests.folder

    /// A clean corpus log, its records in reverse order (a CSV keeps its header first): with
    /// `--reorder-window 1` the first read is not exact and the input is read again.
    static func reversed(_ format: InputFormat) throws -> String {
        let name = ["jsonl": "jsonl/clean.jsonl", "csv": "csv/clean.csv", "access-log": "access-log/clean.log"][format.rawValue]!
        let lines = try String(contentsOfFile: corpus + "/" + name, encoding: .utf8).split(separator: "\n").map(String.init)
        let rows = format == .csv ? [lines[0]] + lines.dropFirst().reversed() : lines.reversed()
        return rows.joined(separator: "\n") + "\n"
    }

    static let formats: [InputFormat] = [.jsonl, .csv, .accessLog]
    static let arguments = ["--json", "--pricing", "legacy-list", "--reorder-window", "1", "--threads", "2"]

    /// The report of `text` read from a regular file, with the file's name replaced by `name`.
    static func fileReport(_ text: String, as name: String) throws -> String {
        let directory = TemporaryDirectory()
        let path = directory.write("log", text)
        let run = runCLI(["analyze", path] + arguments)
        try #require(run.code == .success, "\(run.stderr)")
        return run.stdout.replacingOccurrences(of: "\"\(path)\"", with: "\"\(name)\"")
    }

    @Test("An out-of-order log read twice through a FIFO gives the regular file's report, byte for byte", arguments: formats)
    func fifo(_ format: InputFormat) throws {
        let directory = TemporaryDirectory()
        let fifo = directory.path + "/log.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let text = try Self.reversed(format)
        let writer = FIFOWriter(path: fifo, bytes: Array(text.utf8))
        defer { writer.release() }
        let run = try ProcessRun.placescost(["analyze", fifo] + Self.arguments, timeout: 120)
        #expect(!run.timedOut, "analyze waited on the FIFO after its writer finished")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == (try Self.fileReport(text, as: fifo)))
        #expect(run.stderr.contains("placescost: note: \(fifo) is a pipe, which cannot be read twice: it was spooled to a temporary file"))
    }

    @Test("An out-of-order log read twice through /dev/fd/N of a pipe gives the regular file's report", arguments: formats)
    func deviceFileDescriptor(_ format: InputFormat) throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let text = try Self.reversed(format)
        let bytes = Array(text.utf8)
        let writeEnd = ends[1]
        let writer = Thread {
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let count = write(writeEnd, raw.baseAddress! + offset, raw.count - offset)
                    if count <= 0 { break }
                    offset += count
                }
            }
            close(writeEnd)
        }
        writer.start()
        defer { close(ends[0]) }
        let name = "/dev/fd/\(ends[0])"
        // Opening a drained pipe again waits for a writer: after a minute, be that writer, so a
        // second open fails the test instead of hanging it.
        let finished = LockedFlag(), stalled = LockedFlag()
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) {
            guard !finished.isSet else { return }
            stalled.set()
            let unblock = open(name, O_WRONLY | O_NONBLOCK)
            if unblock >= 0 { close(unblock) }
        }
        let run = runCLI(["analyze", name] + Self.arguments)
        finished.set()
        #expect(!stalled.isSet, "analyze opened the drained pipe a second time")
        #expect(run.code == .success, "\(run.stderr)")
        #expect(run.stdout == (try Self.fileReport(text, as: name)))
    }

    @Test("An out-of-order log through process substitution, <(cat log), gives the regular file's report", arguments: formats)
    func processSubstitution(_ format: InputFormat) throws {
        let directory = TemporaryDirectory()
        let text = try Self.reversed(format)
        let path = directory.write("log", text)
        let executable = try #require(EndToEndTests.executable)
        let script = "exec \"$0\" analyze <(cat \"$1\") " + Self.arguments.joined(separator: " ")
        let run = try ProcessRun.run("/bin/bash", ["-c", script, executable, path], timeout: 120)
        #expect(!run.timedOut)
        #expect(run.status == 0, "\(run.stderr)")
        let name = try #require(run.stdout.split(separator: "\n").first { $0.contains("/dev/fd/") }).trimmingCharacters(in: " \",")
        #expect(run.stdout == (try Self.fileReport(text, as: name)))
    }

    @Test("An out-of-order log on standard input gives the regular file's report", arguments: formats)
    func standardInput(_ format: InputFormat) throws {
        let text = try Self.reversed(format)
        let run = try ProcessRun.placescost(["analyze", "-"] + Self.arguments, stdin: Data(text.utf8), timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == (try Self.fileReport(text, as: "<stdin>")))
        #expect(run.stderr.contains("placescost: note: <stdin> is a pipe"))
        let quiet = try ProcessRun.placescost(["analyze", "-", "--quiet"] + Self.arguments, stdin: Data(text.utf8), timeout: 120)
        #expect(quiet.stderr.isEmpty)
        #expect(quiet.stdout == run.stdout)
    }

    @Test("A log of several MiB on standard input, copied past the format's first read in many pieces, gives the regular file's report",
          arguments: ["jsonl", "csv", "access-log"])
    func largeStandardInput(_ format: String) throws {
        // Generated logs end in time order; the generator's several-MiB log is read twice once
        // its first and second halves are swapped.
        let lines = GenerateCommandTests.generate(format).split(separator: "\n").map(String.init)
        let header = format == "csv" ? [lines[0]] : []
        let body = Array(lines.dropFirst(header.count))
        let text = (header + body[(body.count / 2)...] + body[..<(body.count / 2)]).joined(separator: "\n") + "\n"
        #expect(text.utf8.count > 3 << 20, "several times the first read of 1 MiB")
        let run = try ProcessRun.placescost(["analyze", "-"] + Self.arguments, stdin: Data(text.utf8), timeout: 300)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("placescost: note: <stdin> is a pipe, which cannot be read twice: it was spooled to a temporary file ("), "\(run.stderr)")
        #expect(run.stdout == (try Self.fileReport(text, as: "<stdin>")))
    }

    @Test("An out-of-order log on standard input redirected from a regular file is read again from its start", arguments: formats)
    func standardInputFromFile(_ format: InputFormat) throws {
        let text = try Self.reversed(format)
        let directory = TemporaryDirectory()
        let path = directory.write("log", text)
        let executable = try #require(EndToEndTests.executable)
        let script = "exec \"$0\" analyze - " + Self.arguments.joined(separator: " ") + " < \"$1\""
        let run = try ProcessRun.run("/bin/bash", ["-c", script, executable, path], timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == (try Self.fileReport(text, as: "<stdin>")))
        #expect(!run.stderr.contains("is a pipe"))
    }

    @Test("A log in time order through a pipe gives the regular file's report", arguments: InputFormat.allCases)
    func inOrder(_ format: InputFormat) throws {
        let name = ["jsonl": "jsonl/clean.jsonl", "csv": "csv/clean.csv", "access-log": "access-log/clean.log", "har": "har/clean.har"][format.rawValue]!
        let text = try String(contentsOfFile: Self.corpus + "/" + name, encoding: .utf8)
        let run = try ProcessRun.placescost(["analyze", "-", "--json", "--pricing", "legacy-list"], stdin: Data(text.utf8), timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let file = runCLI(["analyze", Self.corpus + "/" + name, "--json", "--pricing", "legacy-list"])
        #expect(run.stdout == file.stdout.replacingOccurrences(of: "\"\(Self.corpus + "/" + name)\"", with: "\"<stdin>\""))
    }

    @Test("Standard input given twice is two inputs: the second is empty, not a second copy of the first")
    func standardInputTwice() throws {
        let text = try Self.reversed(.jsonl)
        let run = try ProcessRun.placescost(["analyze", "-", "-"] + Self.arguments, stdin: Data(text.utf8), timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let once = try ProcessRun.placescost(["analyze", "-"] + Self.arguments, stdin: Data(text.utf8), timeout: 120)
        let records = { (text: String) in text.split(separator: "\n").first { $0.contains("\"records\"") } }
        #expect(records(run.stdout) == records(once.stdout))
        #expect(run.stderr.contains("<stdin>: warning: the file holds no records"))
    }

    @Test("A pipe that cannot be copied (TMPDIR missing) is read once: in order, the file's report and a note; out of order, an I/O error (74) saying what to pass",
          arguments: formats)
    func copyImpossible(_ format: InputFormat) throws {
        let name = ["jsonl": "jsonl/clean.jsonl", "csv": "csv/clean.csv", "access-log": "access-log/clean.log"][format.rawValue]!
        let missing = ["TMPDIR": "/nonexistent/placescost-spool"]
        let ordered = try String(contentsOfFile: Self.corpus + "/" + name, encoding: .utf8)
        let once = try ProcessRun.placescost(["analyze", "-", "--json", "--pricing", "legacy-list"], stdin: Data(ordered.utf8), environment: missing, timeout: 120)
        #expect(once.status == 0, "\(once.stderr)")
        let file = runCLI(["analyze", Self.corpus + "/" + name, "--json", "--pricing", "legacy-list"])
        #expect(once.stdout == file.stdout.replacingOccurrences(of: "\"\(Self.corpus + "/" + name)\"", with: "\"<stdin>\""))
        #expect(once.stderr.contains("placescost: note: <stdin> is a pipe, which cannot be read twice, and its copy to a temporary file in /nonexistent/placescost-spool failed (No such file or directory): it was read once, as it came, and that was exact"), "\(once.stderr)")

        let run = try ProcessRun.placescost(["analyze", "-"] + Self.arguments, stdin: Data(try Self.reversed(format).utf8), environment: missing, timeout: 120)
        #expect(run.status == 74)
        #expect(run.stdout.isEmpty)
        let message = try #require(run.stderr.split(separator: "\n").first { $0.hasPrefix("placescost: error: ") })
        #expect(message.hasPrefix("placescost: error: cannot read <stdin> a second time: its calls came up to "), "\(message)")
        #expect(message.contains(" out of time order, more than --reorder-window allows, and it is a pipe whose copy to a temporary file in /nonexistent/placescost-spool failed (No such file or directory). Pass --reorder-window "))
        // The window the error names reads the log once, exactly.
        let window = try #require(message.split(separator: "--reorder-window ").last?.split(separator: " ").first.flatMap { Int($0) })
        let arguments = Self.arguments.map { $0 == "1" ? "\(window)" : $0 }
        let widened = try ProcessRun.placescost(["analyze", "-", "--quiet"] + arguments, stdin: Data(try Self.reversed(format).utf8), environment: missing, timeout: 120)
        #expect(widened.status == 0, "\(widened.stderr)")
        #expect(widened.stdout == (try Self.fileReport(try Self.reversed(format), as: "<stdin>")))
    }

    @Test("A pipe whose copy fails part-way (a file-size limit, as a full disk) is read once whole: the bytes copied, then the rest",
          arguments: ["jsonl", "csv", "access-log", "jsonl.gz"])
    func copyCutShort(_ format: String) throws {
        let directory = TemporaryDirectory()
        let plain = format.hasSuffix(".gz") ? String(format.dropLast(3)) : format
        let log = directory.write("log", GenerateCommandTests.generate(plain))
        var input = log
        if format.hasSuffix(".gz") {
            #expect(try ProcessRun.run("/bin/bash", ["-c", "gzip -c \"$0\" > \"$0.gz\"", log], timeout: 60).status == 0)
            input = log + ".gz"
        }
        let size = try #require(FileManager.default.attributesOfItem(atPath: input)[.size] as? Int)
        // Limits in KiB: the copy fails in the first MiB read, after it, and at a block edge.
        for limit in [64, 1024, size / 2048] where limit * 1024 < size {
            let executable = try #require(EndToEndTests.executable)
            // SIGXFSZ ignored: a write past the limit fails with EFBIG, as one on a full disk does.
            let script = "trap '' XFSZ; ulimit -f \(limit); exec \"$0\" analyze - --json --pricing legacy-list < <(cat \"$1\")"
            let run = try ProcessRun.run("/bin/bash", ["-c", script, executable, input], timeout: 300)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("placescost: note: <stdin> is a pipe, which cannot be read twice, and its copy to a temporary file in "), "\(run.stderr)")
            #expect(run.stderr.contains(" failed after "), "\(run.stderr)")
            let file = runCLI(["analyze", input, "--json", "--pricing", "legacy-list"])
            #expect(run.stdout == file.stdout.replacingOccurrences(of: "\"\(input)\"", with: "\"<stdin>\""), "limit \(limit) KiB")
        }
    }

    @Test("The copy leaves a tenth of its disk, at most 1 GiB, free: a stream never fills it")
    func copyReserve() throws {
        #expect(InputSpool.isShortOfRoom(free: 0, size: 100))
        #expect(InputSpool.isShortOfRoom(free: 9, size: 100) && !InputSpool.isShortOfRoom(free: 10, size: 100))
        #expect(InputSpool.isShortOfRoom(free: (1 << 30) - 1, size: 1 << 40) && !InputSpool.isShortOfRoom(free: 1 << 30, size: 1 << 40))
        // On a small file system of its own (where this process may mount one), nearly full: the
        // copy stops before its first byte, and the log in order is read once, whole.
        let directory = TemporaryDirectory()
        let mountPoint = directory.path + "/small"
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        guard geteuid() == 0, try ProcessRun.run("/bin/mount", ["-t", "tmpfs", "-o", "size=16m", "tmpfs", mountPoint], timeout: 30).status == 0 else { return }
        defer { _ = try? ProcessRun.run("/bin/umount", [mountPoint], timeout: 30) }
        #expect(try ProcessRun.run("/bin/dd", ["if=/dev/zero", "of=\(mountPoint)/filler", "bs=1M", "count=15"], timeout: 30).status == 0)
        let text = try String(contentsOfFile: Self.corpus + "/jsonl/clean.jsonl", encoding: .utf8)
        let run = try ProcessRun.placescost(["analyze", "-"] + Self.arguments, stdin: Data(text.utf8), environment: ["TMPDIR": mountPoint], timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("its copy to a temporary file in \(mountPoint) failed (stopped to leave the disk room: less than a tenth of it, or 1 GiB, was free): it was read once"), "\(run.stderr)")
        #expect(run.stdout == (try Self.fileReport(text, as: "<stdin>")))
    }

    @Test("A device that is not a terminal is refused at once, named or on standard input, whatever --format says",
          arguments: ["/dev/zero", "/dev/urandom", "/dev/null"])
    func devices(_ device: String) throws {
        for format in [[], ["--format", "csv"], ["--format", "jsonl"]] {
            let named = try ProcessRun.run(try #require(EndToEndTests.executable), ["analyze", device, "--json"] + format, timeout: 60)
            #expect(!named.timedOut && named.status == 66, "\(named.stderr)")
            #expect(named.stderr == "placescost: error: cannot read \(device): it is a device (as /dev/zero and /dev/urandom are), not a log. Pass a log file, a folder of logs, or - with the log piped to standard input.\n")
            let script = "exec \"$0\" analyze - --json \(format.joined(separator: " ")) < \(device)"
            let redirected = try ProcessRun.run("/bin/bash", ["-c", script, try #require(EndToEndTests.executable)], timeout: 60)
            #expect(!redirected.timedOut && redirected.status == 66, "\(redirected.stderr)")
            #expect(redirected.stderr.contains("cannot read <stdin>: it is a device"))
        }
    }

    @Test("A log removed from its folder after the run listed it is missed with a warning, on the second read too")
    func removedWhileRead() throws {
        let directory = TemporaryDirectory()
        let logs = directory.path + "/logs"
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        // Reversed, so far out of the 1 s window that the folder is read twice.
        directory.write("logs/a.jsonl", try Self.reversed(.jsonl))
        let removed = logs + "/b.jsonl"
        for threads in [1, 2] {
            try FileManager.default.copyItem(atPath: Self.corpus + "/jsonl/clean.jsonl", toPath: removed)
            var options = Analyzer.Options()
            options.threads = threads
            options.reorderWindowSeconds = 1
            // As a rotation would, once the first file is being read.
            let gone = LockedFlag()
            options.progress = { _ in
                guard !gone.isSet else { return }
                gone.set()
                unlink(removed)
            }
            let (analysis, read) = try Analyzer(options: options).analyze(paths: [logs])
            #expect(gone.isSet)
            #expect(analysis.input.files == [logs + "/a.jsonl"])
            #expect(read.diagnostics.map(\.description) == [
                "\(removed): warning: removed from its folder after the run listed it (by a log rotation?); its calls are not in the report",
            ])
        }
    }

    @Test("A log this user may not read: named, exit 66 saying what to do; in a folder, skipped with a warning and the others read")
    func notPermitted() throws {
        let directory = TemporaryDirectory()
        let logs = directory.path + "/logs"
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        let clean = try String(contentsOfFile: Self.corpus + "/jsonl/clean.jsonl", encoding: .utf8)
        directory.write("logs/a.jsonl", clean)
        let locked = directory.write("logs/b.jsonl", clean)
        #expect(chmod(locked, 0) == 0)
        // Root reads any file: then the tool runs as `nobody`, from a copy that user may run.
        var command = [try #require(EndToEndTests.executable)]
        if geteuid() == 0 {
            guard let runuser = ["/usr/sbin/runuser", "/sbin/runuser"].first(where: FileManager.default.isExecutableFile(atPath:)) else { return }
            let copy = directory.path + "/placescost"
            try FileManager.default.copyItem(atPath: command[0], toPath: copy)
            for path in [directory.path, logs, copy] { chmod(path, 0o755) }
            chmod(logs + "/a.jsonl", 0o644)
            command = [runuser, "-u", "nobody", "--", copy]
        }
        let advice = "Run as a user who may read it (server logs are often readable by the adm group), or analyze a copy you can read."
        let named = try ProcessRun.run(command[0], Array(command.dropFirst()) + ["analyze", locked, "--json"], timeout: 120)
        #expect(named.status == 66)
        #expect(named.stderr == "placescost: error: cannot read \(locked): permission denied. \(advice)\n", "\(named.stderr)")
        let listed = try ProcessRun.run(command[0], Array(command.dropFirst()) + ["analyze", logs, "--json", "--quiet"], timeout: 120)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("\"records\": 81,"), "\(listed.stdout.prefix(600))")
        let unreadable = try ProcessRun.run(command[0], Array(command.dropFirst()) + ["analyze", logs, "--json"], timeout: 120)
        #expect(unreadable.stderr.contains("\(locked): warning: permission denied; skipped: its calls are not in the report. \(advice)"), "\(unreadable.stderr)")
    }

    @Test("A log directory's entries that are not regular files are skipped with a warning, never read or waited on")
    func directoryEntries() throws {
        let directory = TemporaryDirectory()
        let clean = try String(contentsOfFile: Self.corpus + "/jsonl/clean.jsonl", encoding: .utf8)
        let logs = directory.path + "/logs"
        try FileManager.default.createDirectory(atPath: logs + "/nested.jsonl", withIntermediateDirectories: true)
        directory.write("logs/nested.jsonl/inner.jsonl", clean)
        directory.write("logs/a.jsonl", clean)
        #expect(mkfifo(logs + "/b.jsonl", 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: logs + "/c.log", withDestinationPath: logs + "/missing.log")
        try FileManager.default.createSymbolicLink(atPath: logs + "/d.jsonl", withDestinationPath: logs + "/a.jsonl")
        let run = try ProcessRun.placescost(["analyze", logs, "--json", "--pricing", "legacy-list"], timeout: 120)
        #expect(!run.timedOut, "analyze waited on the FIFO in the directory")
        #expect(run.status == 0, "\(run.stderr)")
        let warnings = run.stderr.split(separator: "\n").map(String.init)
        #expect(warnings.contains("\(logs)/nested.jsonl: warning: a directory, not a log file, though its name looks like one; skipped (pass it as an argument of its own to read it)"))
        #expect(warnings.contains("\(logs)/b.jsonl: warning: a FIFO (named pipe), not a log file, though its name looks like one; skipped (pass it as an argument of its own to read it)"))
        #expect(warnings.contains("\(logs)/c.log: warning: a symbolic link to nothing (broken), not a log file, though its name looks like one; skipped"))
        // The symbolic link to a log is read as the log: a.jsonl twice.
        let twice = runCLI(["analyze", logs + "/a.jsonl", logs + "/a.jsonl", "--json", "--pricing", "legacy-list"])
        #expect(MalformedCorpusTests.withoutInputFiles(try MalformedCorpusTests.object(run.stdout)) == MalformedCorpusTests.withoutInputFiles(try MalformedCorpusTests.object(twice.stdout)))
        let files = try #require((try MalformedCorpusTests.object(run.stdout))["input"] as? [String: Any])["files"] as? [String]
        #expect(files == [logs + "/a.jsonl", logs + "/d.jsonl"])
        // Named on its own, the nested directory is read.
        #expect(runCLI(["analyze", logs + "/nested.jsonl", "--json"]).code == .success)
    }

    @Test("The progress total only looks at inputs: a FIFO gives no total and is not opened")
    func progressTotal() throws {
        let directory = TemporaryDirectory()
        let fifo = directory.path + "/log.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let file = directory.write("a.jsonl", "{}\n")
        #expect(ProgressReporter.totalBytes(of: [fifo]) == nil)
        #expect(ProgressReporter.totalBytes(of: [file]) == 3)
        #expect(ProgressReporter.totalBytes(of: [directory.path]) == 3)
        // A rotation compressed in a way that is not read is listed, to be warned about, but
        // counts for nothing; a gzip one counts.
        directory.write("a.jsonl.1.xz", bytes: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 1, 2, 3, 4])
        directory.write("a.jsonl.2.gz", bytes: [0x1F, 0x8B, 1, 2])
        #expect(ProgressReporter.totalBytes(of: [directory.path]) == 7)
    }
}

/// Writes bytes into a FIFO from a thread, once a reader opens it.
final class FIFOWriter: @unchecked Sendable {
    let path: String
    private let thread: Thread

    init(path: String, bytes: [UInt8]) {
        self.path = path
        thread = Thread {
            let descriptor = open(path, O_WRONLY)
            guard descriptor >= 0 else { return }
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let count = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                    if count <= 0 { break }
                    offset += count
                }
            }
            close(descriptor)
        }
        thread.start()
    }

    /// Unblocks the writer if no reader ever opened the FIFO.
    func release() {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK)
        if descriptor >= 0 { close(descriptor) }
    }
}

/// A child process run to its end, or killed after a timeout.
struct ProcessRun {
    var status: Int32
    var stdout: String
    var stderr: String
    var timedOut: Bool

    static func placescost(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:], timeout: Double) throws -> ProcessRun {
        try run(try #require(EndToEndTests.executable, "placescost was not built beside the tests"), arguments, stdin: stdin, environment: environment, timeout: timeout)
    }

    static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:], timeout: Double) throws -> ProcessRun {
        // A child that exits before reading all of its input must not kill the test process.
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        let killed = LockedFlag()
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            if process.isRunning {
                killed.set()
                process.terminate()
            }
        }
        let feeder = Thread {
            try? input.fileHandleForWriting.write(contentsOf: stdin ?? Data())
            try? input.fileHandleForWriting.close()
        }
        feeder.start()
        let errors = LockedData()
        let reader = Thread { errors.set(err.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errors.isSet { usleep(1000) }
        return ProcessRun(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: errors.value, as: UTF8.self), timedOut: killed.isSet)
    }
}

final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    func set() { lock.withLock { flag = true } }
    var isSet: Bool { lock.withLock { flag } }
}

final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    func set(_ value: Data) { lock.withLock { data = value } }
    var isSet: Bool { lock.withLock { data != nil } }
    var value: Data { lock.withLock { data ?? Data() } }
}
