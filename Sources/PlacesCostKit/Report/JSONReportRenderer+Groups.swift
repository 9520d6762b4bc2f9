/// `report.json`'s `by` object (`docs/report-schema.md`, "Cost by group"): only with `--by`.
extension JSONReportRenderer {
    func byObject(_ breakdown: GroupBreakdown) -> JSONValue {
        .object([
            ("dimension", .string(breakdown.dimension.rawValue)),
            ("recommended", .object([
                ("strategy", .string(breakdown.recommendedStrategy.rawValue)),
                ("delay", .int(breakdown.recommendedDelay)),
            ])),
            ("groups", .array(breakdown.groups.map { group in
                .object([
                    ("group", group.name.map(JSONValue.string) ?? .null),
                    ("calls", .int(group.calls)),
                    ("searches", .int(group.searches)),
                    ("completed", .int(group.completed)),
                    ("anomalies", .object(group.anomalies.named.map { ($0.name, .int($0.count)) })),
                    ("current", bill(group.current, searches: group.searches)),
                    ("recommended", bill(group.recommended, searches: group.searches)),
                ])
            })),
        ])
    }

    private func bill(_ bill: GroupBreakdown.Bill, searches: Int) -> JSONValue {
        .object([
            ("list_cost_usd", .number(bill.listCostUSD)),
            ("cost_usd", .number(bill.costUSD)),
            ("list_cost_per_search_usd", bill.listCostPerSearchUSD(searches).map(JSONValue.number) ?? .null),
            ("cost_per_search_usd", bill.costPerSearchUSD(searches).map(JSONValue.number) ?? .null),
        ])
    }
}
