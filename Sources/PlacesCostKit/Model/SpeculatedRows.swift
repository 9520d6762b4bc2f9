#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The part of `searches.csv` written while the log was still read (`SearchesCSVSpeculator`):
/// written from what the walks had published, so the rows as they turned out may differ. The
/// writer after the walks keeps the blocks that match the rows as they turned out, from the
/// first, and writes the file on from the first block that does not
/// (`SearchesCSVWriter.write`).
///
/// What was written is the first `rows` of the merge of `sources`, each without its rows up to
/// the row written last when it was added: a source added later holds only rows after those, so
/// merging them all at once gives the rows in the order they were written.
struct SpeculatedRows: Sendable {
    /// A point between blocks: the rows before it and the file's bytes before it, the header's
    /// included. The first is after the header.
    struct Checkpoint: Sendable, Equatable {
        var rows: Int
        var bytes: Int
    }

    /// Rows merged during the walk: a run of a walk's spill file or rows published as they stood,
    /// and the last row written when they were added.
    enum Source: Sendable {
        case run(partition: Int, descriptor: Int32, rows: Range<Int>, after: SearchRow.Order?)
        case rows(partition: Int, [SearchRow], after: SearchRow.Order?)
    }

    /// After the header and after each block written; empty when not even the header was.
    var checkpoints: [Checkpoint]
    /// The place of each block's first row: `firstOrders[k]` starts the block after `checkpoints[k]`.
    var firstOrders: [SearchRow.Order] = []
    /// The last row written.
    var last: SearchRow.Order?
    var sources: [Source]
    /// Rows left out of the sources added (`SearchRowMerger.skippedRows`).
    var skippedRows = 0
    /// How many of each walk's runs are among the sources: the first ones it spilled.
    var runsTaken: [Int] = []
    /// The walks the rows came from.
    var partitions = 0
    /// The bytes each walk's shapes were written with, as formatted: walk `w`'s shapes as walk
    /// `w`, its uncounted shapes (`SearchRow.uncountedShape`) as walk `partitions + w`.
    var tails = SearchesCSVWriter.ShapeTails()

    /// Rows written.
    var rows: Int { checkpoints.last?.rows ?? 0 }

    /// The same file with only its header kept: for rows merged from spill files since closed.
    var headerOnly: SpeculatedRows {
        SpeculatedRows(checkpoints: Array(checkpoints.prefix(1)), sources: [])
    }

    /// The walk and shape a row of `walk` with `shape` was formatted as (`tails`).
    func formatted(walk: Int, shape: UInt32) -> (walk: Int, shape: Int) {
        SearchRow.uncountedIndex(shape).map { (partitions + walk, $0) } ?? (walk, Int(shape))
    }

    /// The bytes a row of `walk` with `shape` was written with.
    func tail(walk: Int, shape: UInt32) -> ArraySlice<UInt8>? {
        let (walk, shape) = formatted(walk: walk, shape: shape)
        return walk < tails.ranges.count && shape < tails.ranges[walk].count ? tails.tail(walk: walk, shape: shape) : nil
    }

    /// The rows published as they stood that were written, with their walks, in order.
    var provisionalWritten: [(row: SearchRow, walk: Int)] {
        guard let last else { return [] }
        var rows: [(row: SearchRow, walk: Int)] = []
        for case .rows(let partition, let published, _) in sources {
            rows += published.lazy.filter { !last.precedes($0.order) }.map { ($0, partition) }
        }
        return rows.sorted { $0.row.precedes($1.row) }
    }

    /// The rows written, merged again (`chunkRows` at a time from the spill files).
    func merged(partitions: Int, chunkRows: Int) -> SearchRowMerger {
        var merger = SearchRowMerger(partitions: partitions, chunkRows: chunkRows)
        for source in sources {
            switch source {
            case .run(let partition, let descriptor, let rows, let after):
                merger.addRun(rows, of: descriptor, partition: partition, skippingThrough: after)
            case .rows(let partition, let rows, let after):
                merger.addRows(rows, partition: partition, skippingThrough: after)
            }
        }
        return merger
    }
}
