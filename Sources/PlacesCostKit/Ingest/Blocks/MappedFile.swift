#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A JSON Lines file mapped read-only, cut into blocks of whole lines without copying it.
///
/// Mapped, the workers parse the page cache's own pages, where `read(2)` would copy every byte.
/// Keep each block's pages dropped from the process (`madvise`) once parsed, so the mapping adds
/// only the blocks in flight to the peak memory.
///
/// A file cut short while it is read (log rotation with `copytruncate`) reads as zeros past the
/// cut instead of crashing (`MappingGuard`); `wasCut` says so, and the reader reports it.
final class MappedFile: @unchecked Sendable {
    let base: UnsafePointer<UInt8>
    let count: Int
    private let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
    /// Whether the file was cut short while it was read, kept after the mapping is released.
    let cut: MappingGuard.Record

    /// Maps the regular file open on `descriptor`; `nil` for anything else (a pipe, an empty file).
    init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 else { return nil }
        let size = Int(status.st_size)
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else { return nil }
        base = UnsafePointer(mapped.assumingMemoryBound(to: UInt8.self))
        count = size
        cut = MappingGuard.guardMapping(mapped, count: size)
    }

    deinit {
        cut.release()
        munmap(UnsafeMutableRawPointer(mutating: base), count)
    }

    /// Whether the file was cut short while it was read: a page past its new end was read, as
    /// zeros.
    var wasCut: Bool {
        cut.wasCut
    }

    /// Hints that `range` will be read soon.
    func willRead(_ range: Range<Int>) {
        guard let pages = pages(inside: range, rounding: .outward) else { return }
        madvise(UnsafeMutableRawPointer(mutating: base + pages.lowerBound), pages.count, MADV_WILLNEED)
    }

    /// Drops the pages wholly inside `range` from this process (the page cache keeps them).
    func release(_ range: Range<Int>) {
        guard let pages = pages(inside: range, rounding: .inward) else { return }
        madvise(UnsafeMutableRawPointer(mutating: base + pages.lowerBound), pages.count, MADV_DONTNEED)
    }

    /// The line ends in `range`, counted a chunk at a time, each chunk's pages dropped once
    /// counted, so counting adds one chunk to the memory whatever the range.
    func newlineCount(in range: Range<Int>) -> Int {
        let chunk = 1 << 20
        var count = 0
        var from = range.lowerBound
        while from < range.upperBound {
            let end = min(range.upperBound, from + chunk)
            var next = from
            while next < end, let found = memchr(base + next, 0x0A, end - next) {
                count += 1
                next = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found)) + 1
            }
            release(from..<end)
            from = end
        }
        return count
    }

    private enum Rounding { case inward, outward }

    private func pages(inside range: Range<Int>, rounding: Rounding) -> Range<Int>? {
        let mask = pageSize - 1
        let lower = rounding == .inward ? (range.lowerBound + mask) & ~mask : range.lowerBound & ~mask
        let upper = rounding == .inward ? range.upperBound & ~mask : min(count, (range.upperBound + mask) & ~mask)
        return lower < upper ? lower..<upper : nil
    }

    /// Cuts the file into blocks of whole lines, from `position`.
    struct Splitter {
        let file: MappedFile
        let blockSize: Int
        let maxLineLength: Int
        private(set) var position: Int

        init(file: MappedFile, blockSize: Int, maxLineLength: Int) {
            self.file = file
            self.blockSize = blockSize
            self.maxLineLength = maxLineLength
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            self.position = file.count >= 3 && (0..<3).allSatisfy { file.base[$0] == bom[$0] } ? 3 : 0
        }

        /// The next block, like `BlockSplitter.next`: whole lines; each line at or over the limit
        /// is skipped unread and counted for the block after it.
        mutating func next() -> (range: Range<Int>, overlongLinesBefore: Int)? {
            var overlong = 0
            while true {
                guard position < file.count else {
                    return overlong > 0 ? (position..<position, overlong) : nil
                }
                let limit = min(file.count, position + blockSize)
                if limit == file.count {
                    defer { position = file.count }
                    return (position..<file.count, overlong)
                }
                if let newline = lastNewline(in: position..<limit) {
                    defer { position = newline + 1 }
                    return (position..<newline + 1, overlong)
                }
                // One line longer than a block: a block of its own, unless it is over the limit.
                // Only the limit's worth is searched as a line: past it, the line is overlong
                // and its pages are dropped as the search for its end passes them.
                let lineLimit = min(file.count, max(limit, position + maxLineLength))
                if let newline = firstNewline(from: limit, to: lineLimit), newline - position < maxLineLength {
                    defer { position = newline + 1 }
                    return (position..<newline + 1, overlong)
                }
                if lineLimit == file.count, file.count - position < maxLineLength {
                    defer { position = file.count }
                    return (position..<file.count, overlong)
                }
                position = skipLine(from: lineLimit)
                overlong += 1
            }
        }

        private func lastNewline(in range: Range<Int>) -> Int? {
            var index = range.upperBound - 1
            while index >= range.lowerBound {
                if file.base[index] == 0x0A { return index }
                index -= 1
            }
            return nil
        }

        private func firstNewline(from start: Int, to end: Int) -> Int? {
            guard start < end, let found = memchr(file.base + start, 0x0A, end - start) else { return nil }
            return UnsafeRawPointer(file.base).distance(to: UnsafeRawPointer(found))
        }

        /// The start of the line after the one that runs through `start`, read a chunk at a time,
        /// each chunk's pages dropped once searched: an overlong line of any length adds one
        /// chunk to the memory, never the line (its bytes belong to no block, so no worker
        /// reads them).
        private func skipLine(from start: Int) -> Int {
            let chunk = 1 << 20
            var from = start
            while from < file.count {
                let end = min(file.count, from + chunk)
                if let newline = firstNewline(from: from, to: end) {
                    file.release(start..<newline)
                    return newline + 1
                }
                file.release(start..<end)
                from = end
            }
            return file.count
        }
    }
}
