/// Makes the `--by` breakdown (`docs/report-schema.md`, "Cost by group"): each group's searches
/// priced as the whole log's are, and each strategy's list cost and bill shared among the groups
/// so that the groups add up exactly to the totals `report.json` prints.
///
/// - List cost: each (month, price table, SKU) line's list cost goes to the groups in proportion
///   to their events on that line, which is their own list cost on it.
/// - Bill: each line's billed cost (after the month's free cap and tiers) goes to the groups the
///   same way, and the month's credit in proportion to those shares.
/// - Both are then apportioned in whole micro-dollars by the largest-remainder method: the
///   total, rounded to 1e-6 as `report.json` prints it, is split by the groups' shares rounded
///   down, and the micro-dollars left over go one each to the largest remainders (ties to the
///   earlier group in report order).
struct GroupBreakdownBuilder {
    var dimension: GroupDimension
    var plan: PricingPlan
    /// The analysis's cost options (time zone, scale, needs-details).
    var costOptions: CostCalculator.Options
    var catalogs: CallCatalogs
    var clip: Int

    /// Totals past this many dollars are not apportioned in micro-dollars (they would not fit
    /// an `Int64`): each group then gets its unrounded share.
    static let largestExactUSD = 9_000_000_000_000.0

    /// The name of a raw group id of `dimension` (`SessionStream.callGroup`).
    func name(of id: UInt32) -> String? {
        switch dimension {
        case .project:
            return catalogs.labels.value(id)
        case .platform:
            return ClientPlatform(logValue: catalogs.labels.value(id)).rawValue
        case .apiVersion:
            // A call naming no generation is a legacy call, as `input.platforms` counts it.
            return (id == UInt32(APIGeneration.code(.new)) ? APIGeneration.new : .legacy).rawValue
        case .day:
            let date = CivilDate(daysSinceEpoch: Int(Int32(bitPattern: id)))
            return String(format: "%04d-%02d-%02d", date.year, date.month, date.day)
        }
    }

    func build(groups: [String?: SearchTally.Group], pricing: PricingResult, strategy: StrategyID, delay: Int) -> GroupBreakdown {
        var options = costOptions
        options.delays = delay > 0 ? [delay] : []
        // A row shows the calls as made and the recommendation: only those two are priced.
        options.strategies = strategy == .current ? [.current] : [.current, strategy]
        let calculator = CostCalculator(plan: plan, options: options)
        struct Priced {
            var name: String?
            var counts: SearchTally.GroupCounts
            var searches: Int
            var completed: Int
            var pricing: PricingResult
        }
        var priced: [Priced] = []
        for (name, group) in groups {
            let summary = SearchSummary(tally: group.tally, catalogs: catalogs, clip: clip, alternativeTimeouts: [])
            let searches = summary.searches.reduce(0) { $0 + $1.count }
            let completed = summary.searches.reduce(0) { $0 + ($1.search.outcome.isCompleted ? $1.count : 0) }
            priced.append(Priced(name: name, counts: group.counts, searches: searches, completed: completed, pricing: calculator.price(summary)))
        }
        // Report order before apportioning: ties in remainders go to the earlier group.
        let listMicros = priced.map { GroupBreakdownBuilder.listWeight(pricing.cost(.current, delay: 0), $0.pricing.cost(.current, delay: 0)) }
        let order = priced.indices.sorted { lhs, rhs in
            if dimension == .day { return (priced[lhs].name ?? "") < (priced[rhs].name ?? "") }
            if listMicros[lhs] != listMicros[rhs] { return listMicros[lhs] > listMicros[rhs] }
            if priced[lhs].counts.calls != priced[rhs].counts.calls { return priced[lhs].counts.calls > priced[rhs].counts.calls }
            return GroupBreakdownBuilder.precedes(priced[lhs].name, priced[rhs].name)
        }
        priced = order.map { priced[$0] }
        let current = bills(total: pricing.cost(.current, delay: 0), groups: priced.map { $0.pricing.cost(.current, delay: 0) })
        let recommended = bills(total: pricing.cost(strategy, delay: delay), groups: priced.map { $0.pricing.cost(strategy, delay: delay) })
        let rows = priced.indices.map { index in
            GroupBreakdown.Group(
                name: priced[index].name, day: dimension == .day ? priced[index].name.flatMap(GroupBreakdownBuilder.day(named:)) : nil,
                calls: priced[index].counts.calls, searches: priced[index].searches,
                billedSearches: Double(priced[index].searches) * costOptions.scale, completed: priced[index].completed, anomalies: priced[index].counts.anomalies,
                current: current[index], recommended: recommended[index]
            )
        }
        return GroupBreakdown(dimension: dimension, recommendedStrategy: strategy, recommendedDelay: delay, groups: rows)
    }

    /// The day of a `YYYY-MM-DD` group name, as days since 1970-01-01.
    static func day(named name: String) -> Int? {
        let parts = name.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return CivilDate.daysSinceEpoch(year: parts[0], month: parts[1], day: parts[2])
    }

    /// Names in order, no name (calls with no project) last.
    private static func precedes(_ lhs: String?, _ rhs: String?) -> Bool {
        switch (lhs, rhs) {
        case let (lhs?, rhs?): Array(lhs.utf8).lexicographicallyPrecedes(Array(rhs.utf8))
        case (_?, nil): true
        default: false
        }
    }

    /// One (month, table, SKU) line of a strategy's bill.
    private struct LineKey: Hashable {
        var month: String
        var tableID: String
        var sku: String
    }

    private struct LineTotal {
        var count: Int
        var listCostUSD: Double
        /// The line's billed cost net of its share of the month's credit.
        var netCostUSD: Double
    }

    private static func lineTotals(_ total: StrategyCost) -> [LineKey: LineTotal] {
        var lines: [LineKey: LineTotal] = [:]
        for month in total.months {
            let gross = month.lines.reduce(0) { $0 + $1.costUSD }
            let net = gross > 0 ? month.costUSD / gross : 0
            for line in month.lines where !line.unpriced {
                lines[LineKey(month: month.month, tableID: line.tableID, sku: line.sku)] = LineTotal(
                    count: line.count, listCostUSD: line.listCostUSD, netCostUSD: line.costUSD * net
                )
            }
        }
        return lines
    }

    /// A group's shares of the total's lines: (list cost, bill).
    private static func shares(_ group: StrategyCost?, of lines: [LineKey: LineTotal]) -> (list: Double, billed: Double) {
        guard let group else { return (0, 0) }
        var list = 0.0, billed = 0.0
        for month in group.months {
            for line in month.lines where !line.unpriced {
                guard let total = lines[LineKey(month: month.month, tableID: line.tableID, sku: line.sku)], total.count > 0 else { continue }
                let share = Double(line.count) / Double(total.count)
                list += total.listCostUSD * share
                billed += total.netCostUSD * share
            }
        }
        return (list, billed)
    }

    private static func listWeight(_ total: StrategyCost?, _ group: StrategyCost?) -> Double {
        guard let total else { return 0 }
        return shares(group, of: lineTotals(total)).list
    }

    /// Each group's list cost and bill of one strategy, apportioned from the total's.
    private func bills(total: StrategyCost?, groups: [StrategyCost?]) -> [GroupBreakdown.Bill] {
        guard let total else { return groups.map { _ in GroupBreakdown.Bill(listMicros: 0, billedMicros: 0) } }
        let lines = GroupBreakdownBuilder.lineTotals(total)
        let weights = groups.map { GroupBreakdownBuilder.shares($0, of: lines) }
        let list = GroupBreakdownBuilder.apportion(total.listCostUSD, weights: weights.map(\.list))
        let billed = GroupBreakdownBuilder.apportion(total.costUSD, weights: weights.map(\.billed))
        return zip(list, billed).map { GroupBreakdown.Bill(listMicros: $0, billedMicros: $1) }
    }

    /// `totalUSD` rounded to whole micro-dollars and split by `weights` with the largest-remainder
    /// method: the parts add up to the rounded total exactly.
    static func apportion(_ totalUSD: Double, weights: [Double]) -> [Int64] {
        guard !weights.isEmpty else { return [] }
        let sum = weights.reduce(0, +)
        guard abs(totalUSD) < largestExactUSD else {
            return weights.map { Int64(((sum > 0 ? totalUSD * $0 / sum : 0) * 1_000_000).rounded()) }
        }
        let total = Int64((totalUSD * 1_000_000).rounded())
        guard sum > 0, total > 0 else {
            // Nothing to share by (every group's part of the lines is 0): the first group holds it.
            return weights.indices.map { $0 == 0 ? total : 0 }
        }
        var parts: [Int64] = []
        var remainders: [Double] = []
        for weight in weights {
            let quota = Double(total) * (weight / sum)
            let whole = quota.rounded(.down)
            parts.append(Int64(whole))
            remainders.append(quota - whole)
        }
        var left = total - parts.reduce(0, +)
        let largestFirst = weights.indices.sorted { (remainders[$0], -$0) > (remainders[$1], -$1) }
        var step = 0
        while left > 0 {
            parts[largestFirst[step % parts.count]] += 1
            left -= 1
            step += 1
        }
        // Floating point can put the floors a micro-dollar over: taken back from the smallest remainders.
        step = 0
        while left < 0 {
            let index = largestFirst[largestFirst.count - 1 - step % parts.count]
            if parts[index] > 0 {
                parts[index] -= 1
                left += 1
            }
            step += 1
        }
        return parts
    }
}
