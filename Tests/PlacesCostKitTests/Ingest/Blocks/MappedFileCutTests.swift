import Foundation
import Testing
@testable import PlacesCostKit

/// A mapped log cut short while it is read (log rotation with `copytruncate`): the pages past the
/// cut read as zeros instead of raising SIGBUS (`MappingGuard`), and `analyze` stops with an error
/// that says so (exit 74) rather than crashing or reporting a part of the log as if whole.
@Suite("Mapped files cut short while read")
struct MappedFileCutTests {
    @Test("Past the cut the mapping reads zeros and says it was cut; before it, the file's bytes")
    func zerosPastTheCut() throws {
        let directory = TemporaryDirectory()
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let bytes = (0..<(5 * page + 123)).map { UInt8(truncatingIfNeeded: $0 % 251 + 1) }
        let path = directory.path + "/log.jsonl"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        let file = try #require(MappedFile(descriptor: descriptor))
        let whole = try #require(MappedFile(descriptor: descriptor))
        #expect(!file.wasCut)
        #expect(truncate(path, off_t(page + 10)) == 0)
        // Touched first past the cut, in the middle of the mapping: zeros from there to its end.
        #expect(file.base[3 * page + 7] == 0)
        #expect(file.wasCut)
        #expect((0..<(page + 10)).allSatisfy { file.base[$0] == bytes[$0] })
        #expect(((3 * page)..<file.count).allSatisfy { file.base[$0] == 0 })
        // A second mapping of the same file is cut on its own, when it reads past the cut.
        #expect(!whole.wasCut)
        #expect(whole.base[page] == bytes[page])
        #expect(!whole.wasCut)
        #expect(whole.base[whole.count - 1] == 0)
        #expect(whole.wasCut)
        // The record outlives its mapping: a reader asks once the blocks are parsed and let go.
        let record = whole.cut
        withExtendedLifetime(whole) {}
        record.release()
        #expect(record.wasCut)
    }

    @Test("In a folder of more files than the guard holds at once, a file far down the list is still guarded")
    func manyFiles() throws {
        let directory = TemporaryDirectory()
        let folder = directory.path + "/logs"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let line = #"{"timestamp":"2026-10-01T09:00:00Z","api":"autocomplete","session_token":"t","input_length":3}"#
        let text = Array(repeating: line, count: 200).joined(separator: "\n") + "\n"
        // Rotations of one name are read oldest first: app.jsonl.100 down to app.jsonl.1.
        let names = (1...100).reversed().map { "\(folder)/app.jsonl.\($0)" }
        for name in names { try Data(text.utf8).write(to: URL(fileURLWithPath: name)) }
        let target = names[89]
        let before = 89 * text.utf8.count
        var options = Analyzer.Options()
        options.blockSize = 4096
        let cut = LockedFlag()
        // Once the reader is inside the 90th file, it is cut to a tenth.
        options.progress = { bytes in
            guard bytes > before + 4096, !cut.isSet else { return }
            cut.set()
            truncate(target, off_t(text.utf8.count / 10))
        }
        #expect(throws: IngestError.cutWhileRead(path: target)) {
            _ = try Analyzer(options: options).analyze(paths: [folder])
        }
        #expect(cut.isSet)
    }

    @Test("analyze stops with cutWhileRead when its log is cut as it reads it, in every mapped format, on 1 and 2 threads",
          arguments: [("jsonl", 1), ("jsonl", 2), ("csv", 1), ("csv", 2), ("access-log", 2)])
    func analyzeReportsTheCut(format: String, threads: Int) throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/log." + (format == "access-log" ? "log" : format)
        #expect(runCLI(["generate", "--searches", "2000", "--seed", "5", "--format", format, "--out", path]).code == .success)
        let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        var options = Analyzer.Options()
        options.threads = threads
        options.blockSize = 64 << 10
        // After the first block is handed out, the log is cut to a third, as a rotation would.
        expectCutWhileRead(path, to: size / 3, options: options)
        #expect(ExitCode(for: IngestError.cutWhileRead(path: path)) == .ioError)
    }
}
