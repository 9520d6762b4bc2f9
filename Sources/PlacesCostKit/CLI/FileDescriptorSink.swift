#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes to a file descriptor (standard output or standard error).
///
/// A write is retried after `EINTR`, and after `EAGAIN` once the descriptor is writable again
/// (a parent may hand us a non-blocking pipe); any other error, or a write that makes no
/// progress, is kept in `failure`. `EPIPE` arrives as an error only because the executable
/// ignores `SIGPIPE` (see `main.swift`); `CLI.run()` turns it into a quiet exit 74.
public final class FileDescriptorSink: OutputSink {
    private let descriptor: Int32
    public private(set) var failure: Int32?

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    public static var standardOutput: FileDescriptorSink { FileDescriptorSink(descriptor: STDOUT_FILENO) }
    public static var standardError: FileDescriptorSink { FileDescriptorSink(descriptor: STDERR_FILENO) }

    public func write(_ text: String) {
        var text = text
        text.withUTF8 { write(bytes: UnsafeRawBufferPointer($0)) }
    }

    public func write(bytes: UnsafeRawBufferPointer) {
        guard failure == nil else { return }
        var offset = 0
        while offset < bytes.count {
            let written = SystemCall.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written > 0 {
                offset += written
                continue
            }
            let code = written < 0 ? errno : EIO
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK {
                var wanted = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                if poll(&wanted, 1, -1) >= 0 || errno == EINTR { continue }
            }
            failure = code
            return
        }
    }

    public var isTerminal: Bool { isatty(descriptor) != 0 }

    public var terminalColumns: Int? {
        var size = winsize()
        guard isTerminal, ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
