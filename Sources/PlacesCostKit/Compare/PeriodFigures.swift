/// The figures of one side of a comparison: one period, or one build of the app, as `analyze`
/// reported it (`docs/cli.md`, "compare").
///
/// Every figure is read from, or computed from, members of `report.json`; the per-search and
/// per-month figures are defined here once:
///
/// - billed searches = `searches.total` × `assumptions.scale` (the volume the money is for), and
///   billed selections = `searches.completed` × `assumptions.scale` (`SavingBasis`);
/// - list cost per search = `headline.current_list_cost_usd` / billed searches: the calls as
///   made, at first-tier list prices, before the free caps (a monthly allowance that belongs to
///   no search, so that per-search costs compare across volumes); per selection the same over
///   billed selections;
/// - per month = for the period / `headline.months`, the calendar months billed, as `analyze`
///   states its bill and savings a month.
struct PeriodFigures: Sendable, Equatable {
    /// One anomaly: its count in the log and what those calls cost at list prices in the period.
    struct AnomalyFigure: Sendable, Equatable {
        var name: String
        var count: Int
        var listCostUSD: Double
    }

    /// What `analyze` recommends for this side.
    struct Advice: Sendable, Equatable {
        var strategy: String
        var delay: Int
        var keepsCurrent: Bool
        var costUSD: Double
        var listCostUSD: Double
        var savingsUSDPerMonth: Double
    }

    /// The largest dollar figure or mean a report may state: far past any bill, and small enough
    /// that every figure computed from it (per 1,000 searches with the smallest `--scale`, a month's
    /// saving) stays finite. Costs are from 0; the saving may be negative.
    static let largestFigure = 1e15

    /// First and last call (RFC 3339), days covered, calendar months billed.
    var firstCall: String
    var lastCall: String
    var days: Int
    var months: [String]
    /// `headline.months`: the divisor of every per-month figure (at least 1).
    var monthCount: Int
    /// Calls read (`input.records`).
    var calls: Int
    var searches: Int
    var completed: Int
    var scale: Double
    /// Mean autocomplete calls per search.
    var requestsPerSearch: Double
    var pricingID: String
    /// The `current` strategy (the calls as made) for the period: the bill after free caps and
    /// tiers, and at list prices.
    var currentCostUSD: Double
    var currentCostUSDPerMonth: Double
    var currentListCostUSD: Double
    /// Every anomaly `report.json` names, in its order.
    var anomalies: [AnomalyFigure]
    var advice: Advice

    /// The searches the money is for.
    var billedSearches: Double { Double(searches) * scale }
    var searchesPerMonth: Double { billedSearches / Double(monthCount) }
    var currentListCostUSDPerMonth: Double { currentListCostUSD / Double(monthCount) }
    var listCostPerSearchUSD: Double { currentListCostUSD / billedSearches }
    var listCostPer1000SearchesUSD: Double { listCostPerSearchUSD * 1000 }
    /// The searches that ended with a selection, as billed; `listCostPerSelectionUSD` is nil
    /// for a side without one.
    var billedSelections: Double { Double(completed) * scale }
    var selectionsPerMonth: Double { billedSelections / Double(monthCount) }
    var listCostPerSelectionUSD: Double? { completed > 0 ? currentListCostUSD / billedSelections : nil }

    /// The billed units of `basis` a month.
    func perMonth(_ basis: SavingBasis) -> Double {
        basis == .selections ? selectionsPerMonth : searchesPerMonth
    }

    /// The list cost per unit of `basis`; nil per selection on a side without one.
    func listCost(per basis: SavingBasis) -> Double? {
        basis == .selections ? listCostPerSelectionUSD : listCostPerSearchUSD
    }
    /// Share of searches that ended with a selection, 0...1.
    var completionRate: Double { Double(completed) / Double(searches) }

    /// The figures of `document`; `file` names it in errors.
    ///
    /// - Throws: `CompareError.noSearches` when the period holds no search,
    ///   `.invalidReport` when an anomaly is missing, or a figure is out of range (`largestFigure`,
    ///   `--scale`'s range).
    init(_ document: ReportDocument, file: String) throws {
        guard let period = document.period else { throw CompareError.noSearches(file: file) }
        let headline = document.headline
        guard CostCalculator.Options.scaleRange.contains(document.assumptions.scale) else {
            throw CompareError.invalidReport(file: file, reason: "`assumptions.scale` is not a factor `--scale` takes (0.000001 to 1,000,000)")
        }
        guard document.searches.total > 0 else { throw CompareError.noSearches(file: file) }
        firstCall = period.first_call
        lastCall = period.last_call
        days = period.days
        months = period.months
        monthCount = headline.months
        calls = document.input.records
        searches = document.searches.total
        completed = document.searches.completed
        scale = document.assumptions.scale
        /// A figure as read, or why it cannot be compared.
        func figure(_ value: Double, _ member: String, negative: Bool = false) throws -> Double {
            let range = negative ? -Self.largestFigure ... Self.largestFigure : 0 ... Self.largestFigure
            guard range.contains(value) else {
                throw CompareError.invalidReport(file: file, reason: "`\(member)` is not a number from \(negative ? "-10^15" : "0") to 10^15")
            }
            return value
        }
        requestsPerSearch = try figure(document.searches.avg_requests, "searches.avg_requests")
        pricingID = document.pricing.id
        currentCostUSD = try figure(headline.current_cost_usd, "headline.current_cost_usd")
        currentCostUSDPerMonth = try figure(headline.current_cost_usd_per_month, "headline.current_cost_usd_per_month")
        currentListCostUSD = try figure(headline.current_list_cost_usd, "headline.current_list_cost_usd")
        let costs = Dictionary(try document.anomaly_costs.map { ($0.name, try figure($0.billed_list_usd, "anomaly_costs[].billed_list_usd")) }) { first, _ in first }
        let known = Anomalies().named.map(\.name)
        for name in known where document.anomalies[name] == nil {
            throw CompareError.invalidReport(file: file, reason: "`anomalies.\(name)` is missing")
        }
        let names = known + document.anomalies.keys.filter { !known.contains($0) }.sorted()
        anomalies = names.map { AnomalyFigure(name: $0, count: document.anomalies[$0]!, listCostUSD: costs[$0] ?? 0) }
        advice = Advice(
            strategy: headline.recommended_strategy, delay: headline.recommended_delay, keepsCurrent: headline.keep_current,
            costUSD: try figure(headline.recommended_cost_usd, "headline.recommended_cost_usd"),
            listCostUSD: try figure(headline.recommended_list_cost_usd, "headline.recommended_list_cost_usd"),
            savingsUSDPerMonth: try figure(headline.savings_usd_per_month, "headline.savings_usd_per_month", negative: true)
        )
    }
}
