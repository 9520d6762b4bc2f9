/// One month's bill from SKU volumes: the single place, besides the counting pass, where free
/// caps, tiers and the credit turn volumes into money.
extension CostCalculator {
    /// A month's bill: list cost, credit used and the cost after free caps, tiers and credit.
    struct MonthBill: Sendable, Equatable {
        var listCostUSD: Double
        var creditUSD: Double
        var costUSD: Double
    }

    /// Bills `volumes` (events of each SKU in the month, in line order) with `creditUSD`, the
    /// largest monthly credit of the month's tables. The sums run in line order, as the counting
    /// pass sums its lines, so equal volumes give the same bill to the last bit.
    static func monthBill(_ volumes: [(sku: PriceTable.SKU, volume: Double)], creditUSD: Double) -> MonthBill {
        var gross = 0.0
        var list = 0.0
        for (sku, volume) in volumes {
            gross += tieredCost(volume: volume, free: sku.freeMonthly, tiers: sku.tiers).0
            list += volume * sku.tiers[0].usdPer1000 / 1000
        }
        let credit = min(creditUSD, gross)
        return MonthBill(listCostUSD: list, creditUSD: credit, costUSD: gross - credit)
    }
}
