/// Renders the scenarios of `simulate --from --scenario FILE` side by side: one column per
/// scenario in Markdown, one object per scenario in JSON (`placescost.whatif/1`,
/// `docs/schema/whatif.schema.json`), and a chart of each scenario's bill over its months.
struct ScenarioRenderer: Sendable {
    static let schema = "placescost.whatif/1"
    static let chartPath = "charts/scenario-bills.svg"

    init() {}

    private func volume(_ priced: ScenarioComparison.Priced) -> String {
        guard case .projected(let searches, let months, let growth, let start) = priced.forecast.volume else { return "the log's own" }
        return "\(Money.counted(Money.plain(searches), "search", "searches")) in \(Forecast.label(start))" + (growth == 0 ? "" : ", \(growth > 0 ? "+" : "")\(Money.plain(growth))% a month")
            + ", \(months) month\(months == 1 ? "" : "s")"
    }

    private func tables(_ priced: ScenarioComparison.Priced) -> String {
        var seen: [String] = []
        for id in priced.forecast.months.flatMap(\.tables) where !seen.contains(id) { seen.append(id) }
        return seen.map { "`\($0)`" }.joined(separator: " then ")
    }

    private func option(_ strategy: StrategyID, _ delay: Int) -> String {
        "`\(strategy.rawValue)`, delay \(delay)"
    }

    func markdown(_ scenarios: [ScenarioComparison.Priced], source: String, brief: Bool = false) -> String {
        var lines: [String] = []
        lines.append("# What-if scenarios from measured traffic: \(scenarios.count) side by side")
        lines.append("")
        lines.append("The traffic of \(MarkdownText.name(source)), per search, priced in each scenario with the table in force each month (or the scenario's `pricing`), its free caps, tiers and credit.")
        lines.append("")
        lines.append("| | " + scenarios.map { MarkdownText.name($0.scenario.name) }.joined(separator: " | ") + " |")
        lines.append("|---|" + scenarios.map { _ in "---:|" }.joined())
        func row(_ label: String, _ cell: (ScenarioComparison.Priced) -> String) {
            lines.append("| \(label) | " + scenarios.map(cell).joined(separator: " | ") + " |")
        }
        if brief {
            // Narrow cells for a terminal: the full sentences are in `--report md`.
            row("searches from") { priced in
                guard case .projected(let searches, _, _, let start) = priced.forecast.volume else { return "" }
                return "\(Money.plain(searches)) in \(Forecast.label(start))"
            }
            row("growth, months") { priced in
                guard case .projected(_, let months, let growth, _) = priced.forecast.volume else { return "" }
                return "\(Money.plain(growth))%/mo, \(months) mo"
            }
            row("priced as") { "`\($0.option.key.strategy.rawValue)` d\($0.option.key.delay)" }
        } else {
            row("volume") { volume($0) }
            row("price tables") { tables($0) }
            row("priced as") { option($0.option.key.strategy, $0.option.key.delay) + ($0.scenario.strategy == nil ? ($0.scenario.mistakesFixed ? " (mistakes fixed)" : " (as the app calls now)") : "") }
        }
        if scenarios.contains(where: { !$0.cohorts.isEmpty }) {
            row("cohorts") { priced in
                priced.cohorts.isEmpty ? "none" : priced.cohorts.map { cohort in
                    "\(Money.plain(cohort.cohort.share * 100))% `\(cohort.key.strategy.rawValue)` d\(cohort.key.delay)"
                        + (cohort.pinnedTable.map { " on `\($0)`" } ?? "") + " until \(cohort.until)"
                }.joined(separator: "; ")
            }
        }
        row("**bill over the period**") { "**\(Money.usd($0.option.costUSD))**" }
        if !brief {
            row("first month") { priced in Money.usd(priced.forecast.months.first?.bills[priced.option.key]?.costUSD ?? 0) }
            row("last month") { priced in Money.usd(priced.forecast.months.last?.bills[priced.option.key]?.costUSD ?? 0) }
            row("at list prices") { Money.usd($0.option.listCostUSD) }
        }
        row("inside the free caps") { priced in
            Money.micros(priced.option.costUSD) == 0 ? (brief ? "yes" : "yes, every month") : "no"
        }
        row("bills from") { priced in priced.option.billsFrom.map { "\(Money.plain($0))\(brief ? "/mo" : " searches a month")" } ?? "never" }
        if brief {
            row("decision tree's answer") { "`\($0.tree.strategy.rawValue)` d\($0.tree.delay)" }
            row("its bill") { priced in priced.treeTotal.map { Money.usd($0.costUSD) } ?? "" }
        } else {
            row("decision tree's answer") { priced in
                option(priced.tree.strategy, priced.tree.delay) + (priced.treeTotal.map { ": \(Money.usd($0.costUSD))" } ?? "")
            }
        }
        lines.append("")
        if brief {
            lines.append("The volumes, tables, first and last months and the decision tree's path: `--report md`.")
            lines.append("")
        } else {
            lines.append("\"Bills from\" is the smallest monthly volume at which the priced option bills more than $0 with the first month's tables. The decision tree is walked with the log's requests per search, the scenario's field mask and the break-even of its first month's table:")
            lines.append("")
            for priced in scenarios {
                lines.append("- \(MarkdownText.name(priced.scenario.name)) (`\(priced.tableID)`): " + priced.tree.path.joined(separator: " "))
            }
            lines.append("")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func json(_ scenarios: [ScenarioComparison.Priced], source: String) -> JSONValue {
        .object([
            ("schema", .string(ScenarioRenderer.schema)),
            ("from", .object([("input", .string(source))])),
            ("scenarios", .array(scenarios.map { priced in
                let scenario = priced.scenario
                var volume: [(String, JSONValue)] = []
                // Scenarios are always projected; the number of months is `months`' length.
                if case .projected(let searches, _, let growth, let start) = priced.forecast.volume {
                    volume = [("searches_per_month", .number(searches)), ("growth_pct", .number(growth)), ("start", .string(Forecast.label(start)))]
                }
                return .object([("name", .string(scenario.name))] + volume + [
                    ("pricing", priced.forecast.pinnedTable.map { .string($0) } ?? .null),
                    ("mistakes_fixed", .bool(scenario.mistakesFixed)),
                    ("fields", .string(scenario.fields.rawValue)),
                    ("strategy", .string(priced.option.key.strategy.rawValue)),
                    ("delay", .int(priced.option.key.delay)),
                    ("valid", .bool(priced.option.valid)),
                    ("list_cost_usd", .number(priced.option.listCostUSD)),
                    ("cost_usd", .number(priced.option.costUSD)),
                    ("inside_free_caps", .bool(Money.micros(priced.option.costUSD) == 0)),
                    ("bills_from_searches_per_month", priced.option.billsFrom.map { .number($0) } ?? .null),
                ] + (priced.cohorts.isEmpty ? [] : [
                    ("cohorts", .array(priced.cohorts.map { cohort in
                        .object([
                            ("share", .number(cohort.cohort.share)), ("months", .int(cohort.cohort.months)), ("until", .string(cohort.until)),
                            ("pricing", cohort.pinnedTable.map { .string($0) } ?? .null),
                            ("mistakes_fixed", .bool(cohort.cohort.mistakesFixed)), ("fields", .string(cohort.cohort.fields.rawValue)),
                            ("strategy", .string(cohort.key.strategy.rawValue)), ("delay", .int(cohort.key.delay)),
                        ])
                    })),
                ]) + [
                    ("months", .array(priced.forecast.months.map { month in
                        .object([
                            ("month", .string(month.label)), ("searches", .number(month.searches)),
                            ("tables", .array(month.tables.map { .string($0) })),
                            ("cost_usd", .number(month.bills[priced.option.key]?.costUSD ?? 0)),
                        ])
                    })),
                    ("tree_answer", .object([
                        ("strategy", .string(priced.tree.strategy.rawValue)), ("delay", .int(priced.tree.delay)),
                        ("cost_usd", priced.treeTotal.map { .number($0.costUSD) } ?? .null),
                        ("price_table", .string(priced.tableID)),
                        ("path", .array(priced.tree.path.map { .string($0) })),
                    ])),
                ])
            })),
        ])
    }

    /// One bar per scenario: its bill over the period.
    func chart(_ scenarios: [ScenarioComparison.Priced]) -> String {
        SVGChartRenderer().render(BarChart(
            title: "Bill over the period, per scenario", caption: "Free caps, tiers and credit applied month by month",
            valueAxisLabel: "USD", categoryAxisLabel: "scenario", orientation: .horizontal,
            bars: scenarios.map { BarChart.Bar(label: $0.scenario.name, value: $0.option.costUSD, valueLabel: Money.usd($0.option.costUSD)) }
        ))
    }

    /// Every file `files` writes.
    static let paths = ["scenarios.md", "scenarios.json", chartPath]

    /// `scenarios.md`, `scenarios.json` and the chart, for `--out`.
    func files(_ scenarios: [ScenarioComparison.Priced], source: String) -> [(path: String, contents: String)] {
        [
            ("scenarios.md", markdown(scenarios, source: source) + "\n![bill per scenario](\(ScenarioRenderer.chartPath))\n"),
            ("scenarios.json", json(scenarios, source: source).rendered()),
            (ScenarioRenderer.chartPath, chart(scenarios)),
        ]
    }
}
