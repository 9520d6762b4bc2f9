/// One search as `searches.csv` shows it, in 56 bytes with no reference: what the walk knows when
/// the search ends. What depends only on the search's shape (outcome, whether it needs details,
/// its anomalies, its cost) is the shape's, looked up by `shape` when the row is written.
///
/// Rows go out in start order, ties by the first call's position in the input (`precedes`):
/// the order of `SearchSummary.keptSearches`, whatever the number of threads.
struct SearchRow: Sendable, Equatable {
    var startedAt: Int64
    /// The first call's position in the input (`GroupCall.sequence`): unique.
    var sequence: Int64
    var endedAt: Int64
    /// The pseudonyms (`Pseudonymizer.pseudonym64`) of the token and the user; meaningful only
    /// when `hasToken` and `hasUser` say so.
    var token: UInt64
    var user: UInt64
    var requests: Int32
    /// The input length of the last autocomplete call of a completed search; -1 for none.
    var charactersAtSelection: Int32
    /// The search's shape among its walk's (`SearchTally.shapes` of its partition).
    var shape: UInt32
    var hasToken: Bool
    var hasUser: Bool
    /// A session counted as abandoned while its token waits: a later call may show it expired,
    /// and its final shape is then in `SearchRowStore.reshaped`. Only such rows are looked up.
    var mayExpire: Bool

    /// Whether `self` is written before `other`.
    @inline(__always)
    func precedes(_ other: SearchRow) -> Bool {
        order.precedes(other.order)
    }

    /// The `shape` of a row published as it stood (`RowPublication.provisional`) whose shape no
    /// search has had yet: index `index` among its walk's `RowPublication.uncountedShapes`. A row
    /// a walk emits never has one.
    static func uncountedShape(_ index: Int) -> UInt32 {
        UInt32(index) | uncountedBit
    }

    /// The index among `RowPublication.uncountedShapes` of an uncounted shape, else `nil`.
    @inline(__always)
    static func uncountedIndex(_ shape: UInt32) -> Int? {
        shape & uncountedBit != 0 ? Int(shape & ~uncountedBit) : nil
    }

    /// Above every shape index a walk counts (`TokenState.mainSpentShape`).
    private static let uncountedBit: UInt32 = 1 << 31

    /// A row of zeros, to fill buffers with.
    static let none = SearchRow(
        startedAt: 0, sequence: 0, endedAt: 0, token: 0, user: 0, requests: 0, charactersAtSelection: 0, shape: 0,
        hasToken: false, hasUser: false, mayExpire: false
    )

    /// The row's place in the file.
    @inline(__always)
    var order: Order { Order(startedAt: startedAt, sequence: sequence) }

    /// A row's place in `searches.csv` without the rest of the row: what the sort of a walk's
    /// rows (`RowRunSorter`) and the merge of the walks' runs (`SearchRowMerger`) compare.
    struct Order {
        var startedAt: Int64
        var sequence: Int64

        /// After every row's place.
        static let last = Order(startedAt: .max, sequence: .max)

        @inline(__always)
        func precedes(_ other: Order) -> Bool {
            startedAt != other.startedAt ? startedAt < other.startedAt : sequence < other.sequence
        }
    }
}
