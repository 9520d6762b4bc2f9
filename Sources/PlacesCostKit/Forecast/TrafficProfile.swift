import Foundation

/// The measured traffic of a `report.json`, as `simulate --from` bills it again: per strategy and
/// delay, each month's SKU lines (events before `--scale`) with the tables that billed them, and
/// the searches they are for.
///
/// A log is analyzed and its report rendered as `analyze --json` prints it, then read back here,
/// so a log and its `report.json` give the same simulation.
struct TrafficProfile: Sendable {
    struct Line: Sendable, Equatable {
        var table: String
        var sku: String
        var count: Int
    }

    struct Month: Sendable, Equatable {
        var label: String
        var tables: [String]
        var lines: [Line]
    }

    struct Strategy: Sendable, Equatable {
        var id: StrategyID
        var delay: Int
        var valid: Bool
        /// What `analyze` billed, for the period.
        var costUSD: Double
        var months: [Month]
    }

    /// Searches in the log (before `scale`) and those that ended with a selection.
    var searches: Int
    var completed: Int
    var averageRequests: Double
    /// `assumptions.scale`: the volume the log stands for is `searches × scale`.
    var scale: Double
    /// The log's billed months (`YYYY-MM` in the report's time zone) and searches in each.
    var months: [String]
    var searchesByMonth: [String: Int]
    /// The delay and strategy `analyze` recommended.
    var recommendedStrategy: StrategyID
    var recommendedDelay: Int
    /// `assumptions.max_delay`: the largest delay the recommendation may choose.
    var maxDelay: Int
    /// Whether the app needs Place Details, and from what evidence (`needs_details`).
    var detailsNeed: DetailsNeed
    /// Mean autocomplete calls per search at delays 0...`maxDelay` (`recommendation.evidence`).
    var meanRequests: [Int: Double]
    var strategies: [Strategy]
    /// The searches and calls by shape (`report.json` `traffic`), from which a table of the other
    /// API generation bills them (`repriced(with:)`); nil in a report of an older placescost.
    var traffic: MeasuredTraffic?
    /// The report's name as given, for messages.
    var file: String

    /// Searches the log stands for in an average month.
    var searchesPerMonth: Double { Double(searches) * scale / Double(max(months.count, 1)) }

    func strategy(_ id: StrategyID, delay: Int) -> Strategy? {
        strategies.first { $0.id == id && $0.delay == delay }
    }

    /// Every table id the report's lines name, sorted.
    var tableIDs: [String] {
        Set(strategies.flatMap { $0.months.flatMap(\.tables) }).sorted()
    }

    /// The profile of the report in `data`, after `ReportDocument` has checked it is one; `file`
    /// names it in errors.
    static func decode(_ data: Data, file: String) throws -> TrafficProfile {
        let document = try ReportDocument.decode(data, file: file)
        let raw: Raw
        do {
            raw = try JSONDecoder().decode(Raw.self, from: data)
        } catch {
            throw CompareError.invalidReport(file: file, reason: "`strategies` cannot be read")
        }
        guard document.searches.total > 0 else { throw ForecastError.noSearches(file: file) }
        guard document.assumptions.scale > 0, document.assumptions.scale.isFinite else {
            throw CompareError.invalidReport(file: file, reason: "`assumptions.scale` is not a positive number")
        }
        var strategies: [Strategy] = []
        for entry in raw.strategies {
            guard let id = StrategyID(rawValue: entry.id) else {
                throw CompareError.invalidReport(file: file, reason: "`strategies[].id` holds `\(entry.id)`, no strategy of this placescost")
            }
            var months: [Month] = []
            for month in entry.months {
                // Shown in the month table as it is written: a month, or refused.
                guard ReportDocument.isMonth(month.month) else {
                    throw CompareError.invalidReport(file: file, reason: "`strategies[].months[].month` is not a month as YYYY-MM")
                }
                guard let tables = month.tables, let lines = month.lines else { throw ForecastError.noMonthLines(file: file) }
                for line in lines { try ReportDocument.count(line.count, "strategies[].months[].lines[].count", file: file) }
                months.append(Month(label: month.month, tables: tables, lines: lines.map { Line(table: $0.table, sku: $0.sku, count: $0.count) }))
            }
            strategies.append(Strategy(id: id, delay: entry.delay, valid: entry.valid, costUSD: entry.cost_usd, months: months))
        }
        let labels = strategies.first?.months.map(\.label) ?? []
        guard strategies.allSatisfy({ $0.months.map(\.label) == labels }) else {
            throw CompareError.invalidReport(file: file, reason: "`strategies[].months` do not name the same months in every strategy")
        }
        guard Set(strategies.map { "\($0.id.rawValue)@\($0.delay)" }).count == strategies.count, strategies.allSatisfy({ $0.delay >= 0 }) else {
            throw CompareError.invalidReport(file: file, reason: "`strategies` repeats a strategy and delay, or holds a negative delay")
        }
        guard let recommended = StrategyID(rawValue: document.headline.recommended_strategy) else {
            throw CompareError.invalidReport(file: file, reason: "`headline.recommended_strategy` holds no strategy of this placescost")
        }
        // The counts read here beyond `ReportDocument`'s, checked as it checks its own.
        try ReportDocument.count(raw.assumptions.max_delay, "assumptions.max_delay", file: file)
        for (member, count) in [
            ("needs_details.selections_with_mask", raw.needs_details.selections_with_mask),
            ("needs_details.selections_needing_details", raw.needs_details.selections_needing_details),
            ("needs_details.selections_with_wildcard", raw.needs_details.selections_with_wildcard ?? 0),
        ] {
            try ReportDocument.count(count, member, file: file)
        }
        for (month, count) in (raw.period?.searches_by_month ?? [:]).sorted(by: { $0.key < $1.key }) {
            try ReportDocument.count(count, "period.searches_by_month.\(month)", file: file)
        }
        return TrafficProfile(
            searches: document.searches.total, completed: document.searches.completed, averageRequests: document.searches.avg_requests,
            scale: document.assumptions.scale, months: document.period?.months ?? [], searchesByMonth: raw.period?.searches_by_month ?? [:],
            recommendedStrategy: recommended, recommendedDelay: document.headline.recommended_delay,
            maxDelay: raw.assumptions.max_delay,
            detailsNeed: DetailsNeed(
                needsDetails: raw.needs_details.answer, source: DetailsNeed.Source(rawValue: raw.needs_details.source) ?? .measured,
                selectionsWithMask: raw.needs_details.selections_with_mask, selectionsNeedingDetails: raw.needs_details.selections_needing_details,
                selectionsWithWildcard: raw.needs_details.selections_with_wildcard ?? 0
            ),
            meanRequests: Dictionary(raw.recommendation.evidence.mean_requests_by_delay.compactMap { key, value in Int(key).map { ($0, value) } }) { first, _ in first },
            strategies: strategies,
            traffic: try traffic(data, file: file, delays: strategies.map(\.delay)),
            file: file
        )
    }

    /// `traffic`, checked to hold the length classes every priced delay needs.
    private static func traffic(_ data: Data, file: String, delays: [Int]) throws -> MeasuredTraffic? {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              let traffic = try MeasuredTraffic.decode(root, file: file) else { return nil }
        guard traffic.lengthClasses >= delays.max() ?? 0 else {
            throw CompareError.invalidReport(file: file, reason: "`traffic.length_classes` is below the largest delay the report priced")
        }
        return traffic
    }

    /// The profile with every strategy's month lines billed again from `traffic` with `table`,
    /// by the rules `analyze --pricing` applies to each search: how the log's searches would bill
    /// under another API generation's SKUs and session rules.
    ///
    /// - Throws: `ForecastError.noTraffic` for a report written before reports kept `traffic`.
    func repriced(with table: PriceTable) throws -> TrafficProfile {
        guard let traffic else { throw ForecastError.noTraffic(file: file, table: table.id, generation: table.apiVersion) }
        if let rules = table.sessionRules, let day = PriceTableLoader.parseDay(rules.terminatingDetails.effectiveFrom), traffic.splitsAPeriod(day) {
            throw ForecastError.ruleDayInsidePeriod(file: file, table: table.id, day: rules.terminatingDetails.effectiveFrom)
        }
        var options = CostCalculator.Options()
        options.delays = strategies.map(\.delay).filter { $0 > 0 }
        options.scale = scale
        options.needsDetails = detailsNeed.needsDetails
        let result = CostCalculator(plan: PricingPlan(mode: .fixed(table)), options: options).price(traffic.items())
        var copy = self
        copy.strategies = result.strategies.map { cost in
            Strategy(
                id: cost.strategy, delay: cost.delay, valid: cost.valid, costUSD: cost.costUSD,
                months: cost.months.map { month in
                    Month(label: month.month, tables: month.tableIDs, lines: month.lines.filter { !$0.unpriced }.map {
                        Line(table: $0.tableID, sku: $0.sku, count: $0.count)
                    })
                }
            )
        }
        return copy
    }

    /// The members read here beyond `ReportDocument`'s, spelled as the file spells them.
    private struct Raw: Decodable {
        struct Period: Decodable {
            var searches_by_month: [String: Int]?
        }

        struct Line: Decodable {
            var table: String
            var sku: String
            var count: Int
        }

        struct Month: Decodable {
            var month: String
            var tables: [String]?
            var lines: [Line]?
        }

        struct Strategy: Decodable {
            var id: String
            var delay: Int
            var valid: Bool
            var cost_usd: Double
            var months: [Month]
        }

        struct Assumptions: Decodable {
            var max_delay: Int
        }

        struct NeedsDetails: Decodable {
            var answer: Bool
            var source: String
            var selections_with_mask: Int
            var selections_needing_details: Int
            /// Absent from reports written before `*` masks were told apart.
            var selections_with_wildcard: Int?
        }

        struct Recommendation: Decodable {
            struct Evidence: Decodable {
                var mean_requests_by_delay: [String: Double]
            }

            var evidence: Evidence
        }

        var period: Period?
        var assumptions: Assumptions
        var needs_details: NeedsDetails
        var recommendation: Recommendation
        var strategies: [Strategy]
    }
}
