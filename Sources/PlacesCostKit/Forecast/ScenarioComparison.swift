/// The scenarios of a `--scenario` file priced side by side on one measured traffic: each its
/// own `Forecast` (volume, growth, months, start, table), the option it names, and the decision
/// tree's answer walked with the log's numbers and that scenario's table and field mask.
struct ScenarioComparison: Sendable {
    struct Priced: Sendable {
        var scenario: ScenarioFile.Scenario
        var forecast: Forecast.Result
        /// The option the scenario prices.
        var option: Forecast.Total
        /// The tree's answer for the scenario, and that option's bill over the scenario's months.
        var tree: DecisionTree.Answer
        var treeTotal: Forecast.Total?
        /// The table the tree's break-even comes from: the first month's for the calls' generation.
        var tableID: String
        /// The scenario's cohorts as priced: each with its option and table, and its last month.
        var cohorts: [PricedCohort] = []
    }

    struct PricedCohort: Sendable {
        var cohort: ScenarioFile.Cohort
        var key: Forecast.Key
        /// `--pricing`'s or the cohort's table; nil: the table in force each month.
        var pinnedTable: String?
        /// `YYYY-MM` of the cohort's last month (it may outlast the scenario).
        var until: String
    }

    /// What the command line gives scenarios that leave a member unset.
    struct Defaults: Sendable {
        var searches: Double?
        var growthPercent: Double?
        var months: Int?
        var start: Int?
        /// `--pricing`'s table, read from the working directory as the option says.
        var pricing: PriceTable?
    }

    var profile: TrafficProfile
    var bundled: [String: PriceTable]
    var defaults: Defaults

    /// Prices every scenario. `load` reads a `pricing` member (bundled id or file, as
    /// `ScenarioFile.tableArgument` resolves it); `source` names the scenario file in errors.
    ///
    /// - Throws: `ForecastError.scenarioPricing` naming the member whose table cannot be loaded.
    func run(_ file: ScenarioFile, shownAs source: String, load: (String) throws -> PriceTable) throws -> [Priced] {
        let priced = Set(profile.strategies.map(\.delay)).sorted()
        let after = profile.months.last.flatMap(Forecast.monthIndex).map { $0 + 1 } ?? PricingPlan.march2025
        /// The table `pricing` names, or the command line's (already read) when it names none.
        func pinnedTable(_ pricing: String?, member: String) throws -> PriceTable? {
            guard let pricing else { return defaults.pricing }
            do {
                return try load(pricing)
            } catch let error as PricingError {
                throw ForecastError.scenarioPricing(file: source, member: member, error: error)
            }
        }
        return try file.scenarios.enumerated().map { index, scenario in
            guard priced.contains(scenario.delay) else { throw ForecastError.delayNotPriced(scenario: scenario.name, delay: scenario.delay, priced: priced) }
            let pinned = try pinnedTable(scenario.pricing, member: "scenarios[\(index)].pricing")
            let start = scenario.start ?? defaults.start ?? after
            let volume = Forecast.Volume.projected(
                searches: scenario.searches ?? defaults.searches ?? profile.searchesPerMonth,
                months: scenario.months ?? defaults.months ?? 1,
                growthPercent: scenario.growthPercent ?? defaults.growthPercent ?? 0,
                start: start
            )
            let forecast = Forecast(profile: profile, pinned: pinned, bundled: bundled, volume: volume)
            var result = try forecast.run()
            var option = result.total(scenario.pricedStrategy, delay: scenario.delay)!
            let plan = PricingPlan(mode: pinned.map { .fixed($0) } ?? .automatic(bundled))
            let generation = profile.strategies.first?.months.first?.tables.first.flatMap { bundled[$0]?.apiVersion } ?? pinned?.apiVersion
            let table = plan.table(generation: generation, monthIndex: start)
            let needs = scenario.fields == .addressOnly
                ? DetailsNeed(needsDetails: false, source: .scenario, selectionsWithMask: 1, selectionsNeedingDetails: 0)
                : profile.detailsNeed
            let evidence = Recommendation.Evidence(
                needsDetails: needs, meanRequests: profile.meanRequests, breakEvenRequests: BreakEven.requests(table), tableID: table.id,
                maxDelay: profile.maxDelay, searches: profile.searches, completed: profile.completed, abandoned: profile.searches - profile.completed
            )
            let tree = DecisionTree.walk(evidence)
            var treeTotal = result.total(tree.strategy, delay: tree.delay)
            var cohorts: [PricedCohort] = []
            if !scenario.cohorts.isEmpty {
                var parts: [CohortMix.Part] = []
                for (position, cohort) in scenario.cohorts.enumerated() {
                    guard priced.contains(cohort.delay) else { throw ForecastError.delayNotPriced(scenario: scenario.name, delay: cohort.delay, priced: priced) }
                    // The scenario's table unless the cohort names its own.
                    let own = cohort.pricing == nil ? pinned : try pinnedTable(cohort.pricing, member: "scenarios[\(index)].cohorts[\(position)].pricing")
                    let key = Forecast.Key(strategy: cohort.pricedStrategy, delay: cohort.delay)
                    parts.append(CohortMix.Part(
                        forecast: try Forecast(profile: profile, pinned: own, bundled: bundled, volume: volume).prepared(), key: key,
                        share: cohort.share, months: cohort.months
                    ))
                    cohorts.append(PricedCohort(cohort: cohort, key: key, pinnedTable: own?.id, until: Forecast.label(start + cohort.months - 1)))
                }
                let mix = CohortMix(main: try forecast.prepared(), cohorts: parts, searches: result.months.map(\.searches), start: start)
                // The option and the tree's answer are each priced with the cohorts beside them.
                for key in [option.key] + (treeTotal.map { [$0.key] } ?? []) {
                    let (months, total) = try mix.run(key)
                    for index in result.months.indices {
                        result.months[index].bills[key] = months[index].bill
                        result.months[index].tables = Array(Set(result.months[index].tables + months[index].tables)).sorted()
                    }
                    if key == option.key { option = total }
                    if key == treeTotal?.key { treeTotal = total }
                }
            }
            return Priced(
                scenario: scenario, forecast: result, option: option, tree: tree,
                treeTotal: treeTotal, tableID: table.id, cohorts: cohorts
            )
        }
    }
}
