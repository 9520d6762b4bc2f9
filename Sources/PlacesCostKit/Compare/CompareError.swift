/// Why `compare` could not compare, or why a comparison failed the check it was asked for.
enum CompareError: Error, Equatable, CustomStringConvertible {
    /// A JSON document whose `schema` is not `placescost.report/1` (another of the tool's
    /// outputs, or another program's JSON with a `schema` key).
    case notAReport(file: String, schema: String)
    /// A `report.json` that lacks a key the comparison reads, or holds it with the wrong type.
    case invalidReport(file: String, reason: String)
    /// A side without a search: its cost per search is undefined.
    case noSearches(file: String)
    /// `--fail-if-cost-per-search-rises PCT`: the cost per search rose by more than allowed.
    /// `risePercent` is nil when the before side cost $0 a search (a rise from nothing).
    case costPerSearchRose(risePercent: Double?, before: Double, after: Double, allowedPercent: Double)

    var description: String {
        switch self {
        case .notAReport(let file, let schema):
            "\(file) is a `\(schema)` document, not a report.json of `analyze` (`\(JSONReportRenderer.schema)`). Give compare a log, a directory of logs or a report.json written by `placescost analyze --json` or `--out`."
        case .invalidReport(let file, let reason):
            "\(file) is not a whole report.json (`\(JSONReportRenderer.schema)`): \(reason). Write it again with `placescost analyze --json`."
        case .noSearches(let file):
            "\(file) holds no search, so it has no cost per search to compare."
        case .costPerSearchRose(let rise, let before, let after, let allowed):
            (rise.map { "cost per search rose \(Money.plain($0, digits: 1))% " } ?? "cost per search rose ")
                + "(from \(CompareError.perSearch(before)) to \(CompareError.perSearch(after))), more than the \(Money.plain(allowed, digits: 2))% allowed."
        }
    }

    /// A cost per search with the four decimals that make a change of a few percent visible.
    static func perSearch(_ usd: Double) -> String {
        Money.usd(usd, digits: 4)
    }
}
