import Foundation

/// Shows how far a long run has got, on one line of standard error: bytes read, MB/s and the
/// time left; then, with `--out`, the rows of `searches.csv` written.
///
/// Only for a terminal (a log file or a pipe gets no progress lines) and only once a run has
/// taken more than a second, so short runs print nothing. Updates are throttled to four a second;
/// `finish` clears the line before the report or any warning is printed. While reading, the time
/// left counts the writing still to come (`writingShare`).
final class ProgressReporter: @unchecked Sendable {
    private let sink: OutputSink
    private let totalBytes: Int?
    /// Nanoseconds of a monotonic clock (the tests give their own).
    private let clock: @Sendable () -> UInt64
    private let started: UInt64
    private let lock = NSLock()
    private var lastShown: UInt64 = 0
    private var shown = false
    /// The time writing the report takes after the read, as a share of the read's: 0 when only
    /// standard output is written; with `--out`, `outWritingShare`.
    private let writingShare: Double
    /// When the writing began and the rows to write; `first`: the time, rows and bytes of the
    /// first block written, from which the rate is measured (describing the shapes comes before
    /// it, and would make the first estimate many times too long).
    private var writing: (started: UInt64, rows: Int, first: (time: UInt64, rows: Int, bytes: Int)?)?

    /// What `--out` does after the read (checking and finishing `searches.csv`, most of it
    /// written during the walk, and the other files) took about a tenth of the read's time on the
    /// 1 M-search log (`perf` timestamps: 0.22-0.24 s after a walk of about 3 s); a fifth when the
    /// whole file was written after the read.
    static let outWritingShare = 0.1

    init(sink: OutputSink, totalBytes: Int?, writingShare: Double = 0, clock: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }) {
        self.clock = clock
        self.started = clock()
        self.sink = sink
        self.totalBytes = totalBytes
        self.writingShare = writingShare
    }

    /// The read is done; `rows` rows of `searches.csv` are to be written.
    func beginWriting(rows: Int) {
        lock.lock()
        writing = (clock(), rows, nil)
        lock.unlock()
    }

    /// `rows` rows, `bytes` bytes of `searches.csv` written so far (any thread).
    func wrote(rows: Int, bytes: Int) {
        let now = clock()
        lock.lock()
        defer { lock.unlock() }
        guard let begun = writing else { return }
        guard let first = begun.first else {
            writing?.first = (now, rows, bytes)
            return
        }
        guard now - started > 1_000_000_000, now - lastShown > 250_000_000, rows > first.rows else { return }
        lastShown = now
        shown = true
        // The rate of the blocks since the first, applied to every row and byte written.
        let seconds = Double(now - first.time) / 1e9
        let rowsSince = Double(rows - first.rows)
        sink.write("\r\u{1B}[K" + ProgressReporter.writingLine(
            rows: rows, totalRows: begun.rows, bytes: bytes, elapsedSeconds: seconds * Double(rows) / rowsSince))
    }

    /// The input files' total size, when every one named is a regular file.
    ///
    /// Only looks (`stat`), never opens: opening a FIFO would wait for its writer. Entries of a
    /// directory that are not regular files are skipped, as the reader skips them, and so are
    /// those named with a compression that is not read (`access.log.2.xz`), listed only to be
    /// warned about.
    static func totalBytes(of paths: [String]) -> Int? {
        guard let files = try? LogReader.expand(paths) else { return nil }
        var total = 0
        for (path, listedInDirectory) in files {
            if listedInDirectory, let name = path.split(separator: "/").last, RotatedLogName(String(name))?.hasUnreadCompressionSuffix == true { continue }
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
        let now = clock()
        let elapsed = now - started
        lock.lock()
        defer { lock.unlock() }
        guard elapsed > 1_000_000_000, now - lastShown > 250_000_000 else { return }
        lastShown = now
        shown = true
        sink.write("\r\u{1B}[K" + ProgressReporter.line(
            bytesRead: bytesRead, totalBytes: totalBytes, elapsedSeconds: Double(elapsed) / 1e9, writingShare: writingShare))
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if shown { sink.write("\r\u{1B}[K") }
        shown = false
    }

    /// `read 512 MB of 1.4 GB (37%), 640 MB/s, 1.3 s left`; the time left counts the writing to
    /// come, `writingShare` of the whole read's time.
    static func line(bytesRead: Int, totalBytes: Int?, elapsedSeconds: Double, writingShare: Double = 0) -> String {
        let rate = Double(bytesRead) / max(elapsedSeconds, 1e-9)
        var text = "placescost: read \(size(bytesRead))"
        if let totalBytes, totalBytes > 0 {
            let share = min(100, Int(Double(bytesRead) / Double(totalBytes) * 100))
            text += " of \(size(totalBytes)) (\(share)%)"
        }
        text += String(format: ", %.0f MB/s", rate / 1e6)
        if let totalBytes, rate > 0, totalBytes >= bytesRead {
            let left = Double(totalBytes - bytesRead) / rate + writingShare * Double(totalBytes) / rate
            if left > 0 { text += String(format: ", %.1f s left", left) }
        }
        return text
    }

    /// `wrote 312,000 of 537,335 rows of searches.csv (58%), 41 MB at 180 MB/s, 0.1 s left`.
    static func writingLine(rows: Int, totalRows: Int, bytes: Int, elapsedSeconds: Double) -> String {
        let seconds = max(elapsedSeconds, 1e-9)
        var text = "placescost: wrote \(Money.count(rows)) of \(Money.count(totalRows)) rows of searches.csv"
        if totalRows > 0 { text += " (\(min(100, rows * 100 / totalRows))%)" }
        text += ", \(size(bytes))" + String(format: " at %.0f MB/s", Double(bytes) / seconds / 1e6)
        if rows > 0, totalRows > rows {
            text += String(format: ", %.1f s left", Double(totalRows - rows) / (Double(rows) / seconds))
        }
        return text
    }

    static func size(_ bytes: Int) -> String {
        bytes >= 1_000_000_000 ? String(format: "%.2f GB", Double(bytes) / 1e9) : String(format: "%.0f MB", Double(bytes) / 1e6)
    }
}
