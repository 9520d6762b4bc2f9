#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every walk's `searches.csv` rows in one order (`SearchRow.precedes`), merged from the sorted
/// runs of their `SearchRowStore`s: a chunk of each run being merged at a time, so memory is a
/// chunk a run that overlaps another, not a chunk a run.
///
/// Each row comes with its walk (partition): its `shape` indexes that walk's shapes. A session
/// reshaped after it was emitted (`SearchRowStore.reshaped`) comes with its final shape.
///
/// The walks share out the searches by hash, so their runs cover the same hours and the merge
/// takes from one and then another nearly row by row: the heap holds each run's next key beside
/// its cursor, and a row costs a comparison or two on those keys and a copy. A value type, so
/// that this loop pays no exclusivity check; the chunks are a class's (`Chunks`), freed with it.
struct SearchRowMerger {
    /// One sorted run: rows of a spill file, or of a walk's sorted buffer, read a chunk at a time.
    private struct Cursor {
        let partition: Int
        /// The spill file, or -1 for a run in `memory`.
        let descriptor: Int32
        /// A walk's sorted buffer, shared with its store (never copied whole); empty for a file run.
        let memory: [SearchRow]
        /// The run's rows still to read, by row index in the file or in `memory`.
        var fileNext: Int
        let fileEnd: Int
        /// Rows read and not yet taken: `rows[position ..< count]`, in `chunks`; the chunk is made
        /// when the run joins the heap (a waiting run holds only its first row's order).
        var rows: UnsafeMutablePointer<SearchRow>?
        var position = 0
        var count = 0
    }

    /// A run in the heap: the order of its next row, and the run.
    private struct Entry {
        var order: SearchRow.Order
        var cursor: Int

        init(_ row: SearchRow, cursor: Int) {
            order = row.order
            self.cursor = cursor
        }

        @inline(__always)
        func precedes(_ other: Entry) -> Bool {
            order.precedes(other.order)
        }
    }

    /// Rows read from a spill file at once: 256 KiB.
    static let chunkRows = (256 << 10) / MemoryLayout<SearchRow>.stride
    let chunkRows: Int

    /// The cursors' rows, freed when the last copy of the merger goes.
    /// Each of `chunkRows` rows: a run's chunk goes back when the run is done, for the next run to
    /// join the heap.
    private final class Chunks {
        let rows: Int
        var owned: [UnsafeMutablePointer<SearchRow>] = []
        var free: [UnsafeMutablePointer<SearchRow>] = []

        init(rows: Int) {
            self.rows = rows
        }

        func take() -> UnsafeMutablePointer<SearchRow> {
            if let chunk = free.popLast() { return chunk }
            owned.append(.allocate(capacity: rows))
            return owned[owned.count - 1]
        }

        func give(_ chunk: UnsafeMutablePointer<SearchRow>) {
            free.append(chunk)
        }

        deinit {
            for rows in owned { rows.deallocate() }
        }
    }

    private let chunks: Chunks
    private var cursors: [Cursor] = []
    /// A binary min-heap of the runs that have begun.
    private var heap: [Entry] = []
    /// The runs not yet in `heap`, by their first rows, latest first: a run joins the heap once
    /// the rows before its first are out. A walk spills its runs one after another in time, so
    /// few runs overlap and the heap stays a few runs deep however many runs there are.
    private var waiting: [Entry] = []
    private let reshaped: [[UInt64: (from: UInt32, to: UInt32)]]
    /// The first read failure: the rows after it are missing.
    private(set) var failure: Int32?
    /// Rows left out of the runs added, up to their frontiers.
    private(set) var skippedRows = 0

    /// - Parameters:
    ///   - stores: the walks' stores, finished (`SearchRowStore.finish`), by partition.
    ///   - firstRuns: how many of each walk's first runs to leave out; none when `nil`.
    ///   - frontier: the rows up to it are left out.
    init(_ stores: [SearchRowStore], leavingOut firstRuns: [Int]? = nil, skippingThrough frontier: SearchRow.Order? = nil) {
        self.init(partitions: stores.count, reshaped: stores.map(\.reshaped))
        for (partition, store) in stores.enumerated() {
            let skipped = firstRuns.map { partition < $0.count ? $0[partition] : 0 } ?? 0
            for run in store.runs.dropFirst(skipped) {
                addRun(run, of: store.spillDescriptor, partition: partition, skippingThrough: frontier)
            }
            if !store.buffer.isEmpty { addRows(store.buffer, partition: partition, skippingThrough: frontier) }
        }
    }

    /// A merge of no run yet, of the walks `0 ..< partitions`: runs are added as they come
    /// (`addRun`, `addRows`), and read `chunkRows` at a time.
    init(partitions: Int, reshaped: [[UInt64: (from: UInt32, to: UInt32)]]? = nil, chunkRows: Int = SearchRowMerger.chunkRows) {
        self.reshaped = reshaped ?? Array(repeating: [:], count: partitions)
        self.chunkRows = max(1, chunkRows)
        chunks = Chunks(rows: self.chunkRows)
    }

    /// Adds the rows `rows` of a spill file, sorted, leaving out those up to `frontier`.
    mutating func addRun(_ rows: Range<Int>, of descriptor: Int32, partition: Int, skippingThrough frontier: SearchRow.Order? = nil) {
        guard !rows.isEmpty else { return }
        begin(Cursor(
            partition: partition, descriptor: descriptor, memory: [], fileNext: rows.lowerBound, fileEnd: rows.upperBound, rows: nil
        ), skippingThrough: frontier)
    }

    /// Adds rows held in memory, sorted, leaving out those up to `frontier`.
    mutating func addRows(_ rows: [SearchRow], partition: Int, skippingThrough frontier: SearchRow.Order? = nil) {
        guard !rows.isEmpty else { return }
        begin(Cursor(
            partition: partition, descriptor: -1, memory: rows, fileNext: 0, fileEnd: rows.count, rows: nil
        ), skippingThrough: frontier)
    }

    /// Adds a run, to wait for its first row's turn, after its rows up to `frontier` (found by
    /// halving, a row read at a time from a file).
    private mutating func begin(_ cursor: Cursor, skippingThrough frontier: SearchRow.Order?) {
        var cursor = cursor
        if let frontier {
            var low = cursor.fileNext
            var high = cursor.fileEnd
            while low < high {
                let middle = (low + high) / 2
                guard let row = row(middle, of: cursor) else { return }
                if frontier.precedes(row.order) { high = middle } else { low = middle + 1 }
            }
            skippedRows += low - cursor.fileNext
            cursor.fileNext = low
        }
        guard cursor.fileNext < cursor.fileEnd, let first = row(cursor.fileNext, of: cursor) else { return }
        cursors.append(cursor)
        let entry = Entry(first, cursor: cursors.count - 1)
        // `waiting` is latest first.
        let place = waiting.firstIndex { $0.precedes(entry) } ?? waiting.count
        waiting.insert(entry, at: place)
    }

    /// Row `index` of the cursor's run; `nil` when it cannot be read (`failure`).
    private mutating func row(_ index: Int, of cursor: Cursor) -> SearchRow? {
        if cursor.descriptor < 0 { return cursor.memory[index] }
        var row = SearchRow.none
        let stride = MemoryLayout<SearchRow>.stride
        let read = withUnsafeMutableBytes(of: &row) { pread(cursor.descriptor, $0.baseAddress!, MemoryLayout<SearchRow>.size, off_t(index * stride)) }
        guard read == MemoryLayout<SearchRow>.size else {
            failure = read < 0 ? errno : EIO
            return nil
        }
        return row
    }

    /// Writes the next rows in order, with their walks, at `block`, up to `capacity` and before
    /// `limit`; returns how many: fewer only at the end or the limit (or at a read failure,
    /// `failure`).
    mutating func fill(_ block: UnsafeMutablePointer<(row: SearchRow, walk: Int)>, capacity: Int, before limit: SearchRow.Order = .last) -> Int {
        var filled = 0
        while filled < capacity {
            activate()
            guard var top = heap.first, top.order.precedes(limit) else { break }
            let cursor = top.cursor
            var row = cursors[cursor].rows![cursors[cursor].position]
            let partition = cursors[cursor].partition
            cursors[cursor].position += 1
            if cursors[cursor].position < cursors[cursor].count || refill(cursor) {
                top.order = cursors[cursor].rows![cursors[cursor].position].order
                heap[0] = top
            } else {
                chunks.give(cursors[cursor].rows!)
                cursors[cursor].rows = nil
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
            }
            if heap.count > 1 { siftDown() }
            if row.mayExpire, let patch = reshaped[partition][row.token], patch.from == row.shape { row.shape = patch.to }
            (block + filled).initialize(to: (row, partition))
            filled += 1
        }
        return filled
    }

    /// Moves into the heap every waiting run whose first row comes before the heap's top (the
    /// earliest waiting run when the heap is empty): the top is then the next row of every run.
    @inline(__always)
    private mutating func activate() {
        while let next = waiting.last, heap.isEmpty || !heap[0].precedes(next) {
            waiting.removeLast()
            // Its chunk now, so memory is a chunk a run being merged, not a chunk a run.
            cursors[next.cursor].rows = chunks.take()
            guard refill(next.cursor) else {
                chunks.give(cursors[next.cursor].rows!)
                cursors[next.cursor].rows = nil
                continue
            }
            heap.append(next)
            siftUp(heap.count - 1)
        }
    }

    /// Reads the cursor's next chunk from its file or buffer; `false` when the run is done (or
    /// unreadable).
    private mutating func refill(_ index: Int) -> Bool {
        let cursor = cursors[index]
        guard cursor.fileNext < cursor.fileEnd, failure == nil else { return false }
        let count = min(chunkRows, cursor.fileEnd - cursor.fileNext)
        if cursor.descriptor < 0 {
            cursor.memory.withUnsafeBytes { memory in
                let stride = MemoryLayout<SearchRow>.stride
                UnsafeMutableRawPointer(cursor.rows!).copyMemory(from: memory.baseAddress! + cursor.fileNext * stride, byteCount: count * stride)
            }
        } else if !readFile(count, into: cursor) {
            return false
        }
        cursors[index].position = 0
        cursors[index].count = count
        cursors[index].fileNext += count
        return true
    }

    /// Reads `count` rows of the cursor's file at its next row.
    private mutating func readFile(_ count: Int, into cursor: Cursor) -> Bool {
        let stride = MemoryLayout<SearchRow>.stride
        let bytes = UnsafeMutableRawPointer(cursor.rows!)
        var done = 0
        while done < count * stride {
            let read = pread(cursor.descriptor, bytes + done, count * stride - done, off_t(cursor.fileNext * stride + done))
            if read < 0, errno == EINTR { continue }
            guard read > 0 else {
                failure = read < 0 ? errno : EIO
                return false
            }
            done += read
        }
        return true
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    @inline(__always)
    private mutating func siftDown() {
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var child = left
            if left + 1 < heap.count, heap[left + 1].precedes(heap[left]) { child = left + 1 }
            guard heap[child].precedes(heap[parent]) else { return }
            heap.swapAt(child, parent)
            parent = child
        }
    }
}
