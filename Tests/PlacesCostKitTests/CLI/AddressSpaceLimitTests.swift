import Foundation
import Testing

/// A limit on address space (`ulimit -v`, as shared hosts and some CI sandboxes set) counts what
/// malloc reserves, not what a run touches: with an arena for each of 16 threads (64 MB of
/// address space each), a 500 MB limit aborted `analyze` in malloc. The run keeps two arenas
/// (`CallPipeline.tuneMalloc`), so it fits. Linux only: `mallopt` is glibc's.
@Suite("Address-space limits", .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/maps"), "glibc's malloc only"))
struct AddressSpaceLimitTests {
    @Test("analyze on 16 threads runs under a 500 MB address-space limit")
    func sixteenThreads() throws {
        let executable = try #require(EndToEndTests.executable, "placescost was not built beside the tests")
        let directory = TemporaryDirectory()
        let log = directory.path + "/calls.jsonl"
        let generated = try ProcessRun.run(executable, ["generate", "--searches", "30000", "--seed", "4", "--out", log], timeout: 300)
        #expect(generated.status == 0, "\(generated.stderr)")
        for _ in 0..<3 {
            let run = try ProcessRun.run("/bin/sh", ["-c", "ulimit -v 500000 && exec \"$@\"", "sh", executable, "analyze", log, "--json", "--quiet", "--threads", "16"], timeout: 300)
            #expect(run.status == 0 && run.stdout.contains("\"schema\""), "\(run.stderr.prefix(300))")
        }
    }
}
