/// What one strategy at one delay costs for the analyzed (or simulated) searches.
struct StrategyCost: Sendable, Equatable {
    var strategy: StrategyID
    /// Autocomplete calls at or under this many typed characters are dropped; 0 keeps all.
    var delay: Int
    /// Every event at its SKU's first-tier price: no free cap, credit or volume tier.
    var listCostUSD: Double
    /// The bill estimate: monthly volumes, free caps or credit, and tiers applied.
    var costUSD: Double
    /// Whether the strategy serves the app (false when it needs details the strategy drops).
    var valid: Bool
    /// Billable events per SKU name, over the whole period, in table order.
    var skus: [SKUCount]
    var months: [MonthCost]

    init(strategy: StrategyID, delay: Int, listCostUSD: Double, costUSD: Double, valid: Bool, skus: [SKUCount], months: [MonthCost]) {
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
struct SKUCount: Sendable, Equatable {
    var sku: String
    var count: Int
    /// True for calls no bundled SKU bills (Find Place, Text Search, Address Validation, unknown
    /// APIs): counted, never priced at zero silently.
    var unpriced: Bool

    init(sku: String, count: Int, unpriced: Bool = false) {
        self.sku = sku
        self.count = count
        self.unpriced = unpriced
    }
}

/// One calendar month of one strategy and delay.
struct MonthCost: Sendable, Equatable {
    /// `YYYY-MM`, or `month N` in simulations.
    var month: String
    /// The price table each line was billed with.
    var tableIDs: [String]
    var lines: [Line]
    /// The monthly credit used (legacy 2018 pricing), as a positive number.
    var creditUSD: Double
    var listCostUSD: Double
    var costUSD: Double

    struct Line: Sendable, Equatable {
        var sku: String
        var tableID: String
        var count: Int
        var listCostUSD: Double
        var costUSD: Double
        var unpriced: Bool
    }
}
