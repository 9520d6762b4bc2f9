/// What changed between two periods or two builds of an app: the figures of each side and the
/// differences between them (`docs/cli.md`, "compare").
///
/// The saving is normalised by search volume, so that two periods of different traffic compare
/// fairly: what the after side's searches would have cost at the before side's list cost per
/// search, less what they cost:
///
///     monthly saving = (before list cost per search − after list cost per search)
///                      × after searches per month
///
/// with the per-search and per-month figures of `PeriodFigures`. When both sides have the same
/// searches a month it is the difference of their list bills a month.
struct Comparison: Sendable, Equatable {
    /// One anomaly on both sides; zero on a side that did not see it.
    struct AnomalyChange: Sendable, Equatable {
        var name: String
        var before: PeriodFigures.AnomalyFigure
        var after: PeriodFigures.AnomalyFigure
    }

    var before: PeriodFigures
    var after: PeriodFigures
    /// The inputs as the user named them, for the Markdown; `comparison.json` leaves them out,
    /// so that it is the same whether a side was a log or its `report.json`.
    var beforeInput = "before"
    var afterInput = "after"

    /// `monthly saving` above; negative when the cost per search rose.
    let monthlySavingUSD: Double
    /// The change of the list cost per search, in percent of the before side's; nil when the
    /// before side cost $0 a search (or so little that the percent is past any number) and the
    /// after side more (a rise from nothing has no percent).
    let costPerSearchChangePercent: Double?
    /// The change of the searches in the log, in percent of the before side's.
    let searchesChangePercent: Double
    let requestsPerSearchChange: Double
    /// In percentage points.
    let completionRateChangePoints: Double
    /// Every anomaly either side names, in `report.json`'s order.
    let anomalies: [AnomalyChange]
    /// Whether the recommended strategy or delay differ.
    let recommendationChanged: Bool

    init(before: PeriodFigures, after: PeriodFigures) {
        self.before = before
        self.after = after
        let beforePerSearch = before.listCostPerSearchUSD
        let afterPerSearch = after.listCostPerSearchUSD
        monthlySavingUSD = (beforePerSearch - afterPerSearch) * after.searchesPerMonth
        if beforePerSearch > 0 {
            // A before cost so small that the change overflows is a rise from nothing, too.
            let change = (afterPerSearch - beforePerSearch) / beforePerSearch * 100
            costPerSearchChangePercent = change.isFinite ? change : nil
        } else {
            costPerSearchChangePercent = afterPerSearch > 0 ? nil : 0
        }
        searchesChangePercent = Double(after.searches - before.searches) / Double(before.searches) * 100
        requestsPerSearchChange = after.requestsPerSearch - before.requestsPerSearch
        completionRateChangePoints = (after.completionRate - before.completionRate) * 100
        let names = before.anomalies.map(\.name) + after.anomalies.map(\.name).filter { name in !before.anomalies.contains { $0.name == name } }
        anomalies = names.map { name in
            let none = PeriodFigures.AnomalyFigure(name: name, count: 0, listCostUSD: 0)
            return AnomalyChange(
                name: name,
                before: before.anomalies.first { $0.name == name } ?? none,
                after: after.anomalies.first { $0.name == name } ?? none
            )
        }
        recommendationChanged = before.advice.strategy != after.advice.strategy || before.advice.delay != after.advice.delay
    }

    /// Whether the cost per search rose by more than `percent` (`--fail-if-cost-per-search-rises`):
    /// any rise from $0 does.
    func costPerSearchRises(moreThan percent: Double) -> Bool {
        guard let change = costPerSearchChangePercent else { return true }
        return change > percent
    }
}
