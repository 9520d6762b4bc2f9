/// The charts `report.md` links to, as `BarChart` values built from an `Analysis`.
enum ReportCharts {
    static let requestsPerSearch = "charts/requests-per-search.svg"
    static let charactersAtSelection = "charts/chars-at-selection.svg"
    static let strategyCosts = "charts/strategy-costs.svg"
    /// Every chart file, in the order `report.json` lists them.
    static let files = [requestsPerSearch, charactersAtSelection, strategyCosts]

    static func charts(_ analysis: Analysis) -> [(path: String, chart: BarChart)] {
        let stats = analysis.statistics
        let advice = analysis.recommendation
        return [
            (requestsPerSearch, histogram(
                stats.requestsHistogram, from: 1,
                title: "Autocomplete requests per search",
                caption: "\(Money.count(stats.total)) searches; mean \(Money.plain(stats.meanRequests)), break-even \(Money.plain(analysis.pricing.breakEvenRequests))",
                category: "autocomplete requests in the search"
            )),
            (charactersAtSelection, histogram(
                stats.charactersAtSelectionHistogram, from: 0,
                title: "Characters typed at selection",
                caption: "completed searches with recorded input; mean \(Money.plain(stats.meanCharactersAtSelection))",
                category: "characters typed when the place was chosen"
            )),
            (strategyCosts, strategyChart(advice)),
        ]
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
