import Foundation

/// Renders a `Simulation.Result` as JSON (the `analyze` keys for pricing) or as a table for people.
struct SimulationRenderer: Sendable {
    /// The `schema` of `simulate --json`, its own because the document is not `report.json`: it
    /// shares `pricing`, `break_even_requests` and `recommendation` with it, but has `simulation`,
    /// two more keys per strategy and months named `month N`
    /// (`docs/schema/simulation.schema.json`, `docs/report-schema.md`).
    static let schema = "placescost.simulation/1"

    init() {}

    func json(_ result: Simulation.Result, recommendation: Recommendation) -> JSONValue {
        let simulator = result.simulator
        let typing: JSONValue
        switch simulator.typing {
        case .characters(let count): typing = .object([("chars", .int(count))])
        case .requests(let mean): typing = .object([("requests", .number(mean))])
        }
        let jsonRenderer = JSONReportRenderer()
        guard case .array(let strategies) = jsonRenderer.strategies(result.pricing) else { preconditionFailure("strategies are an array") }
        let enriched: [JSONValue] = zip(strategies, result.pricing.strategies).map { json, cost in
            guard case .object(let members) = json else { return json }
            return .object(members + [
                ("requests_per_search", .number(result.meanRequests[cost.delay] ?? 0)),
                ("list_cost_per_search_usd", .number(cost.listCostUSD / Double(max(result.totalSearches, 1)))),
            ])
        }
        return .object([
            ("schema", .string(SimulationRenderer.schema)),
            ("pricing", jsonRenderer.pricingObject(result.pricing, choice: "`\(result.pricing.primaryTable.id)`")),
            ("simulation", .object([
                ("searches_per_month", .int(simulator.searchesPerMonth)),
                ("months", .int(result.months)),
                ("typing", typing),
                ("delay", .int(simulator.currentDelay)),
                ("completion_rate", .number(simulator.completionRate)),
                ("fields", .array(simulator.fields.map { .string($0) })),
                ("needs_details", .bool(result.needsDetails)),
            ])),
            ("strategies", .array(enriched)),
            ("break_even_requests", .number(result.pricing.breakEvenRequests)),
            ("recommendation", jsonRenderer.recommendation(recommendation)),
        ])
    }

    /// The what-if in Markdown. `brief` (a terminal's summary) keeps the scenario, the requests
    /// and list price per search, the bill per month, the free caps' effect and the advice, and
    /// leaves the break-even and the decision path to the full form (`--report md`). Both forms
    /// show the per-search figures: they are the seeds' worked example (`docs/billing.md`
    /// section 1), which `simulate` must show however its output is read.
    func markdown(_ result: Simulation.Result, recommendation: Recommendation, brief: Bool = false) -> String {
        let simulator = result.simulator
        let table = result.pricing.primaryTable
        var lines: [String] = []
        let typing: String
        switch simulator.typing {
        case .characters(let count): typing = "users type \(count) characters"
        case .requests(let mean): typing = "the app makes \(Money.plain(mean)) autocomplete calls per search"
        }
        lines.append("# What-if: \(Money.count(simulator.searchesPerMonth, "search", "searches")) a month" + (result.months > 1 ? " for \(result.months) months" : ""))
        lines.append("")
        lines.append("Assumed: \(typing) with a delay of \(simulator.currentDelay) now; \(Money.plain(simulator.completionRate * 100))% of searches end with a selected place; Place Details asks for \(simulator.fields.joined(separator: ", ")) (\(result.needsDetails ? "more than address and location" : "address and location only")). Prices: `\(table.id)` (\(table.title)).")
        lines.append("")
        let delays = result.pricing.delays
        let searches = Double(max(result.totalSearches, 1))
        let header = "| | " + delays.map { "delay \($0)" }.joined(separator: " | ") + " |"
        let rule = "|---|" + delays.map { _ in "---:|" }.joined()
        let invalid = StrategyID.allCases.filter { result.pricing.cost($0, delay: 0)?.valid == false }
        if brief {
            // A terminal's summary keeps this table to 7 lines: its title sits on the table, the
            // labels are as short as the bill's (`*` marks what does not serve the app, said in
            // the title), and `current` is left out when it prices every search as
            // `session_details` does, row for row: the scenario with proper tokens and no delay.
            lines.append("Per search, at list prices" + (invalid.isEmpty ? ":" : " (* not valid: the app needs details):"))
        } else {
            lines.append("Per search, at list prices:")
            lines.append("")
        }
        lines.append(header)
        lines.append(rule)
        lines.append("| \(brief ? "requests" : "requests per search") | " + delays.map { Money.plain(result.meanRequests[$0] ?? 0) }.joined(separator: " | ") + " |")
        for strategy in StrategyID.allCases where !(brief && strategy == .current && simulator.currentDelay == 0) {
            let cells = delays.map { delay in result.pricing.cost(strategy, delay: delay).map { Money.usd($0.listCostUSD / searches, digits: 5) } ?? "" }
            let mark = !invalid.contains(strategy) ? "" : brief ? "*" : " (not valid: the app needs details)"
            lines.append("| `\(strategy.rawValue)`\(mark) | " + cells.joined(separator: " | ") + " |")
        }
        lines.append("")
        lines.append("Bill per month (free caps, tiers and credit applied):")
        lines.append("")
        lines.append(header)
        lines.append(rule)
        for strategy in StrategyID.allCases {
            let cells = delays.map { delay in result.pricing.cost(strategy, delay: delay).map { Money.usd($0.costUSD / Double(result.months)) } ?? "" }
            lines.append("| `\(strategy.rawValue)` | " + cells.joined(separator: " | ") + " |")
        }
        lines.append("")
        if result.pricing.strategies.allSatisfy({ Money.micros($0.costUSD) == 0 }) {
            let volume = Money.count(simulator.searchesPerMonth, "search a month stays", "searches a month stay")
            lines.append("Every bill is $0.00: \(volume) inside \(Advisor.volumeEffects(result.pricing)). " + (brief ? "`--searches` sets a larger volume." : "The list prices above are what each search costs once past them; `--searches` sets a larger volume."))
            lines.append("")
        }
        if brief {
            lines.append("| | |")
            lines.append("|---|---|")
            for (label, text) in AdviceSentences.rows(recommendation, pricing: result.pricing, volume: .searches) {
                lines.append("| \(label) | \(text) |")
            }
            lines.append("")
            lines.append("The break-even and the decision path: `--report md`.")
            return lines.joined(separator: "\n") + "\n"
        }
        lines.append("Break-even: per-request autocomplete plus one Geocoding call costs no more than a session while a search makes at most **\(Money.plain(result.pricing.breakEvenRequests))** autocomplete calls (from the table's first-tier prices).")
        lines.append("")
        lines.append("")
        lines.append("## Recommendation")
        lines.append("")
        for step in recommendation.path {
            lines.append(step.hasPrefix("->") ? "   **\(step)**" : step)
            lines.append("")
        }
        lines.append("| | |")
        lines.append("|---|---|")
        for (label, text) in AdviceSentences.rows(recommendation, pricing: result.pricing, volume: .searches) {
            lines.append("| \(label) | \(text) |")
        }
        lines.append("")
        let delay = result.simulator.currentDelay
        let current = delay == 0
            ? "`current` is the scenario as described, run with proper session tokens, so it equals `session_details`."
            : "`current` is the scenario as described, run with proper session tokens: it keeps the app's delay of \(delay), so its delays 0 to \(delay) all bill what the app bills now, and it equals `session_details` from delay \(delay) on; the other strategies at a shorter delay drop some of it."
        lines.append("\(current) \"List\" prices every event at the first tier with nothing free; the bill applies the table's free caps, tiers and credit month by month.")
        if !result.pricing.unconfirmedPrices.isEmpty {
            lines.append("")
            lines.append("Unconfirmed prices used (not on Google's own page): " + result.pricing.unconfirmedPrices.joined(separator: "; ") + ".")
        }
        if !result.pricing.estimatedPrices.isEmpty {
            lines.append("")
            lines.append(MarkdownReportRenderer.estimatedPrices(result.pricing.estimatedPrices))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
