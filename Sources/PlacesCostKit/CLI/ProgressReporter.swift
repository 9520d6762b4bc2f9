import Foundation

/// Shows how far a long read has got, on one line of standard error: bytes read, MB/s and the
/// time left.
///
/// Only for a terminal (a log file or a pipe gets no progress lines) and only once a read has
/// taken more than a second, so short runs print nothing. Updates are throttled to four a second;
/// `finish` clears the line before the report or any warning is printed.
final class ProgressReporter: @unchecked Sendable {
    private let sink: OutputSink
    private let totalBytes: Int?
    private let started = DispatchTime.now().uptimeNanoseconds
    private let lock = NSLock()
    private var lastShown: UInt64 = 0
    private var shown = false

    init(sink: OutputSink, totalBytes: Int?) {
        self.sink = sink
        self.totalBytes = totalBytes
    }

    /// The input files' total size, when every one named is a regular file.
    ///
    /// Only looks (`stat`), never opens: opening a FIFO would wait for its writer. Entries of a
    /// directory that are not regular files are skipped, as the reader skips them.
    static func totalBytes(of paths: [String]) -> Int? {
        guard let files = try? LogReader.expand(paths) else { return nil }
        var total = 0
        for (path, listedInDirectory) in files {
            var status = stat()
            guard path != "-", stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
                if listedInDirectory { continue }
                return nil
            }
            total += Int(status.st_size)
        }
        return total
    }

    func update(_ bytesRead: Int) {
        let now = DispatchTime.now().uptimeNanoseconds
        let elapsed = now - started
        lock.lock()
        defer { lock.unlock() }
        guard elapsed > 1_000_000_000, now - lastShown > 250_000_000 else { return }
        lastShown = now
        shown = true
        sink.write("\r\u{1B}[K" + ProgressReporter.line(bytesRead: bytesRead, totalBytes: totalBytes, elapsedSeconds: Double(elapsed) / 1e9))
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if shown { sink.write("\r\u{1B}[K") }
        shown = false
    }

    /// `read 512 MB of 1.4 GB (37%), 640 MB/s, 1.3 s left`.
    static func line(bytesRead: Int, totalBytes: Int?, elapsedSeconds: Double) -> String {
        let rate = Double(bytesRead) / max(elapsedSeconds, 1e-9)
        var text = "placescost: read \(size(bytesRead))"
        if let totalBytes, totalBytes > 0 {
            let share = min(100, Int(Double(bytesRead) / Double(totalBytes) * 100))
            text += " of \(size(totalBytes)) (\(share)%)"
        }
        text += String(format: ", %.0f MB/s", rate / 1e6)
        if let totalBytes, rate > 0, totalBytes > bytesRead {
            text += String(format: ", %.1f s left", Double(totalBytes - bytesRead) / rate)
        }
        return text
    }

    static func size(_ bytes: Int) -> String {
        bytes >= 1_000_000_000 ? String(format: "%.2f GB", Double(bytes) / 1e9) : String(format: "%.0f MB", Double(bytes) / 1e6)
    }
}
