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
