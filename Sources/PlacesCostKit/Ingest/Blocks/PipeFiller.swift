import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pipe that a thread of its own fills with text made from an input, so that every reader of
/// a pipe (`BlockSplitter`, `CSVBlockSplitter`, `HARReader`, `LineReader`) reads the text as it
/// reads any stream, in bounded memory, with the making running beside the parsing.
/// `GzipDecompressor` inflates through one, `JSONArrayUnwrapper` unwraps an array through one,
/// and one may read the other's pipe.
///
/// Rules to keep:
/// - The thread closes the write end when its work returns (and the source, when it owns it):
///   whatever the work records before returning is seen by a reader that has seen the end.
/// - The thread never waits on the reader once the reader is gone: the read end closed, its next
///   write fails (`EPIPE`, SIGPIPE blocked on the thread) and `write` says so.
final class PipeFiller: @unchecked Sendable {
    /// The pipe's read end: the input's descriptor for every reader.
    let output: Int32
    /// The input the thread reads.
    let source: Int32
    private let writeEnd: Int32
    /// Whether waiting for the thread is bounded: a regular file (or a spool's copy) is read
    /// without ever blocking for long, a pipe may wait on its writer.
    private let sourceIsRegular: Bool
    private let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private let ownsSource: Bool
    private var stopped = false

    /// Makes the pipe; `start` begins filling it.
    ///
    /// - Parameters:
    ///   - what: what goes through the pipe, for the error message ("decompress", "unwrap").
    ///   - ownsSource: whether the thread closes `source` when done.
    /// - Throws: `IngestError.readFailed` when no pipe can be made.
    init(source: Int32, ownsSource: Bool, what: String) throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw IngestError.readFailed(path: "", reason: "cannot make a pipe to \(what) through: " + String(cString: strerror(errno)))
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        #if os(Linux)
        // A larger pipe means fewer wake-ups between the two threads.
        _ = fcntl(ends[1], 1031 /* F_SETPIPE_SZ */, Int32(1 << 20))
        #elseif canImport(Darwin)
        _ = fcntl(ends[1], F_SETNOSIGPIPE, 1)
        #endif
        output = ends[0]
        writeEnd = ends[1]
        self.source = source
        self.ownsSource = ownsSource
        var status = stat()
        sourceIsRegular = fstat(source, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// Runs `work` on a thread of its own, once; `work` writes with `write(_:)`.
    func start(_ work: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            PipeFiller.blockBrokenPipeSignal()
            work()
            _ = SystemCall.close(writeEnd)
            if ownsSource { _ = SystemCall.close(source) }
            finished.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Writes every byte to the pipe, on the thread; `false` when the reader is gone.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = SystemCall.write(writeEnd, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += count
        }
        return true
    }

    /// Reads `output` to its end, discarding what the reader left: the thread's work is then
    /// done.
    func drain() {
        var scratch = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = scratch.withUnsafeMutableBytes { SystemCall.read(output, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
        }
    }

    /// Stops the thread after the reader closed `output`: its next write fails. Waits for it
    /// when the source is a regular file (the wait is then short), so a second read of the same
    /// input (standard input sought back to its start) never races it.
    func stop() {
        let wait = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        if wait, sourceIsRegular { finished.wait() }
    }

    /// A write of SIGPIPE's kind becomes `EPIPE` on this thread, whatever the process does with
    /// the signal (tests run the library without `main.swift`'s `SIG_IGN`).
    private static func blockBrokenPipeSignal() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }
}
