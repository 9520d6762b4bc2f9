/// The figures of one side of a comparison: one period, or one build of the app, as `analyze`
/// reported it (`docs/cli.md`, "compare").
///
/// Every figure is read from, or computed from, members of `report.json`; the per-search and
/// per-month figures are defined here once:
///
/// - billed searches = `searches.total` × `assumptions.scale` (the volume the money is for);
/// - list cost per search = `headline.current_list_cost_usd` / billed searches: the calls as
///   made, at first-tier list prices, before the free caps (a monthly allowance that belongs to
///   no search, so that per-search costs compare across volumes);
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
    /// Share of searches that ended with a selection, 0...1.
    var completionRate: Double { Double(completed) / Double(searches) }

    /// The figures of `document`; `file` names it in errors.
    ///
    /// - Throws: `CompareError.noSearches` when the period holds no search,
    ///   `.invalidReport` when an anomaly is missing or a figure is out of range.
    init(_ document: ReportDocument, file: String) throws {
        guard let period = document.period else { throw CompareError.noSearches(file: file) }
        let headline = document.headline
        guard headline.months >= 1 else { throw CompareError.invalidReport(file: file, reason: "`headline.months` is not a whole number of months from 1") }
        guard document.assumptions.scale > 0, document.assumptions.scale.isFinite else {
            throw CompareError.invalidReport(file: file, reason: "`assumptions.scale` is not a positive number")
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
        requestsPerSearch = document.searches.avg_requests
        pricingID = document.pricing.id
        currentCostUSD = headline.current_cost_usd
        currentCostUSDPerMonth = headline.current_cost_usd_per_month
        currentListCostUSD = headline.current_list_cost_usd
        let costs = Dictionary(document.anomaly_costs.map { ($0.name, $0.billed_list_usd) }) { first, _ in first }
        let known = Anomalies().named.map(\.name)
        for name in known where document.anomalies[name] == nil {
            throw CompareError.invalidReport(file: file, reason: "`anomalies.\(name)` is missing")
        }
        let names = known + document.anomalies.keys.filter { !known.contains($0) }.sorted()
        anomalies = names.map { AnomalyFigure(name: $0, count: document.anomalies[$0]!, listCostUSD: costs[$0] ?? 0) }
        advice = Advice(
            strategy: headline.recommended_strategy, delay: headline.recommended_delay, keepsCurrent: headline.keep_current,
            costUSD: headline.recommended_cost_usd, listCostUSD: headline.recommended_list_cost_usd,
            savingsUSDPerMonth: headline.savings_usd_per_month
        )
    }
}
