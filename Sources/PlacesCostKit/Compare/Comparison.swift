/// What changed between two periods or two builds of an app: the figures of each side and the
/// differences between them (`docs/cli.md`, "compare").
///
/// The saving is normalised by volume, so that two periods of different traffic compare fairly:
/// what the after side's selections (`SavingBasis`; searches when a side has no selection)
/// would have cost at the before side's list cost per selection, less what they cost:
///
///     monthly saving = (before list cost per selection − after list cost per selection)
///                      × after selections per month
///
/// with the per-unit and per-month figures of `PeriodFigures`. When both sides have the same
/// selections a month it is the difference of their list bills a month.
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

    /// What the saving is per: selections when both sides have one.
    let basis: SavingBasis
    /// `monthly saving` above; negative when the cost per unit of `basis` rose.
    let monthlySavingUSD: Double
    /// The change of the list cost per search, in percent of the before side's; nil when the
    /// before side cost $0 a search (or so little that the percent is past any number) and the
    /// after side more (a rise from nothing has no percent).
    let costPerSearchChangePercent: Double?
    /// The same per selection; nil also when a side has no selection.
    let costPerSelectionChangePercent: Double?
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
        basis = SavingBasis(before: before, after: after)
        monthlySavingUSD = ((before.listCost(per: basis) ?? 0) - (after.listCost(per: basis) ?? 0)) * after.perMonth(basis)
        costPerSearchChangePercent = Comparison.changePercent(from: before.listCostPerSearchUSD, to: after.listCostPerSearchUSD)
        if let beforePerSelection = before.listCostPerSelectionUSD, let afterPerSelection = after.listCostPerSelectionUSD {
            costPerSelectionChangePercent = Comparison.changePercent(from: beforePerSelection, to: afterPerSelection)
        } else {
            costPerSelectionChangePercent = nil
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

    /// The change from `before` to `after` in percent of `before`; nil for a rise from $0, or
    /// from so little that the percent is past any number.
    static func changePercent(from before: Double, to after: Double) -> Double? {
        guard before > 0 else { return after > 0 ? nil : 0 }
        let change = (after - before) / before * 100
        return change.isFinite ? change : nil
    }

    /// Whether the cost per search rose by more than `percent` (`--fail-if-cost-per-search-rises`):
    /// any rise from $0 does.
    func costPerSearchRises(moreThan percent: Double) -> Bool {
        guard let change = costPerSearchChangePercent else { return true }
        return change > percent
    }

    /// Whether the cost per selection rose by more than `percent`
    /// (`--fail-if-cost-per-selection-rises`): any rise from $0 does, and so does a side without
    /// a selection, after one with (its cost per selection is past any).
    func costPerSelectionRises(moreThan percent: Double) -> Bool {
        if before.completed > 0, after.completed == 0 { return true }
        guard before.completed > 0 else { return false }
        guard let change = costPerSelectionChangePercent else { return true }
        return change > percent
    }
}
