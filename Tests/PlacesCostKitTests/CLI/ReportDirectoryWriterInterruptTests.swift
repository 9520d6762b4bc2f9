import Foundation
import Synchronization
import Testing
@testable import PlacesCostKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An `--out` write interrupted (SIGINT, SIGTERM, SIGHUP) at any moment leaves no staging folder
/// and one whole set in the folder: the earlier report or the new one.
///
/// No signal is sent and no time is waited for: each write has an `InterruptCleanup` of its own
/// whose `end` returns, the interruption is made at a chosen moment, and what the folder holds at
/// that moment is what a run the signal ended would leave. The write then goes on, as the threads
/// of a real run go on until the process ends.
@Suite("Report directory writer, interrupted")
struct ReportDirectoryWriterInterruptTests {
    /// Interrupts at its `moment`-th chance (each time its `InterruptCleanup` stops holding
    /// interruptions off, when a signal that came meanwhile is acted on) and keeps what `root`
    /// held right after the cleanups ran.
    final class Interrupter: @unchecked Sendable {
        let moment: Int
        let root: String
        private(set) var cleanup: InterruptCleanup!
        private let lock = NSLock()
        private var moments = 0
        private var kept: [String: String]?

        init(moment: Int, root: String) {
            self.moment = moment
            self.root = root
            cleanup = InterruptCleanup(end: { _ in }, interruptible: { [unowned self] in reached() })
        }

        private func reached() {
            let now = lock.withLock {
                moments += 1
                return moments
            }
            guard now == moment else { return }
            cleanup.interrupted(by: SIGINT)
            let left = ReportDirectoryWriterInterruptTests.contents(root)
            lock.withLock { kept = left }
        }

        /// What `root` held when the run was interrupted; nil if it had fewer moments.
        var left: [String: String]? { lock.withLock { kept } }
    }

    /// Every entry under `root` by relative path: a file's text, or "/" for a folder.
    static func contents(_ root: String) -> [String: String] {
        var entries: [String: String] = [:]
        for case let name as String in FileManager.default.enumerator(atPath: root)?.allObjects ?? [] {
            var info = stat()
            guard lstat(root + "/" + name, &info) == 0 else { continue }
            entries[name] = info.st_mode & S_IFMT == S_IFDIR ? "/" : (try? String(contentsOfFile: root + "/" + name, encoding: .utf8)) ?? "?"
        }
        return entries
    }

    /// A set as `analyze --out` writes one: `searches.csv` streamed on a thread of its own, the
    /// others rendered, one of them in `charts/`.
    static func streamed(_ text: String) -> ReportFile {
        ReportFile(path: "searches.csv") { write in try Array(text.utf8).withUnsafeBytes { try write($0) } }
    }

    static let rendered = ["report.md": "new report\n", "charts/a.svg": "<svg>new</svg>\n"]
    static let replaces = ["report.md", "charts/a.svg", "searches.csv", "charts/daily.svg"]

    @Test("Interrupted at any moment a signal is acted on, a write leaves no staging folder and one whole set",
          arguments: [false, true], [false, true])
    func everyMoment(overEarlierReport: Bool, commits: Bool) throws {
        var interrupted = 0
        for moment in 1... {
            let directory = TemporaryDirectory()
            let out = directory.path + "/out"
            if overEarlierReport {
                // With a file the new set does not write, which goes with the swap.
                try ReportDirectoryWriter(directory: out).write([
                    (path: "report.md", contents: "earlier report\n"), (path: "charts/a.svg", contents: "<svg>earlier</svg>\n"),
                    (path: "searches.csv", contents: "earlier rows\n"), (path: "charts/daily.svg", contents: "<svg>daily</svg>\n"),
                ])
                directory.write("out/notes.txt", "the user's")
            }
            let before = Self.contents(directory.path)
            var new = before
            new["out/charts/daily.svg"] = nil
            new["out"] = "/"
            new["out/charts"] = "/"
            new["out/searches.csv"] = "new rows\n"
            for (path, text) in Self.rendered { new["out/" + path] = text }

            let interrupter = Interrupter(moment: moment, root: directory.path)
            do {
                let writer = ReportDirectoryWriter(directory: out, replaces: Self.replaces, interruptCleanup: interrupter.cleanup)
                var staging: ReportDirectoryWriter.Staging? = try writer.begin()
                staging?.start(Self.streamed("new rows\n"))
                // Not committed: the analysis failed, and the staging is let go of.
                if commits { try staging?.commit(Self.rendered.map { ReportFile(path: $0.key, text: $0.value) }) }
                staging = nil
            } catch {
                // What the write meets after the interruption, when the process would have ended.
            }
            guard let left = interrupter.left else { break }
            interrupted += 1
            #expect(left == before || commits && left == new, "interrupted at moment \(moment): \(left.keys.sorted())")
        }
        // After the staging is made, after the swap, after the staging is removed.
        #expect(interrupted >= (commits ? 3 : 2))
    }

    /// Holds a staging weakly, for a writer thread to see the run let go of it.
    final class WeakStaging: @unchecked Sendable {
        weak var staging: ReportDirectoryWriter.Staging?
    }

    @Test("A staging let go of while a file is still being written (a failed analysis) is removed by an interruption then")
    func releasedWhileWriting() throws {
        let directory = TemporaryDirectory()
        let out = directory.path + "/out"
        let cleanup = InterruptCleanup(end: { _ in })
        let held = WeakStaging()
        let left = Mutex<[String: String]?>(nil)
        var staging: ReportDirectoryWriter.Staging? = try ReportDirectoryWriter(directory: out, interruptCleanup: cleanup).begin()
        held.staging = staging
        staging?.start(ReportFile(path: "searches.csv") { write in
            try Array("rows\n".utf8).withUnsafeBytes { try write($0) }
            // Until the run has let go of the staging, which then waits for this file to end.
            while held.staging != nil { sched_yield() }
            cleanup.interrupted(by: SIGTERM)
            let now = ReportDirectoryWriterInterruptTests.contents(directory.path)
            left.withLock { $0 = now }
        })
        staging = nil
        #expect(left.withLock { $0 } == [:])
    }

    @Test("Writers still going on after an interruption's cleanup, until the signal ends the run, make nothing in --out")
    func writersAfterCleanup() throws {
        let directory = TemporaryDirectory()
        let out = directory.path + "/report"
        let cleanup = InterruptCleanup(end: { _ in })
        let staging = try ReportDirectoryWriter(directory: out, interruptCleanup: cleanup).begin()
        let early = try staging.stagedPath(of: "searches.csv")
        staging.start(Self.streamed("rows\n"))
        cleanup.interrupted(by: SIGHUP)
        #expect(Self.contents(directory.path) == [:])

        // What the run's threads may still do before the process ends: open the file begun
        // during the walk, begin or start other files.
        let descriptor = open(early, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor >= 0 { close(descriptor) }
        _ = try? staging.stagedPath(of: "charts/late.svg")
        staging.start(ReportFile(path: "charts/a.svg", text: "<svg/>"))
        staging.start(ReportFile(path: "report.md", text: "# report\n"))
        #expect(Self.contents(directory.path) == [:])
    }

    @Test("The removal of a staging folder goes on until it is gone, while writers still make files in it")
    func removalOutlastsWriters() throws {
        let directory = TemporaryDirectory()
        let staging = directory.path + "/" + ReportDirectoryWriter.stagingPrefix + "abcdef"
        for folder in ["new/charts", "old/charts"] {
            try FileManager.default.createDirectory(atPath: staging + "/" + folder, withIntermediateDirectories: true)
        }
        for file in ["new/report.md", "new/charts/a.svg", "old/charts/a.svg", "old/report.md"] {
            directory.write(String(staging.dropFirst(directory.path.count + 1)) + "/" + file, file)
        }
        // A name that is not UTF-8 is removed as well.
        let raw = Array((staging + "/new/").utf8CString.dropLast()) + [CChar(bitPattern: 0xFF), 0]
        let descriptor = open(raw, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0)
        close(descriptor)

        var made = 0
        ReportDirectoryWriter.removeTree(staging) { folder in
            // As a writer thread does: a file made in a folder after it was read.
            guard made < 6, folder.hasSuffix("/new") || folder.hasSuffix("/charts") else { return }
            made += 1
            #expect(FileManager.default.createFile(atPath: folder + "/late-\(made).svg", contents: Data("late".utf8)))
        }
        #expect(made == 6)
        #expect(Self.contents(directory.path) == [:])
    }
}
