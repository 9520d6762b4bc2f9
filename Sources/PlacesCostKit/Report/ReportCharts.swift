/// The charts `report.md` links to, as `BarChart` values built from an `Analysis`.
public enum ReportCharts {
    public static let requestsPerSearch = "charts/requests-per-search.svg"
    public static let charactersAtSelection = "charts/chars-at-selection.svg"
    public static let strategyCosts = "charts/strategy-costs.svg"
    /// Every chart file, in the order `report.json` lists them.
    public static let files = [requestsPerSearch, charactersAtSelection, strategyCosts]

    public static func charts(_ analysis: Analysis) -> [(path: String, chart: BarChart)] {
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
            (strategyCosts, BarChart(
                title: "Cost of the same searches by strategy",
                caption: "at first-tier list prices for the period; recommended in colour",
                valueAxisLabel: "USD", categoryAxisLabel: "strategy and delay", orientation: .horizontal,
                bars: advice.highlights.sorted { ($0.listCostUSD, $0.strategy, $0.delay) < ($1.listCostUSD, $1.strategy, $1.delay) }.map { option in
                    BarChart.Bar(
                        label: option.strategy.rawValue + (option.delay > 0 ? ", delay \(option.delay)" : "") + (option.valid ? "" : " (not valid)"),
                        value: option.listCostUSD, valueLabel: Money.usd(option.listCostUSD),
                        highlighted: option == advice.recommended
                    )
                }
            )),
        ]
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
