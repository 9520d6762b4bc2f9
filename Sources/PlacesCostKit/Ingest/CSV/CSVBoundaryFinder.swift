#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds where the rows of a CSV log may be cut into blocks that workers parse apart: *safe
/// cuts*, line starts where `CSVRecordParser`, fed every line before, holds no open record and
/// has reported everything about those lines.
///
/// A quoted cell may hold line breaks, so not every newline ends a record; and counting quotes
/// is not enough either, because the parser's reading of a stray quote is not parity: in
/// `a"b,"c` the first quote is text and the second opens a cell, and when a record stays open
/// until text after a closing quote, a cell count other than the header's, more than
/// `maxPendingBytes` or the end of the input, the parser reports the record's first line and
/// reads the lines after it again as records of their own. So this follows the parser's rules,
/// on bytes and without building cells. A line without a quote is a record of its own (or a
/// blank or overlong line, skipped), so the search jumps from quote to quote (`memchr`); a line
/// with one is split as `CSVRecordParser.splitCells` splits it, quote by quote, across lines
/// while a quoted cell stays open. Where the parser gives up on a record, the search goes back to
/// the line after its first, as the parser does, but takes no cut before the furthest line read
/// (the *horizon*): the parser had read up to there before it reported the record.
///
/// Given the same bytes, a worker that starts `CSVRecordParser` afresh at a safe cut then reads
/// exactly what the line reader reads from there, reports in the same order, and ends the block
/// with nothing open.
struct CSVBoundaryFinder {
    /// Cells in the header row.
    let columnCount: Int
    /// A line this long or longer is skipped unread (as `LineReader` and `RawBlock` skip it).
    let maxLineLength: Int
    let maxPendingBytes: Int

    init(columnCount: Int, maxLineLength: Int, maxPendingBytes: Int = CSVRecordParser.defaultMaxPendingBytes) {
        self.columnCount = columnCount
        self.maxLineLength = maxLineLength
        self.maxPendingBytes = maxPendingBytes
    }

    enum Cut: Equatable {
        /// The block ends before this offset: a safe cut, or the end of the input.
        case at(Int)
        /// The bytes end before a cut is found: read more.
        case needMore
    }

    /// Bytes searched for a quote past the target (or the position, when beyond it) at a time,
    /// so a file with no quote is not searched to its end for every block.
    private static let window = 4 << 10

    /// Where a block that begins at the safe cut `start` ends: the last safe cut in
    /// `start + 1 ... target`, else the first one after `target`; at the end of the input
    /// (`atEnd`), possibly its end.
    func cut(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, target: Int, atEnd: Bool) -> Cut {
        let count = bytes.count
        guard start < count, let base = bytes.baseAddress else { return atEnd ? .at(count) : .needMore }
        var position = start
        var horizon = start
        var best: Int?
        // The first quote at or after `position`, or `searched` when there is none before it.
        var quote = -1
        var searched = -1
        while true {
            if position > start, position >= horizon {
                if position > target { return .at(best ?? position) }
                best = position
            }
            guard position < count else { return atEnd ? .at(count) : best.map(Cut.at) ?? .needMore }
            if quote < position {
                // Search whole lines: to the first newline past the window.
                searched = count
                let window = max(position, target) + CSVBoundaryFinder.window
                if window < count, let newline = find(0x0A, base, from: window, to: count) {
                    searched = newline + 1
                }
                quote = find(0x22, base, from: position, to: searched) ?? searched
            }
            // Lines that end before the quote hold none: each is a record of its own.
            let quoteLine: Int
            if quote < searched {
                quoteLine = lineStart(of: quote, base, notBefore: position)
            } else if searched < count || atEnd {
                quoteLine = searched
            } else {
                // The last line may not be all here yet.
                quoteLine = lastNewline(base, in: position..<count).map { $0 + 1 } ?? position
                if quoteLine == position { return best.map(Cut.at) ?? .needMore }
            }
            if quoteLine > position {
                var next = quoteLine
                if quoteLine > target {
                    // Cut at the last line start up to the target, or the first after it.
                    if target > position, let newline = lastNewline(base, in: position..<target) {
                        next = newline + 1
                    } else if let newline = find(0x0A, base, from: position, to: quoteLine) {
                        next = newline + 1
                    }
                }
                position = next
                continue
            }
            guard let (next, read) = record(base, count: count, from: position, atEnd: atEnd) else {
                return best.map(Cut.at) ?? .needMore
            }
            horizon = max(horizon, read)
            position = next
        }
    }

    /// The state of `CSVRecordParser.splitCells` between bytes.
    private enum CellState {
        case start, plain, quoted, closed
    }

    /// Follows the record that begins on the line at `start` (which holds a quote) as
    /// `CSVRecordParser.feed` reads it, from an empty parser.
    ///
    /// - Returns: the line start where the parser next holds nothing (after the record, or the
    ///   line after its first when the parser gives up on it and reads on from there) and the end
    ///   of the furthest line read; `nil` when the bytes end first and more may come.
    private func record(_ base: UnsafePointer<UInt8>, count: Int, from start: Int, atEnd: Bool) -> (next: Int, read: Int)? {
        var state = CellState.start
        var cells = 1
        var pendingBytes = 0
        var lineStart = start
        var afterFirst = -1
        while true {
            guard lineStart < count else {
                // The input ends inside an open record: `finish` gives up on it.
                return atEnd ? (afterFirst, count) : nil
            }
            let lineEnd: Int
            let next: Int
            if let newline = find(0x0A, base, from: lineStart, to: count) {
                lineEnd = newline
                next = newline + 1
            } else {
                guard atEnd else { return nil }
                lineEnd = count
                next = count
            }
            let first = afterFirst < 0
            if first { afterFirst = next }
            if lineEnd - lineStart >= maxLineLength {
                // Skipped unread by the line reader: never part of a record.
                if first { return (next, next) }
                lineStart = next
                continue
            }
            var last = lineEnd
            if last > lineStart, base[last - 1] == 0x0D { last -= 1 }
            pendingBytes += first ? last - lineStart : last - lineStart + 1
            guard split(base, from: lineStart, to: last, state: &state, cells: &cells) else {
                // Text after a closing quote: malformed at the record's first line.
                return (afterFirst, next)
            }
            if state != .quoted {
                // The record ends on this line. One that spans lines must have the header's cells.
                return first || cells == columnCount ? (next, next) : (afterFirst, next)
            }
            if !first, pendingBytes > maxPendingBytes { return (afterFirst, next) }
            lineStart = next
        }
    }

    /// Runs `splitCells`'s rules over one line's bytes from `state`, counting cells.
    ///
    /// - Returns: `false` at text after a closing quote.
    private func split(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int, state: inout CellState, cells: inout Int) -> Bool {
        var index = start
        while index < end {
            switch state {
            case .start:
                if base[index] == 0x22 {
                    state = .quoted
                    index += 1
                } else {
                    state = .plain
                }
            case .plain:
                guard let comma = find(0x2C, base, from: index, to: end) else { return true }
                cells += 1
                state = .start
                index = comma + 1
            case .quoted:
                guard let quote = find(0x22, base, from: index, to: end) else { return true }
                if quote + 1 < end, base[quote + 1] == 0x22 {
                    index = quote + 2  // an escaped quote
                } else {
                    state = .closed
                    index = quote + 1
                }
            case .closed:
                guard base[index] == 0x2C else { return false }
                cells += 1
                state = .start
                index += 1
            }
        }
        return true
    }

    private func find(_ byte: UInt8, _ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int? {
        guard start < end, let found = memchr(base + start, Int32(byte), end - start) else { return nil }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
    }

    private func lastNewline(_ base: UnsafePointer<UInt8>, in range: Range<Int>) -> Int? {
        var index = range.upperBound - 1
        while index >= range.lowerBound {
            if base[index] == 0x0A { return index }
            index -= 1
        }
        return nil
    }

    private func lineStart(of index: Int, _ base: UnsafePointer<UInt8>, notBefore lowest: Int) -> Int {
        lastNewline(base, in: lowest..<index).map { $0 + 1 } ?? lowest
    }
}
