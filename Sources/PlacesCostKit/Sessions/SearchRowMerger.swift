#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every walk's `searches.csv` rows in one order (`SearchRow.precedes`), merged from the sorted
/// runs of their `SearchRowStore`s: a row at a time from each run, so memory is a chunk a run.
///
/// Each row comes with its walk (partition): its `shape` indexes that walk's shapes. A session
/// reshaped after it was emitted (`SearchRowStore.reshaped`) comes with its final shape.
struct SearchRowMerger {
    /// One sorted run: rows of a spill file read a chunk at a time, or a walk's sorted buffer.
    private struct Cursor {
        let partition: Int
        let descriptor: Int32
        /// The run's rows still to read from the file, by row index.
        var fileNext: Int
        let fileEnd: Int
        var chunk: [SearchRow]
        var position = 0
    }

    /// Rows read from a spill file at once: 256 KiB.
    static let chunkRows = (256 << 10) / MemoryLayout<SearchRow>.stride

    private var cursors: [Cursor] = []
    /// Cursor indices as a binary min-heap on their current rows: only the runs that have begun.
    private var heap: [Int] = []
    /// The cursors not yet in `heap`, latest first row first: a run joins the heap once the rows
    /// before its first are out. A walk spills its runs one after another in time, so few runs
    /// overlap and the heap stays a few cursors deep however many runs there are.
    private var waiting: [Int] = []
    private let reshaped: [[UInt64: (from: UInt32, to: UInt32)]]
    /// The first read failure: the rows after it are missing.
    private(set) var failure: Int32?

    /// - Parameter stores: the walks' stores, finished (`SearchRowStore.finish`), by partition.
    init(_ stores: [SearchRowStore]) {
        reshaped = stores.map(\.reshaped)
        for (partition, store) in stores.enumerated() {
            for run in store.runs {
                var cursor = Cursor(partition: partition, descriptor: store.spillDescriptor, fileNext: run.lowerBound, fileEnd: run.upperBound, chunk: [])
                if SearchRowMerger.refill(&cursor, failure: &failure) { cursors.append(cursor) }
            }
            if !store.buffer.isEmpty {
                cursors.append(Cursor(partition: partition, descriptor: -1, fileNext: 0, fileEnd: 0, chunk: store.buffer))
            }
        }
        waiting = cursors.indices.sorted { less($1, $0) }
        activate()
    }

    /// Moves into the heap every waiting run whose first row comes before the heap's top (the
    /// earliest waiting run when the heap is empty): the top is then the next row of every run.
    private mutating func activate() {
        while let next = waiting.last, heap.isEmpty || !less(heap[0], next) {
            waiting.removeLast()
            heap.append(next)
            siftUp(heap.count - 1)
        }
    }

    /// The next row in order with its walk, or `nil` at the end.
    mutating func next() -> (row: SearchRow, partition: Int)? {
        activate()
        guard let top = heap.first else { return nil }
        var row = cursors[top].chunk[cursors[top].position]
        let partition = cursors[top].partition
        cursors[top].position += 1
        if cursors[top].position == cursors[top].chunk.count, !SearchRowMerger.refill(&cursors[top], failure: &failure) {
            heap[0] = heap[heap.count - 1]
            heap.removeLast()
        }
        if !heap.isEmpty { siftDown(0) }
        if row.hasToken, let patch = reshaped[partition][row.token], patch.from == row.shape { row.shape = patch.to }
        return (row, partition)
    }

    /// Reads the cursor's next chunk from its file; `false` when the run is done (or unreadable).
    private static func refill(_ cursor: inout Cursor, failure: inout Int32?) -> Bool {
        guard cursor.descriptor >= 0, cursor.fileNext < cursor.fileEnd, failure == nil else { return false }
        let count = min(SearchRowMerger.chunkRows, cursor.fileEnd - cursor.fileNext)
        let stride = MemoryLayout<SearchRow>.stride
        var chunk = cursor.chunk
        chunk.removeAll(keepingCapacity: true)
        let complete = withUnsafeTemporaryAllocation(byteCount: count * stride, alignment: MemoryLayout<SearchRow>.alignment) { bytes in
            var done = 0
            while done < bytes.count {
                let read = pread(cursor.descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(cursor.fileNext * stride + done))
                if read < 0, errno == EINTR { continue }
                guard read > 0 else {
                    failure = read < 0 ? errno : EIO
                    return false
                }
                done += read
            }
            chunk.append(contentsOf: bytes.bindMemory(to: SearchRow.self))
            return true
        }
        guard complete else { return false }
        cursor.chunk = chunk
        cursor.position = 0
        cursor.fileNext += count
        return true
    }

    @inline(__always)
    private func less(_ lhs: Int, _ rhs: Int) -> Bool {
        cursors[lhs].chunk[cursors[lhs].position].precedes(cursors[rhs].chunk[cursors[rhs].position])
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(heap[child], heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var child = left
            if left + 1 < heap.count, less(heap[left + 1], heap[left]) { child = left + 1 }
            guard less(heap[child], heap[parent]) else { return }
            heap.swapAt(child, parent)
            parent = child
        }
    }
}
