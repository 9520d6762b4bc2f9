#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command writes text: a file descriptor for the real tool, a string for tests.
///
/// Writes do not throw, so that standard error (where a failure has nowhere to be reported)
/// and standard output share one interface. A sink instead keeps the error of its first failed
/// write in `failure` and drops every later write: a command that writes in a loop checks
/// `failure` to stop at once, and `CLI.run()` checks standard output's after every command,
/// so no failed write to standard output ends in exit 0.
public protocol OutputSink: AnyObject {
    func write(_ text: String)
    /// Writes UTF-8 bytes; sinks backed by a descriptor write them without making a `String`.
    func write(bytes: UnsafeRawBufferPointer)
    /// Whether this is an interactive terminal (progress output is shown only then).
    var isTerminal: Bool { get }
    /// How many columns the terminal has, when this is a terminal that says so.
    var terminalColumns: Int? { get }
    /// The `errno` of the first write that failed (`ENOSPC`, `EPIPE`, `EIO`, ...), or nil while
    /// every write has succeeded. Once set it stays set, and later writes do nothing.
    var failure: Int32? { get }
}

extension OutputSink {
    func write(bytes: UnsafeRawBufferPointer) {
        write(String(decoding: bytes, as: UTF8.self))
    }

    /// Sinks that cannot fail (memory) never have a failure.
    var failure: Int32? { nil }

    var terminalColumns: Int? { nil }
}

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

/// Collects text in memory, for tests that run commands in-process.
final class StringSink: OutputSink {
    private(set) var text = ""
    let isTerminal = false

    init() {}

    func write(_ text: String) {
        self.text += text
    }
}
