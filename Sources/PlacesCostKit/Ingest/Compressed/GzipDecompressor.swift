import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decompresses a gzip input on a thread of its own into a pipe, whose read end the readers use
/// in place of the input: every reader of a pipe (`BlockSplitter`, `CSVBlockSplitter`,
/// `HARReader`, `LineReader`) then reads gzip unchanged, in bounded memory, with decompression
/// running beside the parsing.
///
/// For example, `access.log.2.gz` (or the same bytes named anything, or on standard input) is
/// opened, its first bytes are `1f 8b`, and `LogReader.open` hands its descriptor here: the
/// thread reads it, inflates each member in turn (`cat a.gz b.gz` is two members, read as one
/// text) and writes the text to the pipe; the log's format is then told from the text.
///
/// Rules to keep:
/// - Only whole lines reach the pipe while more may follow: the bytes after the last newline are
///   held back until their line ends. So when the data turns out damaged or cut short, the
///   partial line at the damage is dropped (it is not a record, and a CSV row or an access-log
///   line cut short could still parse), every line before it has been read, and the warning
///   names the line where the damage is. A line longer than the held-back buffer is overlong
///   anyway (`LineReader.maxRecordLength`) and goes through as it comes.
/// - `outcome` is set before the pipe's write end is closed: a reader that has seen the end of
///   the pipe sees the final outcome.
/// - The thread never waits on the reader once the reader is gone: the pipe's read end closed,
///   its next write fails (`EPIPE`, SIGPIPE blocked on this thread) and it stops.
/// - Every call to zlib makes progress or ends the loop, so no input, however damaged, hangs it.
final class GzipDecompressor: @unchecked Sendable {
    /// How the decompression ended.
    enum Outcome: Equatable, Sendable {
        /// Every member ended with a good check.
        case complete
        /// The data is damaged, cut short or followed by data that is not gzip: `reason` is a full
        /// sentence for a warning at `line` of the text, the line the damage is in.
        case damaged(reason: String, line: Int)
        /// Reading the compressed input failed (an I/O error).
        case readFailed(String)
        /// The reader closed the pipe before the end.
        case abandoned
        /// The compressed input, a regular file, was cut short while it was read
        /// (`CutDetector`): the text past the cut is no longer in it.
        case cutWhileRead
    }

    /// The pipe the text goes through.
    private let pipe: PipeFiller
    private let lock = NSLock()
    private var finalOutcome: Outcome?
    private var compressedRead = 0

    /// The pipe's read end: the input's descriptor for every reader.
    var output: Int32 { pipe.output }

    /// Compressed bytes read so far (for progress).
    var compressedBytesRead: Int { lock.withLock { compressedRead } }

    /// How the decompression ended; `nil` while it runs.
    var outcome: Outcome? { lock.withLock { finalOutcome } }

    /// Output is held back, a line at a time, in a buffer this large: a line longer than the
    /// longest record goes through as it comes.
    static let outputCapacity = LineReader.maxRecordLength + (1 << 20)
    private static let inputChunk = 256 << 10

    /// Starts decompressing `prefix` (bytes already read from the input) and the rest of `source`.
    ///
    /// - Parameter ownsSource: whether the thread closes `source` when done.
    /// - Throws: `IngestError.readFailed` when no pipe or thread can be made.
    init(zlib: ZLib, source: Int32, prefix: [UInt8], ownsSource: Bool) throws {
        pipe = try PipeFiller(source: source, ownsSource: ownsSource, what: "decompress")
        pipe.start { [self] in
            let outcome = run(zlib: zlib, prefix: prefix)
            lock.withLock { finalOutcome = outcome }
        }
    }

    /// Whether an input starting with `head` is gzip: its magic number, `1f 8b` (RFC 1952). No
    /// text log starts with these bytes (0x1F is a control character, 0x8B no UTF-8 lead byte).
    static func isGzip(_ head: [UInt8]) -> Bool {
        head.count >= 2 && head[0] == 0x1F && head[1] == 0x8B
    }

    /// Reads `output` to its end, discarding what the reader left, and returns the outcome, which
    /// is final once the pipe has ended.
    func finish() -> Outcome {
        pipe.drain()
        return outcome ?? .abandoned
    }

    /// Stops the thread after the reader closed `output` (`PipeFiller.stop`).
    func stop() {
        pipe.stop()
    }

    // MARK: - The thread

    private enum Stop: Error {
        case readerGone
        case readFailed(String)
    }

    private func run(zlib: ZLib, prefix: [UInt8]) -> Outcome {
        let cut = CutDetector(descriptor: pipe.source)
        let outcome = inflate(zlib: zlib, prefix: prefix)
        // Data that ends where it was cut may even look whole (a cut between members).
        switch outcome {
        case .complete, .damaged: return cut.wasCut ? .cutWhileRead : outcome
        case .readFailed, .abandoned, .cutWhileRead: return outcome
        }
    }

    private func inflate(zlib: ZLib, prefix: [UInt8]) -> Outcome {
        guard let inflater = Inflater(zlib: zlib) else {
            return .damaged(reason: "zlib cannot start decompressing (out of memory); the file is skipped", line: 1)
        }
        var input = CompressedInput(source: pipe.source, prefix: prefix, chunk: GzipDecompressor.inputChunk) { [self] count in
            lock.withLock { compressedRead += count }
        }
        var text = HeldLines(pipe: pipe, capacity: GzipDecompressor.outputCapacity)
        do {
            while true {
                if input.isEmpty { try input.fill() }
                let (step, consumed, produced) = input.withAvailable { available in
                    text.withFreeSpace { inflater.inflate(available, into: $0) }
                }
                input.consume(consumed)
                try text.add(produced)
                switch step {
                case .progress:
                    continue
                case .needsInput:
                    if input.isEmpty, input.atEnd {
                        return .damaged(reason: "the gzip data ends before its last member does (the file was cut short): the records before this line were read, the rest is missing", line: text.currentLine)
                    }
                    // zlib makes no progress only without input: any other case would loop.
                    guard input.isEmpty else {
                        return .damaged(reason: "the gzip data cannot be decompressed further: the records before this line were read, the rest of the file is skipped", line: text.currentLine)
                    }
                case .memberEnd:
                    try input.fill(atLeast: 2)
                    if input.isEmpty {
                        try text.flush()
                        return .complete
                    }
                    guard input.startsWithGzipMagic else {
                        try text.flush()
                        return .damaged(reason: "the file goes on after its gzip data with bytes that are not gzip data; they are ignored", line: text.currentLine)
                    }
                    inflater.reset()
                case .damaged(let reason):
                    return .damaged(reason: "the gzip data is damaged (zlib: \(reason)): the records before this line were read, the rest of the file is skipped", line: text.currentLine)
                }
            }
        } catch Stop.readerGone {
            return .abandoned
        } catch Stop.readFailed(let reason) {
            return .readFailed(reason)
        } catch {
            return .abandoned
        }
    }

    /// The compressed bytes: `prefix`, then `source`, a chunk at a time.
    private struct CompressedInput {
        let source: Int32
        var prefix: [UInt8]
        var buffer: [UInt8]
        var start = 0
        var end = 0
        private(set) var atEnd = false
        let counted: (Int) -> Void

        init(source: Int32, prefix: [UInt8], chunk: Int, counted: @escaping (Int) -> Void) {
            self.source = source
            self.prefix = prefix
            self.buffer = [UInt8](repeating: 0, count: max(chunk, prefix.count))
            self.counted = counted
        }

        var isEmpty: Bool { start == end }

        var startsWithGzipMagic: Bool { end - start >= 2 && buffer[start] == 0x1F && buffer[start + 1] == 0x8B }

        mutating func consume(_ count: Int) { start += count }

        func withAvailable<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
            buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
        }

        /// Reads until `count` bytes are waiting or the input ends.
        mutating func fill(atLeast count: Int = 1) throws {
            while end - start < count, !atEnd {
                if start > 0 {
                    buffer.withUnsafeMutableBytes { raw in
                        _ = memmove(raw.baseAddress!, raw.baseAddress! + start, end - start)
                    }
                    end -= start
                    start = 0
                }
                if !prefix.isEmpty {
                    let taken = min(prefix.count, buffer.count - end)
                    buffer.replaceSubrange(end..<end + taken, with: prefix[..<taken])
                    prefix.removeFirst(taken)
                    end += taken
                    counted(taken)
                    continue
                }
                let got = buffer.withUnsafeMutableBytes { raw in
                    SystemCall.read(source, raw.baseAddress! + end, raw.count - end)
                }
                if got < 0 {
                    if errno == EINTR { continue }
                    throw Stop.readFailed(String(cString: strerror(errno)))
                }
                if got == 0 {
                    atEnd = true
                } else {
                    end += got
                    counted(got)
                }
            }
        }
    }

    /// The text made so far, written to the pipe a whole line at a time (see the type's rules).
    private struct HeldLines {
        let pipe: PipeFiller
        /// `buffer[0..<held]` is the start of a line not yet written: it holds no newline.
        var buffer: [UInt8]
        var held = 0
        /// Newlines written: the line being made is the next one.
        var newlines = 0

        init(pipe: PipeFiller, capacity: Int) {
            self.pipe = pipe
            buffer = [UInt8](repeating: 0, count: capacity)
        }

        /// The line the text has reached (1 for the first).
        var currentLine: Int { newlines + 1 }

        /// Calls `body` with the space after the held bytes; never empty (`add` writes a full buffer).
        mutating func withFreeSpace<Result>(_ body: (UnsafeMutableRawBufferPointer) -> Result) -> Result {
            let held = held
            return buffer.withUnsafeMutableBytes { body(UnsafeMutableRawBufferPointer(rebasing: $0[held...])) }
        }

        /// Takes `count` bytes just made after the held ones, and writes every whole line.
        mutating func add(_ count: Int) throws {
            guard count > 0 else { return }
            let total = held + count
            let lastNewline: Int? = buffer.withUnsafeBytes { raw in
                var index = total - 1
                while index >= held {
                    if raw[index] == 0x0A { return index }
                    index -= 1
                }
                return nil
            }
            guard let lastNewline else {
                held = total
                // A line longer than the buffer: overlong, passed on as it comes.
                if held == buffer.count { try flush() }
                return
            }
            try write(0..<lastNewline + 1)
            let rest = total - lastNewline - 1
            if rest > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    _ = memmove(raw.baseAddress!, raw.baseAddress! + lastNewline + 1, rest)
                }
            }
            held = rest
        }

        /// Writes the held bytes: the text is whole (its last line has no newline) or overlong.
        mutating func flush() throws {
            try write(0..<held)
            held = 0
        }

        private mutating func write(_ range: Range<Int>) throws {
            newlines += buffer.withUnsafeBytes { raw in
                var count = 0
                var next = range.lowerBound
                while next < range.upperBound, let found = memchr(raw.baseAddress! + next, 0x0A, range.upperBound - next) {
                    count += 1
                    next = UnsafeRawPointer(raw.baseAddress!).distance(to: UnsafeRawPointer(found)) + 1
                }
                return count
            }
            let written = buffer.withUnsafeBytes { pipe.write(UnsafeRawBufferPointer(rebasing: $0[range])) }
            guard written else { throw Stop.readerGone }
        }
    }
}
