import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads an input that is one JSON array of records as JSON Lines: a thread of its own converts
/// it (`JSONArrayLines`) into a pipe, whose read end the readers use in place of the input, as
/// they read a gzip input's text (`GzipDecompressor`; a gzip array is inflated into one pipe and
/// unwrapped into the next).
///
/// For example, `gcloud logging read ... --format=json > requests.json` writes `[`, then each
/// entry pretty-printed over some thirty lines; `LogReader.open` sees `[` and `{` first and hands
/// the input here, and the entries reach the readers one a line, each on the line it starts on.
final class JSONArrayUnwrapper: @unchecked Sendable {
    /// How the unwrapping ended.
    enum Outcome: Equatable, Sendable {
        /// The input was read to its end; `findings` are what its structure showed beside its
        /// elements (cut off, empty elements), for warnings.
        case complete(findings: [JSONArrayLines.Finding])
        /// Reading the input failed (an I/O error).
        case readFailed(String)
        /// The reader closed the pipe before the end.
        case abandoned
    }

    private let pipe: PipeFiller
    private var finalOutcome: Outcome?
    private var sourceRead = 0
    private let lock = NSLock()
    private static let chunk = 256 << 10

    /// The pipe's read end: the input's descriptor for every reader.
    var output: Int32 { pipe.output }

    /// Bytes of the input read so far (for progress).
    var bytesRead: Int { lock.withLock { sourceRead } }

    /// Starts unwrapping `prefix` (bytes already read from the input) and the rest of `source`.
    ///
    /// - Parameter ownsSource: whether the thread closes `source` when done.
    /// - Throws: `IngestError.readFailed` when no pipe can be made.
    init(source: Int32, prefix: [UInt8], ownsSource: Bool) throws {
        pipe = try PipeFiller(source: source, ownsSource: ownsSource, what: "unwrap a JSON array")
        pipe.start { [self] in
            let outcome = run(prefix: prefix)
            lock.withLock { finalOutcome = outcome }
        }
    }

    /// Whether an input starting with `head` is a JSON array of records (`JSONArrayLines.isArray`).
    static func isArray(_ head: [UInt8]) -> Bool {
        JSONArrayLines.isArray(head)
    }

    /// Reads `output` to its end, discarding what the reader left, and returns the outcome.
    func finish() -> Outcome {
        pipe.drain()
        return lock.withLock { finalOutcome } ?? .abandoned
    }

    /// Stops the thread after the reader closed `output` (`PipeFiller.stop`).
    func stop() {
        pipe.stop()
    }

    private func run(prefix: [UInt8]) -> Outcome {
        var lines = JSONArrayLines()
        var text: [UInt8] = []
        var input = [UInt8](repeating: 0, count: JSONArrayUnwrapper.chunk)
        /// Converts `bytes` and writes the text; `false` when the reader is gone.
        func pass(_ bytes: UnsafeRawBufferPointer) -> Bool {
            text.removeAll(keepingCapacity: true)
            lines.convert(bytes, into: &text)
            lock.withLock { sourceRead += bytes.count }
            return text.withUnsafeBytes { pipe.write($0) }
        }
        guard prefix.withUnsafeBytes(pass) else { return .abandoned }
        while true {
            let count = input.withUnsafeMutableBytes { SystemCall.read(pipe.source, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .readFailed(String(cString: strerror(errno)))
            }
            if count == 0 { break }
            guard input.withUnsafeBytes({ pass(UnsafeRawBufferPointer(rebasing: $0[..<count])) }) else { return .abandoned }
        }
        text.removeAll(keepingCapacity: true)
        lines.finish(into: &text)
        guard text.withUnsafeBytes({ pipe.write($0) }) else { return .abandoned }
        return .complete(findings: lines.findings)
    }
}
