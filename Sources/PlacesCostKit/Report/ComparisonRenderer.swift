/// Renders a `Comparison` as `comparison.json` (for machines and CI), `comparison.md` or
/// `comparison.html` (a page like `report.html`: no script, no request).
///
/// The three hold the same figures: the Markdown and the page are made from the same rows and
/// sentences (`Text`), which mark code with backticks and emphasis with `**`.
struct ComparisonRenderer: Sendable {
    /// The `schema` of `comparison.json` (`docs/schema/comparison.schema.json`).
    static let schema = "placescost.comparison/2"

    enum Format: String, Sendable, CaseIterable {
        case md, json, html

        var fileName: String { "comparison." + rawValue }
    }

    /// The formats `--report` prints; the page is written by `--out` only, as `report.html` is.
    static let printed: [Format] = [.md, .json]

    /// A cell or a sentence: the engine's own text, or names from the input (file paths, months,
    /// price table ids), which each format escapes its own way.
    enum Text {
        case text(String)
        case names([String])

        var markdown: String {
            switch self {
            case .text(let text): text
            case .names(let names): names.map(MarkdownText.name).joined(separator: ", ")
            }
        }

        var html: String {
            switch self {
            case .text(let text): HTMLText.inline(text)
            case .names(let names): names.map(HTMLText.name).joined(separator: ", ")
            }
        }
    }

    /// A row of the main table: its label, before, after and the change.
    struct Row {
        var cells: [Text]
    }

    init() {}

    func render(_ comparison: Comparison, as format: Format) -> String {
        switch format {
        case .json: json(comparison).rendered()
        case .md: markdown(comparison)
        case .html: html(comparison)
        }
    }

    /// Both files `--out` writes.
    func files(_ comparison: Comparison) -> [(path: String, contents: String)] {
        Format.allCases.map { ($0.fileName, render(comparison, as: $0)) }
    }

    // MARK: - JSON

    func json(_ comparison: Comparison) -> JSONValue {
        .object([
            ("schema", .string(ComparisonRenderer.schema)),
            ("before", side(comparison.before)),
            ("after", side(comparison.after)),
            ("saving_basis", .string(comparison.basis.rawValue)),
            ("monthly_saving_usd", .number(comparison.monthlySavingUSD)),
            ("cost_per_search_change_pct", comparison.costPerSearchChangePercent.map(JSONValue.number) ?? .null),
            ("cost_per_selection_change_pct", comparison.costPerSelectionChangePercent.map(JSONValue.number) ?? .null),
            ("requests_per_search_change", .number(comparison.requestsPerSearchChange)),
            ("completion_rate_change_points", .number(comparison.completionRateChangePoints)),
            ("anomalies", .array(comparison.anomalies.map { change in
                .object([
                    ("name", .string(change.name)),
                    ("before_count", .int(change.before.count)),
                    ("after_count", .int(change.after.count)),
                    ("before_list_cost_usd", .number(change.before.listCostUSD)),
                    ("after_list_cost_usd", .number(change.after.listCostUSD)),
                ])
            })),
            ("recommendation_changed", .bool(comparison.recommendationChanged)),
        ])
    }

    private func side(_ figures: PeriodFigures) -> JSONValue {
        let advice = figures.advice
        return .object([
            ("period", .object([
                ("first_call", .string(figures.firstCall)),
                ("last_call", .string(figures.lastCall)),
                ("days", .int(figures.days)),
                ("months", .array(figures.months.map(JSONValue.string))),
                ("month_count", .int(figures.monthCount)),
            ])),
            ("calls", .int(figures.calls)),
            ("searches", .int(figures.searches)),
            ("completed", .int(figures.completed)),
            ("scale", .number(figures.scale)),
            ("billed_searches", .number(figures.billedSearches)),
            ("searches_per_month", .number(figures.searchesPerMonth)),
            ("billed_selections", .number(figures.billedSelections)),
            ("selections_per_month", .number(figures.selectionsPerMonth)),
            ("requests_per_search", .number(figures.requestsPerSearch)),
            ("completion_rate", .number(figures.completionRate)),
            ("pricing_id", .string(figures.pricingID)),
            ("current", .object([
                ("cost_usd", .number(figures.currentCostUSD)),
                ("cost_usd_per_month", .number(figures.currentCostUSDPerMonth)),
                ("list_cost_usd", .number(figures.currentListCostUSD)),
                ("list_cost_usd_per_month", .number(figures.currentListCostUSDPerMonth)),
                ("list_cost_per_search_usd", .number(figures.listCostPerSearchUSD)),
                ("list_cost_per_1000_searches_usd", .number(figures.listCostPer1000SearchesUSD)),
                ("list_cost_per_selection_usd", figures.listCostPerSelectionUSD.map(JSONValue.number) ?? .null),
                ("list_cost_per_1000_selections_usd", figures.listCostPerSelectionUSD.map { .number($0 * 1000) } ?? .null),
            ])),
            ("recommendation", .object([
                ("strategy", .string(advice.strategy)),
                ("delay", .int(advice.delay)),
                ("keep_current", .bool(advice.keepsCurrent)),
                ("cost_usd", .number(advice.costUSD)),
                ("list_cost_usd", .number(advice.listCostUSD)),
                ("savings_usd_per_month", .number(advice.savingsUSDPerMonth)),
            ])),
        ])
    }

    // MARK: - Markdown

    func markdown(_ comparison: Comparison) -> String {
        var lines = ["# What changed", ""]
        lines.append("Before: \(Text.names([comparison.beforeInput]).markdown); after: \(Text.names([comparison.afterInput]).markdown).")
        lines.append("")
        lines.append(headline(comparison))
        lines.append("")
        lines.append("| | before | after | change |")
        lines.append("|---|---:|---:|---:|")
        for row in rows(comparison) {
            lines.append("| " + row.cells.map(\.markdown).joined(separator: " | ") + " |")
        }
        lines.append("")
        lines += ["## Anomalies", "", Self.anomalyIntro, ""]
        lines.append("| " + Self.anomalyColumns.joined(separator: " | ") + " |")
        lines.append("|---|---:|---:|---:|---:|")
        for row in anomalyRows(comparison) {
            lines.append("| " + row.map(\.markdown).joined(separator: " | ") + " |")
        }
        lines.append("")
        lines += ["## How the saving is computed", ""] + methodParagraphs(comparison).flatMap { [$0, ""] }
        return lines.joined(separator: "\n") + "\n"
    }

    func html(_ comparison: Comparison) -> String {
        let page = HTMLReportRenderer()
        var lines = [
            "<h1>What changed</h1>",
            "<p>Before: \(Text.names([comparison.beforeInput]).html); after: \(Text.names([comparison.afterInput]).html).</p>",
            "<p>\(HTMLText.inline(headline(comparison)))</p>",
        ]
        let columns: [HTMLReportRenderer.Column] = [.text(""), .number("before"), .number("after"), .number("change")]
        lines += page.table(columns, rows(comparison).map { row in page.tableRow(row.cells.map(\.html), columns, headerFirst: true) })
        let anomalyColumns = [HTMLReportRenderer.Column.text(Self.anomalyColumns[0])] + Self.anomalyColumns.dropFirst().map(HTMLReportRenderer.Column.number)
        lines += ["<section id=\"anomalies\">", "<h2>Anomalies</h2>", "<p>\(HTMLText.inline(Self.anomalyIntro))</p>"]
        lines += page.table(anomalyColumns, anomalyRows(comparison).map { page.tableRow($0.map(\.html), anomalyColumns) })
        lines.append("</section>")
        lines += ["<section id=\"method\">", "<h2>How the saving is computed</h2>"] + methodParagraphs(comparison).map { "<p>\(HTMLText.inline($0))</p>" } + ["</section>"]
        return HTMLReportRenderer.page(title: "What changed: Places Autocomplete cost", body: lines)
    }

    /// The main table: each side's figures and the change.
    private func rows(_ comparison: Comparison) -> [Row] {
        let before = comparison.before
        let after = comparison.after
        var rows: [Row] = []
        func row(_ label: String, _ value: (PeriodFigures) -> Text, change: String = "") {
            rows.append(Row(cells: [.text(label), value(before), value(after), .text(change)]))
        }
        func figure(_ label: String, _ value: @escaping (PeriodFigures) -> String, change: String = "") {
            row(label, { .text(value($0)) }, change: change)
        }
        figure("Period") { "\($0.days) day\($0.days == 1 ? "" : "s") from \($0.firstCall.prefix(10))" }
        row("Months billed") { .names($0.months) }
        figure("Calls") { Money.count($0.calls) }
        figure("Searches", { Money.count($0.searches) }, change: signed(comparison.searchesChangePercent, digits: 1) + "%")
        if before.scale != 1 || after.scale != 1 {
            figure("Billed searches (`--scale`)") { Money.count($0.billedSearches) }
        }
        figure("Searches a month") { Money.count($0.searchesPerMonth) }
        figure("Selections a month") { Money.count($0.selectionsPerMonth) }
        figure("Requests per search", { Money.plain($0.requestsPerSearch) }, change: signed(comparison.requestsPerSearchChange))
        figure("Completed", { Money.plain($0.completionRate * 100, digits: 1) + "%" }, change: signed(comparison.completionRateChangePoints, digits: 1) + " points")
        figure("Bill a month") { Money.usd($0.currentCostUSDPerMonth) }
        figure("List prices, a month") { Money.usd($0.currentListCostUSDPerMonth) }
        // The figure the saving is per, in bold.
        func perThousand(_ basis: SavingBasis, _ value: @escaping (PeriodFigures) -> Double?, change: Double?) {
            let bold = basis == comparison.basis ? "**" : ""
            figure(
                bold + "Per 1,000 \(basis.rawValue)" + bold, { figures in value(figures).map { bold + Money.usd($0 * 1000) + bold } ?? "none" },
                change: bold + (change.map { signed($0, digits: 1) + "%" } ?? (value(before) == nil || value(after) == nil ? "" : "from $0")) + bold
            )
        }
        perThousand(.selections, \.listCostPerSelectionUSD, change: comparison.costPerSelectionChangePercent)
        perThousand(.searches, \.listCostPerSearchUSD, change: comparison.costPerSearchChangePercent)
        row("Price table") { .names([$0.pricingID]) }
        figure("Recommendation", advice, change: comparison.recommendationChanged ? "changed" : "same")
        return rows
    }

    private func headline(_ comparison: Comparison) -> String {
        let saving = comparison.monthlySavingUSD
        let volume = "at the after side's \(comparison.basis.count(comparison.after.perMonth(comparison.basis))) a month"
        if Money.usd(saving) == Money.usd(0) { return "**The change neither saves nor costs money** \(volume) (list prices)." }
        let sentence = saving > 0
            ? "**The change saves \(Money.usd(saving)) a month** \(volume) (list prices)."
            : "**The change costs \(Money.usd(-saving)) more a month** \(volume) (list prices)."
        return sentence + ComparisonRenderer.partialMonths(comparison.after, saving: saving)
    }

    /// Where the after side's logs cover less than 28 days in each of its calendar months, its
    /// amounts a month hold that much traffic, not a month of it (as in `analyze`'s headline):
    /// a sentence giving the saving over 30 days at the logs' daily rate; empty otherwise.
    /// List prices scale with the traffic, so the rate is exact for the same traffic each day.
    static func partialMonths(_ after: PeriodFigures, saving: Double) -> String {
        let daysPerMonth = Double(after.days) / Double(max(1, after.monthCount))
        guard after.days > 0, daysPerMonth < 28 else { return "" }
        let thirty = abs(saving) / daysPerMonth * 30
        let logged = Money.count(after.days, "day", "days") + " in " + Money.count(after.monthCount, "calendar month", "calendar months")
        return " The after logs cover \(logged), so a month here holds about \(Money.count(Int(daysPerMonth.rounded()), "day", "days")) of traffic: at their daily rate, 30 days \(saving > 0 ? "save" : "cost") about \(Money.usd(thirty))\(saving > 0 ? "" : " more")."
    }

    private func advice(_ figures: PeriodFigures) -> String {
        let advice = figures.advice
        let choice = "`\(advice.strategy)`" + (advice.delay > 0 ? " at delay \(advice.delay)" : "")
        return advice.keepsCurrent ? "keep \(choice)" : "\(choice), saving \(Money.usd(advice.savingsUSDPerMonth)) a month"
    }

    static let anomalyIntro = "Each mistake's count in the log and what those calls cost in the period at list prices."
    static let anomalyColumns = ["anomaly", "before", "after", "cost before", "cost after"]

    /// One row an anomaly, under `anomalyColumns`. The name is the report's key, which a report
    /// of another placescost may spell as it likes: a name, escaped as one.
    private func anomalyRows(_ comparison: Comparison) -> [[Text]] {
        comparison.anomalies.map { change in
            [.names([change.name])] + [
                Money.count(change.before.count), Money.count(change.after.count), Money.usd(change.before.listCostUSD), Money.usd(change.after.listCostUSD),
            ].map(Text.text)
        }
    }

    private func methodParagraphs(_ comparison: Comparison) -> [String] {
        let before = comparison.before
        let after = comparison.after
        let basis = comparison.basis
        let unit = basis == .selections
            ? "Per selection = the calls as made (`current`) at first-tier list prices ÷ the searches that ended with a place chosen. A selection is what a user came for, and how the app makes its calls does not change how many there are: a new token per keystroke makes a search of every keystroke, and fixing it divides the searches, never the selections."
            : "Per search = the calls as made (`current`) at first-tier list prices ÷ the searches (a side has no selection, so there is no cost per selection to compare)."
        return [
            unit + " A month = the period ÷ its calendar months billed, as `analyze` states its bill (the bill a month is after the free caps and tiers). List prices, because the free caps are a monthly allowance that belongs to no search: with them, a cost per search would change with the volume alone.",
            "(before \(CompareError.perSearch(before.listCost(per: basis) ?? 0)) − after \(CompareError.perSearch(after.listCost(per: basis) ?? 0)) a \(basis.singular)) × \(basis.count(after.perMonth(basis))) a month after = \(Money.usd(comparison.monthlySavingUSD)) a month.",
        ]
    }

    /// "+1.25", "-0.5", "0".
    private func signed(_ value: Double, digits: Int = 2) -> String {
        let text = Money.plain(value, digits: digits)
        return value > 0 && text != "0" ? "+" + text : text
    }
}
