/// What a walk hands over each time it spills a run of `searches.csv` rows, so the file can be
/// written while the log is still read (`SearchesCSVSpeculator`): the run, the rows that are
/// final only if nothing more happens, the shapes their `shape` indexes, and how far back a row
/// the walk has not handed over can start.
struct RowPublication: Sendable {
    var partition: Int
    /// The walk's spill file, and the run's rows in it.
    var descriptor: Int32
    var run: Range<Int>
    /// Runs on a spent token idle for longer than `RowPublications.idleRunAge`, as the rows the
    /// end of the log would make of them, in order: a later call on the token changes them.
    var provisional: [SearchRow]
    /// The walk's shapes so far (only ever appended to) and the earliest time of each period.
    var shapes: [SearchTally.ShapeKey]
    /// The shapes of provisional rows that no search has had yet (`SearchRow.uncountedShape`),
    /// only ever appended to.
    var uncountedShapes: [SearchTally.ShapeKey]
    var periodTimes: [BillingCalendar.Period: Int64]
    /// Every row the walk hands over later starts at or after this time, but for later versions
    /// of rows handed over as provisional or emitted while their outcome could still change.
    var bound: Int64
}
