/// How a walk makes `searches.csv`'s rows.
struct SearchRowOptions: Sendable {
    var pseudonymizer: Pseudonymizer
    /// Where rows past `runLength` a walk are spilled (`SearchRowStore`).
    var directory: String
    var runLength = SearchRowStore.defaultRunLength
    /// Where each spilled run is published, for `searches.csv` to be written during the walk.
    var publications: RowPublications?
}
