import Foundation
import Testing
@testable import PlacesCostKit

#if canImport(Glibc)
import Glibc
#endif

/// Cuts the log at `path` to `length` bytes as soon as `analyze` reports its first progress (as
/// log rotation with `copytruncate` would cut a live log), and expects the run to stop with
/// `IngestError.cutWhileRead` rather than give a report of part of the log.
func expectCutWhileRead(_ path: String, to length: Int, options: Analyzer.Options = Analyzer.Options(),
                        sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    var options = options
    let cut = LockedFlag()
    options.progress = { _ in
        guard !cut.isSet else { return }
        cut.set()
        truncate(path, off_t(length))
    }
    #expect(throws: IngestError.cutWhileRead(path: path), sourceLocation: sourceLocation) {
        _ = try Analyzer(options: options).analyze(paths: [path])
    }
    #expect(cut.isSet, "the log was never cut: no progress was reported", sourceLocation: sourceLocation)
}
