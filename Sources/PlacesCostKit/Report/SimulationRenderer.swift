import Foundation

/// Renders a `Simulation.Result` as JSON (the `analyze` keys for pricing) or as a table for people.
public struct SimulationRenderer: Sendable {
    public init() {}

    public func json(_ result: Simulation.Result) -> JSONValue {
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
            ("schema", .string(JSONReportRenderer.schema)),
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
        ])
    }

    public func markdown(_ result: Simulation.Result) -> String {
        let simulator = result.simulator
        let table = result.pricing.primaryTable
        var lines: [String] = []
        let typing: String
        switch simulator.typing {
        case .characters(let count): typing = "users type \(count) characters"
        case .requests(let mean): typing = "the app makes \(Money.plain(mean)) autocomplete calls per search"
        }
        lines.append("# What-if: \(Money.count(simulator.searchesPerMonth)) searches a month" + (result.months > 1 ? " for \(result.months) months" : ""))
        lines.append("")
        lines.append("Assumed: \(typing) with a delay of \(simulator.currentDelay) now; \(Money.plain(simulator.completionRate * 100))% of searches end with a selected place; Place Details asks for \(simulator.fields.joined(separator: ", ")) (\(result.needsDetails ? "more than address and location" : "address and location only")). Prices: `\(table.id)` (\(table.title)).")
        lines.append("")
        let delays = result.pricing.delays
        let searches = Double(max(result.totalSearches, 1))
        let header = "| | " + delays.map { "delay \($0)" }.joined(separator: " | ") + " |"
        let rule = "|---|" + delays.map { _ in "---:|" }.joined()
        lines.append("Per search, at list prices:")
        lines.append("")
        lines.append(header)
        lines.append(rule)
        lines.append("| requests per search | " + delays.map { Money.plain(result.meanRequests[$0] ?? 0) }.joined(separator: " | ") + " |")
        for strategy in StrategyID.allCases {
            let cells = delays.map { delay in result.pricing.cost(strategy, delay: delay).map { Money.usd($0.listCostUSD / searches, digits: 5) } ?? "" }
            let valid = result.pricing.cost(strategy, delay: 0)?.valid ?? true
            lines.append("| `\(strategy.rawValue)`\(valid ? "" : " (not valid: the app needs details)") | " + cells.joined(separator: " | ") + " |")
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
        lines.append("Break-even: per-request autocomplete plus one Geocoding call costs no more than a session while a search makes at most **\(Money.plain(result.pricing.breakEvenRequests))** autocomplete calls (from the table's first-tier prices).")
        lines.append("")
        lines.append("`current` is the scenario as described, run with proper session tokens, so it equals `session_details`. \"List\" prices every event at the first tier with nothing free; the bill applies the table's free caps, tiers and credit month by month.")
        if !result.pricing.unconfirmedPrices.isEmpty {
            lines.append("")
            lines.append("Unconfirmed prices used (not on Google's own page): " + result.pricing.unconfirmedPrices.joined(separator: "; ") + ".")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Number formats for people (reports for machines use `JSONValue`).
enum Money {
    /// `$1,234.56`; small amounts keep `digits` decimals so per-search figures stay visible.
    static func usd(_ value: Double, digits: Int = 2) -> String {
        let factor = pow10(digits)
        let rounded = (value * factor).rounded() / factor
        var text = String(format: "%.\(digits)f", rounded)
        if digits > 2 {
            while text.hasSuffix("0"), !text.hasSuffix(".00") { text.removeLast() }
        }
        return "$" + groupThousands(text)
    }

    /// Up to two decimals, no trailing zeros.
    static func plain(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded() { return groupThousands(String(Int64(rounded))) }
        var text = String(format: "%.2f", rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return groupThousands(text)
    }

    static func count(_ value: Int) -> String {
        groupThousands(String(value))
    }

    private static func pow10(_ digits: Int) -> Double {
        (0..<digits).reduce(1.0) { result, _ in result * 10 }
    }

    private static func groupThousands(_ text: String) -> String {
        let negative = text.hasPrefix("-")
        let unsigned = negative ? String(text.dropFirst()) : text
        let parts = unsigned.split(separator: ".", maxSplits: 1)
        var integer = String(parts[0])
        var grouped = ""
        while integer.count > 3 {
            grouped = "," + integer.suffix(3) + grouped
            integer = String(integer.dropLast(3))
        }
        grouped = integer + grouped
        return (negative ? "-" : "") + grouped + (parts.count > 1 ? "." + parts[1] : "")
    }
}
