import Foundation
import Synchronization
import Testing
@testable import PlacesCostKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--out` swaps the whole set of files in or none of them, concurrent runs into one new
/// directory both succeed with one whole report, and the staging folders of dead runs go.
@Suite("Report directory writer")
struct ReportDirectoryWriterTests {
    static let bundleFiles = ["report.md", "report.html", "report.json", "searches.csv", "costs.csv"] + ReportCharts.files

    let firstLog = [ac(0, "a", "12"), ac(1, "a", "123"), details(2, "a"), ac(100, nil, "9", user: "u-1")]
    let secondLog = [ac(0, "b", "1"), ac(5, "c", "2"), ac(7, "c", "23"), details(9, "c")]

    /// Every regular file under `root` by relative path, with its bytes and inode.
    static func snapshot(_ root: String) -> [String: (bytes: Data, inode: UInt64)] {
        var files: [String: (Data, UInt64)] = [:]
        for case let name as String in FileManager.default.enumerator(atPath: root)?.allObjects ?? [] {
            var info = stat()
            guard lstat(root + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            files[name] = (FileManager.default.contents(atPath: root + "/" + name) ?? Data(), UInt64(info.st_ino))
        }
        return files
    }

    /// Every entry under `root`, relative, sorted.
    static func listing(_ root: String) -> [String] {
        (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).sorted()
    }

    static func isStaging(_ name: String) -> Bool {
        name.split(separator: "/").contains { $0.hasPrefix(ReportDirectoryWriter.stagingPrefix) }
    }

    @Test("A directory in the way of any one file: exit 73 naming it, every earlier file byte-identical, no new file", arguments: bundleFiles)
    func directoryInTheWay(_ blocked: String) throws {
        let directory = TemporaryDirectory()
        let first = directory.write("first.jsonl", firstLog.map(\.jsonLine).joined(separator: "\n"))
        let second = directory.write("second.jsonl", secondLog.map(\.jsonLine).joined(separator: "\n"))
        let out = directory.path + "/out"
        #expect(runCLI(["analyze", first, "--out", out, "--quiet"]).code == .success)
        try FileManager.default.removeItem(atPath: out + "/" + blocked)
        try FileManager.default.createDirectory(atPath: out + "/" + blocked, withIntermediateDirectories: false)
        _ = directory.write("out/" + blocked + "/keep", "the user's")
        let before = ReportDirectoryWriterTests.snapshot(out)
        let listing = ReportDirectoryWriterTests.listing(out)
        #expect(before.count == ReportDirectoryWriterTests.bundleFiles.count)

        let run = runCLI(["analyze", second, "--out", out, "--quiet"])
        #expect(run.code == .cannotCreate)
        #expect(run.stderr.hasPrefix("placescost: error: cannot write \(out)/\(blocked): a directory is in the way"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
        let after = ReportDirectoryWriterTests.snapshot(out)
        #expect(ReportDirectoryWriterTests.listing(out) == listing)
        for (name, file) in before {
            #expect(after[name]?.bytes == file.bytes, "\(name) changed")
            #expect(after[name]?.inode == file.inode, "\(name) was replaced")
        }

        // Into a directory with no earlier report, no file is left either.
        let fresh = directory.path + "/fresh"
        try FileManager.default.createDirectory(atPath: fresh + "/" + blocked, withIntermediateDirectories: true)
        #expect(runCLI(["analyze", second, "--out", fresh, "--quiet"]).code == .cannotCreate)
        let parent = (blocked as NSString).deletingLastPathComponent
        #expect(ReportDirectoryWriterTests.listing(fresh) == (parent.isEmpty ? [blocked] : [parent, blocked]))
    }

    @Test("An analysis that fails after --out was staged leaves no new folder, no staging folder and the earlier report as it was")
    func failedAnalysisLeavesNothing() throws {
        let directory = TemporaryDirectory()
        let first = directory.write("first.jsonl", firstLog.map(\.jsonLine).joined(separator: "\n"))
        let empty = directory.write("empty.jsonl", "{\"not\": \"a call\"}\n")
        let nested = directory.path + "/new/nested"
        #expect(runCLI(["analyze", empty, "--out", nested, "--quiet"]).code != .success)
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/new"))

        let out = directory.path + "/out"
        #expect(runCLI(["analyze", first, "--out", out, "--quiet"]).code == .success)
        let before = ReportDirectoryWriterTests.snapshot(out)
        #expect(runCLI(["analyze", empty, "--out", out, "--quiet"]).code != .success)
        let after = ReportDirectoryWriterTests.snapshot(out)
        #expect(ReportDirectoryWriterTests.listing(out).allSatisfy { !ReportDirectoryWriterTests.isStaging($0) })
        #expect(Set(after.keys) == Set(before.keys))
        for (name, file) in before {
            #expect(after[name]?.bytes == file.bytes && after[name]?.inode == file.inode, "\(name) changed")
        }
    }

    @Test("A file started before the others is swapped in with them; abandoned, it leaves nothing")
    func startedEarly() throws {
        let directory = TemporaryDirectory()
        let out = directory.path + "/out"
        let staging = try ReportDirectoryWriter(directory: out).begin()
        staging.start(ReportFile(path: "early.csv") { write in
            for chunk in ["a,b\n", "1,2\n"] { try Array(chunk.utf8).withUnsafeBytes { try write($0) } }
        })
        try staging.commit([ReportFile(path: "late.md", text: "# late\n")])
        #expect(ReportDirectoryWriterTests.listing(out) == ["early.csv", "late.md"])
        #expect(FileManager.default.contents(atPath: out + "/early.csv") == Data("a,b\n1,2\n".utf8))

        let other = directory.path + "/other/deeper"
        let abandoned = try ReportDirectoryWriter(directory: other).begin()
        abandoned.start(ReportFile(path: "early.csv", text: "x"))
        abandoned.abandon()
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/other"))
    }

    @Test("A new set replaces the earlier one whole: its files the new set leaves out go, other files stay; a failed swap keeps every one")
    func replacesEarlierSet() throws {
        let directory = TemporaryDirectory()
        let out = directory.path + "/out"
        let writer = ReportDirectoryWriter(directory: out, replaces: ["report.md", "charts/a.svg", "charts/daily.svg", "extra.md", "fresh.md"])
        try writer.write([(path: "report.md", contents: "earlier\n"), (path: "charts/a.svg", contents: "a\n"), (path: "charts/daily.svg", contents: "daily\n")])
        directory.write("out/notes.md", "the user's")
        directory.write("out/charts/mine.svg", "the user's")
        // A folder by the name of a file of the report is not one.
        try FileManager.default.createDirectory(atPath: out + "/extra.md", withIntermediateDirectories: false)
        directory.write("out/extra.md/keep", "the user's")

        // A folder in the way of a new file: nothing is swapped, and what was moved aside is back.
        try FileManager.default.createDirectory(atPath: out + "/fresh.md", withIntermediateDirectories: false)
        let before = Self.snapshot(out)
        let listing = Self.listing(out)
        let new = [(path: "report.md", contents: "new\n"), (path: "charts/a.svg", contents: "new a\n")]
        #expect(throws: CLIError.self) { try writer.write(new + [(path: "fresh.md", contents: "fresh\n")]) }
        #expect(Self.listing(out) == listing)
        for (name, file) in before {
            #expect(Self.snapshot(out)[name]?.bytes == file.bytes && Self.snapshot(out)[name]?.inode == file.inode, "\(name) changed")
        }

        try FileManager.default.removeItem(atPath: out + "/fresh.md")
        try writer.write(new)
        #expect(Self.listing(out) == ["charts", "charts/a.svg", "charts/mine.svg", "extra.md", "extra.md/keep", "notes.md", "report.md"])
        #expect(FileManager.default.contents(atPath: out + "/report.md") == Data("new\n".utf8))
        #expect(FileManager.default.contents(atPath: out + "/notes.md") == Data("the user's".utf8))
    }

    @Test("Files rendered side by side all land whole; one that cannot be written is named, and nothing is swapped in")
    func renderedSideBySide() throws {
        let directory = TemporaryDirectory()
        let out = directory.path + "/out"
        let paths = (0 ..< 12).map { $0 % 3 == 0 ? "charts/f\($0).svg" : "f\($0).md" }
        let text: @Sendable (String) -> String = { String(repeating: $0 + "\n", count: 5_000) }
        try ReportDirectoryWriter(directory: out).begin().commit(paths.map { path in ReportFile(path: path) { text(path) } })
        for path in paths {
            #expect(FileManager.default.contents(atPath: out + "/" + path) == Data(text(path).utf8))
        }
        let before = ReportDirectoryWriterTests.snapshot(out).mapValues(\.bytes)

        // The same path twice: one of the two cannot be created (it exists), whichever comes second.
        let clashing = paths.map { ReportFile(path: $0, text: "new") } + [ReportFile(path: "f4.md", text: "again")]
        #expect {
            try ReportDirectoryWriter(directory: out).begin().commit(clashing)
        } throws: { error in
            "\(error)".contains("\(out)/f4.md")
        }
        #expect(ReportDirectoryWriterTests.snapshot(out).mapValues(\.bytes) == before)
        #expect(!ReportDirectoryWriterTests.listing(out).contains { ReportDirectoryWriterTests.isStaging($0) })
    }

    @Test("Writers on threads creating one new nested directory at once all succeed, leaving one run's whole set")
    func concurrentThreads() throws {
        let directory = TemporaryDirectory()
        let paths = ["report.md", "report.json", "charts/a.svg", "charts/b.svg"]
        let writers = 3
        for round in 0..<40 {
            let out = directory.path + "/round-\(round)/a/b/c/d/e"
            let failures = Mutex<[String]>([])
            let arrived = Atomic(0)
            // Threads of their own (not a pool that may run them one after another), started
            // together so that the writers race to create the same folders.
            let done = DispatchGroup()
            for writer in 0..<writers {
                done.enter()
                Thread {
                    let files = paths.map { (path: $0, contents: "writer \(writer): \($0)\n") }
                    arrived.add(1, ordering: .sequentiallyConsistent)
                    while arrived.load(ordering: .sequentiallyConsistent) < writers { sched_yield() }
                    do {
                        try ReportDirectoryWriter(directory: out).write(files)
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                    done.leave()
                }.start()
            }
            done.wait()
            #expect(failures.withLock { $0 } == [], "round \(round)")
            let written = try paths.map { try String(contentsOfFile: out + "/" + $0, encoding: .utf8) }
            let writer = try #require(written.first?.split(separator: ":").first)
            #expect(written == paths.map { "\(writer): \($0)\n" }, "round \(round) mixes runs")
            #expect(!ReportDirectoryWriterTests.listing(out).contains { ReportDirectoryWriterTests.isStaging($0) })
        }
    }

    @Test("A write that fails part-way (a file size limit, as a full disk) exits 74 and keeps the earlier report", arguments: [
        ["analyze", "SAMPLE", "--out", "OUT", "--quiet"], ["generate", "--searches", "2000", "--out", "OUT/generated.jsonl"], ["analyze", "SAMPLE", "--json"],
    ])
    func writeFailsPartWay(_ arguments: [String]) throws {
        let directory = TemporaryDirectory()
        let out = directory.path + "/out"
        let small = directory.write("small.jsonl", [ac(0, "a", "12"), details(2, "a")].map(\.jsonLine).joined(separator: "\n"))
        #expect(runCLI(["analyze", small, "--out", out, "--quiet"]).code == .success)
        let earlier = ReportDirectoryWriterTests.snapshot(out).mapValues(\.bytes)
        let executable = try #require(EndToEndTests.executable)
        let sample = packageRoot + "/SampleLogs/ios-app.jsonl"
        let resolved = arguments.map { $0.replacingOccurrences(of: "SAMPLE", with: sample).replacingOccurrences(of: "OUT", with: out) }
        // 16 KB: the sample's report.json and searches.csv are larger; standard output goes to a file too.
        let script = "ulimit -f 16; exec \"$0\" \"$@\" > \"" + directory.path + "/stdout\""
        let run = try ProcessRun.run("/bin/bash", ["-c", script, executable] + resolved, timeout: 120)
        #expect(run.status == 74, "\(run.stderr)")
        let errors = run.stderr.split(separator: "\n").filter { $0.hasPrefix("placescost: error: ") }
        #expect(errors.count == 1 && errors[0].contains("File too large"), "\(run.stderr)")
        #expect(ReportDirectoryWriterTests.snapshot(out).mapValues(\.bytes) == earlier)
        #expect(!ReportDirectoryWriterTests.listing(out).contains { ReportDirectoryWriterTests.isStaging($0) })
    }

    @Test("Built tools creating one new nested --out at once all exit 0 with the whole report")
    func concurrentProcesses() throws {
        let directory = TemporaryDirectory()
        let sample = packageRoot + "/SampleLogs/ios-app.jsonl"
        let reference = directory.path + "/reference"
        #expect(runCLI(["analyze", sample, "--out", reference, "--quiet"]).code == .success)
        let expected = ReportDirectoryWriterTests.snapshot(reference).mapValues(\.bytes)
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(null) }
        for round in 0..<8 {
            let out = directory.path + "/round-\(round)/a/b"
            let tools = try (0..<3).map { _ in try SpawnedTool(["analyze", sample, "--out", out, "--quiet"], standardOutput: null) }
            for tool in tools {
                let result = tool.wait()
                #expect(result.status == 0, "round \(round): \(result.stderr)")
            }
            #expect(ReportDirectoryWriterTests.snapshot(out).mapValues(\.bytes) == expected, "round \(round)")
            #expect(!ReportDirectoryWriterTests.listing(out).contains { ReportDirectoryWriterTests.isStaging($0) })
        }
    }

    @Test("A staging folder a killed run left is removed by the next run; one whose lock is held is kept")
    func staleStaging() throws {
        let directory = TemporaryDirectory()
        let out = directory.path + "/out"
        let files = [(path: "report.md", contents: "new\n")]
        try ReportDirectoryWriter(directory: out).write(files)
        // As a run killed while writing leaves it: files staged, some moved aside, no lock held.
        for name in [".placescost-dead01", ".placescost-Dead_2"] {
            try FileManager.default.createDirectory(atPath: out + "/" + name + "/new/charts", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: out + "/" + name + "/old", withIntermediateDirectories: true)
            _ = directory.write("out/" + name + "/new/charts/x.svg", "<svg/>")
            _ = directory.write("out/" + name + "/old/report.md", "old\n")
        }
        // A live run's folder: its lock is held on another open file description.
        let live = out + "/.placescost-live01"
        try FileManager.default.createDirectory(atPath: live + "/new", withIntermediateDirectories: true)
        _ = directory.write("out/.placescost-live01/new/report.md", "being written\n")
        let lock = open(live, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) == 0)
        // Names that are not staging folders are the user's.
        _ = directory.write("out/.placescost-notes", "mine")
        try FileManager.default.createDirectory(atPath: out + "/.placescost-longer-name", withIntermediateDirectories: false)

        try ReportDirectoryWriter(directory: out).write(files)
        #expect(ReportDirectoryWriterTests.listing(out).filter { !$0.contains("/") } == [
            ".placescost-live01", ".placescost-longer-name", ".placescost-notes", "report.md",
        ])
        #expect(FileManager.default.contents(atPath: live + "/new/report.md") == Data("being written\n".utf8))

        close(lock)
        // A process another test forks at this moment holds a copy of the lock until it execs:
        // wait until nobody does.
        for _ in 0..<500 {
            let probe = open(live, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            defer { close(probe) }
            if flock(probe, LOCK_EX | LOCK_NB) == 0 { break }
            usleep(10_000)
        }
        try ReportDirectoryWriter(directory: out).write(files)
        #expect(ReportDirectoryWriterTests.listing(out).filter { !$0.contains("/") } == [".placescost-longer-name", ".placescost-notes", "report.md"])
    }

    @Test("A staging folder locked by a live process is kept, and removed once that process is killed",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/flock")))
    func killedProcess() throws {
        let directory = TemporaryDirectory()
        let out = directory.path + "/out"
        let staging = out + "/.placescost-kill01"
        try FileManager.default.createDirectory(atPath: staging + "/new", withIntermediateDirectories: true)
        // -o: the lock is held by flock(1) itself, not passed on to sleep, so killing flock drops it.
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(null) }
        let holder = try SpawnedTool(executable: "/usr/bin/flock", ["-o", staging, "sleep", "60"], standardOutput: null)
        var killed = false
        defer { if !killed { kill(holder.pid, SIGKILL); _ = holder.wait() } }
        // Wait until the holder has the lock.
        let probe = open(staging, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { close(probe) }
        let deadline = ContinuousClock.now + .seconds(10)
        while flock(probe, LOCK_EX | LOCK_NB) == 0 {
            flock(probe, LOCK_UN)
            try #require(ContinuousClock.now < deadline, "flock(1) did not take the lock")
            usleep(10_000)
        }

        let files = [(path: "report.md", contents: "new\n")]
        try ReportDirectoryWriter(directory: out).write(files)
        #expect(FileManager.default.fileExists(atPath: staging))

        kill(holder.pid, SIGKILL)
        _ = holder.wait()
        killed = true
        // flock(1) forks its command, and the child shares the lock until it closes the
        // descriptor before exec: wait until the kernel has dropped the lock.
        let released = ContinuousClock.now + .seconds(10)
        while flock(probe, LOCK_EX | LOCK_NB) != 0 {
            try #require(ContinuousClock.now < released, "the lock outlived flock(1)")
            usleep(10_000)
        }
        flock(probe, LOCK_UN)
        try ReportDirectoryWriter(directory: out).write(files)
        #expect(!FileManager.default.fileExists(atPath: staging))
    }
}
