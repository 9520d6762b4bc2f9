/// The estimate set against the real bill, SKU by SKU (`placescost reconcile`).
public struct Reconciliation: Sendable, Equatable {
    /// One SKU, on either side or both.
    public struct Row: Sendable, Equatable {
        /// The exact Google SKU description.
        public var sku: String
        /// Events the estimate bills (scaled by `--scale`); 0 when only the bill has the SKU.
        public var estimatedCount: Double
        /// The bill's usage amount; 0 when only the estimate has the SKU.
        public var billedCount: Double
        /// The estimate's cost after free caps and tiers, before any monthly credit.
        public var estimatedCostUSD: Double
        /// The bill's cost before credits.
        public var billedCostUSD: Double
        /// Counts differ by more than `BillReconciler.tolerance` of the billed count, or the SKU
        /// is on one side only.
        public var flagged: Bool
        public var inEstimate: Bool
        public var inBill: Bool
    }

    /// Every SKU of either side, sorted by name so reports are stable.
    public var rows: [Row]
    /// The estimate net of its monthly credit (legacy 2018 pricing), as `analyze` reports it.
    public var totalEstimatedUSD: Double
    /// The bill's Places-related cost net of its credits.
    public var totalBilledUSD: Double
    /// The estimate's monthly credit (zero or negative).
    public var estimatedCreditsUSD: Double
    /// The bill's credits on Places-related SKUs (zero or negative).
    public var billedCreditsUSD: Double
    /// The months the estimate covers (`YYYY-MM`).
    public var estimateMonths: [String]
    public var bill: BilledUsage
    /// When counts on both sides differ by a near-constant factor above 1, the `--scale` that
    /// would close the gap (billed / estimated over the SKUs on both sides).
    public var suggestedScale: Double?
    /// The usual causes of a gap, shown when a row is flagged; empty otherwise.
    public var causes: [String]

    public var flaggedCount: Int { rows.filter(\.flagged).count }
}
