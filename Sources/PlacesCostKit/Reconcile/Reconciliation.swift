/// The estimate set against the real bill, SKU by SKU (`placescost reconcile`).
struct Reconciliation: Sendable, Equatable {
    /// One SKU, on either side or both.
    struct Row: Sendable, Equatable {
        /// The exact Google SKU description.
        var sku: String
        /// Events the estimate bills (scaled by `--scale`); 0 when only the bill has the SKU.
        var estimatedCount: Double
        /// The bill's usage amount; 0 when only the estimate has the SKU.
        var billedCount: Double
        /// The estimate's cost after free caps and tiers, before any monthly credit.
        var estimatedCostUSD: Double
        /// The bill's cost before credits.
        var billedCostUSD: Double
        /// Counts differ by more than `BillReconciler.tolerance` of the billed count, or the SKU
        /// is on one side only.
        var flagged: Bool
        var inEstimate: Bool
        var inBill: Bool
    }

    /// Every SKU of either side, sorted by name so reports are stable.
    var rows: [Row]
    /// The estimate net of its monthly credit (legacy 2018 pricing), as `analyze` reports it.
    var totalEstimatedUSD: Double
    /// The bill's Places-related cost net of its credits.
    var totalBilledUSD: Double
    /// The estimate's monthly credit (zero or negative).
    var estimatedCreditsUSD: Double
    /// The bill's credits on Places-related SKUs (zero or negative).
    var billedCreditsUSD: Double
    /// The months the estimate covers (`YYYY-MM`).
    var estimateMonths: [String]
    var bill: BilledUsage
    /// When counts on both sides differ by a near-constant factor above 1, the `--scale` that
    /// would close the gap (billed / estimated over the SKUs on both sides).
    var suggestedScale: Double?
    /// The usual causes of a gap, shown when a row is flagged; empty otherwise.
    var causes: [String]
    /// Whether the bill's period shares a day with the estimate's months; `nil` when either
    /// side names none (`BillReconciler.periodsOverlap`).
    var periodsOverlap: Bool?
    /// Which of the log's calls the estimate prices, against the bill's days.
    var estimatePeriod: EstimatePeriod = .wholeLog()
    /// The bill's months (`YYYY-MM`) in which the log has no call, when the two share a day.
    var billMonthsWithoutLog: [String] = []
    /// Sentences on the two periods: calls left out for the bill's days, `--since`/`--until`
    /// that differ from them, bill months without log data.
    var periodNotes: [String] = []

    var flaggedCount: Int { rows.filter(\.flagged).count }
}
