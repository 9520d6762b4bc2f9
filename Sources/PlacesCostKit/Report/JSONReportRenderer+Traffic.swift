import Foundation

/// `traffic`: the measured searches and calls by shape (`MeasuredTraffic`), which
/// `simulate --from report.json` bills with a table of either API generation.
extension JSONReportRenderer {
    func traffic(_ analysis: Analysis) -> JSONValue {
        var options = CostCalculator.Options()
        options.timeZone = analysis.pricing.timeZone
        let calendar = CostCalculator(plan: PricingPlan(mode: .fixed(analysis.pricing.primaryTable)), options: options)
        let traffic = MeasuredTraffic(
            analysis.sessions, lengthClasses: analysis.pricing.delays.max() ?? 0, ruleDays: analysis.pricing.ruleStartDays
        ) { calendar.month(of: $0).label }
        return trafficObject(traffic)
    }

    /// Rows on one line each: a log has thousands of shapes.
    func trafficObject(_ traffic: MeasuredTraffic) -> JSONValue {
        func version(_ generation: APIGeneration?) -> JSONValue { generation.map { .string($0.rawValue) } ?? .null }
        func optional(_ value: Int?) -> JSONValue { value.map { .int($0) } ?? .null }
        return .object([
            ("length_classes", .int(traffic.lengthClasses)),
            ("rule_days", .row(traffic.ruleDays.map { day in
                let date = CivilDate(daysSinceEpoch: day)
                return .string(String(format: "%04d-%02d-%02d", date.year, date.month, date.day))
            })),
            // A name no field could have (`key=...`, typed text with spaces) is not repeated; any
            // name the catalog does not know bills the same.
            ("field_masks", .array(traffic.fieldMasks.map { .row($0.map { .string(FieldCatalog.shownName($0)) }) })),
            ("periods", .array(traffic.periods.map { .row([.string($0.month), .string($0.firstCall.rfc3339)]) })),
            ("search_columns", .row(MeasuredTraffic.searchColumns.map { .string($0) })),
            ("searches", .array(traffic.searches.map { shape in
                .row([
                    .int(shape.period), .string(shape.kind.rawValue), .string(shape.outcome.rawValue), version(shape.generation),
                    .int(shape.requests), optional(shape.lastLength), .row(shape.shortLengths.map { .int($0) }),
                    shape.selectionAPI.map { .string($0.name) } ?? .null, version(shape.selectionGeneration), optional(shape.fields),
                    .int(shape.count),
                ])
            })),
            ("call_columns", .row(MeasuredTraffic.callColumns.map { .string($0) })),
            ("calls", .array(traffic.calls.map { shape in
                .row([.int(shape.period), .string(shape.api.name), version(shape.generation), optional(shape.fields), .int(shape.count)])
            })),
        ])
    }
}
