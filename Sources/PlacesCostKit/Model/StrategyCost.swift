/// What one strategy at one delay costs for the analyzed (or simulated) searches.
public struct StrategyCost: Sendable, Equatable {
    public var strategy: StrategyID
    /// Autocomplete calls at or under this many typed characters are dropped; 0 keeps all.
    public var delay: Int
    /// Every event at its SKU's first-tier price: no free cap, credit or volume tier.
    public var listCostUSD: Double
    /// The bill estimate: monthly volumes, free caps or credit, and tiers applied.
    public var costUSD: Double
    /// Whether the strategy serves the app (false when it needs details the strategy drops).
    public var valid: Bool
    /// Billable events per SKU name, over the whole period, in table order.
    public var skus: [SKUCount]
    public var months: [MonthCost]

    public init(strategy: StrategyID, delay: Int, listCostUSD: Double, costUSD: Double, valid: Bool, skus: [SKUCount], months: [MonthCost]) {
        self.strategy = strategy
        self.delay = delay
        self.listCostUSD = listCostUSD
        self.costUSD = costUSD
        self.valid = valid
        self.skus = skus
        self.months = months
    }
}

/// Events of one SKU.
public struct SKUCount: Sendable, Equatable {
    public var sku: String
    public var count: Int
    /// True for calls no bundled SKU bills (Find Place, Text Search, Address Validation, unknown
    /// APIs): counted, never priced at zero silently.
    public var unpriced: Bool

    public init(sku: String, count: Int, unpriced: Bool = false) {
        self.sku = sku
        self.count = count
        self.unpriced = unpriced
    }
}

/// One calendar month of one strategy and delay.
public struct MonthCost: Sendable, Equatable {
    /// `YYYY-MM`, or `month N` in simulations.
    public var month: String
    /// The price table each line was billed with.
    public var tableIDs: [String]
    public var lines: [Line]
    /// The monthly credit used (legacy 2018 pricing), as a positive number.
    public var creditUSD: Double
    public var listCostUSD: Double
    public var costUSD: Double

    public struct Line: Sendable, Equatable {
        public var sku: String
        public var tableID: String
        public var count: Int
        public var listCostUSD: Double
        public var costUSD: Double
        public var unpriced: Bool
    }
}
