/// Which price table bills which calls: one table for everything (`--pricing`), or per month the
/// table in force for the calls' API generation.
struct PricingPlan: Sendable {
    enum Mode: Sendable {
        case fixed(PriceTable)
        /// Bundled tables by id; legacy calls before March 2025 -> `legacy-2018`, from then ->
        /// `legacy-2025`; New calls -> `places-new-2025`; calls of unknown generation as legacy.
        case automatic([String: PriceTable])
    }

    var mode: Mode

    init(mode: Mode) {
        self.mode = mode
    }

    /// The plan for `--pricing ID|FILE`, or the automatic plan when `nil`.
    static func load(_ idOrPath: String?, loader: PriceTableLoader = PriceTableLoader()) throws -> PricingPlan {
        if let idOrPath {
            return PricingPlan(mode: .fixed(try loader.load(idOrPath)))
        }
        let tables = try loader.bundled()
        return PricingPlan(mode: .automatic(Dictionary(uniqueKeysWithValues: tables.map { ($0.id, $0) })))
    }

    /// March 2025, as a month index (`year * 12 + month - 1`): the start of the current price lists.
    static let march2025 = 2025 * 12 + 2

    func table(generation: APIGeneration?, monthIndex: Int) -> PriceTable {
        switch mode {
        case .fixed(let table):
            return table
        case .automatic(let tables):
            let id: String
            switch generation {
            case .new?: id = "places-new-2025"
            case .legacy?, nil: id = monthIndex < PricingPlan.march2025 ? "legacy-2018" : "legacy-2025"
            }
            return tables[id]!
        }
    }

    /// Days since the epoch from which any table's dated session rule applies.
    var ruleStartDays: [Int] {
        let tables: [PriceTable]
        switch mode {
        case .fixed(let table): tables = [table]
        case .automatic(let all): tables = Array(all.values)
        }
        return tables.compactMap { $0.sessionRules.flatMap { PriceTableLoader.parseDay($0.terminatingDetails.effectiveFrom) } }
    }

    /// A description of the choice for reports.
    var summary: String {
        switch mode {
        case .fixed(let table): "`\(table.id)` (chosen with --pricing)"
        case .automatic: "the table in force for each month and API generation (legacy before March 2025: `legacy-2018`; legacy from March 2025: `legacy-2025`; Places API (New): `places-new-2025`; calls with no API version are taken as legacy)"
        }
    }
}
