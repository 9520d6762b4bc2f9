/// Renders an `Analysis` as Markdown for people: what the log holds, how it groups into searches,
/// and which token and field-mask mistakes it makes.
public struct MarkdownReportRenderer: Sendable {
    public init() {}

    public func render(_ analysis: Analysis) -> String {
        var lines: [String] = []
        let stats = analysis.statistics
        let input = analysis.input
        lines.append("# Places Autocomplete usage report")
        lines.append("")
        if input.usedSampleLogs {
            lines.append("> This report is for the bundled sample logs (`SampleLogs/`): simulated traffic, not yours. Run `placescost analyze YOUR.jsonl` for your own.")
            lines.append("")
        }
        lines.append("## Input")
        lines.append("")
        lines.append("- Files: \(input.files.map { "`\($0)`" }.joined(separator: ", "))")
        lines.append("- Calls read: \(input.records)" + (input.rejected > 0 ? "; malformed records skipped: \(input.rejected)" : ""))
        if input.outsideWindow > 0 {
            lines.append("- Calls outside the chosen period: \(input.outsideWindow)")
        }
        lines.append("")
        lines.append("| API | calls |")
        lines.append("|---|---:|")
        for (api, count) in input.byAPI {
            lines.append("| `\(api)` | \(count) |")
        }
        lines.append("")
        lines.append("## Searches")
        lines.append("")
        lines.append("A search is what one user did once: the autocomplete calls of one query, ended by selecting a place or by giving up.")
        lines.append("")
        lines.append("| | searches |")
        lines.append("|---|---:|")
        lines.append("| total | \(stats.total) |")
        lines.append("| completed (a place was selected) | \(stats.completed) |")
        lines.append("| abandoned (no selection) | \(stats.abandoned) |")
        lines.append("| of which closed by the \(format(analysis.sessionOptions.timeout.seconds)) s timeout | \(stats.expired) |")
        lines.append("| sessions with a proper token | \(stats.byKind[.session] ?? 0) |")
        lines.append("| runs on a spent token (billed as without a token) | \(stats.byKind[.spentToken] ?? 0) |")
        lines.append("| inferred from token-less calls of one user | \(stats.byKind[.inferred] ?? 0) |")
        lines.append("")
        lines.append("Autocomplete requests per search: mean **\(format(stats.meanRequests))** (completed searches: \(format(stats.meanRequestsCompleted))), median \(format(stats.medianRequests)), 90th percentile \(format(stats.p90Requests)).")
        lines.append("")
        if !stats.requestsHistogram.isEmpty {
            lines.append("| requests | searches |")
            lines.append("|---:|---:|")
            for requests in stats.requestsHistogram.keys.sorted() {
                lines.append("| \(requests) | \(stats.requestsHistogram[requests]!) |")
            }
            lines.append("")
        }
        if stats.completed > 0 {
            lines.append("Characters typed at selection: mean \(format(stats.meanCharactersAtSelection)).")
            lines.append("")
        }
        lines += costLines(analysis)
        lines.append("## Does the app need Place Details?")
        lines.append("")
        lines.append(detailsNeedSentence(analysis.detailsNeed))
        lines.append("")
        lines.append("## Anomalies")
        lines.append("")
        lines.append("| anomaly | count | what it means |")
        lines.append("|---|---:|---|")
        for (name, count) in analysis.sessions.anomalies.named {
            lines.append("| `\(name)` | \(count) | \(MarkdownReportRenderer.anomalyMeaning[name] ?? "") |")
        }
        lines.append("")
        if !analysis.timeoutSensitivity.isEmpty {
            lines.append("## Assumptions")
            lines.append("")
            lines.append("Google bills a session with no selection \"within a few minutes\" as abandoned but publishes no exact number. This report used \(format(analysis.sessionOptions.timeout.seconds)) s (`--session-timeout`); token-less calls of one user up to \(format(analysis.sessionOptions.userGap.seconds)) s apart were grouped into one search (`--user-gap`).")
            lines.append("")
            lines.append("| session timeout | sessions expired | searches |")
            lines.append("|---:|---:|---:|")
            lines.append("| \(format(analysis.sessionOptions.timeout.seconds)) s (used) | \(stats.expired) | \(stats.total) |")
            for alternative in analysis.timeoutSensitivity {
                lines.append("| \(format(alternative.timeoutSeconds)) s | \(alternative.expired) | \(alternative.searches) |")
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// What each strategy costs at each delay, with the price table and its caveats.
    private func costLines(_ analysis: Analysis) -> [String] {
        let pricing = analysis.pricing
        let delays = pricing.delays
        var lines = ["## What it costs", ""]
        lines.append("Prices: \(analysis.pricingChoice); this period used " + pricing.tablesUsed.map { "`\($0.tableID)` for \($0.month)" }.joined(separator: ", ") + ".")
        lines.append("")
        let header = "| strategy | " + delays.map { "delay \($0)" }.joined(separator: " | ") + " |"
        let rule = "|---|" + delays.map { _ in "---:|" }.joined()
        for (title, value) in [("Bill estimate for the period (free caps, tiers and credits applied)", \StrategyCost.costUSD),
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
        lines.append("Break-even: per-request autocomplete plus one Geocoding call costs no more than a session with address-only fields while a search makes at most **\(Money.plain(pricing.breakEvenRequests))** autocomplete calls; this log's searches make \(format(analysis.statistics.meanRequests)) on average.")
        lines.append("")
        if !pricing.unpriced.isEmpty {
            lines.append("Not priced (no bundled SKU bills them; they are counted, not charged): " + pricing.unpriced.map { "\($0.sku): \($0.count)" }.joined(separator: ", ") + ".")
            lines.append("")
        }
        if !pricing.unconfirmedPrices.isEmpty {
            lines.append("Unconfirmed prices used (third-party copies of Google's list, or inferred): " + pricing.unconfirmedPrices.joined(separator: "; ") + ".")
            lines.append("")
        }
        return lines
    }

    static let anomalyMeaning: [String: String] = [
        "token_reused": "calls made with a token already spent: billed as if they had no token",
        "expired": "sessions with no selection within the timeout: billed as abandoned",
        "details_without_autocomplete": "Place Details calls on a token no autocomplete call used",
        "no_token_requests": "autocomplete calls without a session token: billed per request",
        "fields_unspecified": "Place Details calls without a field mask: every data SKU billed",
        "one_request_sessions": "sessions holding a single autocomplete call (often a new token per keystroke)",
    ]

    private func detailsNeedSentence(_ need: DetailsNeed) -> String {
        switch need.source {
        case .override:
            return "Set by `--needs-details`: **\(need.needsDetails ? "yes" : "no")**."
        case .assumed:
            return "No selection in the log carried a field mask, so **yes** is assumed. Pass `--needs-details no` if the app only uses the address and location."
        case .measured:
            let share = format(need.share * 100)
            if need.needsDetails {
                let mixed = need.selectionsNeedingDetails < need.selectionsWithMask
                return "**Yes**: \(need.selectionsNeedingDetails) of \(need.selectionsWithMask) selections with a field mask (\(share)%) ask for more than the address and location." + (mixed ? " The app mixes both kinds: consider splitting the address-only flows from the ones that need place details." : "")
            }
            return "**No**: all \(need.selectionsWithMask) selections with a field mask ask only for the address and location, which Geocoding also returns."
        }
    }

    func format(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        return String(rounded)
    }
}
