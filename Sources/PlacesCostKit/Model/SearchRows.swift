/// Every search of an analysis as a `searches.csv` row, kept out of memory: the walks' row
/// stores (sorted runs in unlinked spill files, and sorted buffers), merged in order each time
/// they are read, with what each walk's shapes say of their searches. Owns the spill files.
final class SearchRows: @unchecked Sendable {
    /// What a search's shape says of it: the columns `searches.csv` takes from the shape.
    struct ShapeFigures: Sendable, Equatable {
        var completed: Bool
        /// `DetailsNeed.needsDetails` of the search; `nil` without a masked details selection.
        var needsDetails: Bool?
        /// `Search.anomalyNames`.
        var anomalies: [String]
        /// The search as made (`current`, delay 0) at list prices.
        var listCostUSD: Double
    }

    /// Rows in all.
    let count: Int
    private let stores: [SearchRowStore]
    /// Walks (partitions) whose rows these are.
    var walks: Int { stores.count }
    /// Threads the rows may be written on: the analysis's `--threads`.
    let threads: Int
    /// Works out `ShapeFigures` of a walk (partition), per shape index of its tally: set once the
    /// shapes can be priced, called by whoever writes the rows, for several walks at once.
    var describeShapes: @Sendable (_ walk: Int) -> [ShapeFigures] = { _ in [] }
    /// What of `searches.csv` was written while the log was read, if anything was tried.
    var speculated: SpeculatedRows?

    init(stores: [SearchRowStore], threads: Int) {
        self.stores = stores
        self.threads = max(1, threads)
        self.count = stores.reduce(0) { $0 + $1.count }
    }

    /// Why rows could not be kept (a spill write failed): the directory and `errno`.
    var failure: (directory: String, errno: Int32)? {
        stores.first { $0.failure != nil }.map { ($0.directory, $0.failure!) }
    }

    /// The rows in order, read afresh, after the rows up to `frontier`.
    func merged(after frontier: SearchRow.Order? = nil) -> SearchRowMerger {
        SearchRowMerger(stores, skippingThrough: frontier)
    }

    /// The rows up to `last` that are not in each walk's first `runs[walk]` runs, in order.
    func rows(through last: SearchRow.Order, leavingOut runs: [Int]) -> [(row: SearchRow, walk: Int)]? {
        var merger = SearchRowMerger(stores, leavingOut: runs)
        var rows: [(row: SearchRow, walk: Int)] = []
        let limit = SearchRow.Order(startedAt: last.startedAt, sequence: last.sequence &+ 1)
        var block = [(row: SearchRow, walk: Int)](repeating: (SearchRow.none, 0), count: 4096)
        while true {
            let count = block.withUnsafeMutableBufferPointer { merger.fill($0.baseAddress!, capacity: $0.count, before: limit) }
            rows += block[..<count]
            if count < block.count { break }
        }
        return merger.failure == nil ? rows : nil
    }

    /// Whether a session emitted before its outcome was known changed it since.
    var anyReshaped: Bool {
        stores.contains { !$0.reshaped.isEmpty }
    }

    deinit {
        for store in stores { store.close() }
    }
}
