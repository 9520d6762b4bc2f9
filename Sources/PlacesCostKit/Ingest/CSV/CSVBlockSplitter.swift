#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Cuts a CSV log into blocks of whole records for the workers (`CSVBlockParser`), after
/// reading its header row here, on the reading thread: every block needs the columns.
///
/// A regular file is mapped and cut without copying (as `MappedFile.Splitter` cuts JSON Lines);
/// standard input and pipes are read `blockSize` bytes at a time (as `BlockSplitter` reads
/// them). Blocks end only at safe cuts (`CSVBoundaryFinder`), never inside a quoted cell.
struct CSVBlockSplitter {
    /// A header row read, and where the rows start.
    struct Header: Equatable {
        /// The known key of each column.
        var columns: [RawRecord.Key?]
        /// The header's line number: the lines before the first row.
        var lines: Int
        /// The offset of the first row, after the header's line end (not counting a byte-order mark).
        var bodyOffset: Int
    }

    enum HeaderSearch: Equatable {
        case found(Header)
        /// The bytes end before the header does: look at more.
        case needMore
        /// Not the plain case: the line reader reads the whole file (see `header(in:atEnd:maxLineLength:)`).
        case lineReader
    }

    /// The header of a CSV log whose first bytes (after any byte-order mark) are `head`.
    ///
    /// Only the plain case is read here: blank lines, then a header row that is one line, splits
    /// into cells and names the `timestamp` and `api` columns. Anything else before the first row
    /// (a header spanning lines, a malformed or overlong line, a missing column) is rare and has
    /// its own rules in `CSVRecordParser` (a malformed line before the header is a rejected row
    /// and the next line is tried as the header; a missing column skips the file with a
    /// warning), so such a file is read by the line reader, whole, on one thread: the same
    /// reports by construction.
    static func header(in head: UnsafeBufferPointer<UInt8>, atEnd: Bool, maxLineLength: Int) -> HeaderSearch {
        var start = 0
        var number = 0
        while true {
            guard start < head.count, let base = head.baseAddress else { return atEnd ? .lineReader : .needMore }
            let lineEnd: Int
            let next: Int
            if let newline = memchr(base + start, 0x0A, head.count - start) {
                lineEnd = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(newline))
                next = lineEnd + 1
            } else {
                guard atEnd || head.count - start >= maxLineLength else { return .needMore }
                lineEnd = head.count
                next = head.count
            }
            number += 1
            guard lineEnd - start < maxLineLength else { return .lineReader }
            var last = lineEnd
            if last > start, head[last - 1] == 0x0D { last -= 1 }
            let line = UnsafeBufferPointer(rebasing: head[start..<last])
            start = next
            if LineReader.isBlank(line) { continue }
            var parser = CSVRecordParser()
            var isHeader = false
            do {
                try parser.feed(line, number: number) { event in
                    if case .header = event { isHeader = true }
                }
            } catch {
                return .lineReader
            }
            guard isHeader, let columns = parser.headerColumns else { return .lineReader }
            return .found(Header(columns: columns, lines: number, bodyOffset: next))
        }
    }

    /// The header of an opened CSV input, read without consuming it (so the line reader can
    /// still read the file when this returns `nil`).
    static func header(of input: inout LogReader.OpenedInput, maxLineLength: Int) throws -> Header? {
        var size = 64 << 10
        while true {
            let head = try input.reader.peek(size)
            let search = head.withUnsafeBufferPointer { header(in: $0, atEnd: head.count < size, maxLineLength: maxLineLength) }
            switch search {
            case .found(let header): return header
            case .lineReader: return nil
            case .needMore:
                // Blank lines or a header longer than a few MB: not the plain case.
                guard size < 4 << 20 else { return nil }
                size *= 4
            }
        }
    }

    /// One block: a range of the mapped file, or bytes read.
    struct Block {
        var bytes: [UInt8]
        var mapped: (file: MappedFile, range: Range<Int>)?
    }

    private enum Source {
        case mapped(MappedFile)
        case stream(descriptor: Int32)
    }

    private let source: Source
    private let finder: CSVBoundaryFinder

    /// Whether the mapped file was cut short while it was read (`MappedFile.wasCut`): the
    /// blocks stop there, the rest being zeros.
    var wasCut: Bool {
        if case .mapped(let file) = source { file.wasCut } else { false }
    }
    private let blockSize: Int
    private let maxLineLength: Int
    /// Mapped: the offset of the next block. Read: bytes read so far (for progress).
    private(set) var position: Int
    /// Read but not yet in a block.
    private var carry: [UInt8] = []
    /// Where the last line in `carry` starts: it may still grow.
    private var lastLineStart = 0
    private var atEnd = false
    /// The bytes of an overlong line are being dropped up to its newline.
    private var skippingOverlong = false
    /// Where the blocks stopped short of a mapped file's end, at a safe cut, and the lines before
    /// it: the rest is for the line reader (`LogReader.readCSVRows`).
    private(set) var unsplitRest: (offset: Int, linesBefore: Int)?

    /// Cuts the rows of `input`, whose header `header` was read by `header(of:maxLineLength:)`.
    init(_ input: inout LogReader.OpenedInput, header: Header, blockSize: Int, maxLineLength: Int) {
        self.finder = CSVBoundaryFinder(columnCount: header.columns.count, maxLineLength: maxLineLength)
        self.blockSize = blockSize
        self.maxLineLength = maxLineLength
        if let file = MappedFile(descriptor: input.descriptor) {
            source = .mapped(file)
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            let skipped = file.count >= 3 && (0..<3).allSatisfy { file.base[$0] == bom[$0] } ? 3 : 0
            position = skipped + header.bodyOffset
        } else {
            source = .stream(descriptor: input.descriptor)
            carry = input.reader.takeBuffered()
            position = carry.count
            carry.removeFirst(min(header.bodyOffset, carry.count))
            keepBounded(from: 0)
        }
    }

    /// The next block of whole records, or `nil` after the last.
    mutating func next() throws -> Block? {
        switch source {
        case .mapped(let file):
            guard position < file.count, unsplitRest == nil else { return nil }
            // The finder sees only a bounded window past the target, so it never walks a line or
            // an open record of any length through memory. A window with no safe cut (an
            // overlong line, or stray quotes whose recoveries chain on) leaves the rest of the
            // file to the line reader, whose memory is bounded by the longest line.
            let viewEnd = min(file.count, position + blockSize + 2 * (finder.maxPendingBytes + maxLineLength))
            let bytes = UnsafeBufferPointer(start: file.base, count: viewEnd)
            guard case .at(let end) = finder.cut(bytes, from: position, target: position + blockSize, atEnd: viewEnd == file.count) else {
                unsplitRest = (position, file.newlineCount(in: 0..<position))
                return nil
            }
            defer { position = end }
            return Block(bytes: [], mapped: (file, position..<end))
        case .stream(let descriptor):
            if carry.count <= blockSize, !atEnd {
                try read(descriptor, upTo: max(carry.count + blockSize, 2 * blockSize))
            }
            while true {
                guard !carry.isEmpty else { return nil }
                let cut = carry.withUnsafeBufferPointer { finder.cut($0, from: 0, target: blockSize, atEnd: atEnd) }
                guard case .at(let end) = cut else {
                    // A record runs past the bytes read: read on, twice as far each time, as it is
                    // searched from its start again (a record is at most about `maxPendingBytes`
                    // and a line, unless the parser's recoveries chain on).
                    try read(descriptor, upTo: 2 * carry.count)
                    continue
                }
                var block = carry
                carry = Array(block[end...])
                block.removeSubrange(end...)
                lastLineStart = max(0, lastLineStart - end)
                return Block(bytes: block, mapped: nil)
            }
        }
    }

    /// Appends input to `carry` until it holds `target` bytes or the input ends (`BlockSplitter.read`).
    private mutating func read(_ descriptor: Int32, upTo target: Int) throws {
        let old = carry.count
        let (bytes, reachedEnd) = try BlockSplitter.read(descriptor, after: carry, upTo: target)
        carry = bytes
        if reachedEnd { atEnd = true }
        position += carry.count - old
        keepBounded(from: old)
    }

    /// Keeps memory bounded on a line of `maxLineLength` bytes or more: such a line is skipped
    /// unread (`RawBlock.forEachLine` reports it), so only its first `maxLineLength` bytes are
    /// kept, enough to be seen as overlong, and the rest is dropped as it is read.
    private mutating func keepBounded(from start: Int) {
        var start = start
        if skippingOverlong {
            guard let newline = carry[start...].firstIndex(of: 0x0A) else {
                carry.removeSubrange(start...)
                return
            }
            carry.removeSubrange(start..<newline)
            skippingOverlong = false
            start += 1
            lastLineStart = start
        }
        // Only the new bytes are searched: the last line started before them otherwise.
        var index = carry.count
        while index > start, carry[index - 1] != 0x0A { index -= 1 }
        if index > start { lastLineStart = index }
        if carry.count - lastLineStart > maxLineLength {
            carry.removeSubrange((lastLineStart + maxLineLength)...)
            skippingOverlong = true
        }
    }
}
