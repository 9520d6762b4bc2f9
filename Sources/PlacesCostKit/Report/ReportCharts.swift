/// The charts `report.md` links to, as `BarChart` values built from an `Analysis`.
enum ReportCharts {
    static let requestsPerSearch = "charts/requests-per-search.svg"
    static let charactersAtSelection = "charts/chars-at-selection.svg"
    static let strategyCosts = "charts/strategy-costs.svg"
    static let dailyCalls = "charts/daily-calls.svg"
    static let dailyCostPerSearch = "charts/daily-cost-per-search.svg"
    /// The chart files of every report, in the order `report.json` lists them.
    static let files = [requestsPerSearch, charactersAtSelection, strategyCosts]

    /// The chart files of this report: with `--by day` over two days or more, the daily charts too.
    static func files(_ analysis: Analysis) -> [String] {
        files + (dailyDays(analysis) == nil ? [] : [dailyCalls, dailyCostPerSearch])
    }

    /// The days from the first day group to the last, when `--by day` found two days or more.
    static func dailyDays(_ analysis: Analysis) -> ClosedRange<Int>? {
        guard let breakdown = analysis.groups, breakdown.dimension == .day else { return nil }
        let days = breakdown.groups.compactMap(\.day)
        guard let first = days.min(), let last = days.max(), last > first else { return nil }
        return first...last
    }

    /// Whether the daily cost chart shows list prices: when the period's current bill is $0.
    static func dailyListPrices(_ analysis: Analysis) -> Bool {
        (analysis.groups?.total.current.billedMicros ?? 0) == 0
    }

    static func dailyCostTitle(_ analysis: Analysis) -> String {
        dailyListPrices(analysis) ? "Cost per search by day, at list prices (the bill is $0 at this volume)" : "Bill per search by day"
    }

    static func charts(_ analysis: Analysis) -> [(path: String, chart: BarChart)] {
        let stats = analysis.statistics
        let advice = analysis.recommendation
        return [
            (requestsPerSearch, histogram(
                stats.requestsHistogram, from: 1,
                title: "Autocomplete requests per search",
                caption: "\(Money.count(stats.total, "search", "searches")); mean \(Money.plain(stats.meanRequests)), break-even \(Money.plain(analysis.pricing.breakEvenRequests))",
                category: "autocomplete requests in the search"
            )),
            (charactersAtSelection, histogram(
                stats.charactersAtSelectionHistogram, from: 0,
                title: "Characters typed at selection",
                caption: "completed searches with recorded input; mean \(Money.plain(stats.meanCharactersAtSelection))",
                category: "characters typed when the place was chosen"
            )),
            (strategyCosts, strategyChart(advice)),
        ] + dailyCharts(analysis)
    }

    /// Calls per day and the current cost per search per day, every day of the period (days
    /// without a call at 0), from the `--by day` groups.
    static func dailyCharts(_ analysis: Analysis) -> [(path: String, chart: BarChart)] {
        guard let days = dailyDays(analysis), let breakdown = analysis.groups else { return [] }
        let byDay = Dictionary(breakdown.groups.compactMap { group in group.day.map { ($0, group) } }, uniquingKeysWith: { first, _ in first })
        let list = dailyListPrices(analysis)
        func label(_ day: Int) -> String {
            let date = CivilDate(daysSinceEpoch: day)
            return String(format: "%02d-%02d", date.month, date.day)
        }
        let zone = analysis.pricing.scale == 1 ? "" : "; money at --scale \(Money.argument(analysis.pricing.scale, digits: 6))"
        let calls = BarChart(
            title: "Calls by day", caption: "\(Money.count(breakdown.total.calls, "call", "calls")) over \(Money.count(days.count, "day", "days")); each call on its own day",
            valueAxisLabel: "calls", categoryAxisLabel: "day (MM-DD)", orientation: .vertical,
            bars: days.map { day in
                let count = byDay[day]?.calls ?? 0
                return BarChart.Bar(label: label(day), value: Double(count), valueLabel: Money.count(count))
            }
        )
        let cost = BarChart(
            title: dailyCostTitle(analysis),
            caption: "the calls as made (current); each search on the day of its first call" + zone,
            valueAxisLabel: "USD per search", categoryAxisLabel: "day (MM-DD)", orientation: .vertical,
            bars: days.map { day in
                let group = byDay[day]
                let value = group.flatMap { list ? $0.listCostPerSearchUSD($0.current) : $0.costPerSearchUSD($0.current) } ?? 0
                return BarChart.Bar(label: label(day), value: value, valueLabel: Money.usd(value, digits: 4))
            }
        )
        return [(dailyCalls, calls), (dailyCostPerSearch, cost)]
    }

    /// Whether the strategy chart shows list prices: when every option it shows bills $0.
    static func chartsListPrices(_ advice: Recommendation) -> Bool {
        advice.highlights.allSatisfy { Advisor.micros($0.costUSD) == 0 }
    }

    /// The strategy chart's title, which says which figure it shows.
    static func strategyChartTitle(_ advice: Recommendation) -> String {
        chartsListPrices(advice)
            ? "Cost of the same searches by strategy, at list prices (every bill is $0 at this volume)"
            : "Bill for the same searches by strategy"
    }

    /// The options of the ranking table, in its order, with its figure: the bill, or the list
    /// price when every bill is $0.
    static func strategyChart(_ advice: Recommendation) -> BarChart {
        let list = chartsListPrices(advice)
        let shown = advice.highlights
        return BarChart(
            title: strategyChartTitle(advice),
            caption: (list ? "first-tier list prices for the period" : "free caps, tiers and credit applied, for the period") + "; as ranked in the report; recommended in colour",
            valueAxisLabel: "USD", categoryAxisLabel: "strategy and delay", orientation: .horizontal,
            bars: shown.map { option in
                let value = list ? option.listCostUSD : option.costUSD
                return BarChart.Bar(
                    label: option.strategy.rawValue + (option.delay > 0 ? ", delay \(option.delay)" : "") + (option.valid ? "" : " (not valid)"),
                    value: value, valueLabel: Money.usd(value),
                    highlighted: option.sameChoice(as: advice.recommended)
                )
            }
        )
    }

    /// One bar per value from `from` to the largest seen, zero-filled so the shape reads right.
    private static func histogram(_ counts: [Int: Int], from: Int, title: String, caption: String, category: String) -> BarChart {
        let upper = counts.keys.max() ?? from - 1
        let bars = upper < from ? [] : (from...upper).map { value in
            BarChart.Bar(label: String(value), value: Double(counts[value] ?? 0), valueLabel: Money.count(counts[value] ?? 0))
        }
        return BarChart(title: title, caption: caption, valueAxisLabel: "searches", categoryAxisLabel: category, orientation: .vertical, bars: bars)
    }
}
