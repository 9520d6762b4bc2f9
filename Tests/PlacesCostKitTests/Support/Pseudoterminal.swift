import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the built `placescost` with standard output and standard error on a pseudo-terminal of a
/// given size, as a user's terminal would hold them, and returns what the terminal received.
struct Pseudoterminal {
    enum Failure: Error, CustomStringConvertible {
        case unavailable(String)

        var description: String {
            switch self {
            case .unavailable(let step): "cannot open a pseudo-terminal: \(step) failed (errno \(errno))."
            }
        }
    }

    var columns: UInt16 = 100
    var rows: UInt16 = 50

    /// The terminal's bytes as text, its `\r\n` line ends made `\n`.
    func run(_ executable: String, _ arguments: [String], environment: [String: String], directory: String) throws -> String {
        // openpty(3) is in the C library (glibc 2.34 and later, Darwin) but in no header Swift
        // imports by default: looked up by name.
        typealias OpenPTY = @convention(c) (UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<CChar>?, UnsafeRawPointer?, UnsafePointer<winsize>) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "openpty") else { throw Failure.unavailable("looking up openpty") }
        var controller: Int32 = -1, terminal: Int32 = -1
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        guard unsafeBitCast(symbol, to: OpenPTY.self)(&controller, &terminal, nil, nil, &size) == 0 else { throw Failure.unavailable("openpty") }
        defer { close(controller) }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let handle = FileHandle(fileDescriptor: terminal, closeOnDealloc: true)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try handle.close()  // the child holds its own copies: reading ends when it exits

        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(controller, $0.baseAddress, $0.count) }
            if count > 0 {
                received += buffer[..<count]
            } else if count < 0, errno == EINTR {
                continue
            } else {
                break  // EIO once no process holds the terminal open
            }
        }
        process.waitUntilExit()
        return String(decoding: received, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    }

    /// `text` without its SGR escape sequences (`ESC [ ... m`).
    static func plain(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }
}
