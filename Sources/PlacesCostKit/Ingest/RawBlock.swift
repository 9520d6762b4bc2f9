/// A run of whole lines of one JSON Lines file, read but not yet parsed.
struct RawBlock: Sendable {
    var index: Int
    var fileIndex: Int
    var fileName: String
    /// Whole lines; the last may lack its newline only at the end of the file.
    var bytes: [UInt8]
    /// The block starts after a line longer than the limit, which was skipped unread.
    var followsOverlongLine = false
    /// Where the lines are when the file is mapped (then `bytes` is empty).
    var mapped: (file: MappedFile, range: Range<Int>)?

    /// Calls `body` with the block's lines.
    func withLines<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let mapped {
            return body(UnsafeBufferPointer(start: mapped.file.base + mapped.range.lowerBound, count: mapped.range.count))
        }
        return bytes.withUnsafeBufferPointer(body)
    }
}
