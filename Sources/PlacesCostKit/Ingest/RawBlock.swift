/// A run of whole lines of one JSON Lines file, read but not yet parsed.
struct RawBlock: Sendable {
    var index: Int
    var fileIndex: Int
    var fileName: String
    /// Whole lines; the last may lack its newline only at the end of the file.
    var bytes: [UInt8]
    /// The block starts after a line longer than the limit, which was skipped unread.
    var followsOverlongLine = false
}
