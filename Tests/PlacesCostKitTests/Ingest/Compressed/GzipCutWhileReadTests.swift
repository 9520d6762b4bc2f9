import Foundation
import Testing
@testable import PlacesCostKit

/// A gzip file cut short while it is read (log rotation with `copytruncate`) stops the run with
/// `IngestError.cutWhileRead` (exit 74), as a plain log does; gzip data cut short before the run
/// keeps its records before the cut, with a warning (`GzipInputTests`).
@Suite("Gzip files cut short while read", .enabled(if: ZLib.platform != nil, "zlib is not on this machine"))
struct GzipCutWhileReadTests {
    @Test("Cut while read, to nothing or to half its size: analyze stops with cutWhileRead, on 1 and 2 threads",
          arguments: [(0, 1), (0, 2), (2, 1), (2, 2)])
    func cutWhileRead(divisor: Int, threads: Int) throws {
        let directory = TemporaryDirectory()
        let text = runCLI(["generate", "--searches", "2000", "--seed", "5", "--format", "jsonl"]).stdout
        // Stored, not compressed: the file is as long as its text, and the decompressor, held
        // back by the pipe to the reader, is far from its end when the first block is read.
        let gzip = StoredGzipWriter.member(Array(text.utf8))
        let path = directory.write("log.jsonl.gz", bytes: gzip)
        var options = Analyzer.Options()
        options.threads = threads
        options.blockSize = 64 << 10
        expectCutWhileRead(path, to: divisor == 0 ? 0 : gzip.count / divisor, options: options)
    }
}
