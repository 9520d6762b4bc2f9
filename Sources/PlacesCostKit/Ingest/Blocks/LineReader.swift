#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a byte stream into lines without decoding it.
///
/// Reads the file descriptor in large chunks and hands out each line as a buffer into its own
/// storage, so a multi-GB log is never held in memory and no `String` is made per line. A UTF-8
/// byte-order mark at the start is dropped, and so is the `\r` of a CRLF line end. A line longer
/// than `maxLineLength` is not buffered whole: it is reported as `.overlong` and skipped.
package struct LineReader {
    package enum Event {
        /// One line, without its terminator; the buffer is valid only during the callback.
        case line(UnsafeBufferPointer<UInt8>, number: Int)
        /// A line longer than the limit, skipped.
        case overlong(number: Int)
    }

    private let fileDescriptor: Int32
    private var buffer: [UInt8]
    /// Unconsumed bytes are `buffer[start..<end]`.
    private var start = 0
    private var end = 0
    private var atEndOfInput = false
    private var checkedByteOrderMark = false
    private let maxLineLength: Int

    /// The longest line a log record may take. No API call's record comes near it (Places inputs
    /// and URLs are a few kilobytes at most), so a longer line is damage (a missing newline, a
    /// binary blob, runaway padding) and is rejected without being buffered.
    package static let maxRecordLength = 1 << 20
    /// The diagnostic for a line over `maxRecordLength`.
    package static let overlongReason = "the line is longer than 1 MiB, longer than any log record"

    /// Whether a line holds only spaces and tabs: every reader skips such a line silently.
    @inline(__always)
    static func isBlank<Bytes: Sequence<UInt8>>(_ line: Bytes) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    package init(fileDescriptor: Int32, chunkSize: Int = 1 << 20, maxLineLength: Int = LineReader.maxRecordLength) {
        self.fileDescriptor = fileDescriptor
        self.buffer = [UInt8](repeating: 0, count: max(chunkSize, 16))
        self.maxLineLength = maxLineLength
    }

    /// The first bytes of the input (up to `count`, after any byte-order mark), without consuming them.
    package mutating func peek(_ count: Int) throws -> [UInt8] {
        while end - start < count, !atEndOfInput {
            try fill()
        }
        return Array(buffer[start..<min(end, start + count)])
    }

    /// Takes the bytes read ahead and not yet consumed, so another reader can continue the input.
    package mutating func takeBuffered() -> [UInt8] {
        defer { start = end }
        return Array(buffer[start..<end])
    }

    /// Calls `body` for every line of the input, in order.
    package mutating func forEachLine(_ body: (Event) throws -> Void) throws {
        var lineNumber = 0
        var skippingOverlongLine = false
        while true {
            let newline = indexOfNewline()
            if let newline {
                lineNumber += 1
                if skippingOverlongLine {
                    skippingOverlongLine = false
                } else {
                    try emitLine(upTo: newline, number: lineNumber, body)
                }
                start = newline + 1
                continue
            }
            if atEndOfInput {
                if start < end {
                    lineNumber += 1
                    if !skippingOverlongLine {
                        try emitLine(upTo: end, number: lineNumber, body)
                    }
                    start = end
                }
                return
            }
            if !skippingOverlongLine, end - start >= maxLineLength {
                try body(.overlong(number: lineNumber + 1))
                skippingOverlongLine = true
            }
            if skippingOverlongLine {
                start = end  // drop what we have of the overlong line; keep reading to its end
            }
            try fill()
        }
    }

    private func indexOfNewline() -> Int? {
        guard start < end else { return nil }
        return buffer.withUnsafeBytes { raw -> Int? in
            let base = raw.baseAddress!
            guard let found = memchr(base + start, 0x0A, end - start) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }

    private func emitLine(upTo lineEnd: Int, number: Int, _ body: (Event) throws -> Void) throws {
        var last = lineEnd
        if last > start, buffer[last - 1] == 0x0D { last -= 1 }
        try buffer.withUnsafeBufferPointer { all in
            try body(.line(UnsafeBufferPointer(rebasing: all[start..<last]), number: number))
        }
    }

    /// Reads more input, compacting or growing the buffer as needed.
    private mutating func fill() throws {
        if start > 0, start == end {
            start = 0
            end = 0
        } else if end == buffer.count {
            if start > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    let base = raw.baseAddress!
                    memmove(base, base + start, end - start)
                }
                end -= start
                start = 0
            } else {
                // Doubling with a ready-made array: appending a lazy `repeatElement` is ~100x slower in debug builds.
                buffer += [UInt8](repeating: 0, count: buffer.count)
            }
        }
        let count = buffer.withUnsafeMutableBytes { raw in
            read(fileDescriptor, raw.baseAddress! + end, raw.count - end)
        }
        if count < 0 {
            if errno == EINTR { return }
            throw IngestError.readFailed(path: "", reason: String(cString: strerror(errno)))
        }
        if count == 0 {
            atEndOfInput = true
        }
        end += count
        if !checkedByteOrderMark, end - start >= 3 || atEndOfInput {
            checkedByteOrderMark = true
            if end - start >= 3, buffer[start] == 0xEF, buffer[start + 1] == 0xBB, buffer[start + 2] == 0xBF {
                start += 3
            }
        }
    }
}
