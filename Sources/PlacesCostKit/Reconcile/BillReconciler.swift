/// Sets the `current` strategy's estimate (delay 0: what the app does now) against a Cloud
/// Billing export, SKU by SKU.
///
/// It lives in the Pricing stage because it compares two priced results; the bill itself is read
/// by `BillingExportReader` in Ingest and shown by `ReconciliationRenderer` in Report.
struct BillReconciler: Sendable {
    /// Counts further apart than this share of the billed count are flagged.
    static let tolerance = 0.02

    init() {}

    /// - Parameters:
    ///   - pricing: `Analysis.pricing`; its `current` strategy at delay 0 is the estimate.
    ///   - bill: the Places-related SKUs of the billing export.
    ///   - period: which of the log's calls `pricing` priced, against the bill's days.
    func reconcile(_ pricing: PricingResult, bill: BilledUsage, period: EstimatePeriod = .wholeLog()) -> Reconciliation {
        let estimate = pricing.cost(.current, delay: 0)
        let months = (estimate?.months ?? []).map(\.month)
        let overlap = BillReconciler.periodsOverlap(bill: bill.period, months: months)
        // Months the bill covers and the log does not: their usage is billed and cannot be
        // estimated. Said only when the two share a day; otherwise `disjointPeriods` says more.
        let withoutLog = overlap == true ? bill.period.coveredMonths.filter { !months.contains($0) } : []
        var estimated: [String: (count: Double, cost: Double)] = [:]
        for month in estimate?.months ?? [] {
            // Unpriced calls (Find Place, unknown APIs) carry the log's API name, never a SKU
            // description, so they could only ever show up as false gaps.
            for line in month.lines where !line.unpriced && line.count > 0 {
                estimated[line.sku, default: (0, 0)].count += Double(line.count) * pricing.scale
                estimated[line.sku, default: (0, 0)].cost += line.costUSD
            }
        }
        let billed = Dictionary(bill.skus.map { ($0.sku, $0) }, uniquingKeysWith: { first, _ in first })
        var rows: [Reconciliation.Row] = []
        for sku in Set(estimated.keys).union(billed.keys).sorted() {
            let mine = estimated[sku]
            let theirs = billed[sku]
            let estimatedCount = mine?.count ?? 0
            let billedCount = theirs?.usageAmount ?? 0
            rows.append(.init(
                sku: sku, estimatedCount: estimatedCount, billedCount: billedCount,
                estimatedCostUSD: mine?.cost ?? 0, billedCostUSD: theirs?.costUSD ?? 0,
                flagged: mine == nil || theirs == nil || BillReconciler.differ(estimated: estimatedCount, billed: billedCount),
                inEstimate: mine != nil, inBill: theirs != nil
            ))
        }
        let credit = (estimate?.months ?? []).reduce(0) { $0 + $1.creditUSD }
        let shared = rows.filter { $0.inEstimate && $0.inBill }
        let sharedEstimated = shared.reduce(0) { $0 + $1.estimatedCount }
        let sharedBilled = shared.reduce(0) { $0 + $1.billedCount }
        var suggestedScale: Double?
        // A factor is only worth suggesting when both sides count the same days: a month billed
        // and not logged, or a --since/--until unlike the bill's, would pass for sampling.
        if sharedEstimated > 0, sharedBilled > sharedEstimated * (1 + BillReconciler.tolerance), withoutLog.isEmpty,
           period.source != .options || period.matchesBill {
            let suggested = ((sharedBilled / sharedEstimated) * pricing.scale * 100).rounded() / 100
            // Only a factor `--scale` accepts is worth suggesting.
            suggestedScale = CostCalculator.Options.scaleRange.contains(suggested) ? suggested : nil
        }
        let flagged = rows.contains(where: \.flagged)
        return Reconciliation(
            rows: rows,
            totalEstimatedUSD: estimate?.costUSD ?? 0,
            totalBilledUSD: bill.costUSD + bill.creditsUSD,
            estimatedCreditsUSD: credit == 0 ? 0 : -credit,
            billedCreditsUSD: bill.creditsUSD,
            estimateMonths: months,
            bill: bill,
            suggestedScale: suggestedScale,
            causes: flagged ? BillReconciler.causes(suggestedScale: suggestedScale) : [],
            periodsOverlap: overlap,
            estimatePeriod: period,
            billMonthsWithoutLog: withoutLog,
            periodNotes: [period.sentence, BillReconciler.monthsWithoutLog(withoutLog, estimateMonths: months)].compactMap { $0 }
        )
    }

    /// The sentence for bill months in which the log has no call; `nil` when there are none.
    static func monthsWithoutLog(_ withoutLog: [String], estimateMonths: [String]) -> String? {
        guard !withoutLog.isEmpty else { return nil }
        let named = withoutLog.count == 1 ? "\(withoutLog[0]), a month" : "\(BillReconciler.listed(withoutLog)), months"
        return "The bill also covers \(named) in which the log has no call: the usage billed there cannot be in the estimate, so the SKUs differ by it as expected. Export the bill of \(BillReconciler.listed(estimateMonths)) alone to compare like with like."
    }

    /// Whether the bill's usage dates (else its invoice months) share a day with the estimate's
    /// months (`YYYY-MM`); `nil` when either side names none. Dates compare as text, as
    /// `YYYY-MM-DD` sorts.
    static func periodsOverlap(bill: BilledUsage.Period, months: [String]) -> Bool? {
        guard !months.isEmpty else { return nil }
        if let first = bill.firstUsageDate, let last = bill.lastUsageDate {
            return months.contains { "\($0)-01" <= last && "\($0)-31" >= first }
        }
        guard !bill.invoiceMonths.isEmpty else { return nil }
        return months.contains(where: bill.invoiceMonths.contains)
    }

    /// The sentence for a bill and a log that share no day.
    static func disjointPeriods(bill: BilledUsage.Period, months: [String]) -> String {
        let billed = bill.firstUsageDate.flatMap { first in bill.lastUsageDate.map { "usage from \(first) to \($0)" } }
            ?? "invoice months \(bill.invoiceMonths.joined(separator: ", "))"
        return "The bill and the log share no day: the bill has \(billed), the estimate covers \(months.joined(separator: ", ")), so their counts are of different periods. Export the bill of the log's months, or analyze the log of the bill's (`--since`, `--until`)."
    }

    /// `a`, `a and b`, `a, b and c`.
    static func listed(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }

    /// Whether two counts differ by more than the tolerance, relative to the billed count.
    static func differ(estimated: Double, billed: Double) -> Bool {
        guard billed != 0 else { return estimated != 0 }
        return abs(estimated - billed) / abs(billed) > tolerance
    }

    static func causes(suggestedScale: Double?) -> [String] {
        let scale = suggestedScale.map { JSONValue.format($0) } ?? "X"
        return [
            "Traffic missing from the log: another client, server or API key calls Places without writing to this log, or the log misses days of the billing period (use --since and --until to match the bill's dates).",
            "Free caps: usage under a SKU's free monthly cap may be listed with a zero cost, or not at all, depending on the export.",
            "Credits: the $200 monthly credit, free-trial or promotional credits are shown apart from the SKU costs here; compare the totals net of credits.",
            "Month edges: Cloud Billing counts its days and months from midnight to midnight Pacific time; pass --timezone America/Los_Angeles so that the estimate's months match the bill's (the default is UTC).",
            "Other apps on the same billing account: the bill counts every project's calls; filter the export by project, or compare one project's log with one project's rows.",
            "Sampling: if the log holds a sample of the traffic, pass --scale \(scale) (billed calls / logged calls) so volumes, free caps and tiers are estimated on the full traffic.",
        ]
    }
}
