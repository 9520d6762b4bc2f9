#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A JSON Lines file mapped read-only, cut into blocks of whole lines without copying it.
///
/// Reading a 1.6 GB log with `read(2)` copied every byte from the page cache, a tenth of the
/// reading thread's time; mapped, the workers parse the page cache's own pages. Each block's
/// pages are dropped from the process (`madvise`) once parsed, so the mapping adds only the
/// blocks in flight to the peak memory, as the copies did.
final class MappedFile: @unchecked Sendable {
    let base: UnsafePointer<UInt8>
    let count: Int
    private let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Maps the regular file open on `descriptor`; `nil` for anything else (a pipe, an empty file).
    init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 else { return nil }
        let size = Int(status.st_size)
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else { return nil }
        base = UnsafePointer(mapped.assumingMemoryBound(to: UInt8.self))
        count = size
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: base), count)
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

        /// The next block, like `BlockSplitter.next`: whole lines; a line at or over the limit is
        /// skipped unread and reported by the block after it.
        mutating func next() -> (range: Range<Int>, followsOverlongLine: Bool)? {
            var overlong = false
            while true {
                guard position < file.count else {
                    return overlong ? (position..<position, true) : nil
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
                let newline = firstNewline(from: limit)
                let end = newline ?? file.count
                if end - position < maxLineLength {
                    defer { position = newline.map { $0 + 1 } ?? file.count }
                    return (position..<(newline.map { $0 + 1 } ?? file.count), overlong)
                }
                position = newline.map { $0 + 1 } ?? file.count
                overlong = true
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

        private func firstNewline(from start: Int) -> Int? {
            guard start < file.count, let found = memchr(file.base + start, 0x0A, file.count - start) else { return nil }
            return UnsafeRawPointer(file.base).distance(to: UnsafeRawPointer(found))
        }
    }
}
