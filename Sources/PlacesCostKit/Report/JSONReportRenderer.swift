/// Renders an `Analysis` as `report.json` (schema `placescost.report/1`, `docs/cli.md`).
struct JSONReportRenderer: Sendable {
    /// The `schema` of `report.json` (`docs/schema/report.schema.json`).
    static let schema = "placescost.report/1"

    init() {}

    func render(_ analysis: Analysis) -> String {
        document(analysis).rendered()
    }

    func document(_ analysis: Analysis) -> JSONValue {
        let stats = analysis.statistics
        let input = analysis.input
        return .object([
            ("schema", .string(JSONReportRenderer.schema)),
        ] + (analysis.generatedAt.map { [("generated_at", JSONValue.string($0.rfc3339))] } ?? []) + [
            ("pricing", pricingObject(analysis.pricing, choice: analysis.pricingChoice)),
            ("input", .object([
                ("files", .array(input.files.map { .string($0) })),
                ("sample_logs", .bool(input.usedSampleLogs)),
                ("records", .int(input.records)),
                ("rejected", .int(input.rejected)),
                ("outside_period", .int(input.outsideWindow)),
                ("skipped_requests", .int(input.skippedRequests)),
                ("preflight_requests", .int(input.unbilled.preflights)),
                ("redirected_requests", .int(input.unbilled.redirects)),
                ("bodies_unknown", .int(input.bodiesUnknown)),
                ("duplicates", .int(input.duplicates)),
                ("duplicates_dropped", .int(input.duplicatesDropped)),
                ("by_api", .object(input.byAPI.map { ($0.api, .int($0.count)) })),
                ("platforms", .array(input.platforms.map { use in
                    .object([("platform", .string(use.platform.rawValue)), ("api_version", .string(use.generation.rawValue)), ("calls", .int(use.calls))])
                })),
            ])),
            ("period", period(analysis)),
            ("headline", headline(analysis.recommendation)),
            ("assumptions", .object([
                ("session_timeout_seconds", .number(analysis.sessionOptions.timeout.seconds)),
                ("user_gap_seconds", .number(analysis.sessionOptions.userGap.seconds)),
                ("scale", .number(analysis.pricing.scale)),
                ("max_delay", .int(analysis.recommendation.evidence.maxDelay)),
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
                ("selections_with_wildcard", .int(analysis.detailsNeed.selectionsWithWildcard)),
                ("share", .number(analysis.detailsNeed.share)),
            ])),
            ("anomalies", .object(analysis.sessions.anomalies.named.map { ($0.name, .int($0.count)) })),
            ("anomaly_costs", anomalyCosts(analysis.recommendation.anomalies, scale: analysis.pricing.scale)),
        ] + (analysis.groups.map { [("by", byObject($0))] } ?? []) + [
            ("strategies", strategies(analysis.pricing, monthLines: true)),
            ("break_even_requests", .number(analysis.pricing.breakEvenRequests)),
            ("recommendation", recommendation(analysis.recommendation)),
            ("charts", .array(ReportCharts.files(analysis).map { .string($0) })),
            ("timeout_sensitivity", .array(analysis.timeoutSensitivity.map { alternative in
                .object([
                    ("session_timeout_seconds", .number(alternative.timeoutSeconds)),
                    ("expired", .int(alternative.expired)),
                    ("searches_total", .int(alternative.searches)),
                ])
            })),
            ("traffic", traffic(analysis)),
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
            ("estimated_prices", .array(pricing.estimatedPrices.map { .string($0) })),
            ("unpriced", .object(pricing.unpriced.map { ($0.sku, .int($0.count)) })),
        ])
    }

    /// Every strategy at every priced delay (`docs/cli.md`). `monthLines` adds each month's
    /// tables and priced SKU lines, from which `simulate --from` bills the traffic again.
    func strategies(_ pricing: PricingResult, monthLines: Bool = false) -> JSONValue {
        .array(pricing.strategies.map { cost in
            .object([
                ("id", .string(cost.strategy.rawValue)),
                ("delay", .int(cost.delay)),
                ("list_cost_usd", .number(cost.listCostUSD)),
                ("cost_usd", .number(cost.costUSD)),
                ("valid", .bool(cost.valid)),
                ("skus", .object(cost.skus.map { ($0.sku, .int($0.count)) })),
                ("billed_skus", .object(cost.skus.map { ($0.sku, .number(Double($0.count) * pricing.scale)) })),
                ("months", .array(cost.months.map { month in
                    .object([
                        ("month", .string(month.month)),
                        ("list_cost_usd", .number(month.listCostUSD)),
                        ("credit_usd", .number(month.creditUSD)),
                        ("cost_usd", .number(month.costUSD)),
                    ] + (monthLines ? [
                        ("tables", .array(month.tableIDs.map { .string($0) })),
                        ("lines", .array(month.lines.filter { !$0.unpriced }.map { line in
                            .object([("table", .string(line.tableID)), ("sku", .string(line.sku)), ("count", .int(line.count))])
                        })),
                    ] : []))
                })),
            ])
        })
    }

    /// The recommendation, the tree's answer it was checked against, the numbers behind both, the
    /// ranking and the next steps.
    func recommendation(_ advice: Recommendation) -> JSONValue {
        let evidence = advice.evidence
        let option = { (option: Recommendation.Option?) in option.map { JSONValue.object(self.optionMembers($0)) } ?? .null }
        var validRank = 0
        return .object([
            ("strategy", .string(advice.strategy.rawValue)),
            ("delay", .int(advice.delay)),
            ("keep_current", .bool(advice.keepsCurrent)),
            ("path", .array(advice.path.map { .string($0) })),
            ("savings_usd", .number(advice.recommended.savingsUSDPerMonth)),
            ("savings_pct", .number(advice.recommended.savingsPercent)),
            ("list_savings_usd", .number(advice.recommended.listSavingsUSD)),
            ("list_savings_pct", .number(advice.recommended.listSavingsPercent)),
            ("latency_warning", .bool(advice.latencyWarning)),
            ("tree_answer", option(advice.treeOption)),
            ("differs_from_tree_because", advice.differsFromTree.map { .string($0) } ?? .null),
            ("best_without_delay", option(advice.bestWithoutDelay)),
            // Always null: `current` with a delay is a candidate, so it never bills less than the
            // recommendation (`docs/report-schema.md`); the key stays for readers of schema 1.
            ("current_with_delay", .null),
            ("cheapest_alternative", option(advice.cheapestAlternative)),
            ("all_bills_zero", .bool(advice.allBillsZero)),
            ("cheapest_at_list_prices", option(advice.cheapestAtListPrices)),
            ("advice_changes_at", advice.adviceChanges.map { change in
                .object([
                    ("scale", .number(change.scale)),
                    ("searches_per_month", .number(change.searchesPerMonth)),
                    ("strategy", .string(change.strategy.rawValue)),
                    ("delay", .int(change.delay)),
                    ("direction", .string(change.growing ? "growing" : "shrinking")),
                ])
            } ?? .null),
            ("evidence", .object([
                ("needs_details", .bool(evidence.needsDetails.needsDetails)),
                ("needs_details_source", .string(evidence.needsDetails.source.rawValue)),
                ("mean_requests_by_delay", .object(evidence.meanRequests.keys.sorted().map { (String($0), .number(evidence.meanRequests[$0]!)) })),
                ("break_even_requests", .number(evidence.breakEvenRequests)),
                ("price_table", .string(evidence.tableID)),
                ("max_delay", .int(evidence.maxDelay)),
                ("searches", .int(evidence.searches)),
                ("abandoned", .int(evidence.abandoned)),
            ])),
            ("ranking", .array(advice.ranking.map { option in
                if option.valid { validRank += 1 }
                return .object([("rank", option.valid ? .int(validRank) : .null)] + optionMembers(option))
            })),
            ("next_steps", .array(advice.nextSteps.map { .string($0) })),
        ])
    }

    private func optionMembers(_ option: Recommendation.Option) -> [(String, JSONValue)] {
        [
            ("strategy", .string(option.strategy.rawValue)),
            ("delay", .int(option.delay)),
            ("cost_usd", .number(option.costUSD)),
            ("list_cost_usd", .number(option.listCostUSD)),
            ("valid", .bool(option.valid)),
            ("savings_usd", .number(option.savingsUSDPerMonth)),
            ("savings_pct", .number(option.savingsPercent)),
        ]
    }

    /// The figures of the report's headline.
    func headline(_ advice: Recommendation) -> JSONValue {
        .object([
            ("months", .int(advice.months)),
            ("current_cost_usd", .number(advice.current.costUSD)),
            ("current_cost_usd_per_month", .number(advice.current.costUSD / Double(advice.months))),
            ("current_list_cost_usd", .number(advice.current.listCostUSD)),
            ("recommended_strategy", .string(advice.strategy.rawValue)),
            ("recommended_delay", .int(advice.delay)),
            ("keep_current", .bool(advice.keepsCurrent)),
            ("recommended_cost_usd", .number(advice.recommended.costUSD)),
            ("recommended_list_cost_usd", .number(advice.recommended.listCostUSD)),
            ("savings_usd_per_month", .number(advice.recommended.savingsUSDPerMonth)),
            ("savings_pct", .number(advice.recommended.savingsPercent)),
        ])
    }

    /// Each anomaly's count in the log and, beside its money, the count that money is for
    /// (`count` times `--scale`).
    func anomalyCosts(_ anomalies: [AnomalyAdvice], scale: Double) -> JSONValue {
        .array(anomalies.map { advice in
            let cost = advice.cost
            return .object([
                ("name", .string(cost.name)),
                ("count", .int(cost.count)),
                ("billed_count", .number(Double(cost.count) * scale)),
                ("billed_list_usd", .number(cost.billedListUSD)),
                ("alternative", cost.alternative.map { .string($0) } ?? .null),
                ("alternative_list_usd", cost.alternativeListUSD.map { .number($0) } ?? .null),
                ("excess_list_usd", cost.excessListUSD.map { .number($0) } ?? .null),
                ("alternative_costs_more_because", cost.alternativeCostsMoreBecause.map { .string($0) } ?? .null),
                ("fix", .string(advice.fix)),
            ])
        })
    }

    private func period(_ analysis: Analysis) -> JSONValue {
        guard let first = analysis.input.firstCall, let last = analysis.input.lastCall else { return .null }
        return .object([
            ("first_call", .string(first.rfc3339)),
            ("last_call", .string(last.rfc3339)),
            ("days", .int(last.daysSinceEpoch - first.daysSinceEpoch + 1)),
            ("months", .array((analysis.pricing.cost(.current, delay: 0)?.months ?? []).map { .string($0.month) })),
            ("searches_by_month", .object(analysis.pricing.searchesByMonth.map { ($0.month, .int($0.searches)) })),
        ])
    }

    private func histogram(_ counts: [Int: Int]) -> JSONValue {
        .object(counts.keys.sorted().map { (String($0), .int(counts[$0]!)) })
    }
}

extension Duration64 {
    var seconds: Double { Double(microseconds) / 1_000_000 }
}
