import Foundation

/// Renders a `Forecast.Result` (`simulate --from`): the bill per month and strategy, the totals,
/// the free caps and the volume from which each strategy costs money; as Markdown, as JSON
/// (`placescost.forecast/1`, `docs/schema/forecast.schema.json`) and as one bar
/// chart per strategy of the bill per month.
struct ForecastRenderer: Sendable {
    /// The `schema` of `simulate --from --json` (`docs/schema/forecast.schema.json`): a document
    /// of its own, since it holds months of measured traffic rather than a typed scenario.
    static let schema = "placescost.forecast/1"

    init() {}

    /// The chart of `strategy`'s bill per month, at delay 0.
    static func chartPath(_ strategy: StrategyID) -> String {
        "charts/bill-\(strategy.rawValue.replacingOccurrences(of: "_", with: "-")).svg"
    }

    /// The delays of the monthly tables: 0 and the recommended one.
    private func delays(_ result: Forecast.Result) -> [Int] {
        result.recommendedDelay == 0 ? [0] : [0, result.recommendedDelay]
    }

    private func volumeSentence(_ result: Forecast.Result, source: String) -> String {
        switch result.volume {
        case .measured:
            "The traffic of \(source) at its own volume, month by month" + (result.pinnedTable.map { ", priced with `\($0)`." } ?? ", priced with the tables it was priced with.")
        case .projected(let searches, let months, let growth, let start):
            "The traffic of \(source), per search, at \(Money.counted(ForecastRenderer.searches(searches), "search", "searches")) in \(Forecast.label(start))"
                + (growth == 0 ? "" : ", growing \(Money.plain(growth))% a month")
                + ", for \(months) month\(months == 1 ? "" : "s"); "
                + (result.pinnedTable.map { "every month priced with `\($0)`." } ?? "each month priced with the table in force that month for the calls' API generation.")
                + (result.months.contains { $0.searches != $0.searches.rounded() } ? " Searches are shown to the whole search; each month is billed for its exact volume." : "")
        }
    }

    /// Searches as people count them, whole: growth and `--scale` make fractional volumes, which
    /// are billed as they are. A volume under one search keeps its decimals rather than show 0.
    static func searches(_ value: Double) -> String {
        value == 0 || abs(value) >= 1 ? Money.count(value) : Money.plain(value)
    }

    func markdown(_ result: Forecast.Result, source: String, brief: Bool = false) -> String {
        var lines: [String] = []
        let months = result.months.count
        lines.append("# What-if from measured traffic: \(ForecastRenderer.searches(result.searches)) searches over \(months) month\(months == 1 ? "" : "s")")
        lines.append("")
        lines.append(volumeSentence(result, source: MarkdownText.name(source)))
        lines.append("")
        if let table = result.pinnedTable, !result.movedFrom.isEmpty {
            let from = result.movedFrom.map(ForecastError.name).joined(separator: " and ")
            lines.append("The measured \(from) searches are billed again, search shape by search shape, by the rules of `\(table)`: its session rules and field-mask SKUs, as `analyze --pricing \(table)` prices them.")
            lines.append("")
        }
        for delay in delays(result) {
            lines.append("Bill per month at delay \(delay)\(delay == result.recommendedDelay && delay != 0 ? " (the recommended delay)" : "") (free caps, tiers and credit applied):")
            lines.append("")
            lines.append("| month | searches | tables | " + StrategyID.allCases.map { "`\($0.rawValue)`" }.joined(separator: " | ") + " |")
            lines.append("|---|---:|---|" + StrategyID.allCases.map { _ in "---:|" }.joined())
            for month in result.months {
                let cells = StrategyID.allCases.map { strategy in
                    month.bills[Forecast.Key(strategy: strategy, delay: delay)].map { Money.usd($0.costUSD) } ?? ""
                }
                lines.append("| \(month.label) | \(ForecastRenderer.searches(month.searches)) | \(month.tables.map { "`\($0)`" }.joined(separator: ", ")) | " + cells.joined(separator: " | ") + " |")
            }
            let totals = StrategyID.allCases.map { result.total($0, delay: delay).map { "**\(Money.usd($0.costUSD))**" } ?? "" }
            lines.append("| **total** | \(ForecastRenderer.searches(result.searches)) | | " + totals.joined(separator: " | ") + " |")
            lines.append("")
        }
        let invalid = StrategyID.allCases.filter { result.total($0, delay: 0)?.valid == false }
        if !invalid.isEmpty {
            lines.append("Not valid for this app (it needs details they drop): " + invalid.map { "`\($0.rawValue)`" }.joined(separator: ", ") + ".")
            lines.append("")
        }
        lines.append(contentsOf: freeCapsLines(result))
        if let cheapest = result.cheapest, let total = result.total(cheapest.strategy, delay: cheapest.delay) {
            lines.append("Cheapest valid option over the period: `\(cheapest.strategy.rawValue)` at delay \(cheapest.delay), \(Money.usd(total.costUSD)).")
            lines.append("")
        }
        if !brief {
            lines.append("Events per search are the log's, per strategy and delay, per SKU; a month with V searches bills V times them with that month's free caps, tiers and credit. At the log's own volume and tables this is the bill `analyze` reported.")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Whether the simulation sits inside the free caps, and from which monthly volume each
    /// strategy (at delay 0 and the recommended delay) bills money.
    private func freeCapsLines(_ result: Forecast.Result) -> [String] {
        var lines: [String] = []
        if result.insideFreeCaps {
            lines.append("Every strategy bills $0.00 in every month: this volume stays inside the free caps.")
        } else {
            let free = StrategyID.allCases.filter { result.total($0, delay: 0).map { Money.micros($0.costUSD) == 0 } ?? false }
            if !free.isEmpty {
                lines.append("Inside the free caps in every month at delay 0: " + free.map { "`\($0.rawValue)`" }.joined(separator: ", ") + ".")
            }
        }
        if !lines.isEmpty { lines.append("") }
        lines.append("Monthly volume from which each strategy bills more than $0 (with the free caps, tiers and credit of \(result.breakEvenMonth)'s tables):")
        lines.append("")
        lines.append("| strategy | " + delays(result).map { "delay \($0)" }.joined(separator: " | ") + " |")
        lines.append("|---|" + delays(result).map { _ in "---:|" }.joined())
        for strategy in StrategyID.allCases {
            let cells = delays(result).map { delay -> String in
                guard let total = result.total(strategy, delay: delay) else { return "" }
                return total.billsFrom.map { "\(Money.plain($0)) searches" } ?? "never"
            }
            lines.append("| `\(strategy.rawValue)` | " + cells.joined(separator: " | ") + " |")
        }
        lines.append("")
        return lines
    }

    func json(_ result: Forecast.Result, source: String) -> JSONValue {
        let volume: JSONValue
        switch result.volume {
        case .measured:
            volume = .object([("kind", .string("measured"))])
        case .projected(let searches, let months, let growth, let start):
            volume = .object([
                ("kind", .string("projected")), ("searches_per_month", .number(searches)), ("months", .int(months)),
                ("growth_pct", .number(growth)), ("start", .string(Forecast.label(start))),
            ])
        }
        return .object([
            ("schema", .string(ForecastRenderer.schema)),
            ("from", .object([
                ("input", .string(source)),
                ("volume", volume),
                ("pricing", result.pinnedTable.map { .string($0) } ?? .null),
                ("recommended_delay", .int(result.recommendedDelay)),
                ("break_even_month", .string(result.breakEvenMonth)),
            ])),
            ("months", .array(result.months.map { month in
                .object([
                    ("month", .string(month.label)),
                    ("searches", .number(month.searches)),
                    ("tables", .array(month.tables.map { .string($0) })),
                    ("strategies", .array(result.totals.map { total in
                        let bill = month.bills[total.key]
                        return .object([
                            ("id", .string(total.key.strategy.rawValue)), ("delay", .int(total.key.delay)),
                            ("list_cost_usd", .number(bill?.listCostUSD ?? 0)), ("credit_usd", .number(bill?.creditUSD ?? 0)),
                            ("cost_usd", .number(bill?.costUSD ?? 0)),
                        ])
                    })),
                ])
            })),
            ("strategies", .array(result.totals.map { total in
                .object([
                    ("id", .string(total.key.strategy.rawValue)), ("delay", .int(total.key.delay)), ("valid", .bool(total.valid)),
                    ("list_cost_usd", .number(total.listCostUSD)), ("cost_usd", .number(total.costUSD)),
                    ("bills_from_searches_per_month", total.billsFrom.map { .number($0) } ?? .null),
                ])
            })),
            ("inside_free_caps", .bool(result.insideFreeCaps)),
            ("cheapest", result.cheapest.map { .object([("id", .string($0.strategy.rawValue)), ("delay", .int($0.delay))]) } ?? .null),
        ])
    }

    /// One chart per strategy: its bill in each month at delay 0.
    func charts(_ result: Forecast.Result) -> [(path: String, contents: String)] {
        StrategyID.allCases.map { strategy in
            let key = Forecast.Key(strategy: strategy, delay: 0)
            let chart = BarChart(
                title: "Bill per month: \(strategy.rawValue), delay 0",
                caption: "Free caps, tiers and credit applied",
                valueAxisLabel: "USD", categoryAxisLabel: "month", orientation: .vertical,
                bars: result.months.map { month in
                    let cost = month.bills[key]?.costUSD ?? 0
                    return BarChart.Bar(label: month.label, value: cost, valueLabel: Money.usd(cost))
                }
            )
            return (ForecastRenderer.chartPath(strategy), SVGChartRenderer().render(chart))
        }
    }

    /// Every file `files` writes, whatever the result.
    static let paths = ["simulation.md", "simulation.json"] + StrategyID.allCases.map(chartPath)

    /// `simulation.md`, `simulation.json` and the charts, for `--out`.
    func files(_ result: Forecast.Result, source: String) -> [(path: String, contents: String)] {
        var markdown = markdown(result, source: source)
        markdown += "\n" + StrategyID.allCases.map { "![\($0.rawValue)](\(ForecastRenderer.chartPath($0)))" }.joined(separator: "\n") + "\n"
        return [("simulation.md", markdown), ("simulation.json", json(result, source: source).rendered())] + charts(result)
    }
}
