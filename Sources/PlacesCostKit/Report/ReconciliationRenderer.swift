/// Renders a `Reconciliation` as `reconciliation.json` (for machines) or `reconciliation.md`.
struct ReconciliationRenderer: Sendable {
    /// The `schema` of `reconciliation.json` (`docs/schema/reconciliation.schema.json`).
    static let schema = "placescost.reconciliation/1"

    enum Format: String, Sendable, CaseIterable {
        case md, json

        var fileName: String {
            switch self {
            case .md: "reconciliation.md"
            case .json: "reconciliation.json"
            }
        }
    }

    init() {}

    func render(_ reconciliation: Reconciliation, as format: Format) -> String {
        switch format {
        case .json: json(reconciliation).rendered()
        case .md: markdown(reconciliation)
        }
    }

    /// Both files `--out` writes.
    func files(_ reconciliation: Reconciliation) -> [(path: String, contents: String)] {
        Format.allCases.map { ($0.fileName, render(reconciliation, as: $0)) }
    }

    /// `skus[]` holds exactly the keys of `docs/cli.md`; the rest says where the numbers came from.
    func json(_ reconciliation: Reconciliation) -> JSONValue {
        let bill = reconciliation.bill
        let period = bill.period
        /// A billed amount: US dollars, or null when the bill is in another currency.
        func billed(_ amount: Double) -> JSONValue { bill.currency == nil ? .number(amount) : .null }
        return .object([
            ("schema", .string(ReconciliationRenderer.schema)),
            ("skus", .array(reconciliation.rows.map { row in
                .object([
                    ("sku", .string(row.sku)),
                    ("estimated_count", .number(row.estimatedCount)),
                    ("billed_count", .number(row.billedCount)),
                    ("estimated_cost_usd", .number(row.estimatedCostUSD)),
                    ("billed_cost_usd", billed(row.billedCostUSD)),
                    ("flagged", .bool(row.flagged)),
                ])
            })),
            ("total_estimated_usd", .number(reconciliation.totalEstimatedUSD)),
            ("total_billed_usd", billed(reconciliation.totalBilledUSD)),
            ("estimated_credits_usd", .number(reconciliation.estimatedCreditsUSD)),
            ("billed_credits_usd", billed(reconciliation.billedCreditsUSD)),
            ("billing_period", .object([
                ("first_usage_date", period.firstUsageDate.map(JSONValue.string) ?? .null),
                ("last_usage_date", period.lastUsageDate.map(JSONValue.string) ?? .null),
                ("invoice_months", .array(period.invoiceMonths.map(JSONValue.string))),
            ])),
            ("estimate_months", .array(reconciliation.estimateMonths.map(JSONValue.string))),
            ("periods_overlap", reconciliation.periodsOverlap.map(JSONValue.bool) ?? .null),
            ("estimate_period", estimatePeriod(reconciliation.estimatePeriod)),
            ("bill_months_without_log", .array(reconciliation.billMonthsWithoutLog.map(JSONValue.string))),
            ("period_notes", .array(reconciliation.periodNotes.map(JSONValue.string))),
            ("billing_file", .object([
                ("path", .string(bill.file)),
                ("layout", .string(bill.layout.rawValue)),
                ("matched_by_position", .bool(bill.matchedByPosition)),
                ("other_service_rows", .int(bill.otherServiceRows)),
                ("other_service_cost_usd", billed(bill.otherServiceCostUSD)),
                ("ignored_rows", .int(bill.ignoredRows)),
                ("currency", .string(bill.currency ?? "USD")),
            ])),
            ("count_tolerance", .number(BillReconciler.tolerance)),
            ("flagged", .int(reconciliation.flaggedCount)),
            ("suggested_scale", reconciliation.suggestedScale.map(JSONValue.number) ?? .null),
            ("causes", .array(reconciliation.causes.map(JSONValue.string))),
        ])
    }

    /// Which calls the estimate priced: `estimate_period` in `docs/report-schema.md`.
    private func estimatePeriod(_ estimate: EstimatePeriod) -> JSONValue {
        let days: [JSONValue] = estimate.daysLeftOut.map { days in
            .object([("first", .string(days.lowerBound.dayText)), ("last", .string(days.upperBound.dayText))])
        }
        return .object([
            ("source", .string(estimate.source.rawValue)),
            ("since", estimate.window.start.map { .string($0.rfc3339) } ?? .null),
            ("until", estimate.window.end.map { .string($0.rfc3339) } ?? .null),
            ("time_zone", .string(estimate.zoneName)),
            ("calls_left_out", .int(estimate.callsLeftOut)),
            ("days_left_out", .array(days)),
            ("matches_bill", .bool(estimate.matchesBill)),
        ])
    }

    /// The Markdown report; `brief` for a terminal, where the flag goes into the difference
    /// column (`+130%, flagged`, `only billed`), so a narrow screen never loses it.
    func markdown(_ reconciliation: Reconciliation, brief: Bool = false) -> String {
        let bill = reconciliation.bill
        var lines = ["# Estimate vs bill", ""]
        lines.append("Billing export: \(MarkdownText.name(bill.file)) (\(bill.layout.rawValue)\(bill.matchedByPosition ? ", columns matched by position" : "")), \(periodText(bill.period)).")
        let months = reconciliation.estimateMonths
        lines.append("The estimate is the app's current billing at delay 0 over \(months.isEmpty ? "no month" : months.joined(separator: ", ")).")
        if reconciliation.periodsOverlap == false {
            lines.append("")
            lines.append("**" + BillReconciler.disjointPeriods(bill: bill.period, months: months) + "**")
        }
        for note in reconciliation.periodNotes {
            lines.append("")
            lines.append("**" + note + "**")
        }
        if bill.skus.isEmpty {
            let others = bill.otherServiceRows > 0 ? ", only \(Money.count(bill.otherServiceRows, "row", "rows")) of other services" : ""
            lines.append("")
            lines.append("**The export holds no Places usage row\(others)**: every SKU of the estimate shows as not in the bill. Check that the export is of the billing account, project and month the log is from.")
        }
        // Text from the file: escaped, so it cannot add a cell, a tag or a line.
        let currency = bill.currency.map(MarkdownText.escaped)
        /// A billed amount as the bill states it: dollars, or the number and the bill's currency.
        func billed(_ amount: Double) -> String {
            currency.map { Money.usd(amount).replacingOccurrences(of: "$", with: "") + " " + $0 } ?? Money.usd(amount)
        }
        if let currency {
            lines.append("")
            lines.append("**The bill is in \(currency)**: its costs are shown as billed, in \(currency), and the estimate's in US dollars at Google's list prices, so the costs are not compared; the counts are, and they do not depend on the currency.")
        }
        lines.append("")
        let billedCost = "billed cost\(currency.map { " (\($0))" } ?? "")"
        if brief {
            lines.append("| SKU | estimated count | billed count | estimated cost | \(billedCost) | difference |")
            lines.append("|---|---:|---:|---:|---:|---|")
        } else {
            lines.append("| SKU | estimated count | billed count | difference | estimated cost | \(billedCost) | |")
            lines.append("|---|---:|---:|---:|---:|---:|---|")
        }
        for row in reconciliation.rows {
            let counts = "| \(MarkdownText.name(row.sku)) | \(Money.plain(row.estimatedCount)) | \(Money.plain(row.billedCount)) |"
            let costs = " \(Money.usd(row.estimatedCostUSD)) | \(billed(row.billedCostUSD)) |"
            if brief {
                let mark = !row.inBill ? "only estimated" : !row.inEstimate ? "only billed" : difference(row) + (row.flagged ? ", flagged" : "")
                lines.append(counts + costs + " \(mark) |")
            } else {
                let mark = !row.inBill ? "**flagged**: not in the bill" : !row.inEstimate ? "**flagged**: not in the estimate" : row.flagged ? "**flagged**" : ""
                lines.append(counts + " \(difference(row)) |" + costs + " \(mark) |")
            }
        }
        let totals = "**\(Money.usd(reconciliation.totalEstimatedUSD))** | **\(billed(reconciliation.totalBilledUSD))** |"
        lines.append(brief ? "| **Total** (net of credits) | | | \(totals) |" : "| **Total** (net of credits) | | | | \(totals) |")
        lines.append("")
        lines.append("Credits are kept apart from the SKU costs: estimated \(Money.usd(reconciliation.estimatedCreditsUSD)), billed \(billed(reconciliation.billedCreditsUSD)).")
        if bill.otherServiceRows > 0 {
            lines.append("Left out of the comparison: \(bill.otherServiceRows) \(bill.otherServiceRows == 1 ? "row" : "rows") of other services or SKUs (\(billed(bill.otherServiceCostUSD))).")
        }
        if bill.ignoredRows > 0 {
            lines.append("\(bill.ignoredRows) tax, rounding or total \(bill.ignoredRows == 1 ? "row was" : "rows were") skipped.")
        }
        lines.append("")
        if reconciliation.causes.isEmpty {
            lines.append("Every SKU's count is within \(Money.plain(BillReconciler.tolerance * 100))% of the bill.")
        } else {
            lines.append("\(reconciliation.flaggedCount) of \(reconciliation.rows.count) SKUs differ by more than \(Money.plain(BillReconciler.tolerance * 100))% or appear on one side only. Usual causes:")
            lines.append("")
            lines += reconciliation.causes.map { "- \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func periodText(_ period: BilledUsage.Period) -> String {
        var parts: [String] = []
        if let first = period.firstUsageDate, let last = period.lastUsageDate {
            parts.append("usage \(first) to \(last)")
        }
        if !period.invoiceMonths.isEmpty {
            parts.append("invoice \(period.invoiceMonths.joined(separator: ", "))")
        }
        return parts.isEmpty ? "no period given in the file" : parts.joined(separator: ", ")
    }

    private func difference(_ row: Reconciliation.Row) -> String {
        guard row.inEstimate, row.inBill, row.billedCount != 0 else { return "" }
        let percent = (row.estimatedCount - row.billedCount) / row.billedCount * 100
        return (percent > 0 ? "+" : "") + Money.plain(percent, digits: 1) + "%"
    }
}
