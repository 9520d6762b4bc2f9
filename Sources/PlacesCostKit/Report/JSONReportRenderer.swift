/// Renders an `Analysis` as `report.json` (schema `placescost.report/1`, `spec/cli.md`).
public struct JSONReportRenderer: Sendable {
    public static let schema = "placescost.report/1"

    public init() {}

    public func render(_ analysis: Analysis) -> String {
        document(analysis).rendered()
    }

    public func document(_ analysis: Analysis) -> JSONValue {
        let stats = analysis.statistics
        let input = analysis.input
        return .object([
            ("schema", .string(JSONReportRenderer.schema)),
            ("pricing", pricingObject(analysis.pricing, choice: analysis.pricingChoice)),
            ("input", .object([
                ("files", .array(input.files.map { .string($0) })),
                ("sample_logs", .bool(input.usedSampleLogs)),
                ("records", .int(input.records)),
                ("rejected", .int(input.rejected)),
                ("outside_period", .int(input.outsideWindow)),
                ("by_api", .object(input.byAPI.map { ($0.api, .int($0.count)) })),
            ])),
            ("assumptions", .object([
                ("session_timeout_seconds", .number(analysis.sessionOptions.timeout.seconds)),
                ("user_gap_seconds", .number(analysis.sessionOptions.userGap.seconds)),
            ])),
            ("searches", .object([
                ("total", .int(stats.total)),
                ("completed", .int(stats.completed)),
                ("abandoned", .int(stats.abandoned)),
                ("expired", .int(stats.expired)),
                ("by_kind", .object([Search.Kind.session, .spentToken, .inferred].map { ($0.rawValue, .int(stats.byKind[$0] ?? 0)) })),
                ("avg_requests", .number(stats.meanRequests)),
                ("avg_requests_completed", .number(stats.meanRequestsCompleted)),
                ("median_requests", .number(stats.medianRequests)),
                ("p90_requests", .number(stats.p90Requests)),
                ("requests_histogram", histogram(stats.requestsHistogram)),
                ("avg_chars_at_selection", .number(stats.meanCharactersAtSelection)),
                ("chars_at_selection_histogram", histogram(stats.charactersAtSelectionHistogram)),
            ])),
            ("needs_details", .object([
                ("answer", .bool(analysis.detailsNeed.needsDetails)),
                ("source", .string(analysis.detailsNeed.source.rawValue)),
                ("selections_with_mask", .int(analysis.detailsNeed.selectionsWithMask)),
                ("selections_needing_details", .int(analysis.detailsNeed.selectionsNeedingDetails)),
                ("share", .number(analysis.detailsNeed.share)),
            ])),
            ("anomalies", .object(analysis.sessions.anomalies.named.map { ($0.name, .int($0.count)) })),
            ("strategies", strategies(analysis.pricing)),
            ("break_even_requests", .number(analysis.pricing.breakEvenRequests)),
            ("timeout_sensitivity", .array(analysis.timeoutSensitivity.map { alternative in
                .object([
                    ("session_timeout_seconds", .number(alternative.timeoutSeconds)),
                    ("expired", .int(alternative.expired)),
                    ("searches_total", .int(alternative.searches)),
                ])
            })),
        ])
    }

    /// The `pricing` object: the table used and the facts a reader needs to trust the money.
    func pricingObject(_ pricing: PricingResult, choice: String) -> JSONValue {
        let table = pricing.primaryTable
        return .object([
            ("id", .string(table.id)),
            ("title", .string(table.title)),
            ("api_version", .string(table.apiVersion.rawValue)),
            ("choice", .string(choice)),
            ("tables_used", .array(pricing.tablesUsed.map { .object([("month", .string($0.month)), ("id", .string($0.tableID))]) })),
            ("unconfirmed_prices", .array(pricing.unconfirmedPrices.map { .string($0) })),
            ("unpriced", .object(pricing.unpriced.map { ($0.sku, .int($0.count)) })),
        ])
    }

    /// Every strategy at every priced delay (`spec/cli.md`).
    func strategies(_ pricing: PricingResult) -> JSONValue {
        .array(pricing.strategies.map { cost in
            .object([
                ("id", .string(cost.strategy.rawValue)),
                ("delay", .int(cost.delay)),
                ("list_cost_usd", .number(cost.listCostUSD)),
                ("cost_usd", .number(cost.costUSD)),
                ("valid", .bool(cost.valid)),
                ("skus", .object(cost.skus.map { ($0.sku, .int($0.count)) })),
            ])
        })
    }

    private func histogram(_ counts: [Int: Int]) -> JSONValue {
        .object(counts.keys.sorted().map { (String($0), .int(counts[$0]!)) })
    }
}

extension Duration64 {
    public var seconds: Double { Double(microseconds) / 1_000_000 }
}
