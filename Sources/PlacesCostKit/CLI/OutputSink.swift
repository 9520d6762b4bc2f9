#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command writes text: a file descriptor for the real tool, a string for tests.
public protocol OutputSink: AnyObject {
    func write(_ text: String)
    /// Writes UTF-8 bytes; sinks backed by a descriptor write them without making a `String`.
    func write(bytes: UnsafeRawBufferPointer)
    /// Whether this is an interactive terminal (progress output is shown only then).
    var isTerminal: Bool { get }
}

extension OutputSink {
    public func write(bytes: UnsafeRawBufferPointer) {
        write(String(decoding: bytes, as: UTF8.self))
    }
}

/// Writes to a file descriptor (standard output or standard error).
public final class FileDescriptorSink: OutputSink {
    private let descriptor: Int32

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    public static var standardOutput: FileDescriptorSink { FileDescriptorSink(descriptor: STDOUT_FILENO) }
    public static var standardError: FileDescriptorSink { FileDescriptorSink(descriptor: STDERR_FILENO) }

    public func write(_ text: String) {
        var text = text
        text.withUTF8 { write(bytes: UnsafeRawBufferPointer($0)) }
    }

    public func write(bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written <= 0 {
                if written < 0, errno == EINTR { continue }
                return
            }
            offset += written
        }
    }

    public var isTerminal: Bool { isatty(descriptor) != 0 }
}

/// Collects text in memory, for tests that run commands in-process.
public final class StringSink: OutputSink {
    public private(set) var text = ""
    public let isTerminal = false

    public init() {}

    public func write(_ text: String) {
        self.text += text
    }
}

/// `write(2)`, named apart from `OutputSink.write(_:)` so the call inside it is unambiguous.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
