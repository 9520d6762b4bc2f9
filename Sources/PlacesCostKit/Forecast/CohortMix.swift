/// A scenario's months when cohorts of its searches behave otherwise for a while (users still on
/// an old build of the app): each month, every part's share of the volume is counted with its
/// own option and table, the events of all parts are summed per table and SKU, and the sums are
/// billed once. Free caps, volume tiers and the credit apply to the account's total, so a month
/// of two halves is never billed as two half-size bills added.
struct CohortMix: Sendable {
    /// A share of each month's searches with its own option.
    struct Part: Sendable {
        /// Its traffic and tables, already in its table's API generation (`Forecast.prepared()`).
        var forecast: Forecast
        var key: Forecast.Key
        var share: Double
        /// The months, from the first, the part behaves so; after them its share follows the
        /// scenario's own option.
        var months: Int
    }

    /// The month's bill of every part together, and the tables that billed it.
    struct Month: Sendable {
        var bill: CostCalculator.MonthBill
        var tables: [String]
    }

    /// The scenario's own traffic and tables (prepared), which take every share no cohort holds.
    var main: Forecast
    var cohorts: [Part]
    /// The searches of each month, and the index of the first month.
    var searches: [Double]
    var start: Int

    /// The months and the period's total when the scenario's own share is priced as `key`.
    func run(_ key: Forecast.Key) throws -> (months: [Month], total: Forecast.Total) {
        var months: [Month] = []
        for (offset, volume) in searches.enumerated() {
            months.append(try month(offset, searches: volume, key: key))
        }
        let valid = ([main.profile.strategy(key.strategy, delay: key.delay)] + cohorts.map { $0.forecast.profile.strategy($0.key.strategy, delay: $0.key.delay) })
            .allSatisfy { $0?.valid ?? false }
        let billsFrom = try Forecast.firstBilledVolume { try month(0, searches: $0, key: key).bill.costUSD }
        return (months, Forecast.Total(
            key: key, valid: valid, listCostUSD: months.reduce(0) { $0 + $1.bill.listCostUSD }, costUSD: months.reduce(0) { $0 + $1.bill.costUSD },
            billsFrom: billsFrom
        ))
    }

    /// Month `offset` with `searches` searches: the active cohorts' shares with their options,
    /// the rest with `key`, summed per table and SKU before billing.
    func month(_ offset: Int, searches: Double, key: Forecast.Key) throws -> Month {
        let active = cohorts.filter { offset < $0.months }
        let rest = max(1 - active.reduce(0) { $0 + $1.share }, 0)
        var parts = [(forecast: main, key: key, share: rest)]
        parts += active.map { ($0.forecast, $0.key, $0.share) }
        var volumes: [String: [String: Double]] = [:]
        var tables: [String: PriceTable] = [:]
        for part in parts {
            for (table, lines) in try part.forecast.monthVolumes(part.key, searches: searches * part.share, monthIndex: start + offset) {
                tables[table.id] = table
                for line in lines { volumes[table.id, default: [:]][line.sku.name, default: 0] += line.volume }
            }
        }
        // In table-id order, then each table's SKU order, as `analyze` orders a month's lines.
        var lines: [(sku: PriceTable.SKU, volume: Double)] = []
        for table in tables.values.sorted(by: { $0.id < $1.id }) {
            for sku in table.skus {
                if let volume = volumes[table.id]?[sku.name] { lines.append((sku, volume)) }
            }
        }
        let bill = CostCalculator.monthBill(lines, creditUSD: tables.values.map(\.monthlyCreditUSD).max() ?? 0)
        return Month(bill: bill, tables: tables.keys.sorted())
    }
}

extension Forecast {
    /// One option's SKU volumes in a month of `searches` searches, per table in force that month
    /// for the measured calls' generations (every such table listed, with or without lines).
    func monthVolumes(_ key: Key, searches: Double, monthIndex: Int) throws -> [(table: PriceTable, lines: [(sku: PriceTable.SKU, volume: Double)])] {
        guard let strategy = profile.strategy(key.strategy, delay: key.delay) else { return [] }
        let plan = PricingPlan(mode: pinned.map { .fixed($0) } ?? .automatic(bundled))
        let lines = try pool(strategy)
        let factor = searches / (Double(profile.searches) * profile.scale)
        var result: [(table: PriceTable, lines: [(sku: PriceTable.SKU, volume: Double)])] = []
        for generation in try measuredGenerations() {
            let table = plan.table(generation: generation, monthIndex: monthIndex)
            result.append((table, try projectedVolumes(lines, tables: [generation: table], factor: factor)))
        }
        return result
    }
}
