import Foundation
import Testing
@testable import PlacesCostKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built `placescost` run as a real process with standard output on a descriptor the test
/// chooses (`/dev/full`, one end of a pipe), which `Process` cannot give.
///
/// Standard input is `/dev/null`; standard error goes to a file read back after the exit, so a
/// test never blocks on it.
struct SpawnedTool {
    let pid: pid_t
    private let errorFile: String

    /// Starts the tool; `standardOutput` is duplicated into the child, the caller still owns it.
    /// It runs in the test's working directory: pass paths as absolute paths.
    init(_ arguments: [String], standardOutput: Int32) throws {
        try self.init(executable: try #require(EndToEndTests.executable, "placescost was not built beside the tests"), arguments, standardOutput: standardOutput)
    }

    /// Starts another program the same way (`Process` would wait for its grandchildren too).
    init(executable: String, _ arguments: [String], standardOutput: Int32) throws {
        errorFile = NSTemporaryDirectory() + "placescost-stderr-" + UUID().uuidString
        let input = open("/dev/null", O_RDONLY | O_CLOEXEC)
        let error = open(errorFile, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer { close(input); close(error) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input, STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, standardOutput, STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, error, STDERR_FILENO)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // The tests' environment: the pseudonym key's folder is the test run's, not the user's.
        let environment = testEnvironment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { environment.forEach { free($0) } }
        var child = pid_t()
        let status = posix_spawn(&child, executable, &actions, nil, argv, environment)
        try #require(status == 0, "posix_spawn failed: \(String(cString: strerror(status)))")
        pid = child
    }

    /// Waits for the exit; returns the exit status (128 + N for a signal N) and standard error.
    func wait() -> (status: Int32, stderr: String) {
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
        let signal = raw & 0x7F
        let status = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
        let stderr = (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
        unlink(errorFile)
        return (status, stderr)
    }

    /// Runs the tool to its end with standard output on `/dev/full`.
    static func toFullDisk(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try #require(full >= 0, "/dev/full is missing")
        defer { close(full) }
        return try SpawnedTool(arguments, standardOutput: full).wait()
    }

    /// Runs the tool with standard output on a pipe whose reader takes the first `lines` lines
    /// (none: it closes the pipe before the tool writes) and then closes it, as `| head` does.
    static func toClosedPipe(_ arguments: [String], readingLines lines: Int) throws -> (status: Int32, stderr: String, read: String) {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        if lines == 0 { close(ends[0]) }
        let tool = try SpawnedTool(arguments, standardOutput: ends[1])
        close(ends[1])
        var read: [UInt8] = []
        if lines > 0 {
            var buffer = [UInt8](repeating: 0, count: 1)
            while read.filter({ $0 == UInt8(ascii: "\n") }).count < lines, SystemCall.read(ends[0], &buffer, 1) == 1 {
                read.append(buffer[0])
            }
            close(ends[0])
        }
        let (status, stderr) = tool.wait()
        return (status, stderr, String(decoding: read, as: UTF8.self))
    }
}
