#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells whether a regular file read with `read(2)` was cut short while it was read (log rotation
/// with `copytruncate` on a live log), for the readers that do not map their file: a HAR capture
/// and gzip data. A mapped file's cut is found by `MappingGuard`; both end in
/// `IngestError.cutWhileRead` (exit 74), never a report of part of the log.
///
/// The rule: a file was cut while it was read when it is now shorter than when reading began and
/// the reader stopped before that size, so `read(2)` gave the end of the file early. It tells apart:
/// - a file cut before reading began (a capture cut off, gzip data cut short): read as it is,
///   with the reader's own warning, since its size at the start is where its end is found;
/// - a file cut once it was read whole: nothing the reader needed was lost;
/// - a file that grows while it is read (a live log), and a descriptor that is not a regular file
///   (a pipe, a copy's replay, which no rotation cuts): never cut.
struct CutDetector {
    private let descriptor: Int32
    /// The file's size when reading began; `nil` when the descriptor is not a regular file.
    private let sizeAtStart: Int64?

    /// Notes the size of the file open on `descriptor`; call before its reader reads past what a
    /// format sniff took.
    init(descriptor: Int32) {
        self.descriptor = descriptor
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
            sizeAtStart = Int64(status.st_size)
        } else {
            sizeAtStart = nil
        }
    }

    /// Whether the file was cut while it was read; ask once its reader stopped, before the
    /// descriptor is closed.
    var wasCut: Bool {
        guard let sizeAtStart else { return false }
        var status = stat()
        let offset = lseek(descriptor, 0, SEEK_CUR)
        guard fstat(descriptor, &status) == 0, offset >= 0 else { return false }
        return Int64(status.st_size) < sizeAtStart && Int64(offset) < sizeAtStart
    }
}
