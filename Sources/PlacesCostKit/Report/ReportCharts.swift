/// The charts `report.md` links to, as `BarChart` values built from an `Analysis`.
enum ReportCharts {
    static let requestsPerSearch = "charts/requests-per-search.svg"
    static let charactersAtSelection = "charts/chars-at-selection.svg"
    static let strategyCosts = "charts/strategy-costs.svg"
    static let dailyCalls = "charts/daily-calls.svg"
    static let dailyCostPerSearch = "charts/daily-cost-per-search.svg"
    /// The chart files of every report, in the order `report.json` lists them.
    static let files = [requestsPerSearch, charactersAtSelection, strategyCosts]
    /// The chart files any report may have: a new report removes an earlier one's it does not draw.
    static let anyFiles = files + [dailyCalls, dailyCostPerSearch]

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

    /// "day", or "N days" when a bar of the daily charts holds several (`daysPerBar`).
    static func dailyBarName(_ analysis: Analysis) -> String {
        let span = dailyDays(analysis).map(daysPerBar) ?? 1
        return span == 1 ? "day" : Money.count(span, "day", "days")
    }

    static func dailyCallsTitle(_ analysis: Analysis) -> String {
        "Calls by \(dailyBarName(analysis))"
    }

    static func dailyCostTitle(_ analysis: Analysis) -> String {
        let bar = dailyBarName(analysis)
        return dailyListPrices(analysis) ? "Cost per search by \(bar), at list prices (the bill is $0 at this volume)" : "Bill per search by \(bar)"
    }

    static func charts(_ analysis: Analysis) -> [(path: String, chart: BarChart)] {
        let stats = analysis.statistics
        let advice = analysis.recommendation
        // The break-even counts only where the tree asks it: an app that needs Place Details
        // takes sessions whatever its requests.
        let breakEven = advice.evidence.needsDetails.needsDetails ? nil : analysis.pricing.breakEvenRequests
        var requests = histogram(
            stats.requestsHistogram, from: 1,
            title: "Autocomplete requests per search",
            caption: "\(Money.count(stats.total, "search", "searches")); mean \(Money.plain(stats.meanRequests))"
                + (breakEven.map { ", break-even \(Money.plain($0)) (dashed): per request costs less while searches average at most that" } ?? "; the app needs Place Details, so no break-even applies"),
            category: "autocomplete requests in the search"
        )
        requests.markers = breakEven.map { [BarChart.Marker(position: $0, label: "break-even \(Money.plain($0))")] } ?? []
        return [
            (requestsPerSearch, requests),
            (charactersAtSelection, histogram(
                stats.charactersAtSelectionHistogram, from: 0,
                title: "Characters typed at selection",
                caption: "completed searches with recorded input; mean \(Money.plain(stats.meanCharactersAtSelection))",
                category: "characters typed when the place was chosen"
            )),
            (strategyCosts, strategyChart(advice)),
        ] + dailyCharts(analysis)
    }

    /// The most bars a histogram draws: its last bar then holds every larger value ("99+"), so
    /// one search of a million characters draws a chart of the usual size.
    static let maxHistogramBars = 100
    /// The most bars a daily chart draws: past it, each bar holds as many days as it takes to
    /// draw the whole period in at most this many (a log whose times span centuries draws a
    /// chart of the usual size, not one bar a day).
    static let maxDailyBars = 400

    /// The days of each bar of the daily charts: 1, or as many as keep the bars within
    /// `maxDailyBars`.
    static func daysPerBar(_ days: ClosedRange<Int>) -> Int {
        (days.count + maxDailyBars - 1) / maxDailyBars
    }

    /// Calls per day and the current cost per search per day, every day of the period (days
    /// without a call at 0), from the `--by day` groups; over a period longer than
    /// `maxDailyBars` days, per `daysPerBar` days, each bar labelled with its first day.
    static func dailyCharts(_ analysis: Analysis) -> [(path: String, chart: BarChart)] {
        guard let days = dailyDays(analysis), let breakdown = analysis.groups else { return [] }
        let span = daysPerBar(days)
        var byBar: [Int: [GroupBreakdown.Group]] = [:]
        for group in breakdown.groups {
            if let day = group.day { byBar[(day - days.lowerBound) / span, default: []].append(group) }
        }
        let bars = (0..<(days.count + span - 1) / span).map { bar in
            (first: days.lowerBound + bar * span, group: byBar[bar].map(GroupBreakdown.sum))
        }
        let list = dailyListPrices(analysis)
        func label(_ day: Int) -> String {
            let date = CivilDate(daysSinceEpoch: day)
            return span == 1 ? String(format: "%02d-%02d", date.month, date.day) : String(format: "%04d-%02d-%02d", date.year, date.month, date.day)
        }
        let unit = span == 1 ? "day (MM-DD)" : "\(dailyBarName(analysis)) from (YYYY-MM-DD)"
        let zone = analysis.pricing.scale == 1 ? "" : "; money at --scale \(Money.argument(analysis.pricing.scale, digits: 6))"
        let calls = BarChart(
            title: dailyCallsTitle(analysis),
            caption: "\(Money.count(breakdown.total.calls, "call", "calls")) over \(Money.count(days.count, "day", "days")); each call on its own day",
            valueAxisLabel: "calls", categoryAxisLabel: unit, orientation: .vertical,
            bars: bars.map { bar in
                let count = bar.group?.calls ?? 0
                return BarChart.Bar(label: label(bar.first), value: Double(count), valueLabel: Money.count(count))
            }
        )
        let cost = BarChart(
            title: dailyCostTitle(analysis),
            caption: "the calls as made (current); each search on the day of its first call" + zone,
            valueAxisLabel: "USD per search", categoryAxisLabel: unit, orientation: .vertical,
            bars: bars.map { bar in
                let value = bar.group.flatMap { list ? $0.listCostPerSearchUSD($0.current) : $0.costPerSearchUSD($0.current) } ?? 0
                return BarChart.Bar(label: label(bar.first), value: value, valueLabel: Money.usd(value, digits: 4))
            }
        )
        return [(dailyCalls, calls), (dailyCostPerSearch, cost)]
    }

    /// Whether the strategy chart shows list prices: when every option it shows bills $0.
    static func chartsListPrices(_ advice: Recommendation) -> Bool {
        advice.highlights.allSatisfy { Money.micros($0.costUSD) == 0 }
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

    /// One bar per value from `from` to the largest seen, zero-filled so the shape reads right;
    /// past `maxHistogramBars` bars, the last holds every larger value ("99+").
    private static func histogram(_ counts: [Int: Int], from: Int, title: String, caption: String, category: String) -> BarChart {
        let upper = counts.keys.max() ?? from - 1
        let last = min(upper, from + maxHistogramBars - 1)
        let bars: [BarChart.Bar] = upper < from ? [] : (from...last).map { value in
            let holdsTheRest = value == last && value < upper
            let count = holdsTheRest ? counts.reduce(0) { $0 + ($1.key >= value ? $1.value : 0) } : counts[value] ?? 0
            return BarChart.Bar(label: String(value) + (holdsTheRest ? "+" : ""), value: Double(count), valueLabel: Money.count(count))
        }
        return BarChart(title: title, caption: caption, valueAxisLabel: "searches", categoryAxisLabel: category, orientation: .vertical, bars: bars)
    }
}
