#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A run of whole lines of one JSON Lines or access-log file, or of whole records of one CSV
/// file, read but not yet parsed.
struct RawBlock: Sendable {
    var index: Int
    var fileIndex: Int
    var fileName: String
    /// Whole lines; the last may lack its newline only at the end of the file.
    var bytes: [UInt8]
    /// Lines at or over the limit, skipped unread, that come just before the block's first line
    /// (each its own line number and rejection).
    var overlongLinesBefore = 0
    /// Where the lines are when the file is mapped (then `bytes` is empty).
    var mapped: (file: MappedFile, range: Range<Int>)?
    /// The parser of an access log's lines; `nil` for JSON Lines.
    var accessLog: AccessLogParser?
    /// A CSV file's columns and where the block's lines are counted from; `nil` for other formats.
    var csv: CSVBlockParser.Layout?

    /// One line of a block, as `forEachLine` hands it out.
    enum Line {
        /// A line's bytes, without its `\n` and a trailing `\r`, and its number in the block.
        case text(UnsafeBufferPointer<UInt8>, number: Int)
        /// A line of `maxLineLength` bytes or more, skipped unread, as the line reader does.
        case overlong(number: Int)
    }

    /// Calls `body` with the block's lines.
    func withLines<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let mapped {
            return body(UnsafeBufferPointer(start: mapped.file.base + mapped.range.lowerBound, count: mapped.range.count))
        }
        return bytes.withUnsafeBufferPointer(body)
    }

    /// Calls `body` with each line, numbered from 1 at the block's start (the skipped lines
    /// before it first, when it follows overlong ones); returns the number of lines.
    @inline(__always)
    func forEachLine(maxLineLength: Int, _ body: (Line) -> Void) -> Int {
        forEachLine(maxLineLength: maxLineLength, leading: { _ in nil }) { line, _ in body(line) }
    }

    /// `forEachLine(maxLineLength:_:)`, offering the rest of the block to `leading` first at each
    /// line: a reader that can tell where a line ends as it reads it saves the search for the
    /// newline.
    ///
    /// - Parameter leading: reads the line at the start of the rest of the block, keeping what it
    ///   read for `body`, and returns the line's length, only when the line ends there as this
    ///   reader would cut it: at the block's end, `\n` or `\r\n`
    ///   (`FastJSONLineDecoder.decodeLeadingLine`). What it read of an overlong line is ignored,
    ///   and the line reported overlong.
    /// - Parameter body: receives each line, and whether `leading` read it.
    @inline(__always)
    func forEachLine(
        maxLineLength: Int, leading: (UnsafeBufferPointer<UInt8>) -> Int?, _ body: (Line, Bool) -> Void
    ) -> Int {
        var lineNumber = 0
        while lineNumber < overlongLinesBefore {
            lineNumber += 1
            body(.overlong(number: lineNumber), false)
        }
        withLines { bytes in
            var start = 0
            let count = bytes.count
            while start < count {
                if let length = leading(UnsafeBufferPointer(rebasing: bytes[start...])) {
                    let end = start + length
                    // With the `\r` of a `\r\n`, as the search below counts a line's length.
                    let rawEnd = end < count && bytes[end] == 0x0D ? end + 1 : end
                    if rawEnd - start < maxLineLength {
                        lineNumber += 1
                        body(.text(UnsafeBufferPointer(rebasing: bytes[start..<end]), number: lineNumber), true)
                        start = rawEnd + 1
                        continue
                    }
                }
                let end: Int
                if let newline = memchr(bytes.baseAddress! + start, 0x0A, count - start) {
                    end = bytes.baseAddress!.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                } else {
                    end = count
                }
                lineNumber += 1
                var last = end
                if last > start, bytes[last - 1] == 0x0D { last -= 1 }
                let rawLength = end - start
                let line = UnsafeBufferPointer(rebasing: bytes[start..<last])
                start = end + 1
                body(rawLength >= maxLineLength ? .overlong(number: lineNumber) : .text(line, number: lineNumber), false)
            }
        }
        return lineNumber
    }
}
