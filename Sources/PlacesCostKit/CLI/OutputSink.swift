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
