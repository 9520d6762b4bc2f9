/// Costs: events times the inlined prices, as `CostCalculator` computes them, and the final SELECT.
extension SessionSQLWriter {
    // MARK: - Costs (CostCalculator)

    /// A price as an SQL number literal (Swift prints the shortest text that reads back exactly).
    private func literal(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(format: "%.1f", value) : "\(value)"
    }

    /// The SKU's events: the sum of its roles' counts.
    private func volume(_ sku: PriceTable.SKU) -> String {
        "CAST(" + sku.roles.map(\.rawValue).joined(separator: " + ") + " AS \(dialect.doubleType))"
    }

    private func rounded(_ expression: String) -> String {
        "ROUND(\(expression) * 1000000) / 1000000"
    }

    func costs() -> [String] {
        var lines = [
            "-- list_cost_usd (sessions.md, From counts to money): every event at its SKU's first-tier price,",
            "-- no free cap, no credit. Prices of `\(commented(table.id))`, USD per 1,000 events.",
            "costs AS (",
            "  SELECT",
            "    strategy, delay,",
            "    ROUND((",
        ]
        let priced = table.skus.filter { $0.tiers[0].usdPer1000 != 0 }
        if priced.isEmpty { lines.append("      0") }
        for (index, sku) in priced.enumerated() {
            let note = sku.tiers[0].confirmed ? "" : " (unconfirmed: \(sku.tiers[0].source))"
            lines.append("      \(index == 0 ? "  " : "+ ")\(volume(sku)) * \(literal(sku.tiers[0].usdPer1000)) / 1000  -- \(commented(sku.name + note))")
        }
        lines += ["    ) * 1000000) / 1000000 AS list_cost_usd", "  FROM events", ")"]
        return lines
    }

    func monthCosts() -> [String] {
        var lines = [
            "-- cost_usd (sessions.md, From counts to money): per month, each SKU's volume after its free",
            "-- monthly cap, priced through the graduated tiers of `\(commented(table.id))` (USD per 1,000 events)"
                + (table.monthlyCreditUSD > 0 ? ", less the monthly credit." : "."),
            "month_costs AS (",
            "  SELECT",
            "    month, strategy, delay,",
        ]
        var terms: [String] = []
        for sku in table.skus {
            guard let free = sku.freeMonthly else { continue }  // free without limit
            var lower = 0
            var parts: [String] = []
            var estimated: Int?
            for tier in sku.tiers {
                defer { lower = tier.upTo ?? lower }
                if tier.isEstimate, estimated == nil { estimated = lower }
                guard tier.usdPer1000 != 0 else { continue }
                // The engine bills min(volume, tier top) - max(free, tier bottom) when positive.
                let top = tier.upTo.map { "LEAST(\(volume(sku)), \($0))" } ?? volume(sku)
                let bottom = max(free, lower)
                let billed = bottom == 0 ? top : "GREATEST(\(top) - \(bottom), 0)"
                parts.append("\(billed) * \(literal(tier.usdPer1000)) / 1000")
            }
            if parts.isEmpty { continue }
            // Google quotes a band it does not publish by contact with sales: its price is an estimate.
            let estimate = estimated.map { "; above \($0) a month an estimate (contact sales)" } ?? ""
            terms.append("(" + parts.joined(separator: " + ") + ")  -- \(commented(sku.name + estimate))")
        }
        let gross = terms.isEmpty ? ["      0"] : terms.enumerated().map { "      \($0.offset == 0 ? "  " : "+ ")\($0.element)" }
        if table.monthlyCreditUSD > 0 {
            lines += ["    gross - LEAST(\(literal(table.monthlyCreditUSD)), gross) AS cost_usd", "  FROM (", "    SELECT month, strategy, delay, ("]
            lines += gross.map { "  " + $0 }
            lines += ["      ) AS gross", "    FROM events", "  ) AS billed", ")"]
        } else {
            lines += ["    ("] + gross + ["    ) AS cost_usd", "  FROM events", ")"]
        }
        return lines
    }

    func summary() -> [String] {
        let double = dialect.doubleType
        return [
            "-- The counts of report.json: searches, the mean autocomplete calls per search (rounded to 1e-6",
            "-- as the report does) and the anomalies, each source read once.",
            "summary AS (",
            "  SELECT *",
            "  FROM (",
            "    SELECT",
            "      COUNT(*) AS searches_total,",
            "      COALESCE(SUM(completed), 0) AS searches_completed,",
            "      COALESCE(SUM(1 - completed), 0) AS searches_abandoned,",
            "      CASE WHEN COUNT(*) = 0 THEN 0",
            "        ELSE ROUND(CAST(SUM(requests) AS \(double)) / CAST(COUNT(*) AS \(double)) * 1000000) / 1000000 END AS avg_requests",
            "    FROM searches",
            "  ) AS search_counts",
            "  CROSS JOIN (",
            "    SELECT",
            "      COALESCE(SUM(CASE WHEN role = 'spent' THEN 1 ELSE 0 END), 0) AS token_reused,",
            "      COALESCE(SUM(CASE WHEN role = 'orphan' THEN 1 ELSE 0 END), 0) AS details_without_autocomplete",
            "    FROM token_runs",
            "  ) AS token_counts",
            "  CROSS JOIN (",
            "    SELECT",
            "      COALESCE(SUM(expired), 0) AS expired,",
            "      COALESCE(SUM(CASE WHEN requests = 1 THEN 1 ELSE 0 END), 0) AS one_request_sessions",
            "    FROM sessions",
            "  ) AS session_counts",
            "  CROSS JOIN (",
            "    SELECT",
            "      COALESCE(SUM(CASE WHEN api = 'autocomplete' AND token IS NULL THEN 1 ELSE 0 END), 0) AS no_token_requests,",
            "      COALESCE(SUM(CASE WHEN api = 'place_details' AND has_mask = 0 THEN 1 ELSE 0 END), 0) AS fields_unspecified",
            "    FROM calls_masked",
            "  ) AS call_counts",
            ")",
        ]
    }

    private func pivot(_ value: String) -> [String] {
        var columns: [String] = []
        for strategy in StrategyID.allCases {
            for delay in pricedDelays {
                columns.append("  MAX(CASE WHEN strategy = '\(strategy.rawValue)' AND delay = \(delay) THEN \(value) END) AS \(SessionSQLWriter.costColumn(strategy, delay: delay))")
            }
        }
        return columns
    }

    func finalSummary() -> [String] {
        let integer = dialect.integerType
        let double = dialect.doubleType
        var lines = ["SELECT"]
        for name in SessionSQLWriter.countColumns {
            let type = name == "avg_requests" ? double : integer
            lines.append("  CAST(MAX(summary.\(name)) AS \(type)) AS \(name),")
        }
        let columns = pivot("list_cost_usd")
        lines += columns.enumerated().map { $0.element + ($0.offset < columns.count - 1 ? "," : "") }
        lines += ["FROM costs", "CROSS JOIN summary"]
        return lines
    }

    func finalByMonth() -> [String] {
        var lines = ["SELECT", "  month,"]
        let columns = pivot(rounded("cost_usd"))
        lines += columns.enumerated().map { $0.element + ($0.offset < columns.count - 1 ? "," : "") }
        lines += ["FROM month_costs", "GROUP BY month", "ORDER BY month"]
        return lines
    }
}
