import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `searches.csv` (`docs/report-schema.md`) from `SearchRows` as they are merged: one
/// row per search, in start order, numbered from 1 (the tests hold it to an oracle that renders
/// whole searches). The merged rows go in blocks to `RowBlockPipeline`, which formats them on
/// `formatters` threads into bytes and writes the blocks in order, so the file is the same for
/// any number of formatters and the merge is the only step done on one thread.
///
/// Tokens and user ids are only ever their keyed pseudonyms (`Pseudonymizer`), made on the walks'
/// threads; typed text never reaches the rows. The columns a search's shape decides
/// (`completed`, `needs_details`, `anomaly`, `current_cost_usd`) are formatted once per shape.
struct SearchesCSVWriter {
    static let header = [
        "search_id", "session_token_hash", "user_id_hash", "started_at", "ended_at", "requests",
        "chars_at_selection", "completed", "needs_details", "anomaly", "current_cost_usd",
    ]

    /// Rows formatted as one block and handed to `flush` at once: about 1 MiB of text.
    var blockRows = 8192
    /// Threads that format blocks at once; nil: the analysis's `--threads`.
    var formatters: Int?

    /// A shape's columns, found by (walk, shape) in `ShapeTails.bytes`.
    struct TailRange: Sendable {
        var start: Int
        var count: Int
    }

    /// Every distinct tail in one array, and where each walk's shapes find theirs.
    struct ShapeTails: Sendable {
        var bytes: [UInt8] = []
        var ranges: [[TailRange]] = []
        var longest = 0

        /// Adds `tail` to the end of the bytes; returns where it is.
        mutating func add(_ tail: [UInt8]) -> TailRange {
            bytes += tail
            longest = max(longest, tail.count)
            return TailRange(start: bytes.count - tail.count, count: tail.count)
        }

        /// The bytes of shape `shape` of walk `walk`.
        func tail(walk: Int, shape: Int) -> ArraySlice<UInt8> {
            let range = ranges[walk][shape]
            return bytes[range.start ..< range.start + range.count]
        }
    }

    /// - Parameters:
    ///   - resume: with rows written during the walk (`SearchRows.speculated`), called once before
    ///     any `flush` with the offset the file goes on from: the end of the blocks kept. `nil`
    ///     writes the whole file through `flush`.
    ///   - flush: called with each block of bytes, in order, on a thread of the writer's; it may
    ///     throw to stop.
    ///   - progress: called with the rows and bytes written so far, after each block.
    /// - Returns: the rows in the file.
    @discardableResult
    func write(
        _ rows: SearchRows, resume: ((_ offset: Int) throws -> Void)? = nil, flush: (UnsafeRawBufferPointer) throws -> Void,
        progress: ((_ rows: Int, _ bytes: Int) -> Void)? = nil
    ) throws -> Int {
        let tails = SearchesCSVWriter.describe(rows)
        // The rows and bytes already in the file, the rows the merge gave past them, and the merge.
        var kept = SpeculatedRows.Checkpoint(rows: 0, bytes: 0)
        var carried: [(row: SearchRow, walk: Int)] = []
        var merged: SearchRowMerger
        if let resume, let speculated = rows.speculated, !speculated.checkpoints.isEmpty {
            (kept, merged, carried) = SearchesCSVWriter.keep(speculated, rows, tails: tails)
            try resume(kept.bytes)
        } else {
            merged = rows.merged()
            try resume?(0)
            let header = Array(CSVText.line(SearchesCSVWriter.header).utf8)
            try header.withUnsafeBytes { try flush($0) }
            kept.bytes = header.count
        }
        let before = kept
        // A row's own columns take at most 20 + 16 + 16 + 27 + 27 + 11 + 11 bytes and 7 commas.
        let pipeline = RowBlockPipeline<(row: SearchRow, walk: Int)>(
            blockRows: blockRows, bytesPerRow: 160 + tails.longest, formatters: formatters ?? rows.threads
        )
        var written = 0
        var nextCarried = 0
        try pipeline.run(
            fill: { block, capacity in
                var count = 0
                while count < capacity, nextCarried < carried.count {
                    (block + count).initialize(to: carried[nextCarried])
                    count += 1
                    nextCarried += 1
                }
                count += merged.fill(block + count, capacity: capacity - count)
                if count == 0, let failure = merged.failure {
                    throw SearchRowsError.unreadable(reason: String(cString: strerror(failure)))
                }
                written += count
                return count
            },
            format: { slot in
                SearchesCSVWriter.format(slot.rows, count: slot.count, firstID: before.rows + slot.rowsBefore + 1, tails: tails, at: slot.bytes)
            },
            flush: flush,
            progress: progress.map { report in { rows, bytes in report(before.rows + rows, before.bytes + bytes) } }
        )
        if written == 0 { progress?(before.rows, before.bytes) }
        return before.rows + written
    }

    /// Keeps the blocks written during the walk up to the first that holds a row other than the
    /// row as it turned out (every field, the walk, and the bytes of the shape's columns).
    /// Returns the checkpoint after the last block kept, the merge of the rows after them, and
    /// the rows that merge already gave (to be written first).
    ///
    /// Where nothing was left out during the walk, no session changed after it was emitted and
    /// every shape's columns are as written, the rows written from the runs are the rows as they
    /// turned out, so only the others are compared: the rows published as they stood, against the
    /// rows up to the last written that are not in a run the writing took. Otherwise the rows
    /// written are merged again beside the rows as they turned out and compared block by block.
    static func keep(_ speculated: SpeculatedRows, _ rows: SearchRows, tails: ShapeTails) -> (SpeculatedRows.Checkpoint, SearchRowMerger, [(row: SearchRow, walk: Int)]) {
        // Which of the shapes written during the walk have the columns they have now.
        let sameTails = (0..<speculated.partitions).map { walk in
            (0..<speculated.tails.ranges[walk].count).map { shape in
                walk < tails.ranges.count && shape < tails.ranges[walk].count
                    && tails.tail(walk: walk, shape: shape).elementsEqual(speculated.tails.tail(walk: walk, shape: shape))
            }
        }
        let checkpoints = speculated.checkpoints
        guard let last = speculated.last else { return (checkpoints[0], rows.merged(), []) }
        if speculated.skippedRows == 0, !rows.anyReshaped, sameTails.allSatisfy({ $0.allSatisfy { $0 } }),
           let others = rows.rows(through: last, leavingOut: speculated.runsTaken) {
            let guessed = speculated.provisionalWritten
            let index = (0..<max(others.count, guessed.count)).first { index in
                index >= others.count || index >= guessed.count || !sameRow(others[index], as: guessed[index], speculated, tails: tails, sameTails: sameTails)
            }
            guard let index else { return (checkpoints[checkpoints.count - 1], rows.merged(after: last), []) }
            // The first row that differs, and the block it falls in, or would.
            let differs = [others.dropFirst(index).first?.row.order, guessed.dropFirst(index).first?.row.order].compactMap { $0 }.min { $0.precedes($1) }!
            guard let block = speculated.firstOrders.lastIndex(where: { !differs.precedes($0) }) else { return (checkpoints[0], rows.merged(), []) }
            let start = speculated.firstOrders[block]
            return (checkpoints[block], rows.merged(after: SearchRow.Order(startedAt: start.startedAt, sequence: start.sequence &- 1)), [])
        }
        typealias Entry = (row: SearchRow, walk: Int)
        var merged = rows.merged()
        var guesses = speculated.merged(partitions: speculated.partitions, chunkRows: SearchesCSVSpeculator.chunkRows)
        let largest = zip(checkpoints, checkpoints.dropFirst()).map { $1.rows - $0.rows }.max() ?? 0
        let turned = UnsafeMutablePointer<Entry>.allocate(capacity: max(1, largest))
        let guessed = UnsafeMutablePointer<Entry>.allocate(capacity: max(1, largest))
        defer {
            turned.deallocate()
            guessed.deallocate()
        }
        var kept = checkpoints[0]
        for next in checkpoints.dropFirst() {
            let count = next.rows - kept.rows
            let got = merged.fill(turned, capacity: count)
            var same = got == count && guesses.fill(guessed, capacity: count) == count
            var index = 0
            while same, index < count {
                same = sameRow(turned[index], as: guessed[index], speculated, tails: tails, sameTails: sameTails)
                index += 1
            }
            guard same else { return (kept, merged, Array(UnsafeBufferPointer(start: turned, count: got))) }
            kept = next
        }
        return (kept, merged, [])
    }

    /// Whether `row` as it turned out is the row written as `guess`, to the byte.
    private static func sameRow(
        _ row: (row: SearchRow, walk: Int), as guess: (row: SearchRow, walk: Int), _ speculated: SpeculatedRows, tails: ShapeTails, sameTails: [[Bool]]
    ) -> Bool {
        guard row.walk == guess.walk else { return false }
        let walk = row.walk
        if guess.row.shape == row.row.shape {
            return row.row == guess.row && walk < sameTails.count && Int(row.row.shape) < sameTails[walk].count && sameTails[walk][Int(row.row.shape)]
        }
        // Written with another shape (one not counted yet, or before a session was shown
        // expired): the same if the columns are.
        var written = guess.row
        written.shape = row.row.shape
        return row.row == written && speculated.tail(walk: walk, shape: guess.row.shape).map { tails.tail(walk: walk, shape: Int(row.row.shape)).elementsEqual($0) } == true
    }

    /// Writes `count` rows numbered from `firstID` at `out`; returns the bytes written.
    static func format(_ rows: UnsafeMutablePointer<(row: SearchRow, walk: Int)>, count: Int, firstID: Int, tails: ShapeTails, at start: UnsafeMutablePointer<UInt8>) -> Int {
        var times = RFC3339Writer()
        var out = start
        tails.bytes.withUnsafeBufferPointer { tailBytes in
            for index in 0..<count {
                let (row, walk) = rows[index]
                out = SearchesCSVWriter.put(firstID + index, at: out)
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
                let tail = tails.ranges[walk][Int(row.shape)]
                out.update(from: tailBytes.baseAddress! + tail.start, count: tail.count)
                out += tail.count
            }
        }
        rows.deinitialize(count: count)
        return start.distance(to: out)
    }

    /// Every walk's shapes described (the walks side by side on the cores) and their tails
    /// formatted, each distinct tail once: a million searches fall into about 10,000 shapes a
    /// walk but about a hundred tails.
    static func describe(_ rows: SearchRows) -> ShapeTails {
        let described = ParallelMap.results(count: rows.walks) { walk in rows.describeShapes(walk) }
        var tails = ShapeTails()
        var formatted: [TailKey: TailRange] = [:]
        for walk in described {
            tails.ranges.append(walk.map { figures in
                let key = TailKey(figures)
                if let range = formatted[key] { return range }
                let range = tails.add(SearchesCSVWriter.tail(figures))
                formatted[key] = range
                return range
            })
        }
        return tails
    }

    /// What a tail is formatted from, the cost by its bits: two costs that compare equal but
    /// print differently (`0` and `-0`) keep tails of their own.
    private struct TailKey: Hashable {
        var completed: Bool
        var needsDetails: Bool?
        var anomalies: [String]
        var costBits: UInt64

        init(_ figures: SearchRows.ShapeFigures) {
            completed = figures.completed
            needsDetails = figures.needsDetails
            anomalies = figures.anomalies
            costBits = figures.listCostUSD.bitPattern
        }
    }

    /// Writes `value` (never negative) in decimal at `out`; returns the position after it.
    @inline(__always)
    static func put(_ value: Int, at out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        // Unsigned: a quotient by 10 is then a multiply and a shift, with no sign to correct.
        let magnitude = UInt64(value)
        var digits = 1
        var limit: UInt64 = 10
        while magnitude >= limit, digits < 19 {
            digits += 1
            limit &*= 10
        }
        var rest = magnitude
        var position = out + digits
        repeat {
            position -= 1
            let quotient = rest / 10
            position.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest &- quotient &* 10)
            rest = quotient
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
