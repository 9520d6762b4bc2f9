#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Copies of the inputs that cannot be read twice (standard input, pipes, FIFOs, `/dev/fd/N`,
/// character devices), kept in temporary files so that a second read gives the same bytes.
///
/// `analyze` reads its inputs a second time when their calls come more out of time order than
/// the reorder window; by then a pipe has been drained, and opening a FIFO again waits for a
/// writer that never comes. So the first open of such an input copies it whole to a file in the
/// temporary directory, unlinked at once (nothing is left behind, whatever way the process
/// ends), and every read of that input, the first included, reads the copy.
///
/// When the copy cannot be made (the directory is missing, the disk fills up), the input is read
/// once as it comes, and the run stops only if it needs the second read.
///
/// Invariant: an input is keyed by its position in `LogReader.expand`'s list, not by its path
/// (`-` may be given twice, each a different stream); once a position has a copy, or a failed
/// one, no read in the run opens the original again.
package final class InputSpool: @unchecked Sendable {
    /// An input that was copied, for the note that says so.
    package struct Copy: Sendable, Equatable {
        /// The input as diagnostics name it (`<stdin>` for standard input).
        package var name: String
        /// What the input is: `a pipe`, `a character device`, ...
        package var kind: String
        package var bytes: Int
    }

    /// Where the copies are made.
    let directory: String
    private var copies: [Int: (copy: Copy, descriptor: Int32)] = [:]

    init(directory: String) {
        self.directory = directory
    }

    deinit {
        for (_, entry) in copies { _ = close(entry.descriptor) }
    }

    /// Where standard input started, by input index, when it can seek (a regular file given
    /// with `<`): it is read again from there rather than copied.
    private var standardInputStarts: [Int: off_t] = [:]

    /// Puts standard input, as input `index`, where its first read began; the first call notes
    /// that place. A pipe cannot seek: it is copied instead (`copy`).
    func rewindStandardInput(_ index: Int) {
        if let start = standardInputStarts[index] {
            _ = lseek(STDIN_FILENO, start, SEEK_SET)
        } else {
            let here = lseek(STDIN_FILENO, 0, SEEK_CUR)
            if here >= 0 { standardInputStarts[index] = here }
        }
    }

    /// The inputs copied, in input order.
    package var copied: [Copy] {
        copies.keys.sorted().map { copies[$0]!.copy }
    }

    /// A new descriptor on the copy of input `index`, positioned at its start; `nil` when the
    /// input was not copied.
    ///
    /// - Throws: `IngestError.readTwiceWithoutCopy` when the input's copy failed: it cannot be
    ///   read again (`Analyzer` says so before it tries, with what to do).
    func reopen(_ index: Int) throws -> Int32? {
        if let failure = failures[index] { throw IngestError.readTwiceWithoutCopy(failure, disorder: nil) }
        guard let entry = copies[index] else { return nil }
        let descriptor = dup(entry.descriptor)
        guard descriptor >= 0 else { throw IngestError.readFailed(path: "", reason: String(cString: strerror(errno))) }
        _ = lseek(descriptor, 0, SEEK_SET)
        return descriptor
    }

    /// What `descriptor` is when it is not a regular file (it then needs a copy to be read twice).
    static func kindNeedingCopy(_ descriptor: Int32) -> String? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return "not a regular file" }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFIFO: return "a pipe"
        case S_IFCHR: return "a character device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }

    /// An input whose copy could not be made whole, for the message that says so.
    package struct Failure: Sendable, Equatable {
        /// The input as diagnostics name it (`<stdin>` for standard input).
        package var name: String
        /// What the input is: `a pipe`, `a character device`, ...
        package var kind: String
        /// Where the copy was to be made.
        package var directory: String
        /// Why it failed (`No space left on device`).
        package var reason: String
        /// How many bytes the copy held when it failed.
        package var bytes: Int
    }

    private var failures: [Int: Failure] = [:]

    /// The inputs whose copy failed, in input order: each was read once, as it came.
    package var failed: [Failure] {
        failures.keys.sorted().map { failures[$0]! }
    }

    /// What `copy` gives to read in place of the input.
    struct Spooled {
        /// The descriptor to read: the copy's, or the replay's pipe.
        var descriptor: Int32
        /// Set when the copy failed: the input is then read once, through this, which owns the
        /// input's descriptor from then on.
        var replay: SpoolReplay?
    }

    /// Copies `prefix` (bytes already read from the input) and the rest of `descriptor` to a new
    /// temporary file, and returns a descriptor on the copy, positioned at its start.
    ///
    /// When the copy cannot be made or written (the directory is missing, the disk is full), the
    /// input is read once as it comes instead (`SpoolReplay`), the failure is kept (`failed`),
    /// and `reopen` throws for it: only a second read needs the copy. Memory stays at one
    /// buffer whatever the input's size.
    ///
    /// - Parameter ownsDescriptor: whether the input's descriptor is the caller's to close; a
    ///   replay takes it over.
    /// - Throws: `IngestError.readFailed` when reading the input fails, or no pipe can be made
    ///   to replay it.
    func copy(_ index: Int, name: String, kind: String, descriptor: Int32, ownsDescriptor: Bool, prefix: [UInt8]) throws -> Spooled {
        var template = Array((directory.hasSuffix("/") ? directory : directory + "/").utf8CString.dropLast()) + Array("placescost-spool-XXXXXX".utf8CString)
        let spooled = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        /// Reads the input once, from what the copy holds: `pending` is what it lacks of what was read.
        func replay(failure reason: String, copied: Int, pending: [UInt8]) throws -> Spooled {
            failures[index] = Failure(name: name, kind: kind, directory: directory, reason: reason, bytes: copied)
            let replay = try SpoolReplay(
                copy: spooled >= 0 ? spooled : nil, copied: copied, pending: pending, source: descriptor, ownsSource: ownsDescriptor
            )
            return Spooled(descriptor: replay.output, replay: replay)
        }
        guard spooled >= 0 else { return try replay(failure: String(cString: strerror(errno)), copied: 0, pending: prefix) }
        // Unlinked at once: the copy lives as long as the descriptor, and no exit path leaves it.
        _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
        var written = 0
        var nextRoomCheck = 0
        var buffer = prefix
        var count = prefix.count
        while true {
            // The copy never takes the disk's last room: an endless stream (`/dev/zero`, `yes`)
            // would fill it for every other process.
            if written >= nextRoomCheck {
                nextRoomCheck = written + InputSpool.roomCheckBytes
                if InputSpool.isShortOfRoom(spooled) {
                    return try replay(failure: InputSpool.roomReason, copied: written, pending: Array(buffer[..<count]))
                }
            }
            let (done, failure) = buffer.withUnsafeBytes { InputSpool.write(UnsafeRawBufferPointer(rebasing: $0[..<count]), to: spooled) }
            written += done
            if let failure { return try replay(failure: failure, copied: written, pending: Array(buffer[done..<count])) }
            if buffer.count < 1 << 20 { buffer = [UInt8](repeating: 0, count: 1 << 20) }
            count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR {
                    count = 0
                    continue
                }
                let reason = String(cString: strerror(errno))
                _ = close(spooled)
                throw IngestError.readFailed(path: "", reason: reason)
            }
            if count == 0 { break }
        }
        copies[index] = (Copy(name: name, kind: kind, bytes: written), spooled)
        guard let reopened = try reopen(index) else { fatalError("the copy was just registered") }
        if ownsDescriptor { _ = close(descriptor) }
        return Spooled(descriptor: reopened, replay: nil)
    }

    /// How often the copy checks the room left on its disk.
    static let roomCheckBytes = 16 << 20

    /// Whether the copy's file system has less free than its reserve: a tenth of its size, at
    /// most 1 GiB (`false` when it cannot be told).
    static func isShortOfRoom(_ descriptor: Int32) -> Bool {
        var status = statvfs()
        guard fstatvfs(descriptor, &status) == 0 else { return false }
        let unit = Int(status.f_frsize)
        return isShortOfRoom(free: Int(status.f_bavail) * unit, size: Int(status.f_blocks) * unit)
    }

    /// Whether `free` bytes of a file system of `size` are under the copy's reserve.
    static func isShortOfRoom(free: Int, size: Int) -> Bool {
        free < min(1 << 30, size / 10)
    }

    /// The failure `isShortOfRoom` gives.
    static let roomReason = "stopped to leave the disk room: less than a tenth of it, or 1 GiB, was free"

    /// Writes every byte it can; returns how many were written and, when not all, why.
    private static func write(_ raw: UnsafeRawBufferPointer, to descriptor: Int32) -> (written: Int, failure: String?) {
        var offset = 0
        while offset < raw.count {
            let count = SystemCall.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                return (offset, String(cString: strerror(errno)))
            }
            offset += count
        }
        return (offset, nil)
    }
}
