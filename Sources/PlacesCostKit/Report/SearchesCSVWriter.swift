import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `searches.csv` (`docs/report-schema.md`) from `SearchRows` as they are merged, through
/// one reused byte buffer handed out a chunk at a time: one row per search, in start order,
/// numbered from 1 (the tests hold it to an oracle that renders whole searches).
///
/// Tokens and user ids are only ever their keyed pseudonyms (`Pseudonymizer`), made on the walks'
/// threads; typed text never reaches the rows. The columns a search's shape decides
/// (`completed`, `needs_details`, `anomaly`, `current_cost_usd`) are formatted once per shape.
struct SearchesCSVWriter {
    static let header = [
        "search_id", "session_token_hash", "user_id_hash", "started_at", "ended_at", "requests",
        "chars_at_selection", "completed", "needs_details", "anomaly", "current_cost_usd",
    ]

    /// Bytes gathered before `flush` is called: 1 MiB.
    static let chunkSize = 1 << 20

    /// - Parameters:
    ///   - flush: called with each chunk, in order; it may throw to stop.
    ///   - progress: called with the rows and bytes written so far, after each chunk.
    /// - Returns: the rows written.
    @discardableResult
    func write(_ rows: SearchRows, flush: (UnsafeRawBufferPointer) throws -> Void, progress: ((_ rows: Int, _ bytes: Int) -> Void)? = nil) throws -> Int {
        // Every shape's tail in one array, found by (walk, shape) through `tailRanges`.
        var tails: [UInt8] = []
        var tailRanges: [[(start: Int, count: Int)]] = []
        for shapes in rows.describeShapes() {
            tailRanges.append(shapes.map { figures in
                let tail = SearchesCSVWriter.tail(figures)
                tails += tail
                return (tails.count - tail.count, tail.count)
            })
        }
        let longestTail = tailRanges.joined().map(\.count).max() ?? 0
        // A row's own columns take at most 20 + 16 + 16 + 27 + 27 + 11 + 11 bytes and 7 commas.
        let rowLimit = 160 + longestTail
        var merged = rows.merged()
        var written = 0
        var bytesWritten = 0
        var times = RFC3339Writer()
        // Rows are formatted into one buffer while the other is written, on a thread of its own.
        let flusher = ChunkFlusher(capacity: SearchesCSVWriter.chunkSize + rowLimit)
        defer { flusher.close() }
        try withoutActuallyEscaping(flush) { flush in
            // Every write has ended and let go of `flush` before this block returns, thrown or not.
            defer { flusher.drain() }
            try tails.withUnsafeBufferPointer { tails in
                var base = flusher.buffer()
                var cursor = CSVText.line(SearchesCSVWriter.header).utf8.reduce(0) { offset, byte in
                    base[offset] = byte
                    return offset + 1
                }
                while let (row, walk) = merged.next() {
                    written += 1
                    var out = base + cursor
                    out = SearchesCSVWriter.put(written, at: out)
                    out.pointee = UInt8(ascii: ",")
                    out += 1
                    if row.hasToken { out = Pseudonymizer.putHex(row.token, at: out) }
                    out.pointee = UInt8(ascii: ",")
                    out += 1
                    if row.hasUser { out = Pseudonymizer.putHex(row.user, at: out) }
                    out.pointee = UInt8(ascii: ",")
                    out += 1
                    out = times.put(row.startedAt, at: out)
                    out.pointee = UInt8(ascii: ",")
                    out += 1
                    out = times.put(row.endedAt, at: out)
                    out.pointee = UInt8(ascii: ",")
                    out += 1
                    out = SearchesCSVWriter.put(Int(row.requests), at: out)
                    out.pointee = UInt8(ascii: ",")
                    out += 1
                    if row.charactersAtSelection >= 0 { out = SearchesCSVWriter.put(Int(row.charactersAtSelection), at: out) }
                    let tail = tailRanges[walk][Int(row.shape)]
                    out.update(from: tails.baseAddress! + tail.start, count: tail.count)
                    cursor = base.distance(to: out + tail.count)
                    if cursor >= SearchesCSVWriter.chunkSize {
                        base = try flusher.hand(cursor, to: flush)
                        bytesWritten += cursor
                        cursor = 0
                        progress?(written, bytesWritten)
                    }
                }
                if let failure = merged.failure {
                    throw SearchRowsError.unreadable(reason: String(cString: strerror(failure)))
                }
                _ = try flusher.hand(cursor, to: flush)
                try flusher.finish()
                bytesWritten += cursor
            }
        }
        progress?(written, bytesWritten)
        return written
    }

    /// Writes `value` in decimal at `out`; returns the position after it.
    @inline(__always)
    static func put(_ value: Int, at out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var digits = 1
        var limit = 10
        while value >= limit, digits < 19 {
            digits += 1
            limit &*= 10
        }
        var rest = value
        var position = out + digits
        repeat {
            position -= 1
            position.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        } while position > out
        return out + digits
    }

    /// `,completed,needs_details,anomaly,current_cost_usd` and the line end.
    static func tail(_ figures: SearchRows.ShapeFigures) -> [UInt8] {
        let fields = [
            figures.completed ? "true" : "false",
            figures.needsDetails.map { $0 ? "true" : "false" } ?? "",
            figures.anomalies.joined(separator: ";"),
            JSONValue.format(figures.listCostUSD),
        ]
        return Array(("," + CSVText.line(fields)).utf8)
    }
}

/// Why `searches.csv`'s rows could not be read back.
enum SearchRowsError: Error, CustomStringConvertible {
    case unreadable(reason: String)
    case notKept(directory: String, reason: String)

    var description: String {
        switch self {
        case .unreadable(let reason):
            "its rows could not be read back from their temporary file: \(reason)"
        case .notKept(let directory, let reason):
            "its rows could not be kept in a temporary file in \(directory): \(reason)"
        }
    }
}

/// `Timestamp.rfc3339`'s text written as bytes, the date part of the last day reused.
struct RFC3339Writer {
    private var day = Int64.min
    /// `YYYY-MM-DDT`.
    private var datePrefix: (UInt64, UInt16, UInt8) = (0, 0, 0)

    /// Writes the time at `out` (at most 27 bytes); returns the position after it.
    mutating func put(_ microseconds: Int64, at out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let days = microseconds >= 0 ? microseconds / 86_400_000_000 : (microseconds + 1) / 86_400_000_000 - 1
        if days != day {
            day = days
            let text = Array(Timestamp(microseconds: days * 86_400_000_000).rfc3339.utf8.prefix(11))
            withUnsafeMutableBytes(of: &datePrefix) { $0.copyBytes(from: text) }
        }
        withUnsafeBytes(of: datePrefix) { UnsafeMutableRawPointer(out).copyMemory(from: $0.baseAddress!, byteCount: 11) }
        let inDay = microseconds - days * 86_400_000_000
        let seconds = inDay / 1_000_000
        let micros = inDay % 1_000_000
        var position = out + 11
        RFC3339Writer.two(seconds / 3600, &position)
        position.pointee = UInt8(ascii: ":")
        position += 1
        RFC3339Writer.two(seconds / 60 % 60, &position)
        position.pointee = UInt8(ascii: ":")
        position += 1
        RFC3339Writer.two(seconds % 60, &position)
        position.pointee = UInt8(ascii: ".")
        position += 1
        if micros % 1000 == 0 {
            RFC3339Writer.digits(micros / 1000, count: 3, &position)
        } else {
            RFC3339Writer.digits(micros, count: 6, &position)
        }
        position.pointee = UInt8(ascii: "Z")
        return position + 1
    }

    @inline(__always)
    private static func two(_ value: Int64, _ position: inout UnsafeMutablePointer<UInt8>) {
        position[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10)
        position[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
        position += 2
    }

    @inline(__always)
    private static func digits(_ value: Int64, count: Int, _ position: inout UnsafeMutablePointer<UInt8>) {
        var rest = value
        for index in stride(from: count - 1, through: 0, by: -1) {
            position[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        position += count
    }
}

/// Two buffers: one is filled by the caller while the other is written by a serial queue, so
/// formatting and the write system calls overlap. The first write failure is thrown to the
/// caller at its next hand-over, and no later chunk is written.
private final class ChunkFlusher: @unchecked Sendable {
    private let buffers: [UnsafeMutablePointer<UInt8>]
    private var current = 0
    private let queue = DispatchQueue(label: "searches.csv writer")
    private let idle = DispatchSemaphore(value: 1)
    private var failure: Error?

    init(capacity: Int) {
        buffers = [.allocate(capacity: capacity), .allocate(capacity: capacity)]
    }

    /// The buffer to fill.
    func buffer() -> UnsafeMutablePointer<UInt8> { buffers[current] }

    /// Writes the first `count` bytes of the buffer being filled, on the queue; returns the
    /// buffer to fill next, once the write before has ended.
    func hand(_ count: Int, to flush: @escaping (UnsafeRawBufferPointer) throws -> Void) throws -> UnsafeMutablePointer<UInt8> {
        idle.wait()
        if let failure {
            idle.signal()
            throw failure
        }
        // The buffer is this object's and the caller fills the other one meanwhile; `idle` orders
        // every access to `failure`.
        let job = Job(flush: flush, chunk: UnsafeRawBufferPointer(start: buffers[current], count: count))
        queue.async { [self] in
            do {
                try job.flush(job.chunk)
            } catch {
                failure = error
            }
            idle.signal()
        }
        current = 1 - current
        return buffers[current]
    }

    /// Waits for the last write; throws its failure.
    func finish() throws {
        drain()
        if let failure { throw failure }
    }

    /// Waits until no write is running or queued (and the queue has let go of each).
    func drain() {
        idle.wait()
        idle.signal()
        queue.sync {}
    }

    func close() {
        drain()
        for buffer in buffers { buffer.deallocate() }
    }

    private struct Job: @unchecked Sendable {
        let flush: (UnsafeRawBufferPointer) throws -> Void
        let chunk: UnsafeRawBufferPointer
    }
}
