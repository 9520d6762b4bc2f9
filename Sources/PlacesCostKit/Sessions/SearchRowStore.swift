#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One walk's `searches.csv` rows, held in bounded memory: rows gather in a buffer of
/// `runLength`; a full buffer is sorted and spilled as a run to an unlinked temporary file, and
/// the runs of every walk are merged in order when the file is written (`SearchRowMerger`).
///
/// A search can be emitted before its outcome is final (a session that waits past its timeout
/// counts as abandoned until a later call on its token shows it expired): the shape it ends with
/// is noted in `reshaped` under its token's pseudonym, with the shape it was emitted with (a
/// token has one session, so the pair names one row), and applied when its row is read.
struct SearchRowStore: Sendable {
    /// Rows a buffer holds before it is spilled: 1 MiB of rows, the size of a core's second-level
    /// cache, so the buffer and its sort's index stay nearer the CPU than 4 MiB did (the walks ran
    /// a few percent faster, `docs/performance.md`). What is left in the buffer is sorted after
    /// the walk, before `searches.csv` can be finished, so a short run keeps that wait short too.
    static let defaultRunLength = (1 << 20) / MemoryLayout<SearchRow>.stride

    let directory: String
    let runLength: Int
    private(set) var buffer: [SearchRow] = []
    /// Row ranges of the spill file, each sorted.
    private(set) var runs: [Range<Int>] = []
    private(set) var spillDescriptor: Int32 = -1
    private var spilledRows = 0
    /// The first write failure (`errno`); rows are then no longer kept.
    private(set) var failure: Int32?
    /// The final shape of sessions emitted before their outcome was known, by token pseudonym.
    var reshaped: [UInt64: (from: UInt32, to: UInt32)] = [:]
    private var sorter = RowRunSorter()

    /// - Parameter directory: where the spill file is made (and at once unlinked).
    init(directory: String, runLength: Int = SearchRowStore.defaultRunLength) {
        self.directory = directory
        self.runLength = max(1, runLength)
        // The whole run at once: growing by doubling would copy the rows four or five times. The
        // pages are the system's to give as rows are written, so a short log touches few.
        buffer.reserveCapacity(self.runLength)
    }

    var count: Int { spilledRows + buffer.count }

    @inline(__always)
    mutating func append(_ row: SearchRow) {
        guard failure == nil else { return }
        buffer.append(row)
        if buffer.count >= runLength { spill() }
    }

    /// Sorts what is left in the buffer; call once the walk is done. In place: an out-of-place
    /// merge of the piles (`RowRunSorter`) would hold the buffer twice at the walk's end.
    mutating func finish() {
        buffer.sort { $0.precedes($1) }
    }

    /// Appends the buffer to the spill file as a run, in order.
    private mutating func spill() {
        if spillDescriptor < 0 {
            var template = Array((directory + "/placescost-rows-XXXXXX").utf8CString)
            spillDescriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard spillDescriptor >= 0 else {
                failure = errno
                buffer = []
                return
            }
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        }
        var offset = spilledRows * MemoryLayout<SearchRow>.stride
        var written: Int32?
        sorter.inOrder(&buffer) { part in
            written = SystemCall.writeAll(spillDescriptor, UnsafeRawBufferPointer(part), at: offset)
            offset += part.count * MemoryLayout<SearchRow>.stride
            return written == nil
        }
        if let written {
            failure = written
            buffer = []
            return
        }
        runs.append(spilledRows ..< spilledRows + buffer.count)
        spilledRows += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// Closes the spill file; the rows are gone.
    func close() {
        if spillDescriptor >= 0 { _ = SystemCall.close(spillDescriptor) }
    }
}
