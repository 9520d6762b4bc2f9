import Foundation
import Testing
@testable import PlacesCostKit

/// A HAR capture cut short while it is read (log rotation with `copytruncate`) stops the run with
/// `IngestError.cutWhileRead` (exit 74), as a mapped log does (`MappedFileCutTests`); one cut
/// before the run is read as far as it goes, with a warning.
@Suite("HAR captures cut short while read")
struct HARCutWhileReadTests {
    /// A capture of some 15,000 calls, 13 MB: progress is reported every 4,096 calls, after the
    /// first few MB are read.
    static func capture(in directory: TemporaryDirectory) throws -> (path: String, size: Int) {
        let path = directory.path + "/capture.har"
        #expect(runCLI(["generate", "--searches", "2000", "--seed", "5", "--format", "har", "--out", path]).code == .success)
        let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        return (path, size)
    }

    @Test("Cut while read, to nothing or to half its size: analyze stops with cutWhileRead, no report", arguments: [0, 2])
    func cutWhileRead(divisor: Int) throws {
        let directory = TemporaryDirectory()
        let (path, size) = try Self.capture(in: directory)
        expectCutWhileRead(path, to: divisor == 0 ? 0 : size / divisor)
    }

    @Test("Cut before the run: the complete entries are read, with one warning that the capture is cut off")
    func cutBeforeTheRun() throws {
        let directory = TemporaryDirectory()
        let (path, size) = try Self.capture(in: directory)
        #expect(truncate(path, off_t(size / 2)) == 0)
        let (analysis, read) = try Analyzer(options: Analyzer.Options()).analyze(paths: [path])
        #expect(analysis.input.records > 1000)
        #expect(read.diagnostics.count == 1)
        #expect(read.diagnostics.first?.reason.hasPrefix("the HAR capture is cut off after ") == true, "\(read.diagnostics)")
    }
}
