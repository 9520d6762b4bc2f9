import Foundation
import Testing
@testable import PlacesCostKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The decompressing pipe on its own: members joined, whole lines only before damage, the line the
/// damage is in, and a thread that never outlives its reader or hangs on bad data.
@Suite("GzipDecompressor", .enabled(if: ZLib.platform != nil, "zlib is not on this machine"))
struct GzipDecompressorTests {
    /// What the pipe gives for `gzip` read from a regular file, and how the decompression ended.
    static func decompress(_ gzip: [UInt8], in directory: TemporaryDirectory = TemporaryDirectory()) throws -> (text: String, outcome: GzipDecompressor.Outcome) {
        let path = directory.write("input", bytes: gzip)
        let source = open(path, O_RDONLY)
        try #require(source >= 0)
        let decompressor = try GzipDecompressor(zlib: try #require(ZLib.platform), source: source, prefix: [], ownsSource: true)
        var text: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(decompressor.output, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            text += buffer[0..<count]
        }
        let outcome = decompressor.finish()
        close(decompressor.output)
        decompressor.stop()
        return (String(decoding: text, as: UTF8.self), outcome)
    }

    @Test("Only gzip's magic number, 1f 8b, makes an input gzip")
    func magic() {
        #expect(GzipDecompressor.isGzip([0x1F, 0x8B, 0x08]))
        #expect(GzipDecompressor.isGzip([0x1F, 0x8B]))
        #expect(!GzipDecompressor.isGzip([0x1F]))
        #expect(!GzipDecompressor.isGzip(Array("{\"timestamp\"".utf8)))
        #expect(!GzipDecompressor.isGzip([0xEF, 0xBB, 0xBF, 0x1F, 0x8B]))
    }

    @Test("Concatenated members are one text: a line cut between two members is one line")
    func members() throws {
        let (text, outcome) = try Self.decompress(
            StoredGzipWriter.member("a\nb") + StoredGzipWriter.member("") + StoredGzipWriter.member("c\nd\n")
        )
        #expect(text == "a\nbc\nd\n")
        #expect(outcome == .complete)
    }

    @Test("Whole data with no final newline gives its last line")
    func lastLineWithoutNewline() throws {
        let (text, outcome) = try Self.decompress(StoredGzipWriter.member("a\nb\nlast"))
        #expect(text == "a\nb\nlast")
        #expect(outcome == .complete)
    }

    @Test("Data cut short gives the whole lines before the cut, and the warning names the line cut")
    func cutShort() throws {
        let whole = StoredGzipWriter.member("one\ntwo\nthree\nfour\n")
        // Header (10), block header (5), then "one\ntwo\nthr": the cut is inside line 3.
        let (text, outcome) = try Self.decompress(Array(whole[0..<(15 + 11)]))
        #expect(text == "one\ntwo\n")
        guard case .damaged(let reason, let line) = outcome else {
            Issue.record("expected damage, got \(outcome)")
            return
        }
        #expect(line == 3)
        #expect(reason.hasPrefix("the gzip data ends before its last member does (the file was cut short)"))
        // Cut in the trailer: every line was made, the check is missing.
        let (all, atEnd) = try Self.decompress(Array(whole.dropLast(3)))
        #expect(all == "one\ntwo\nthree\nfour\n")
        #expect(atEnd == .damaged(reason: reason, line: 5))
    }

    @Test("A wrong CRC-32 is found after the member's lines were given")
    func badCheck() throws {
        var bytes = StoredGzipWriter.member("one\ntwo\n")
        bytes[bytes.count - 8] ^= 0xFF
        let (text, outcome) = try Self.decompress(bytes)
        #expect(text == "one\ntwo\n")
        #expect(outcome == .damaged(reason: "the gzip data is damaged (zlib: incorrect data check): the records before this line were read, the rest of the file is skipped", line: 3))
    }

    @Test("A line longer than the held-back buffer goes through whole, as it comes")
    func overlongLine() throws {
        let long = String(repeating: "x", count: GzipDecompressor.outputCapacity + 1000)
        let (text, outcome) = try Self.decompress(StoredGzipWriter.member("a\n" + long + "\nb\n"))
        #expect(text == "a\n" + long + "\nb\n")
        #expect(outcome == .complete)
    }

    @Test("Every byte of a compressed log damaged in turn: the decompression always ends, at the damage's line")
    func damagedBytes() throws {
        let fixture = try [UInt8](Data(contentsOf: URL(fileURLWithPath: GzipInputTests.fixtures + "/clean.csv.gz")))
        let directory = TemporaryDirectory()
        for offset in 0..<fixture.count {
            var damaged = fixture
            damaged[offset] ^= 0xFF
            let (text, outcome) = try Self.decompress(damaged, in: directory)
            switch outcome {
            case .complete:
                // A byte zlib does not check (the header's time, flags it ignores).
                #expect(offset < 10, "offset \(offset)")
            case .damaged(let reason, let line):
                #expect(line == text.split(separator: "\n", omittingEmptySubsequences: false).count, "offset \(offset)")
                #expect(text.isEmpty || text.hasSuffix("\n") || reason.hasPrefix("the file goes on"), "offset \(offset)")
            case .readFailed, .abandoned, .cutWhileRead:
                Issue.record("offset \(offset): \(outcome)")
            }
        }
    }

    @Test("A reader that closes the pipe early stops the thread: no hang, however much is left")
    func readerGone() throws {
        // Far more than the pipe and the held-back buffer hold, so the thread blocks writing.
        let text = String(repeating: "{\"timestamp\":\"2026-10-01T09:00:00Z\",\"api\":\"autocomplete\"}\n", count: 100_000)
        let directory = TemporaryDirectory()
        let path = directory.write("big.gz", bytes: StoredGzipWriter.member(text))
        let source = open(path, O_RDONLY)
        try #require(source >= 0)
        let decompressor = try GzipDecompressor(zlib: try #require(ZLib.platform), source: source, prefix: [], ownsSource: true)
        var buffer = [UInt8](repeating: 0, count: 4096)
        #expect(buffer.withUnsafeMutableBytes { read(decompressor.output, $0.baseAddress!, $0.count) } > 0)
        close(decompressor.output)
        let stopped = LockedFlag()
        let thread = Thread {
            decompressor.stop()
            stopped.set()
        }
        thread.start()
        let deadline = Date().addingTimeInterval(30)
        while !stopped.isSet, Date() < deadline { usleep(10_000) }
        #expect(stopped.isSet, "stop() waited on a thread blocked writing to a closed pipe")
        #expect(decompressor.outcome == .abandoned)
    }
}
