import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An input that cannot be read twice and whose copy failed part-way (the temporary directory
/// is full or missing), read once as it comes: a thread of its own writes into a pipe the bytes
/// the copy holds, read back from it, then the bytes read and not yet copied, then the rest of
/// the input, and every reader reads the pipe as it reads any stream (`PipeFiller`).
///
/// The run goes on without a copy: it needs one only if its calls come out of time order past
/// the reorder window, and `Analyzer` then stops with `IngestError.readTwiceWithoutCopy`.
///
/// Invariant: the bytes through the pipe are the input's bytes, in order, each once: the copy's
/// `copied` bytes, then `pending`, then the source from where the copy stopped reading it.
final class SpoolReplay: @unchecked Sendable {
    /// How the replay ended.
    enum Outcome: Equatable, Sendable {
        case complete
        /// Reading the copy back or the input failed (an I/O error).
        case readFailed(String)
        /// The reader closed the pipe before the end.
        case abandoned
    }

    private let pipe: PipeFiller
    private var finalOutcome: Outcome?
    private let lock = NSLock()
    private static let chunk = 1 << 20

    /// The pipe's read end: the input's descriptor for every reader.
    var output: Int32 { pipe.output }

    /// Starts the replay.
    ///
    /// - Parameters:
    ///   - copy: the partial copy, read from its start and closed by the thread; `nil` when none
    ///     could be made.
    ///   - copied: how many bytes of the input the copy holds.
    ///   - pending: bytes read from the input and not in the copy.
    ///   - source: the input, positioned past `pending`; closed by the thread when `ownsSource`.
    /// - Throws: `IngestError.readFailed` when no pipe can be made.
    init(copy: Int32?, copied: Int, pending: [UInt8], source: Int32, ownsSource: Bool) throws {
        pipe = try PipeFiller(source: source, ownsSource: ownsSource, what: "read the input once")
        pipe.start { [self] in
            let outcome = run(copy: copy, copied: copied, pending: pending)
            if let copy { _ = SystemCall.close(copy) }
            lock.withLock { finalOutcome = outcome }
        }
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

    private func run(copy: Int32?, copied: Int, pending: [UInt8]) -> Outcome {
        var buffer = [UInt8](repeating: 0, count: SpoolReplay.chunk)
        if let copy {
            var offset = 0
            while offset < copied {
                let count = buffer.withUnsafeMutableBytes {
                    pread(copy, $0.baseAddress!, min($0.count, copied - offset), off_t(offset))
                }
                if count < 0, errno == EINTR { continue }
                // The copy was written up to `copied` by this process: a short end is an I/O error.
                guard count > 0 else { return .readFailed(count < 0 ? String(cString: strerror(errno)) : "the temporary copy ended early") }
                guard buffer.withUnsafeBytes({ pipe.write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }) else { return .abandoned }
                offset += count
            }
        }
        guard pending.withUnsafeBytes({ pipe.write($0) }) else { return .abandoned }
        while true {
            let count = buffer.withUnsafeMutableBytes { SystemCall.read(pipe.source, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .readFailed(String(cString: strerror(errno)))
            }
            if count == 0 { return .complete }
            guard buffer.withUnsafeBytes({ pipe.write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }) else { return .abandoned }
        }
    }
}
