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
                    ("current", bill(group.current, of: group)),
                    ("recommended", bill(group.recommended, of: group)),
                ])
            })),
        ])
    }

    private func bill(_ bill: GroupBreakdown.Bill, of group: GroupBreakdown.Group) -> JSONValue {
        .object([
            ("list_cost_usd", .number(bill.listCostUSD)),
            ("cost_usd", .number(bill.costUSD)),
            ("list_cost_per_search_usd", group.listCostPerSearchUSD(bill).map(JSONValue.number) ?? .null),
            ("cost_per_search_usd", group.costPerSearchUSD(bill).map(JSONValue.number) ?? .null),
        ])
    }
}
