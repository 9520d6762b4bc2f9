import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc)
private typealias SignalHandler = sighandler_t
#else
private typealias SignalHandler = sig_t
#endif

/// Removes what an interrupted run leaves half-made: the staging folder of `--out` (its
/// `searches.csv` can be hundreds of MB, hidden inside DIR), the folders the run made for it, and
/// the hidden file `generate --out FILE` writes before renaming it.
///
/// The rules to keep:
/// - On SIGINT, SIGTERM or SIGHUP the registered cleanups run on a dispatch queue, never in a
///   signal handler (where removing a folder tree is not safe), and the signal's default action
///   then ends the process, so the shell sees it killed by the signal, as before.
/// - A signal the process was started ignoring (`nohup`, a background job) stays ignored.
/// - `withoutInterruption` holds an interruption off until its body is done: the swap of `--out`
///   moves earlier files into the staging folder, so removing it mid-swap would lose them; and
///   what a run makes is registered in the same body that makes it, so no signal falls between.
/// - A run killed with SIGKILL still leaves its staging folder; the next run into DIR removes it
///   (`ReportDirectoryWriter`).
package final class InterruptCleanup: @unchecked Sendable {
    package static let shared = InterruptCleanup()

    /// The signals that end a run with its cleanups: Ctrl-C, `kill`, a closed terminal.
    private static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Recursive: a body held off from interruption registers what it makes.
    private let lock = NSRecursiveLock()
    /// How deep the lock is held, by the thread that holds it.
    private var depth = 0
    private var cleanups: [Int: @Sendable () -> Void] = [:]
    private var nextID = 0
    private var sources: [DispatchSourceSignal] = []

    /// What ends the process once the cleanups ran; it returns only in tests.
    private let end: @Sendable (Int32) -> Void
    /// Called each time the lock is let go of: the moments at which a signal that came meanwhile
    /// is acted on. Tests interrupt there, one moment after another.
    private let interruptible: (@Sendable () -> Void)?

    /// - Parameters:
    ///   - end: ends the process as the signal; tests pass one that returns, to look at what an
    ///     interrupted run leaves behind at the moment it would end.
    ///   - interruptible: called each time interruptions are no longer held off.
    init(end: @escaping @Sendable (Int32) -> Void = InterruptCleanup.endBySignal, interruptible: (@Sendable () -> Void)? = nil) {
        self.end = end
        self.interruptible = interruptible
    }

    /// Catches `signals`; call once, before any command runs.
    package func install() {
        holding {
            for number in InterruptCleanup.signals {
                // `signal` returns the disposition it replaces: one that was ignored stays so.
                guard !InterruptCleanup.isIgnoring(signal(number, SIG_IGN)) else { continue }
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { [self] in interrupted(by: number) }
                source.resume()
                sources.append(source)
            }
        }
    }

    /// Whether a disposition `signal` returned is `SIG_IGN` (C function pointers are compared by
    /// address: Swift gives them no `==`).
    private static func isIgnoring(_ disposition: SignalHandler?) -> Bool {
        guard let disposition else { return false }
        return unsafeBitCast(disposition, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// Registers `cleanup` to run if the process is interrupted; returns the id `unregister` takes.
    func register(_ cleanup: @escaping @Sendable () -> Void) -> Int {
        holding {
            nextID += 1
            cleanups[nextID] = cleanup
            return nextID
        }
    }

    func unregister(_ id: Int) {
        holding { cleanups[id] = nil }
    }

    /// Runs `body` with interruptions held off until it returns.
    func withoutInterruption<Result>(_ body: () throws -> Result) rethrows -> Result {
        try holding(body)
    }

    private func holding<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        depth += 1
        defer {
            depth -= 1
            let released = depth == 0
            lock.unlock()
            if released { interruptible?() }
        }
        return try body()
    }

    /// Runs every cleanup registered, then ends the process as `number` would have.
    func interrupted(by number: Int32) {
        // The lock is kept to the end: no cleanup is added or dropped, and no held-off body starts.
        lock.lock()
        // Reached only when `end` returns, in tests.
        defer { lock.unlock() }
        for cleanup in cleanups.values { cleanup() }
        end(number)
    }

    /// Ends the process by `number`'s default action, as if it had not been caught.
    static func endBySignal(_ number: Int32) {
        // Dispatch keeps the signal blocked to read it: unblocked, with its default action, it
        // ends the process as the signal itself.
        signal(number, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, number)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(number)
        // Only if the signal could not end the process: the exit status a shell gives it.
        _exit(128 + number)
    }
}
