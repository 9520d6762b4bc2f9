import Foundation

/// Prices every strategy at every delay for a set of searches and base calls: counts events per
/// calendar month and price table, then applies list prices, free caps, tiers and credits.
struct CostCalculator {
    struct Options: Sendable {
        /// Delays to price besides 0.
        var delays: [Int] = Array(1...6)
        /// Calendar months are taken in this time zone.
        var timeZone: TimeZone = TimeZone(identifier: "UTC")!
        /// Volumes are multiplied by this (a sampled log, or a forecast), within `scaleRange`.
        var scale: Double = 1

        /// The `--scale` factors accepted: a millionth to a million. With the price table's
        /// bounds (`PriceTable.priceRange`, `volumeRange`), every scaled volume and every cost
        /// stays a finite `Double` far from overflow, so reports never hold an infinity.
        static let scaleRange: ClosedRange<Double> = 0.000_001...1_000_000
        /// Whether the app needs Place Details (strategies that drop details are then not valid).
        var needsDetails: Bool = true
        /// The strategies priced: every one for a report; a `--by` group prices only the two
        /// its row shows.
        var strategies: [StrategyID] = StrategyID.allCases
        /// The delay the calls as made already wait for: `current` at delay d keeps the calls
        /// a delay of max(d, this) keeps, since a shorter delay cannot bring back calls the app
        /// never made. 0 for a log, whose calls are as made; `simulate --delay K` sets K, so that
        /// `current` at delay 0 is the app now.
        var currentDelay = 0

        init() {}
    }

    /// One search or base call to price, with how many identical ones it stands for.
    struct Item {
        var search: Search?
        var baseCall: Call?
        var weight: Int
        /// The month label and index it is billed in.
        var month: Month
    }

    /// A calendar month: `index = year * 12 + month - 1`, labelled `YYYY-MM` (or as a simulation names it).
    struct Month: Hashable, Sendable, Comparable {
        var index: Int
        var label: String

        static func < (lhs: Month, rhs: Month) -> Bool { lhs.index < rhs.index }
    }

    var plan: PricingPlan
    var options: Options
    let pricerCache = PricerCache()

    final class PricerCache {
        var pricers: [String: SearchPricer] = [:]
    }

    init(plan: PricingPlan, options: Options = Options()) {
        self.plan = plan
        self.options = options
    }

    /// The delays priced, 0 first.
    var pricedDelays: [Int] { [0] + Set(options.delays.filter { $0 > 0 }).sorted() }

    // MARK: - Tallying

    private struct TallyKey: Hashable {
        var month: Month
        var tableID: String
    }

    /// Event counts of one (month, table): per strategy and delay, per role.
    private struct Tally {
        var counts: [RoleCounts]
        var unpriced: [[String: Int]]
    }

    func month(of time: Timestamp) -> Month {
        let month = calendarMonth(of: time)
        return Month(index: month.index, label: String(format: "%04d-%02d", month.year, month.month))
    }

    /// The month's index alone: its label (`String(format:)`) costs more than finding it.
    func monthIndex(of time: Timestamp) -> Int {
        calendarMonth(of: time).index
    }

    private func calendarMonth(of time: Timestamp) -> (index: Int, year: Int, month: Int) {
        let seconds = time.microseconds / 1_000_000 - (time.microseconds % 1_000_000 < 0 ? 1 : 0)
        let month = BillingCalendar.month(ofSecond: seconds, in: options.timeZone)
        return (month.index, month.year, month.month)
    }

    /// Prices the searches and base calls of an analysis.
    func price(_ summary: SearchSummary) -> PricingResult {
        var items: [Item] = []
        items.reserveCapacity(summary.searches.count + summary.baseCalls.count)
        // Representatives of one period share a time: each month is worked out once.
        var months: [Timestamp: Month] = [:]
        func cachedMonth(_ time: Timestamp) -> Month {
            if let month = months[time] { return month }
            let month = month(of: time)
            months[time] = month
            return month
        }
        for entry in summary.searches {
            items.append(Item(search: entry.search, baseCall: nil, weight: entry.count, month: cachedMonth(entry.search.startedAt)))
        }
        for entry in summary.baseCalls {
            items.append(Item(search: nil, baseCall: entry.call, weight: entry.count, month: cachedMonth(entry.call.time)))
        }
        return price(items)
    }

    /// Event counts per (month, table) of a run of items, and which tables they used.
    private struct Counted {
        var tallies: [TallyKey: Tally] = [:]
        var tableUse: [String: Int] = [:]
        var tables: [String: PriceTable] = [:]
        var usedTablesByMonth: [Month: Set<String>] = [:]
        /// Searches (weights of items with a search) per month.
        var searchesByMonth: [Month: Int] = [:]

        /// Adds `other`'s counts: every count is an integer, so the sum is the same in any order.
        mutating func merge(_ other: Counted) {
            for (key, tally) in other.tallies {
                guard var mine = tallies.removeValue(forKey: key) else {
                    tallies[key] = tally
                    continue
                }
                for slot in mine.counts.indices {
                    mine.counts[slot].add(tally.counts[slot], times: 1)
                    mine.unpriced[slot].merge(tally.unpriced[slot], uniquingKeysWith: +)
                }
                tallies[key] = mine
            }
            tableUse.merge(other.tableUse, uniquingKeysWith: +)
            tables.merge(other.tables) { mine, _ in mine }
            usedTablesByMonth.merge(other.usedTablesByMonth) { $0.union($1) }
            searchesByMonth.merge(other.searchesByMonth, uniquingKeysWith: +)
        }
    }

    /// Items counted on one thread; more are split between two, so that pricing every item under
    /// every strategy and delay never leaves the other core idle after the walk.
    private static let itemsPerThread = 2048

    func price(_ items: [Item]) -> PricingResult {
        let strategies = options.strategies
        let delays = pricedDelays
        let parts = items.count >= 2 * CostCalculator.itemsPerThread ? 2 : 1
        let partials = ParallelMap.results(count: parts) { part in
            count(items[items.count * part / parts ..< items.count * (part + 1) / parts], strategies: strategies, delays: delays)
        }
        var counted = partials[0]
        for partial in partials.dropFirst() { counted.merge(partial) }
        let (tallies, tableUse, tables, usedTablesByMonth) = (counted.tallies, counted.tableUse, counted.tables, counted.usedTablesByMonth)

        let primary = tableUse.max { ($0.value, $1.key) < ($1.value, $0.key) }.map { tables[$0.key]! } ?? plan.defaultTable
        var notices = PriceNotices()
        var costs: [StrategyCost] = []
        let months = tallies.keys.map(\.month).reduce(into: Set<Month>()) { $0.insert($1) }.sorted()
        for (strategyIndex, strategy) in strategies.enumerated() {
            for (delayIndex, delay) in delays.enumerated() {
                let slot = strategyIndex * delays.count + delayIndex
                var monthCosts: [MonthCost] = []
                for month in months {
                    let ids = usedTablesByMonth[month, default: []].sorted()
                    var lines: [MonthCost.Line] = []
                    var credit = 0.0
                    for id in ids {
                        guard let tally = tallies[TallyKey(month: month, tableID: id)] else { continue }
                        let table = tables[id]!
                        credit = max(credit, table.monthlyCreditUSD)
                        lines += billLines(table: table, counts: tally.counts[slot], notices: &notices)
                        for (name, count) in tally.unpriced[slot].sorted(by: { $0.key < $1.key }) {
                            lines.append(MonthCost.Line(sku: name, tableID: id, count: count, listCostUSD: 0, costUSD: 0, unpriced: true))
                        }
                    }
                    let gross = lines.reduce(0) { $0 + $1.costUSD }
                    let usedCredit = min(credit, gross)
                    monthCosts.append(MonthCost(
                        month: month.label, tableIDs: ids, lines: lines, creditUSD: usedCredit,
                        listCostUSD: lines.reduce(0) { $0 + $1.listCostUSD }, costUSD: gross - usedCredit
                    ))
                }
                costs.append(StrategyCost(
                    strategy: strategy, delay: delay,
                    listCostUSD: monthCosts.reduce(0) { $0 + $1.listCostUSD },
                    costUSD: monthCosts.reduce(0) { $0 + $1.costUSD },
                    valid: CostCalculator.isValid(strategy, needsDetails: options.needsDetails),
                    skus: CostCalculator.skuTotals(monthCosts),
                    months: monthCosts
                ))
            }
        }
        let used = months.flatMap { month in usedTablesByMonth[month, default: []].sorted().map { (month: month.label, tableID: $0) } }
        // The other generation's most used table, and that generation's share of the items priced.
        let otherUse = tableUse.filter { tables[$0.key]?.apiVersion != primary.apiVersion }
        let other = otherUse.max { ($0.value, $1.key) < ($1.value, $0.key) }.map { use -> (table: PriceTable, breakEvenRequests: Double, share: Double) in
            let table = tables[use.key]!
            return (table, BreakEven.requests(table), Double(otherUse.values.reduce(0, +)) / Double(max(tableUse.values.reduce(0, +), 1)))
        }
        var result = PricingResult(
            primaryTable: primary, strategies: costs, tablesUsed: used,
            breakEvenRequests: BreakEven.requests(primary), unconfirmedPrices: notices.unconfirmed.sorted(),
            delays: delays, scale: options.scale, tables: tables,
            searchesByMonth: months.map { (month: $0.label, searches: counted.searchesByMonth[$0] ?? 0) },
            ruleStartDays: Array(Set(plan.ruleStartDays)).sorted(), timeZone: options.timeZone
        )
        result.otherGeneration = other
        result.estimatedPrices = notices.estimated.sorted()
        return result
    }

    /// Counts the events of `items` under every strategy and delay, with pricers of its own (a
    /// pricer's memo is not shared between threads).
    private func count(_ items: ArraySlice<Item>, strategies: [StrategyID], delays: [Int]) -> Counted {
        let slots = strategies.count * delays.count
        var counted = Counted()
        var pricers: [String: SearchPricer] = [:]
        for item in items {
            let generation = item.search?.generation ?? item.baseCall?.generation
            let table = plan.table(generation: generation, monthIndex: item.month.index)
            if counted.tables[table.id] == nil { counted.tables[table.id] = table }
            counted.tableUse[table.id, default: 0] += item.weight
            counted.usedTablesByMonth[item.month, default: []].insert(table.id)
            let key = TallyKey(month: item.month, tableID: table.id)
            // Taken out while it changes, so its arrays are not copied for every item.
            var tally = counted.tallies.removeValue(forKey: key)
                ?? Tally(counts: Array(repeating: RoleCounts(), count: slots), unpriced: Array(repeating: [:], count: slots))
            let pricer = pricers[table.id] ?? SearchPricer(table: table)
            pricers[table.id] = pricer
            if let search = item.search {
                counted.searchesByMonth[item.month, default: 0] += item.weight
                let day = Int(search.startedAt.microseconds / 86_400_000_000)
                for (strategyIndex, strategy) in strategies.enumerated() {
                    for (delayIndex, delay) in delays.enumerated() {
                        let kept = strategy == .current ? max(delay, options.currentDelay) : delay
                        let (events, unpriced) = pricer.events(search, strategy: strategy, delay: kept, day: day)
                        let slot = strategyIndex * delays.count + delayIndex
                        tally.counts[slot].add(events, times: item.weight)
                        if let unpriced { tally.unpriced[slot][unpriced, default: 0] += item.weight }
                    }
                }
            } else if let call = item.baseCall {
                let (events, unpriced) = pricer.baseEvents(call)
                for slot in 0..<slots {
                    tally.counts[slot].add(events, times: item.weight)
                    if let unpriced { tally.unpriced[slot][unpriced, default: 0] += item.weight }
                }
            }
            counted.tallies[key] = tally
        }
        return counted
    }

    static func isValid(_ strategy: StrategyID, needsDetails: Bool) -> Bool {
        switch strategy {
        case .current, .sessionDetails: true
        case .sessionDetailsBasic, .perRequestGeocoding: !needsDetails
        }
    }

    /// What the reports say of the prices a bill used (`docs/billing.md`): those Google's own
    /// page does not confirm, and the bands it quotes by contact with sales.
    private struct PriceNotices {
        var unconfirmed = Set<String>()
        var estimated = Set<String>()
    }

    /// One line per SKU of `table` with events: list cost at the first tier, billed cost after
    /// the free cap and the graduated tiers.
    private func billLines(table: PriceTable, counts: RoleCounts, notices: inout PriceNotices) -> [MonthCost.Line] {
        var lines: [MonthCost.Line] = []
        for sku in table.skus {
            let count = sku.roles.reduce(0) { $0 + counts[$1] }
            guard count > 0 else { continue }
            let volume = Double(count) * options.scale
            let first = sku.tiers[0]
            if !first.confirmed { notices.unconfirmed.insert("\(table.id): \(sku.name), first tier: \(first.source)") }
            let (billed, reached) = CostCalculator.tieredCost(volume: volume, free: sku.freeMonthly, tiers: sku.tiers)
            for index in reached {
                let tier = sku.tiers[index]
                if index > 0, !tier.confirmed {
                    notices.unconfirmed.insert("\(table.id): \(sku.name), tier \(index + 1): \(tier.source)")
                }
                if tier.isEstimate {
                    notices.estimated.insert("\(table.id): \(sku.name), above \(Money.count(index > 0 ? sku.tiers[index - 1].upTo ?? 0 : 0)) a month")
                }
            }
            lines.append(MonthCost.Line(
                sku: sku.name, tableID: table.id, count: count,
                listCostUSD: volume * first.usdPer1000 / 1000, costUSD: billed, unpriced: false
            ))
        }
        return lines
    }

    /// Graduated pricing: the first `free` events cost nothing, then each tier's price applies to
    /// the part of the volume inside it (Google's worked example: 200,000 requests with 10,000 free
    /// = 90,000 x $2.83 + 100,000 x $2.27 per 1,000 = $481.70).
    ///
    /// - Parameter free: events free each month; `nil` when the SKU is free without limit.
    /// - Returns: the cost and the indices of the tiers the billed volume reached.
    static func tieredCost(volume: Double, free: Int?, tiers: [PriceTable.Tier]) -> (Double, [Int]) {
        guard let free else { return (0, []) }
        var cost = 0.0
        var reached: [Int] = []
        var lower = 0.0
        for (index, tier) in tiers.enumerated() {
            let upper = tier.upTo.map(Double.init) ?? .infinity
            let billed = min(volume, upper) - max(Double(free), lower)
            if billed > 0 {
                cost += billed * tier.usdPer1000 / 1000
                reached.append(index)
            }
            lower = upper
            if volume <= upper { break }
        }
        return (cost, reached)
    }

    /// Events per SKU name over all months, first-seen order, unpriced ones last.
    static func skuTotals(_ months: [MonthCost]) -> [SKUCount] {
        var order: [String] = []
        var totals: [String: (Int, Bool)] = [:]
        for line in months.flatMap(\.lines) {
            if totals[line.sku] == nil { order.append(line.sku) }
            totals[line.sku, default: (0, line.unpriced)].0 += line.count
        }
        let priced = order.filter { !totals[$0]!.1 }
        let unpriced = order.filter { totals[$0]!.1 }.sorted()
        return (priced + unpriced).map { SKUCount(sku: $0, count: totals[$0]!.0, unpriced: totals[$0]!.1) }
    }
}

extension PricingPlan {
    /// The table reported when nothing was priced.
    var defaultTable: PriceTable {
        switch mode {
        case .fixed(let table): table
        case .automatic(let tables): tables["legacy-2025"] ?? tables.values.sorted { $0.id < $1.id }.first!
        }
    }
}
