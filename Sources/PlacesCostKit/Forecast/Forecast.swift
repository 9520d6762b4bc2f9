import Foundation

/// Measured traffic (`TrafficProfile`) billed month by month at another volume: the log's own
/// months as they were, or months from a start month with a volume that grows.
///
/// Each strategy and delay keeps its measured events per search, per SKU: a month with `V`
/// searches bills `count × scale × V / (searches × scale)` events of each SKU with the table in
/// force that month, its free caps, tiers and credit (`CostCalculator.monthBill`, the billing of
/// `analyze`). At the log's own volume and tables this is `analyze`'s bill.
struct Forecast: Sendable {
    enum Volume: Sendable, Equatable {
        /// The log's own months, searches and tables.
        case measured
        /// `months` months from the month index `start` (`year * 12 + month - 1`), the first with
        /// `searches` searches and each next one `growthPercent` percent more.
        case projected(searches: Double, months: Int, growthPercent: Double, start: Int)
    }

    struct Key: Hashable, Sendable {
        var strategy: StrategyID
        var delay: Int
    }

    struct Month: Sendable {
        /// `YYYY-MM`.
        var label: String
        /// Searches billed this month (after `--scale`), fractional when growth makes them so.
        var searches: Double
        /// The tables that billed the month.
        var tables: [String]
        var bills: [Key: CostCalculator.MonthBill]
    }

    struct Total: Sendable {
        var key: Key
        var valid: Bool
        var listCostUSD: Double
        var costUSD: Double
        /// The monthly volume from which the strategy bills more than $0 in the first simulated
        /// month's tables, rounded up to a whole search; nil when it stays free up to
        /// `Forecast.maxSearches`.
        var billsFrom: Double?
    }

    struct Result: Sendable {
        var volume: Volume
        var months: [Month]
        /// Every strategy at every delay, in the report's order.
        var totals: [Total]
        var recommendedDelay: Int
        /// The cheapest valid option up to the report's largest delay over the whole period (lowest
        /// delay, then strategy order, on a tie).
        var cheapest: Key?
        var pinnedTable: String?
        /// The month whose tables the break-even volumes (`Total.billsFrom`) are found in.
        var breakEvenMonth: String
        /// The generations of the measured calls whose searches were billed again by the pinned
        /// table's rules (`prepared()`); empty when the counted events were billed as they were.
        var movedFrom: [APIGeneration] = []

        /// Whether every strategy at every delay bills $0.00 in every month.
        var insideFreeCaps: Bool {
            totals.allSatisfy { Money.micros($0.costUSD) == 0 }
        }

        func total(_ strategy: StrategyID, delay: Int) -> Total? {
            totals.first { $0.key == Key(strategy: strategy, delay: delay) }
        }

        var searches: Double { months.reduce(0) { $0 + $1.searches } }
    }

    /// The largest monthly volume simulated, and searched for a break-even.
    static let maxSearches = 1_000_000_000_000.0

    var profile: TrafficProfile
    /// `--pricing`: one table for every month; nil: the report's tables for its own months, the
    /// table in force (`PricingPlan`'s automatic rules) for projected ones.
    var pinned: PriceTable?
    /// Bundled tables by id.
    var bundled: [String: PriceTable]
    var volume: Volume

    /// A measured SKU's events over the log, by the generation of the table that billed them.
    struct PooledLine {
        var generation: APIGeneration
        var sku: String
        var count: Int
    }

    func run() throws -> Result {
        // Counted SKUs of one generation cannot be billed with the other's table: its searches
        // are billed again, shape by shape, by the target table's rules.
        if try needsRepricing() {
            var result = try prepared().run()
            result.movedFrom = try measuredGenerations().filter { $0 != pinned?.apiVersion }
            return result
        }
        let plan = PricingPlan(mode: pinned.map { .fixed($0) } ?? .automatic(bundled))
        let generations = try measuredGenerations()
        var pooled: [Key: [PooledLine]] = [:]
        for strategy in profile.strategies {
            pooled[Key(strategy: strategy.id, delay: strategy.delay)] = try pool(strategy)
        }
        let measuredVolume = Double(profile.searches) * profile.scale

        var months: [Month] = []
        var breakEvenTables: [APIGeneration: PriceTable] = [:]
        let breakEvenMonth: Int
        switch volume {
        case .measured:
            let labels = profile.strategies.first?.months.map(\.label) ?? []
            for (index, label) in labels.enumerated() {
                var bills: [Key: CostCalculator.MonthBill] = [:]
                var tableIDs: [String] = []
                for strategy in profile.strategies {
                    let month = strategy.months[index]
                    let (volumes, credit, ids) = try measuredVolumes(month)
                    bills[Key(strategy: strategy.id, delay: strategy.delay)] = CostCalculator.monthBill(volumes, creditUSD: credit)
                    tableIDs = ids
                }
                months.append(Month(label: label, searches: Double(profile.searchesByMonth[label] ?? 0) * profile.scale, tables: tableIDs, bills: bills))
            }
            breakEvenMonth = labels.last.flatMap(Forecast.monthIndex) ?? PricingPlan.march2025
            for generation in generations {
                breakEvenTables[generation] = try pinned ?? profile.strategies.first?.months.last?.tables.map(measuredTable).first { $0.apiVersion == generation }
                    ?? plan.table(generation: generation, monthIndex: breakEvenMonth)
            }
        case .projected(let first, let count, let growth, let start):
            breakEvenMonth = start
            for generation in generations { breakEvenTables[generation] = plan.table(generation: generation, monthIndex: start) }
            for offset in 0..<count {
                let searches = first * pow(1 + growth / 100, Double(offset))
                var tables: [APIGeneration: PriceTable] = [:]
                for generation in generations { tables[generation] = plan.table(generation: generation, monthIndex: start + offset) }
                var bills: [Key: CostCalculator.MonthBill] = [:]
                for (key, lines) in pooled {
                    let volumes = try projectedVolumes(lines, tables: tables, factor: searches / measuredVolume)
                    bills[key] = CostCalculator.monthBill(volumes, creditUSD: tables.values.map(\.monthlyCreditUSD).max() ?? 0)
                }
                months.append(Month(label: Forecast.label(start + offset), searches: searches, tables: tables.values.map(\.id).sorted(), bills: bills))
            }
        }

        var totals: [Total] = []
        for strategy in profile.strategies {
            let key = Key(strategy: strategy.id, delay: strategy.delay)
            let lines = pooled[key] ?? []
            let billsFrom = try Forecast.firstBilledVolume { searches in
                let volumes = try projectedVolumes(lines, tables: breakEvenTables, factor: searches / measuredVolume)
                return CostCalculator.monthBill(volumes, creditUSD: breakEvenTables.values.map(\.monthlyCreditUSD).max() ?? 0).costUSD
            }
            totals.append(Total(
                key: key, valid: strategy.valid,
                listCostUSD: months.reduce(0) { $0 + ($1.bills[key]?.listCostUSD ?? 0) },
                costUSD: months.reduce(0) { $0 + ($1.bills[key]?.costUSD ?? 0) },
                billsFrom: billsFrom
            ))
        }
        let order = StrategyID.allCases
        let cheapest = totals.filter { $0.valid && $0.key.delay <= profile.maxDelay }.min {
            (Money.micros($0.costUSD), $0.key.delay, order.firstIndex(of: $0.key.strategy)!) < (Money.micros($1.costUSD), $1.key.delay, order.firstIndex(of: $1.key.strategy)!)
        }?.key
        return Result(volume: volume, months: months, totals: totals, recommendedDelay: profile.recommendedDelay, cheapest: cheapest, pinnedTable: pinned?.id,
            breakEvenMonth: Forecast.label(breakEvenMonth)
        )
    }

    /// This forecast with its measured counts in the pinned table's API generation: counted SKUs
    /// of one generation cannot be billed with the other's table, so the searches are billed
    /// again, shape by shape, by the pinned table's rules (`TrafficProfile.repriced(with:)`).
    func prepared() throws -> Forecast {
        guard let pinned, try needsRepricing() else { return self }
        return Forecast(profile: try profile.repriced(with: pinned), pinned: pinned, bundled: bundled, volume: volume)
    }

    /// Whether `--pricing` bills another API generation than some measured calls'.
    private func needsRepricing() throws -> Bool {
        guard let pinned else { return false }
        return try measuredGenerations().contains { $0 != pinned.apiVersion }
    }

    /// The smallest whole monthly volume at which `bill` is more than $0 (to the micro-dollar),
    /// by bisection: a bill never falls as the volume grows. Nil when it is $0 up to `maxSearches`.
    static func firstBilledVolume(_ bill: (Double) throws -> Double) rethrows -> Double? {
        func bills(_ searches: Double) throws -> Bool { Money.micros(try bill(searches)) > 0 }
        guard try bills(maxSearches) else { return nil }
        var (free, billed) = (0.0, maxSearches)
        for _ in 0..<200 where billed - free > 0.5 {
            let middle = (free + billed) / 2
            if try bills(middle) { billed = middle } else { free = middle }
        }
        let down = billed.rounded(.down)
        return try down > free && bills(down) ? down : billed.rounded(.up)
    }

    // MARK: - Tables and volumes

    /// The table of a line in the log: `--pricing`'s, else the one the report names.
    private func measuredTable(_ id: String) throws -> PriceTable {
        if let pinned, pinned.id == id { return pinned }
        if let table = bundled[id] { return table }
        throw ForecastError.tableNotAvailable(file: "the report", id: id)
    }

    /// The API generations of the measured calls, from the tables that billed them.
    func measuredGenerations() throws -> [APIGeneration] {
        let generations = Set(try profile.tableIDs.map { try measuredTable($0).apiVersion })
        return APIGeneration.allCases.filter(generations.contains)
    }

    /// A strategy's events of every month, per generation and SKU, in first-seen order.
    func pool(_ strategy: TrafficProfile.Strategy) throws -> [PooledLine] {
        var lines: [PooledLine] = []
        for month in strategy.months {
            for line in month.lines {
                let generation = try measuredTable(line.table).apiVersion
                if let index = lines.firstIndex(where: { $0.generation == generation && $0.sku == line.sku }) {
                    lines[index].count += line.count
                } else {
                    lines.append(PooledLine(generation: generation, sku: line.sku, count: line.count))
                }
            }
        }
        return lines
    }

    /// A log month's SKU volumes at the log's scale, its credit and tables.
    private func measuredVolumes(_ month: TrafficProfile.Month) throws -> ([(sku: PriceTable.SKU, volume: Double)], Double, [String]) {
        var volumes: [(sku: PriceTable.SKU, volume: Double)] = []
        for line in month.lines {
            let table = try pinned ?? measuredTable(line.table)
            guard let sku = table.skus.first(where: { $0.name == line.sku }) else { throw ForecastError.skuNotInTable(sku: line.sku, table: table.id) }
            volumes.append((sku, Double(line.count) * profile.scale))
        }
        if let pinned { return (volumes, pinned.monthlyCreditUSD, [pinned.id]) }
        let credit = try month.tables.map { try measuredTable($0).monthlyCreditUSD }.max() ?? 0
        return (volumes, credit, month.tables)
    }

    /// Pooled events times `scale × factor`, billed by the table of their generation; lines in
    /// table-id order, then in each table's SKU order, as `analyze` orders a month's lines.
    func projectedVolumes(_ lines: [PooledLine], tables: [APIGeneration: PriceTable], factor: Double) throws -> [(sku: PriceTable.SKU, volume: Double)] {
        var volumes: [(sku: PriceTable.SKU, volume: Double)] = []
        for table in tables.values.sorted(by: { $0.id < $1.id }) {
            let mine = lines.filter { tables[$0.generation]?.id == table.id }
            for line in mine where !table.skus.contains(where: { $0.name == line.sku }) {
                throw ForecastError.skuNotInTable(sku: line.sku, table: table.id)
            }
            for sku in table.skus {
                let count = mine.filter { $0.sku == sku.name }.reduce(0) { $0 + $1.count }
                guard count > 0 else { continue }
                volumes.append((sku, Double(count) * profile.scale * factor))
            }
        }
        return volumes
    }

    // MARK: - Months

    /// `YYYY-MM` of a month index.
    static func label(_ index: Int) -> String {
        String(format: "%04d-%02d", index / 12, index % 12 + 1)
    }

    /// The month index of `YYYY-MM`, nil for anything else. The year has four digits or five:
    /// `analyze` names the months of a call at 9999-12-31 in a time zone east of UTC `10000-01`
    /// (`report.schema.json`'s month pattern allows it), and a report it wrote is read back.
    static func monthIndex(_ label: String) -> Int? {
        let parts = label.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, (4...5).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(parts[0]), let month = Int(parts[1]), (1...12).contains(month), year >= 1 else { return nil }
        return year * 12 + month - 1
    }
}
