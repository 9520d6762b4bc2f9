/// Renders an `Analysis` as `report.html`: the sections and figures of `report.md` in one
/// self-contained page, for people who open a file in a browser, on a phone or on paper.
///
/// The page loads nothing: the style is one inline `<style>`, the charts are `SVGChartRenderer`'s
/// SVG inlined, there is no script, and a Content-Security-Policy forbids every fetch, so a name
/// that slipped through escaping still could not make a request. Every input-derived name is
/// escaped with `HTMLText`; the engine's sentences go through `HTMLText.inline`. Every figure
/// printed here is also in `report.json` (a test checks the two agree).
struct HTMLReportRenderer: Sendable {
    /// The page's Content-Security-Policy: nothing but the inline style (and `data:` images,
    /// which never leave the page).
    static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

    init() {}

    /// The page, ending in a newline.
    func render(_ analysis: Analysis) -> String {
        var lines: [String] = []
        let charts = Dictionary(ReportCharts.charts(analysis).map { ($0.path, $0.chart) }) { first, _ in first }
        lines += headlineLines(analysis)
        lines += decisionLines(analysis.recommendation)
        lines += rankingLines(analysis.recommendation, chart: charts[ReportCharts.strategyCosts])
        lines += nextStepLines(analysis.recommendation)
        lines += anomalyLines(analysis)
        lines += groupLines(analysis, charts: charts)
        lines += searchLines(analysis, charts: charts)
        lines += costLines(analysis)
        lines += assumptionLines(analysis)
        lines += methodLines()
        lines += inputLines(analysis)
        return Self.page(title: "Places Autocomplete cost report", body: lines)
    }

    /// A whole page around `body`: the policy that forbids every fetch, the viewport, the one
    /// style; ending in a newline. `title` is plain text.
    static func page(title: String, body: [String]) -> String {
        let head = [
            "<!DOCTYPE html>",
            "<html lang=\"en\">",
            "<head>",
            "<meta charset=\"utf-8\">",
            "<meta http-equiv=\"Content-Security-Policy\" content=\"\(contentSecurityPolicy)\">",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
            "<meta name=\"referrer\" content=\"no-referrer\">",
            "<title>\(HTMLText.escaped(title))</title>",
            "<style>", style, "</style>",
            "</head>",
            "<body>",
            "<main>",
        ]
        return (head + body + ["</main>", "</body>", "</html>"]).joined(separator: "\n") + "\n"
    }

    // MARK: - Sections

    private func headlineLines(_ analysis: Analysis) -> [String] {
        let advice = analysis.recommendation
        var lines = ["<header>", "<h1>Places Autocomplete cost report</h1>"]
        if analysis.input.usedSampleLogs {
            lines.append("<p class=\"note\">This report is for the bundled sample logs (<code>SampleLogs/</code>): simulated traffic, not yours. Run <code>placescost analyze YOUR.jsonl</code> for your own.</p>")
        }
        lines.append("<dl class=\"headline\">")
        let billNow = AdviceSentences.billNow(advice, coverage: MarkdownReportRenderer.coverage(analysis))
        lines.append("<div class=\"bill\"><dt>Estimated bill now</dt><dd>\(HTMLText.inline(billNow))</dd></div>")
        if let caution = AdviceSentences.unseenTokens(analysis.input) {
            lines.append("<div><dt>Caution</dt><dd>\(HTMLText.inline(caution))</dd></div>")
        }
        for (label, text) in AdviceSentences.rows(advice, pricing: analysis.pricing) {
            lines.append("<div><dt>\(HTMLText.escaped(label))</dt><dd>\(HTMLText.inline(text))</dd></div>")
        }
        lines += ["</dl>", "</header>"]
        return lines
    }

    private func decisionLines(_ advice: Recommendation) -> [String] {
        var lines = ["<section id=\"decision\">", "<h2>Decision</h2>", "<p>Google’s decision tree for autocomplete costs, walked with this log’s numbers:</p>"]
        for step in advice.path {
            lines.append(step.hasPrefix("->") ? "<p class=\"answer\"><strong>\(HTMLText.inline(step))</strong></p>" : "<p class=\"step\">\(HTMLText.inline(step))</p>")
        }
        lines.append("<p>Always: ask Place Details only for the fields the app uses; a call without a field mask bills every field.</p>")
        lines.append("</section>")
        return lines
    }

    private func rankingLines(_ advice: Recommendation, chart: BarChart?) -> [String] {
        var lines = [
            "<section id=\"ranking\">",
            "<h2>Strategies ranked by the bill</h2>",
            "<p>Each strategy without delay, with every option the headline names; every delay is in “What each strategy costs” below. Options that serve the app come first, by the bill, then list price."
                + (advice.allBillsZero ? " " + HTMLText.inline(MarkdownReportRenderer.allZeroRanking) : "") + "</p>",
        ]
        let columns: [Column] = [.number("rank"), .text("strategy"), .number("delay"), .number("bill for the period"), .number("saving a month"), .number("saving"), .number("at list prices")]
        var rows: [String] = []
        let shown = advice.highlights
        func row(_ option: Recommendation.Option, rank: String) -> String {
            var name = "<code>\(option.strategy.rawValue)</code>"
            let recommended = option.sameChoice(as: advice.recommended)
            if recommended { name += advice.keepsCurrent ? " (recommended: keep)" : " (recommended)" }
            if option.sameChoice(as: advice.treeOption), !recommended { name += " (the tree’s answer)" }
            let cells = [rank, name, String(option.delay), Money.usd(option.costUSD), Money.usd(option.savingsUSDPerMonth), Money.plain(option.savingsPercent) + "%", Money.usd(option.listCostUSD)]
            return tableRow(cells, columns, className: recommended ? "recommended" : nil)
        }
        for (index, option) in shown.filter(\.valid).enumerated() {
            rows.append(row(option, rank: String(index + 1)))
        }
        let invalid = shown.filter { !$0.valid }
        if !invalid.isEmpty {
            rows.append("<tr class=\"group\"><th colspan=\"\(columns.count)\" scope=\"rowgroup\">Not valid: the app needs Place Details</th></tr>")
            for option in invalid { rows.append(row(option, rank: "–")) }
        }
        lines += table(columns, rows)
        if let chart { lines += figureLines(chart, path: ReportCharts.strategyCosts) }
        lines.append("</section>")
        return lines
    }

    private func nextStepLines(_ advice: Recommendation) -> [String] {
        ["<section id=\"next-steps\">", "<h2>Next steps</h2>", "<ol>"]
            + advice.nextSteps.map { "<li>\(HTMLText.inline($0))</li>" }
            + ["</ol>", "</section>"]
    }

    private func anomalyLines(_ analysis: Analysis) -> [String] {
        // Under --scale the money is for the scaled volume: the billed count stands beside it.
        let scale = analysis.pricing.scale
        let scaled = scale != 1
        var lines = [
            "<section id=\"anomalies\">",
            "<h2>Anomalies and fixes</h2>",
            "<p>What the calls of each mistake cost in this period at list prices (the free caps cannot be split between calls), and the same calls made the right way: the difference is what fixing it saves. A call can show in two rows (a one-request session without a field mask), so the rows do not add up.</p>",
        ]
        var columns: [Column] = [.text("anomaly"), .number(scaled ? "count in the log" : "count")]
        if scaled { columns.append(.number("billed (× \(Money.plain(scale, digits: 6)))")) }
        columns += [.number("list cost"), .text("done right", wide: true), .text("fix", wide: true)]
        var rows: [String] = []
        for advice in analysis.recommendation.anomalies {
            let cost = advice.cost
            let right = cost.alternativeListUSD.map { "\(Money.usd($0)) (\(HTMLText.inline(cost.alternative ?? "")))" + (cost.alternativeCostsMoreBecause.map { " <strong>costs more:</strong> \(HTMLText.inline($0))" } ?? "") } ?? "n/a"
            // The name may break after its underscores, so the table fits a desktop column.
            var cells = ["<code class=\"name\">\(HTMLText.escaped(cost.name).replacingOccurrences(of: "_", with: "_<wbr>"))</code>", Money.count(cost.count)]
            if scaled { cells.append(Money.count(Double(cost.count) * scale)) }
            cells += [Money.usd(cost.billedListUSD), right, cost.count == 0 ? "None seen." : HTMLText.inline(advice.fix)]
            rows.append(tableRow(cells, columns, labelled: true))
        }
        lines += table(columns, rows, className: "cards")
        lines.append("</section>")
        return lines
    }

    private func searchLines(_ analysis: Analysis, charts: [String: BarChart]) -> [String] {
        let stats = analysis.statistics
        var lines = [
            "<section id=\"searches\">",
            "<h2>Searches</h2>",
            "<p>A search is what one user did once: the autocomplete calls of one query, ended by selecting a place or by giving up.</p>",
        ]
        let columns: [Column] = [.text(""), .number("searches")]
        lines += table(columns, [
            ("total", stats.total),
            ("completed (a place was selected)", stats.completed),
            ("abandoned (no selection)", stats.abandoned),
            ("of which closed by the \(Money.plain(analysis.sessionOptions.timeout.seconds)) s timeout", stats.expired),
            ("sessions (searches with a token of their own)", stats.byKind[.session] ?? 0),
            ("runs on a spent token (billed as without a token)", stats.byKind[.spentToken] ?? 0),
            ("inferred from token-less calls of one user", stats.byKind[.inferred] ?? 0),
        ].map { tableRow([$0.0, Money.count($0.1)], columns, headerFirst: true) })
        lines.append("<p>Autocomplete requests per search: mean <strong>\(Money.plain(stats.meanRequests))</strong> (completed searches: \(Money.plain(stats.meanRequestsCompleted))), median \(Money.plain(stats.medianRequests)), 90th percentile \(Money.plain(stats.p90Requests)).</p>")
        if let chart = charts[ReportCharts.requestsPerSearch] { lines += figureLines(chart, path: ReportCharts.requestsPerSearch) }
        lines += histogramLines(stats.requestsHistogram, summary: "Requests per search", key: "requests")
        lines.append("<p>Characters typed at selection: mean \(Money.plain(stats.meanCharactersAtSelection)) over \(Money.count(stats.charactersAtSelectionHistogram.values.reduce(0, +), "completed search", "completed searches")) with recorded input.</p>")
        if let chart = charts[ReportCharts.charactersAtSelection] { lines += figureLines(chart, path: ReportCharts.charactersAtSelection) }
        lines += histogramLines(stats.charactersAtSelectionHistogram, summary: "Characters typed at selection", key: "characters")
        lines.append("<p><strong>Does the app need Place Details?</strong> " + HTMLText.inline(MarkdownReportRenderer.detailsNeedSentence(analysis.detailsNeed)) + "</p>")
        lines.append("</section>")
        return lines
    }

    /// A histogram as a table folded under `<details>`: the chart above shows the same counts.
    private func histogramLines(_ counts: [Int: Int], summary: String, key: String) -> [String] {
        guard !counts.isEmpty else { return [] }
        let columns: [Column] = [.number(key), .number("searches")]
        return ["<details>", "<summary>\(summary), as a table</summary>"]
            + table(columns, counts.keys.sorted().map { tableRow([String($0), Money.count(counts[$0]!)], columns) })
            + ["</details>"]
    }

    /// What each strategy costs at each delay, with the price table and its caveats.
    private func costLines(_ analysis: Analysis) -> [String] {
        let pricing = analysis.pricing
        let delays = pricing.delays
        var lines = ["<section id=\"costs\">", "<h2>What each strategy costs</h2>"]
        lines.append("<p>Prices: \(HTMLText.inline(analysis.pricingChoice)); this period used " + pricing.tablesUsed.map { "\(HTMLText.name($0.tableID)) for \(HTMLText.escaped($0.month))" }.joined(separator: ", ") + ".</p>")
        let columns: [Column] = [.text("strategy")] + delays.map { .number("delay \($0)") }
        for (title, value) in [("Bill for the period (free caps, tiers and credits applied)", \StrategyCost.costUSD),
                               ("At list prices (every event at the first-tier price, nothing free)", \StrategyCost.listCostUSD)] {
            lines.append("<p>\(title):</p>")
            var rows: [String] = []
            for strategy in StrategyID.allCases {
                let valid = pricing.cost(strategy, delay: 0)?.valid ?? true
                let cells = delays.map { delay in pricing.cost(strategy, delay: delay).map { Money.usd($0[keyPath: value]) } ?? "" }
                rows.append(tableRow(["<code>\(strategy.rawValue)</code>" + (valid ? "" : " (not valid: the app needs details)")] + cells, columns))
            }
            lines += table(columns, rows)
        }
        if pricing.strategies.allSatisfy({ $0.costUSD == 0 }), pricing.strategies.contains(where: { $0.listCostUSD > 0 }) {
            lines.append("<p>Every strategy’s bill is $0 because this volume stays within the monthly free caps or credit; <code>--scale X</code> shows the bill at X times this traffic (for a sampled log, or a forecast).</p>")
        }
        lines.append("<p>A delay of k means no autocomplete request until more than k characters are typed. <code>current</code> is the log as made; the others bill the same searches another way (" + StrategyID.allCases.dropFirst().map { "<code>\($0.rawValue)</code>: \(HTMLText.inline($0.summary))" }.joined(separator: "; ") + ").</p>")
        let means = analysis.recommendation.evidence.meanRequests
        lines.append("<p>Break-even: per-request autocomplete plus one Geocoding call costs no more than a session with address-only fields while a search makes at most <strong>\(Money.plain(pricing.breakEvenRequests))</strong> autocomplete calls. Mean requests per search by delay: " + means.keys.sorted().map { "\($0): \(Money.plain(means[$0]!))" }.joined(separator: ", ") + ".</p>")
        lines.append("</section>")
        return lines
    }

    private func assumptionLines(_ analysis: Analysis) -> [String] {
        let pricing = analysis.pricing
        let stats = analysis.statistics
        var items = [
            "Session timeout: Google bills a session with no selection “within a few minutes” as abandoned but publishes no exact number. This report used \(Money.plain(analysis.sessionOptions.timeout.seconds)) s (<code>--session-timeout</code>).",
            "Token-less calls of one user up to \(Money.plain(analysis.sessionOptions.userGap.seconds)) s apart form one search (<code>--user-gap</code>).",
            "Price table: \(HTMLText.inline(analysis.pricingChoice)).",
        ]
        if pricing.scale != 1 { items.append("Volumes multiplied by \(Money.plain(pricing.scale)) (<code>--scale</code>).") }
        if !pricing.unpriced.isEmpty {
            items.append("Not priced (no bundled SKU bills them; counted, not charged): " + pricing.unpriced.map { "\(HTMLText.name($0.sku)): \(Money.count($0.count))" }.joined(separator: ", ") + ".")
        }
        if !pricing.unconfirmedPrices.isEmpty {
            items.append("Unconfirmed prices used (third-party copies of Google’s list, or inferred): " + pricing.unconfirmedPrices.map(HTMLText.inline).joined(separator: "; ") + ".")
        }
        if !pricing.estimatedPrices.isEmpty {
            items.append(HTMLText.inline(MarkdownReportRenderer.estimatedPrices(pricing.estimatedPrices)))
        }
        var lines = ["<section id=\"assumptions\">", "<h2>Assumptions</h2>", "<ul>"] + items.map { "<li>\($0)</li>" } + ["</ul>"]
        if !analysis.timeoutSensitivity.isEmpty {
            let columns: [Column] = [.number("session timeout"), .number("sessions expired"), .number("searches")]
            let used = tableRow(["\(Money.plain(analysis.sessionOptions.timeout.seconds)) s (used)", Money.count(stats.expired), Money.count(stats.total)], columns)
            lines += table(columns, [used] + analysis.timeoutSensitivity.map { alternative in
                tableRow(["\(Money.plain(alternative.timeoutSeconds)) s", Money.count(alternative.expired), Money.count(alternative.searches)], columns)
            })
        }
        lines.append("</section>")
        return lines
    }

    private func methodLines() -> [String] {
        [
            "<section id=\"method\">",
            "<h2>Method</h2>",
            "<p>Calls carrying a session token are grouped by project and token and walked in time order: autocomplete calls open and join a session, a Place Details (or Address Validation) call within the timeout completes it and spends the token, and calls made with a spent token are billed as if they had none. Token-less calls of one user form inferred searches. Every search is then priced under each strategy and delay with the table in force for its month; the bill groups events by calendar month (UTC unless <code>--timezone</code>), applies the free caps or credit and the volume tiers. The recommendation walks Google’s decision tree with the measured means. Typed text, tokens and API keys never appear in a report; <code>searches.csv</code> holds hashed tokens and user ids.</p>",
            "</section>",
        ]
    }

    private func inputLines(_ analysis: Analysis) -> [String] {
        let input = analysis.input
        let items = ["Files: " + input.files.map(HTMLText.name).joined(separator: ", ")]
            + MarkdownReportRenderer.inputFacts(analysis).map(HTMLText.inline)
        let columns: [Column] = [.text("API"), .number("calls")]
        return ["<section id=\"input\">", "<h2>Input</h2>", "<ul>"] + items.map { "<li>\($0)</li>" } + ["</ul>"]
            + table(columns, input.byAPI.map { tableRow([HTMLText.name($0.api), Money.count($0.count)], columns) })
            + ["</section>"]
    }

    // MARK: - Elements

    /// A table column: its heading and whether its cells are figures (right-aligned, unbroken).
    struct Column {
        var title: String
        var numeric: Bool
        /// Prose that should not be squeezed to a word a line on a phone.
        var wide = false

        static func number(_ title: String) -> Column { Column(title: title, numeric: true) }
        static func text(_ title: String, wide: Bool = false) -> Column { Column(title: title, numeric: false, wide: wide) }

        var className: String? { numeric ? "num" : wide ? "wide" : nil }
    }

    /// A table in a box that scrolls sideways when the screen is narrower than the table; of
    /// class `cards`, a phone shows each row as a card of labelled cells instead.
    func table(_ columns: [Column], _ rows: [String], className: String? = nil) -> [String] {
        let header = columns.map { column in
            "<th scope=\"col\"" + (column.className.map { " class=\"\($0)\"" } ?? "") + ">\(HTMLText.escaped(column.title))</th>"
        }.joined()
        return ["<div class=\"scroll\">", "<table" + (className.map { " class=\"\($0)\"" } ?? "") + ">", "<thead><tr>\(header)</tr></thead>", "<tbody>"] + rows + ["</tbody>", "</table>", "</div>"]
    }

    /// One row; `cells` are HTML already. With `headerFirst`, the first cell heads the row; with
    /// `labelled`, each cell carries its column's title for the cards of a phone.
    func tableRow(_ cells: [String], _ columns: [Column], className: String? = nil, headerFirst: Bool = false, labelled: Bool = false) -> String {
        let body = zip(cells, columns).enumerated().map { index, pair in
            let element = headerFirst && index == 0 ? "th scope=\"row\"" : "td"
            let label = labelled ? " data-label=\"\(HTMLText.escaped(pair.1.title))\"" : ""
            return "<\(element)" + (pair.1.className.map { " class=\"\($0)\"" } ?? "") + label + ">\(pair.0)</\(element.prefix(2))>"
        }.joined()
        return "<tr" + (className.map { " class=\"\($0)\"" } ?? "") + ">\(body)</tr>"
    }

    /// A chart inlined as SVG in a figure captioned with its title. The figure's id comes from
    /// the chart's file name, unique within the page; the SVG itself holds no id. Below 540 px
    /// the chart scrolls sideways rather than shrinking its text out of reading size.
    func figureLines(_ chart: BarChart, path: String) -> [String] {
        let name = path.split(separator: "/").last.map { $0.replacingOccurrences(of: ".svg", with: "") } ?? path
        return [
            "<figure id=\"chart-\(HTMLText.escaped(name))\" class=\"chart\">",
            "<div class=\"scroll\">",
            Self.inlineSVG(SVGChartRenderer().render(chart)),
            "</div>",
            "<figcaption>\(HTMLText.escaped(chart.title))" + (chart.caption.map { ": " + HTMLText.escaped($0) } ?? "") + "</figcaption>",
            "</figure>",
        ]
    }

    /// A standalone SVG document as an element of an HTML page: without its XML declaration and
    /// without the namespace attribute, which HTML does not need and which would be the page's
    /// only URL.
    static func inlineSVG(_ document: String) -> String {
        var lines = document.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        if lines.first?.hasPrefix("<?xml") == true { lines.removeFirst() }
        if let first = lines.first {
            lines[0] = first.replacingOccurrences(of: " xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"", with: " role=\"img\"")
        }
        return lines.joined(separator: "\n")
    }

    // MARK: - Style

    /// The page's only style: a readable column on any screen, tables that scroll sideways on
    /// a phone, charts that shrink to the width, and paper without the screen's boxes.
    static let style = """
    :root { color-scheme: light; }
    * { box-sizing: border-box; }
    body { margin: 0; color: #1f2328; background: #ffffff; font: 16px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif; -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
    main { max-width: 60rem; margin: 0 auto; padding: 1rem 1rem 3rem; }
    h1 { font-size: 1.75rem; line-height: 1.25; margin: 0.5rem 0 1rem; }
    h2 { font-size: 1.3rem; line-height: 1.3; margin: 2.25rem 0 0.75rem; padding-bottom: 0.3rem; border-bottom: 1px solid #d8dee4; }
    p, li { overflow-wrap: break-word; }
    code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.875em; background: #f3f5f7; padding: 0.1em 0.3em; border-radius: 4px; overflow-wrap: anywhere; }
    .note { margin: 0 0 1rem; padding: 0.5rem 0.75rem; border-left: 4px solid #d8dee4; color: #57606a; }
    .headline { display: grid; grid-template-columns: minmax(9rem, max-content) 1fr; gap: 0.6rem 1.25rem; margin: 0; padding: 1rem 1.25rem; border: 1px solid #d8dee4; border-radius: 8px; background: #f6f8fa; }
    .headline div { display: contents; }
    .headline dt { font-weight: 600; }
    .headline dd { margin: 0; }
    .headline .bill dd { font-size: 1.1rem; }
    .answer { margin-left: 1.5rem; }
    .scroll { overflow-x: auto; margin: 1rem 0; -webkit-overflow-scrolling: touch; }
    table { border-collapse: collapse; font-size: 0.9rem; }
    th, td { border: 1px solid #d8dee4; padding: 0.35rem 0.6rem; text-align: left; vertical-align: top; }
    thead th { background: #f6f8fa; vertical-align: bottom; }
    tbody th { font-weight: normal; }
    td code, th code { white-space: nowrap; overflow-wrap: normal; }
    td code.name { white-space: normal; }
    .num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
    thead th.num { white-space: normal; }
    .wide { min-width: 14rem; }
    tr.recommended td { background: #fff4e5; font-weight: 600; }
    tr.group th { background: #f6f8fa; font-weight: 600; }
    figure { margin: 1.5rem 0; }
    figure .scroll { margin: 0; }
    figure svg { display: block; width: 100%; min-width: 540px; max-width: 720px; height: auto; border: 1px solid #d8dee4; border-radius: 6px; }
    figcaption { margin-top: 0.4rem; color: #57606a; font-size: 0.875rem; }
    details { margin: 0.5rem 0 1.25rem; }
    summary { cursor: pointer; color: #57606a; }
    @media (max-width: 40rem) {
      body { font-size: 15px; }
      main { padding: 0.75rem 0.75rem 2rem; }
      h1 { font-size: 1.4rem; }
      .headline { grid-template-columns: 1fr; gap: 0.15rem; padding: 0.75rem; }
      .headline dd { margin-bottom: 0.6rem; }
      .answer { margin-left: 0.75rem; }
      table.cards, table.cards tbody, table.cards tr, table.cards td { display: block; }
      table.cards thead { display: none; }
      table.cards tr { margin-bottom: 0.75rem; padding: 0.35rem 0; border: 1px solid #d8dee4; border-radius: 6px; }
      table.cards td { min-width: 0; padding: 0.2rem 0.75rem; border: 0; text-align: left; white-space: normal; }
      table.cards td::before { content: attr(data-label) ": "; color: #57606a; font-weight: 600; }
    }
    @media print {
      body { font-size: 10.5pt; }
      main { max-width: none; padding: 0; }
      .headline { background: none; }
      .scroll { overflow: visible; }
      h2 { break-after: avoid; }
      figure, tr, .headline { break-inside: avoid; }
      figure svg { min-width: 0; max-width: 16cm; }
    }
    """
}
