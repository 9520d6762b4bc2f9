/// The bill of a priced strategy at another volume, from the events it already counted.
///
/// A month's bill depends on the volume only through each SKU's free cap and tiers and the
/// month's credit, so multiplying the counted events by another `--scale` and billing them again
/// gives exactly what pricing the log with that `--scale` gives.
extension PricingResult {
    /// What `cost` bills when every volume is multiplied by `scale` instead of `self.scale`.
    func costUSD(of cost: StrategyCost, atScale scale: Double) -> Double {
        cost.months.reduce(0) { total, month in
            var credit = 0.0
            for id in month.tableIDs {
                credit = max(credit, tables[id]?.monthlyCreditUSD ?? 0)
            }
            let volumes = month.lines.compactMap { line -> (sku: PriceTable.SKU, volume: Double)? in
                guard !line.unpriced, let sku = tables[line.tableID]?.skus.first(where: { $0.name == line.sku }) else { return nil }
                return (sku, Double(line.count) * scale)
            }
            return total + CostCalculator.monthBill(volumes, creditUSD: credit).costUSD
        }
    }
}
