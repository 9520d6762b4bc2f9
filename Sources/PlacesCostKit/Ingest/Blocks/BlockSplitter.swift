#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Cuts a JSON Lines stream that cannot be mapped (standard input, a pipe) into blocks of whole
/// lines, so threads can parse them apart; files are mapped instead (`MappedFile`).
///
/// Reads `blockSize` bytes at a time with `read(2)`, ends each block after its last
/// newline and carries the partial line to the next. A line of `maxLineLength` bytes or more is
/// dropped as it streams past and counted for the next block (`overlongLinesBefore`): every such
/// line, however many come in a row, and the last line of the input too, newline or not.
struct BlockSplitter {
    private let descriptor: Int32
    private let blockSize: Int
    private let maxLineLength: Int
    private var carry: [UInt8]
    private var atEnd = false
    /// Inside a line at or over the limit, dropping its bytes until its newline.
    private var skippingOverlong = false
    /// Lines at or over the limit dropped since the last block returned.
    private var overlongLines = 0
    /// Bytes read so far (for progress).
    private(set) var bytesRead = 0

    init(descriptor: Int32, prefix: [UInt8], blockSize: Int = 4 << 20, maxLineLength: Int = LineReader.maxRecordLength) {
        self.descriptor = descriptor
        self.blockSize = blockSize
        self.maxLineLength = maxLineLength
        self.carry = prefix
        self.bytesRead = prefix.count
    }

    /// The next block's bytes and the lines over the limit dropped just before it, or `nil` at
    /// the end of the input.
    mutating func next() throws -> (bytes: [UInt8], overlongLinesBefore: Int)? {
        while true {
            if atEnd {
                // A line still being dropped ends with the input.
                if skippingOverlong {
                    skippingOverlong = false
                    overlongLines += 1
                }
                guard !carry.isEmpty || overlongLines > 0 else { return nil }
                defer { carry = [] }
                return (carry, takeOverlongLines())
            }
            var block = try read(after: carry, upTo: max(blockSize, carry.count + blockSize / 4))
            carry = []
            if skippingOverlong {
                // Drop the rest of the overlong line, up to and including its newline.
                guard let newline = block.firstIndex(of: 0x0A) else {
                    continue
                }
                skippingOverlong = false
                overlongLines += 1
                block.removeSubrange(...newline)
            }
            if let lastNewline = lastIndex(of: 0x0A, in: block) {
                carry = Array(block[(lastNewline + 1)...])
                block.removeSubrange((lastNewline + 1)...)
                return (block, takeOverlongLines())
            }
            if atEnd {
                carry = block
                continue
            }
            if block.count >= maxLineLength {
                skippingOverlong = true
                continue
            }
            carry = block
        }
    }

    private mutating func takeOverlongLines() -> Int {
        defer { overlongLines = 0 }
        return overlongLines
    }

    /// `prefix` followed by input up to `target` bytes in all (fewer at the end of the input).
    private mutating func read(after prefix: [UInt8], upTo target: Int) throws -> [UInt8] {
        let (block, reachedEnd) = try BlockSplitter.read(descriptor, after: prefix, upTo: target)
        bytesRead += block.count - prefix.count
        if reachedEnd { atEnd = true }
        return block
    }

    /// `prefix` followed by what `descriptor` gives, up to `target` bytes in all, and whether the
    /// input ended first. The array is filled by `read(2)` directly: never zero-fill a block
    /// before reading into it.
    static func read(_ descriptor: Int32, after prefix: [UInt8], upTo target: Int) throws -> (bytes: [UInt8], reachedEnd: Bool) {
        var failure: IngestError?
        var reachedEnd = false
        let block = [UInt8](unsafeUninitializedCapacity: max(target, prefix.count)) { buffer, count in
            prefix.withUnsafeBufferPointer { source in
                if source.count > 0 { buffer.baseAddress!.initialize(from: source.baseAddress!, count: source.count) }
            }
            count = prefix.count
            while count < target {
                let got = SystemCall.read(descriptor, buffer.baseAddress! + count, target - count)
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = .readFailed(path: "", reason: String(cString: strerror(errno)))
                    return
                }
                if got == 0 {
                    reachedEnd = true
                    return
                }
                count += got
            }
        }
        if let failure { throw failure }
        return (block, reachedEnd)
    }

    private func lastIndex(of byte: UInt8, in block: [UInt8]) -> Int? {
        block.withUnsafeBufferPointer { bytes -> Int? in
            var index = bytes.count - 1
            while index >= 0 {
                if bytes[index] == byte { return index }
                index -= 1
            }
            return nil
        }
    }
}
