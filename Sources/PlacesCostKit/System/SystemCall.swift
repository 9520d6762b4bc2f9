#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX calls made on file descriptors, named so that they resolve on Glibc (Linux) and
/// Darwin (macOS) alike.
///
/// Call these rather than the C functions qualified by their module (a call that names Glibc
/// does not build on macOS), or unqualified inside a type that declares a same-named method
/// (`close()`), where the method is found instead. The free functions below are outside any
/// type, so their unqualified calls reach the C library.
enum SystemCall {
    static func open(_ path: String, _ flags: Int32) -> Int32 {
        cOpen(path, flags)
    }

    static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        cRead(descriptor, buffer, count)
    }

    static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        cWrite(descriptor, buffer, count)
    }

    static func close(_ descriptor: Int32) -> Int32 {
        cClose(descriptor)
    }

    /// Writes every byte at `offset` (`pwrite` until done); the `errno` of a failure, or `nil`.
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int32? {
        var done = 0
        while done < bytes.count {
            let written = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return written < 0 ? errno : ENOSPC }
            done += written
        }
        return nil
    }

    /// Starts writing `count` bytes from `offset` of a file to disk without waiting, so that a
    /// later `fsync` has less left to wait for: Linux's `sync_file_range(..., SYNC_FILE_RANGE_WRITE)`,
    /// looked up by name (Swift's Glibc module does not declare it); nothing elsewhere.
    static func startWriteback(_ descriptor: Int32, offset: Int, count: Int) {
        #if os(Linux)
        guard let syncFileRange = SystemCall.syncFileRange else { return }
        _ = syncFileRange(descriptor, Int64(offset), Int64(count), 2)  // SYNC_FILE_RANGE_WRITE
        #endif
    }

    #if os(Linux)
    private typealias SyncFileRange = @convention(c) (Int32, Int64, Int64, UInt32) -> Int32
    private static let syncFileRange: SyncFileRange? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sync_file_range")
        .map { unsafeBitCast($0, to: SyncFileRange.self) }
    #endif
}

private func cOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
private func cRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(descriptor, buffer, count) }
private func cWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(descriptor, buffer, count) }
private func cClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
