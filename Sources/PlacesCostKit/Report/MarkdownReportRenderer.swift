/// Renders an `Analysis` as `report.md`: a headline a product manager reads in two minutes (the
/// bill now, what to do, what it saves), then the decision path, the ranking, the fixes, and the
/// numbers behind them for the engineers.
///
/// Every figure printed here is also in `report.json` (a test checks the two agree).
struct MarkdownReportRenderer: Sendable {
    init() {}

    func render(_ analysis: Analysis) -> String {
        var lines: [String] = []
        lines += headlineLines(analysis)
        lines += decisionLines(analysis.recommendation)
        lines += rankingLines(analysis.recommendation)
        lines += nextStepLines(analysis.recommendation)
        lines += anomalyLines(analysis)
        lines += groupLines(analysis)
        lines += searchLines(analysis)
        lines += costLines(analysis)
        lines += assumptionLines(analysis)
        lines += methodLines(analysis)
        lines += inputLines(analysis)
        return lines.joined(separator: "\n")
    }

    // MARK: - Sections

    private func headlineLines(_ analysis: Analysis) -> [String] {
        let advice = analysis.recommendation
        var lines = ["# Places Autocomplete cost report", ""]
        if analysis.input.usedSampleLogs {
            lines += ["> This report is for the bundled sample logs (`SampleLogs/`): simulated traffic, not yours. Run `placescost analyze YOUR.jsonl` for your own.", ""]
        }
        lines += [
            "| | |",
            "|---|---|",
            "| Estimated bill now | \(AdviceSentences.billNow(advice, coverage: MarkdownReportRenderer.coverage(analysis))) |",
        ]
        if let caution = AdviceSentences.unseenTokens(analysis.input) { lines.append("| Caution | \(caution) |") }
        lines += AdviceSentences.rows(advice, pricing: analysis.pricing).map { "| \($0.0) | \($0.1) |" }
        lines.append("")
        return lines
    }

    private func decisionLines(_ advice: Recommendation) -> [String] {
        var lines = ["## Decision", "", "Google's decision tree for autocomplete costs, walked with this log's numbers:", ""]
        for step in advice.path {
            lines.append(step.hasPrefix("->") ? "   **\(step)**" : step)
            lines.append("")
        }
        lines.append("Always: ask Place Details only for the fields the app uses; a call without a field mask bills every field.")
        lines.append("")
        return lines
    }

    private func rankingLines(_ advice: Recommendation) -> [String] {
        var lines = [
            "## Strategies ranked by the bill", "",
            "Each strategy without delay, with every option the headline names; every delay is in \"What each strategy costs\" below. Options that serve the app come first, by the bill, then list price."
                + (advice.allBillsZero ? " " + MarkdownReportRenderer.allZeroRanking : ""), "",
            "| rank | strategy | delay | bill for the period | saving a month | saving | at list prices |",
            "|---:|---|---:|---:|---:|---:|---:|",
        ]
        let shown = advice.highlights
        func row(_ option: Recommendation.Option, rank: String) -> String {
            var name = "`\(option.strategy.rawValue)`"
            if option.sameChoice(as: advice.recommended) { name += advice.keepsCurrent ? " (recommended: keep)" : " (recommended)" }
            if option.sameChoice(as: advice.treeOption), !option.sameChoice(as: advice.recommended) { name += " (the tree's answer)" }
            return "| \(rank) | \(name) | \(option.delay) | \(Money.usd(option.costUSD)) | \(Money.usd(option.savingsUSDPerMonth)) | \(Money.plain(option.savingsPercent))% | \(Money.usd(option.listCostUSD)) |"
        }
        for (index, option) in shown.filter(\.valid).enumerated() {
            lines.append(row(option, rank: String(index + 1)))
        }
        let invalid = shown.filter { !$0.valid }
        if !invalid.isEmpty {
            lines.append("| | **Not valid: the app needs Place Details** | | | | | |")
            for option in invalid { lines.append(row(option, rank: "–")) }
        }
        lines.append("")
        lines.append("![\(ReportCharts.strategyChartTitle(advice))](\(ReportCharts.strategyCosts))")
        lines.append("")
        return lines
    }

    private func nextStepLines(_ advice: Recommendation) -> [String] {
        var lines = ["## Next steps", ""]
        for (index, step) in advice.nextSteps.enumerated() {
            lines.append("\(index + 1). \(step)")
        }
        lines.append("")
        return lines
    }

    private func anomalyLines(_ analysis: Analysis) -> [String] {
        // Under --scale the money is for the scaled volume: the billed count stands beside it.
        let scale = analysis.pricing.scale
        let scaled = scale != 1
        var lines = [
            "## Anomalies and fixes", "",
            "What the calls of each mistake cost in this period at list prices (the free caps cannot be split between calls), and the same calls made the right way: the difference is what fixing it saves. A call can show in two rows (a one-request session without a field mask), so the rows do not add up.", "",
            scaled ? "| anomaly | count in the log | billed (× \(Money.plain(scale, digits: 6))) | list cost | done right | fix |" : "| anomaly | count | list cost | done right | fix |",
            scaled ? "|---|---:|---:|---:|---:|---|" : "|---|---:|---:|---:|---|",
        ]
        for advice in analysis.recommendation.anomalies {
            let cost = advice.cost
            let right = cost.alternativeListUSD.map { "\(Money.usd($0)) (\(cost.alternative ?? ""))" + (cost.alternativeCostsMoreBecause.map { " **costs more:** \($0)" } ?? "") } ?? "n/a"
            let counts = Money.count(cost.count) + (scaled ? " | " + Money.count(Double(cost.count) * scale) : "")
            lines.append("| `\(cost.name)` | \(counts) | \(Money.usd(cost.billedListUSD)) | \(right) | \(cost.count == 0 ? "None seen." : advice.fix) |")
        }
        lines.append("")
        return lines
    }

    private func searchLines(_ analysis: Analysis) -> [String] {
        let stats = analysis.statistics
        var lines = [
            "## Searches", "",
            "A search is what one user did once: the autocomplete calls of one query, ended by selecting a place or by giving up.", "",
            "| | searches |",
            "|---|---:|",
            "| total | \(Money.count(stats.total)) |",
            "| completed (a place was selected) | \(Money.count(stats.completed)) |",
            "| abandoned (no selection) | \(Money.count(stats.abandoned)) |",
            "| of which closed by the \(Money.plain(analysis.sessionOptions.timeout.seconds)) s timeout | \(Money.count(stats.expired)) |",
            "| sessions (searches with a token of their own) | \(Money.count(stats.byKind[.session] ?? 0)) |",
            "| runs on a spent token (billed as without a token) | \(Money.count(stats.byKind[.spentToken] ?? 0)) |",
            "| inferred from token-less calls of one user | \(Money.count(stats.byKind[.inferred] ?? 0)) |",
            "",
            "Autocomplete requests per search: mean **\(Money.plain(stats.meanRequests))** (completed searches: \(Money.plain(stats.meanRequestsCompleted))), median \(Money.plain(stats.medianRequests)), 90th percentile \(Money.plain(stats.p90Requests)).",
            "",
            "![Autocomplete requests per search](\(ReportCharts.requestsPerSearch))",
            "",
        ]
        lines += histogramLines(stats.requestsHistogram, summary: "Requests per search", key: "requests")
        lines.append("Characters typed at selection: mean \(Money.plain(stats.meanCharactersAtSelection)) over \(Money.count(stats.charactersAtSelectionHistogram.values.reduce(0, +), "completed search", "completed searches")) with recorded input.")
        lines.append("")
        lines.append("![Characters typed at selection](\(ReportCharts.charactersAtSelection))")
        lines.append("")
        lines += histogramLines(stats.charactersAtSelectionHistogram, summary: "Characters typed at selection", key: "characters")
        lines.append("**Does the app need Place Details?** " + Self.detailsNeedSentence(analysis.detailsNeed))
        lines.append("")
        return lines
    }

    /// A histogram as a table folded under `<details>` (GitHub renders it collapsed).
    private func histogramLines(_ counts: [Int: Int], summary: String, key: String) -> [String] {
        guard !counts.isEmpty else { return [] }
        var lines = ["<details><summary>\(summary), as a table</summary>", "", "| \(key) | searches |", "|---:|---:|"]
        for value in counts.keys.sorted() {
            lines.append("| \(value) | \(Money.count(counts[value]!)) |")
        }
        lines += ["", "</details>", ""]
        return lines
    }

    /// What each strategy costs at each delay, with the price table and its caveats.
    private func costLines(_ analysis: Analysis) -> [String] {
        let pricing = analysis.pricing
        let delays = pricing.delays
        var lines = ["## What each strategy costs", ""]
        lines.append("Prices: \(analysis.pricingChoice); this period used " + pricing.tablesUsed.map { "\(MarkdownText.name($0.tableID)) for \($0.month)" }.joined(separator: ", ") + ".")
        lines.append("")
        let header = "| strategy | " + delays.map { "delay \($0)" }.joined(separator: " | ") + " |"
        let rule = "|---|" + delays.map { _ in "---:|" }.joined()
        for (title, value) in [("Bill for the period (free caps, tiers and credits applied)", \StrategyCost.costUSD),
                               ("At list prices (every event at the first-tier price, nothing free)", \StrategyCost.listCostUSD)] {
            lines.append("\(title):")
            lines.append("")
            lines.append(header)
            lines.append(rule)
            for strategy in StrategyID.allCases {
                let valid = pricing.cost(strategy, delay: 0)?.valid ?? true
                let cells = delays.map { delay in pricing.cost(strategy, delay: delay).map { Money.usd($0[keyPath: value]) } ?? "" }
                lines.append("| `\(strategy.rawValue)`\(valid ? "" : " (not valid: the app needs details)") | " + cells.joined(separator: " | ") + " |")
            }
            lines.append("")
        }
        if pricing.strategies.allSatisfy({ $0.costUSD == 0 }), pricing.strategies.contains(where: { $0.listCostUSD > 0 }) {
            lines.append("Every strategy's bill is $0 because this volume stays within the monthly free caps or credit; `--scale X` shows the bill at X times this traffic (for a sampled log, or a forecast).")
            lines.append("")
        }
        lines.append("A delay of k means no autocomplete request until more than k characters are typed. `current` is the log as made; the others bill the same searches another way (\(StrategyID.allCases.dropFirst().map { "`\($0.rawValue)`: \($0.summary)" }.joined(separator: "; "))).")
        lines.append("")
        let means = analysis.recommendation.evidence.meanRequests
        lines.append("Break-even: per-request autocomplete plus one Geocoding call costs no more than a session with address-only fields while a search makes at most **\(Money.plain(pricing.breakEvenRequests))** autocomplete calls. Mean requests per search by delay: " + means.keys.sorted().map { "\($0): \(Money.plain(means[$0]!))" }.joined(separator: ", ") + ".")
        lines.append("")
        return lines
    }

    private func assumptionLines(_ analysis: Analysis) -> [String] {
        let pricing = analysis.pricing
        let stats = analysis.statistics
        var lines = ["## Assumptions", ""]
        lines.append("- Session timeout: Google bills a session with no selection \"within a few minutes\" as abandoned but publishes no exact number. This report used \(Money.plain(analysis.sessionOptions.timeout.seconds)) s (`--session-timeout`).")
        lines.append("- Token-less calls of one user up to \(Money.plain(analysis.sessionOptions.userGap.seconds)) s apart form one search (`--user-gap`).")
        lines.append("- Price table: \(analysis.pricingChoice).")
        if pricing.scale != 1 { lines.append("- Volumes multiplied by \(Money.plain(pricing.scale)) (`--scale`).") }
        if !pricing.unpriced.isEmpty {
            lines.append("- Not priced (no bundled SKU bills them; counted, not charged): " + pricing.unpriced.map { "\(MarkdownText.name($0.sku)): \(Money.count($0.count))" }.joined(separator: ", ") + ".")
        }
        if !pricing.unconfirmedPrices.isEmpty {
            lines.append("- Unconfirmed prices used (third-party copies of Google's list, or inferred): " + pricing.unconfirmedPrices.joined(separator: "; ") + ".")
        }
        if !pricing.estimatedPrices.isEmpty {
            lines.append("- " + MarkdownReportRenderer.estimatedPrices(pricing.estimatedPrices))
        }
        lines.append("")
        if !analysis.timeoutSensitivity.isEmpty {
            lines.append("| session timeout | sessions expired | searches |")
            lines.append("|---:|---:|---:|")
            lines.append("| \(Money.plain(analysis.sessionOptions.timeout.seconds)) s (used) | \(Money.count(stats.expired)) | \(Money.count(stats.total)) |")
            for alternative in analysis.timeoutSensitivity {
                lines.append("| \(Money.plain(alternative.timeoutSeconds)) s | \(Money.count(alternative.expired)) | \(Money.count(alternative.searches)) |")
            }
            lines.append("")
        }
        return lines
    }

    private func methodLines(_ analysis: Analysis) -> [String] {
        [
            "## Method", "",
            "Calls carrying a session token are grouped by project and token and walked in time order: autocomplete calls open and join a session, a Place Details (or Address Validation) call within the timeout completes it and spends the token, and calls made with a spent token are billed as if they had none. Token-less calls of one user form inferred searches. Every search is then priced under each strategy and delay with the table in force for its month; the bill groups events by calendar month (UTC unless `--timezone`), applies the free caps or credit and the volume tiers. The recommendation walks Google's decision tree with the measured means. Typed text, tokens and API keys never appear in a report; `searches.csv` holds hashed tokens and user ids.",
            "",
        ]
    }

    private func inputLines(_ analysis: Analysis) -> [String] {
        let input = analysis.input
        var lines = ["## Input", ""]
        lines.append("- Files: \(input.files.map(MarkdownText.name).joined(separator: ", "))")
        lines += MarkdownReportRenderer.inputFacts(analysis).map { "- \($0)" }
        lines.append("")
        lines.append("| API | calls |")
        lines.append("|---|---:|")
        for (api, count) in input.byAPI {
            lines.append("| \(MarkdownText.name(api)) | \(Money.count(count)) |")
        }
        lines.append("")
        return lines
    }

    // MARK: - Sentences

    /// What the bill covers, after "$X a month": the billing months (the first and last of more
    /// than three) and the days of logs, with Markdown code (`report.html` prints it through
    /// `HTMLText.inline`).
    static func coverage(_ analysis: Analysis) -> String {
        let months = billedMonths(analysis)
        var coverage = months.count > 3
            ? "for \(months.count) months, \(months.first!) to \(months.last!)"
            : "for " + months.joined(separator: ", ")
        if let days = loggedDays(analysis) {
            let logged = Money.count(days, "day", "days") + " of logs"
            // Amounts a month are the period's divided by its calendar months: where those are
            // partly logged, each month holds less than a month of traffic (and its own free caps).
            let perMonth = Double(days) / Double(max(1, months.count))
            if months.count <= 1 {
                coverage += " (\(logged)" + (perMonth < 28 ? ": a full month of this traffic bills more; `--scale` extrapolates)" : ")")
            } else if perMonth < 28 {
                coverage += " (\(logged) over \(months.count) calendar months, about \(Money.count(Int(perMonth.rounded()), "day", "days")) of traffic in each: a full month of it bills more; `--scale` extrapolates)"
            } else {
                coverage += " (\(logged))"
            }
        }
        return coverage
    }

    /// The few words a terminal's summary gives `coverage`, only where the logs hold less than
    /// a month of traffic a month (`(7 days of logs: a full month bills more)`), else `nil`.
    static func briefCoverage(_ analysis: Analysis) -> String? {
        guard let days = loggedDays(analysis), Double(days) / Double(max(1, billedMonths(analysis).count)) < 28 else { return nil }
        return "(\(Money.count(days, "day", "days")) of logs: a full month bills more)"
    }

    /// The calendar months billed, in order.
    private static func billedMonths(_ analysis: Analysis) -> [String] {
        analysis.pricing.cost(.current, delay: 0)?.months.map(\.month) ?? []
    }

    /// The calendar days from the first call to the last, both counted; `nil` without a call.
    private static func loggedDays(_ analysis: Analysis) -> Int? {
        guard let first = analysis.input.firstCall, let last = analysis.input.lastCall else { return nil }
        return Int(last.daysSinceEpoch - first.daysSinceEpoch + 1)
    }

    /// The Input section's facts after its list of files, with Markdown code spans
    /// (`report.html` prints them through `HTMLText.inline`): every count is shown where it is
    /// not zero.
    static func inputFacts(_ analysis: Analysis) -> [String] {
        let input = analysis.input
        var facts: [String] = []
        if let generatedAt = analysis.generatedAt {
            facts.append("Report made at \(generatedAt.rfc3339)")
        }
        facts.append("Calls read: \(Money.count(input.records))" + (input.rejected > 0 ? "; malformed records skipped: \(Money.count(input.rejected))" : ""))
        if input.outsideWindow > 0 {
            facts.append("Calls outside the chosen period: \(Money.count(input.outsideWindow))")
        }
        if input.duplicatesDropped > 0 {
            facts.append("Exact duplicate records dropped (`--dedupe`): \(Money.count(input.duplicatesDropped))")
        } else if input.duplicates > 0 {
            facts.append("Records repeating an earlier record exactly: \(Money.count(input.duplicates)), counted as calls (`--dedupe` drops them)")
        }
        if input.skippedRequests > 0 {
            let unbilled = input.unbilled
            var kinds: [String] = []
            if unbilled.preflights > 0 { kinds.append("\(Money.count(unbilled.preflights, "CORS preflight", "CORS preflights")) (`OPTIONS`, which a browser sends before a call)") }
            if unbilled.redirects > 0 { kinds.append("\(Money.count(unbilled.redirects, "request", "requests")) answered with a redirect (the request after it is the call)") }
            let ofThem = kinds.isEmpty ? "" : "; of them, to Places endpoints but not calls, so billed by no one: " + kinds.joined(separator: " and ")
            facts.append("Requests that are not Places calls, skipped: \(Money.count(input.skippedRequests))" + ofThem)
        }
        if input.bodiesUnknown > 0 {
            facts.append("Places API (New) calls whose body the log does not show (token and input unknown; counted as token-less): \(Money.count(input.bodiesUnknown))")
        }
        if let first = input.firstCall, let last = input.lastCall {
            facts.append("First call \(first.rfc3339), last call \(last.rfc3339)")
        }
        if !input.platforms.isEmpty {
            facts.append("Platforms: " + input.platforms.map { "\($0.platform.rawValue) (\($0.generation.rawValue) API): \(Money.count($0.calls, "call", "calls"))" }.joined(separator: ", "))
        }
        return facts
    }

    /// Whether the app needs Place Details and how that was found, with Markdown emphasis
    /// (`report.html` prints it through `HTMLText.inline`).
    static func detailsNeedSentence(_ need: DetailsNeed) -> String {
        switch need.source {
        case .override:
            return "Set with `--needs-details`: **\(need.needsDetails ? "yes" : "no")**."
        case .scenario:
            return "From the scenario's field mask: **\(need.needsDetails ? "yes" : "no")**."
        case .assumed:
            return "No selection in the log carried a field mask, so **yes** is assumed. Pass `--needs-details no` if the app only uses the address and location."
        case .measured:
            let share = Money.plain(need.share * 100)
            if need.needsDetails, need.selectionsWithWildcard == need.selectionsNeedingDetails {
                return "**Yes** is assumed: \(DecisionTree.selections(need)) (\(share)%) \(need.selectionsNeedingDetails == 1 ? "asks" : "ask") for every field with `*`, which tells nothing of the fields the app reads. Pass `--needs-details no` if the app only uses the address and location."
            }
            if need.needsDetails {
                let mixed = need.selectionsNeedingDetails < need.selectionsWithMask
                return "**Yes**: \(DecisionTree.selections(need)) (\(share)%) \(need.selectionsNeedingDetails == 1 ? "asks" : "ask") for more than the address and location" + DecisionTree.wildcardClause(need) + "." + (mixed ? " The app mixes both kinds: consider splitting the address-only flows (which could use per-request autocomplete and Geocoding) from the ones that need place details." : "")
            }
            return "**No**: \(DecisionTree.allSelections(need)) only for the address and location, which Geocoding also returns."
        }
    }

    /// The sentence every report gives when a month's volume passed Google's last published band.
    static func estimatedPrices(_ notices: [String]) -> String {
        "Estimated prices: Google publishes no price past its last band and quotes these volumes by contact with sales; the last published price is used, so the bill there is an estimate (" + notices.joined(separator: "; ") + ")."
    }

    /// Under the ranking when every bill is $0: why its first row is not the recommendation.
    static let allZeroRanking = "Every bill is $0.00 at this volume, inside the free caps, so the order is by list price, what each option costs once past them; nothing bills less than the calls as made now, so the recommendation is to keep them."
}
