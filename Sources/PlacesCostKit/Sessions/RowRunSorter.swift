/// Puts a walk's buffered rows in `SearchRow.precedes` order, in a pass and a merge for the order
/// a walk emits them in.
///
/// A walk emits a search when it ends: a completed search at its details call, an abandoned one
/// when its timeout or its user's gap has passed. So the rows come as a few interleaved sequences,
/// each nearly in start order. Each row goes on the first pile whose last row precedes it
/// (patience sorting, first fit); the piles, each in order by construction, are then merged, the
/// next row taken from the pile whose head precedes the others' (a heap). Input more disordered
/// than `maxPiles` piles allow falls back to the standard library's sort: the order is the same,
/// only the time differs. Keys are unique (`sequence` is), so any correct sort gives the same rows.
struct RowRunSorter {
    /// Piles kept before the input counts as disordered: a walk's rows fill about 7 on a log of
    /// a million searches a month, and more as searches overlap more. A row costs a halving
    /// search among the piles and a step of the merge's heap.
    static let maxPiles = 64

    /// The pile of each row, then each pile's rows, grouped, in input order (`order`).
    private var pileOf: [UInt8] = []
    private var order: [UInt32] = []
    /// The rows in order, handed out `chunkRows` at a time.
    private var chunk: [SearchRow] = []
    private let chunkRows: Int

    /// - Parameter chunkRows: rows handed to `body` at once: the memory the sorter keeps besides
    ///   its per-row index (5 bytes a row).
    init(chunkRows: Int = 4096) {
        self.chunkRows = max(1, chunkRows)
    }

    /// Calls `body` with `rows` in order, in consecutive chunks (the whole of `rows`, sorted in
    /// place, when it fills one pile or too many); stops at the first `false`.
    mutating func inOrder(_ rows: inout [SearchRow], _ body: (UnsafeBufferPointer<SearchRow>) -> Bool) {
        guard let piles = pile(rows) else {
            rows.sort { $0.precedes($1) }
            rows.withUnsafeBufferPointer { _ = body($0) }
            return
        }
        if piles.count <= 1 {
            rows.withUnsafeBufferPointer { _ = body($0) }
            return
        }
        merge(rows, piles: piles, body)
    }

    /// Each row's pile in `pileOf`, and each pile's row count; nil past `maxPiles`.
    private mutating func pile(_ rows: [SearchRow]) -> [Int]? {
        pileOf.removeAll(keepingCapacity: true)
        pileOf.append(contentsOf: repeatElement(0, count: rows.count))
        var counts = [Int](repeating: 0, count: RowRunSorter.maxPiles)
        var piles = 0
        // Each pile's last row, as its key.
        var lasts = [SearchRow.Order](repeating: SearchRow.Order(startedAt: .min, sequence: .min), count: RowRunSorter.maxPiles)
        let fits = lasts.withUnsafeMutableBufferPointer { lasts in
            counts.withUnsafeMutableBufferPointer { counts in
                pileOf.withUnsafeMutableBufferPointer { pileOf in
                    rows.withUnsafeBufferPointer { rows in
                        for index in 0..<rows.count {
                            let key = rows[index].order
                            var pile = 0
                            if piles > 0, key.precedes(lasts[0]) {
                                // The piles' last rows fall from the first pile on (a row joins
                                // the first pile it follows), so the piles a row cannot join
                                // are a prefix, found by halving.
                                var low = 1
                                var high = piles
                                while low < high {
                                    let middle = (low + high) / 2
                                    if key.precedes(lasts[middle]) { low = middle + 1 } else { high = middle }
                                }
                                pile = low
                            }
                            if pile == piles {
                                guard pile < RowRunSorter.maxPiles else { return false }
                                piles += 1
                            }
                            counts[pile] += 1
                            lasts[pile] = key
                            pileOf[index] = UInt8(truncatingIfNeeded: pile)
                        }
                        return true
                    }
                }
            }
        }
        return fits ? Array(counts[..<piles]) : nil
    }

    /// Merges the piles `pile` made, handing the rows out in chunks.
    private mutating func merge(_ rows: [SearchRow], piles counts: [Int], _ body: (UnsafeBufferPointer<SearchRow>) -> Bool) {
        let piles = counts.count
        // Each pile's rows, in input order, at `order[starts[pile]...]`.
        var starts = [Int](repeating: 0, count: piles)
        for pile in 1..<piles { starts[pile] = starts[pile - 1] + counts[pile - 1] }
        var heads = starts
        order.removeAll(keepingCapacity: true)
        order.append(contentsOf: repeatElement(0, count: rows.count))
        order.withUnsafeMutableBufferPointer { order in
            for (index, pile) in pileOf.enumerated() {
                order[heads[Int(pile)]] = UInt32(truncatingIfNeeded: index)
                heads[Int(pile)] += 1
            }
        }
        let ends = heads
        heads = starts
        // The key of each pile's next row; an ended pile's comes after every row's, so it sinks
        // in the heap and is never taken: exactly `rows.count` rows are.
        var next = (0..<piles).map { rows[Int(order[starts[$0]])].order }
        // A binary min-heap of the piles by their next row.
        var heap = Array(0..<piles)
        heap.sort { next[$0].precedes(next[$1]) }
        chunk.removeAll(keepingCapacity: true)
        chunk.reserveCapacity(chunkRows)
        rows.withUnsafeBufferPointer { rows in
            order.withUnsafeBufferPointer { order in
                next.withUnsafeMutableBufferPointer { next in
                    heads.withUnsafeMutableBufferPointer { heads in
                        heap.withUnsafeMutableBufferPointer { heap in
                            for _ in 0..<rows.count {
                                let best = heap[0]
                                chunk.append(rows[Int(order[heads[best]])])
                                heads[best] += 1
                                next[best] = heads[best] < ends[best] ? rows[Int(order[heads[best]])].order : .last
                                RowRunSorter.siftDown(heap, by: next)
                                if chunk.count == chunkRows {
                                    guard chunk.withUnsafeBufferPointer(body) else { return }
                                    chunk.removeAll(keepingCapacity: true)
                                }
                            }
                            if !chunk.isEmpty { _ = chunk.withUnsafeBufferPointer(body) }
                        }
                    }
                }
            }
        }
    }

    /// Restores the heap order after the top pile's next row changed.
    @inline(__always)
    private static func siftDown(_ heap: UnsafeMutableBufferPointer<Int>, by next: UnsafeMutableBufferPointer<SearchRow.Order>) {
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var child = left
            if left + 1 < heap.count, next[heap[left + 1]].precedes(next[heap[left]]) { child = left + 1 }
            guard next[heap[child]].precedes(next[heap[parent]]) else { return }
            heap.swapAt(child, parent)
            parent = child
        }
    }
}
