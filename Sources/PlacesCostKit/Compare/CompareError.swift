/// Why `compare` could not compare, or why a comparison failed the check it was asked for.
enum CompareError: Error, Equatable, CustomStringConvertible {
    /// A JSON document whose `schema` is not `placescost.report/1` (another of the tool's
    /// outputs, or another program's JSON with a `schema` key).
    case notAReport(file: String, schema: String)
    /// A `report.json` that lacks a key the comparison reads, or holds it with the wrong type.
    case invalidReport(file: String, reason: String)
    /// A side without a search: its cost per search is undefined.
    case noSearches(file: String)
    /// `--fail-if-cost-per-search-rises PCT` or `--fail-if-cost-per-selection-rises PCT`: the
    /// cost per unit rose by more than allowed. `risePercent` is nil when the before side cost $0
    /// a unit (a rise from nothing); `after` is nil for a side without a selection.
    case costRose(per: SavingBasis, risePercent: Double?, before: Double, after: Double?, allowedPercent: Double)

    var description: String {
        switch self {
        case .notAReport(let file, let schema):
            "\(file) is a `\(schema)` document, not a report.json of `analyze` (`\(JSONReportRenderer.schema)`). Give compare a log, a directory of logs or a report.json written by `placescost analyze --json` or `--out`."
        case .invalidReport(let file, let reason):
            "\(file) is not a whole report.json (`\(JSONReportRenderer.schema)`): \(reason). Write it again with `placescost analyze --json`."
        case .noSearches(let file):
            "\(file) holds no search, so it has no cost per search to compare."
        case .costRose(let basis, let rise, let before, let after, let allowed):
            (rise.map { "cost per \(basis.singular) rose \(Money.plain($0, digits: 1))% " } ?? "cost per \(basis.singular) rose ")
                + "(from \(CompareError.perSearch(before)) to \(after.map(CompareError.perSearch) ?? "no selection at all")), more than the \(Money.plain(allowed, digits: 2))% allowed."
        }
    }

    /// A cost per search or selection with the four decimals that make a change of a few percent
    /// visible.
    static func perSearch(_ usd: Double) -> String {
        Money.usd(usd, digits: 4)
    }
}
