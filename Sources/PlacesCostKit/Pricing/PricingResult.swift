import Foundation

/// The Pricing stage's result: every strategy at every delay, and the facts behind the numbers.
struct PricingResult: Sendable {
    /// The table that billed the most searches and calls (the one `pricing.id` names).
    var primaryTable: PriceTable
    /// Strategies in `StrategyID` order, each at every priced delay (0 first).
    var strategies: [StrategyCost]
    /// Which table billed which month.
    var tablesUsed: [(month: String, tableID: String)]
    /// Autocomplete calls per search below which per-request + Geocoding costs no more than a
    /// session with address-only fields, at the primary table's first-tier prices.
    var breakEvenRequests: Double
    /// When searches and calls of the other API generation than the primary table's were priced
    /// too (a page on both Places libraries): the table that billed most of them, its
    /// break-even, and their share of everything priced. The tree is walked with the primary
    /// table's break-even; the reports say this one beside it.
    var otherGeneration: (table: PriceTable, breakEvenRequests: Double, share: Double)?
    /// Prices used that Google's own page does not confirm, as `table: SKU, tier: source`.
    var unconfirmedPrices: [String]
    /// Bands a month's volume reached where Google quotes by contact with sales and the table's
    /// price is an estimate, as `table: SKU, above N a month`.
    var estimatedPrices: [String] = []
    var delays: [Int]
    /// The `--scale` factor volumes were multiplied by.
    var scale: Double = 1
    /// Every table that billed a month, by id (`MonthCost.Line.tableID` names one).
    var tables: [String: PriceTable] = [:]
    /// Searches (not base calls) that started in each billed month, before `scale`, in month order.
    var searchesByMonth: [(month: String, searches: Int)] = []
    /// Days since the epoch on which billing periods were split for dated session rules
    /// (`BillingCalendar.ruleStartDays` of the plan), sorted.
    var ruleStartDays: [Int] = []
    /// The zone calendar months were taken in (`--timezone`).
    var timeZone: TimeZone = TimeZone(identifier: "UTC")!

    /// The cost of `strategy` at `delay`.
    func cost(_ strategy: StrategyID, delay: Int) -> StrategyCost? {
        strategies.first { $0.strategy == strategy && $0.delay == delay }
    }

    /// Unpriced calls (same in every strategy for base calls) by name, from the `current` strategy.
    var unpriced: [SKUCount] {
        cost(.current, delay: 0)?.skus.filter(\.unpriced) ?? []
    }
}
