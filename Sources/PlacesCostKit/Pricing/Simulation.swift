/// A what-if scenario priced with one table: the simulated searches of every month, every
/// strategy at every delay.
struct Simulation: Sendable {
    var simulator: SearchSimulator
    var months: Int
    var plan: PricingPlan
    var delays: [Int]

    init(simulator: SearchSimulator, months: Int, plan: PricingPlan, delays: [Int]) {
        self.simulator = simulator
        self.months = months
        self.plan = plan
        self.delays = delays
    }

    struct Result: Sendable {
        var simulator: SearchSimulator
        var months: Int
        var pricing: PricingResult
        /// Whether the simulated fields need Place Details.
        var needsDetails: Bool
        /// Mean autocomplete calls per search at each priced delay.
        var meanRequests: [Int: Double]

        var totalSearches: Int { simulator.searchesPerMonth * months }
    }

    /// The table simulated searches are priced with: the one in force in March 2025 (a fixed
    /// table is that table).
    static func table(of plan: PricingPlan) -> PriceTable {
        plan.table(generation: nil, monthIndex: PricingPlan.march2025)
    }

    func run() -> Result {
        let table = Simulation.table(of: plan)
        // Simulated searches take place when the table's current session rules apply.
        let ruleDay = table.sessionRules.flatMap { PriceTableLoader.parseDay($0.terminatingDetails.effectiveFrom) } ?? 0
        let tableDay = PriceTableLoader.parseDay(table.effectiveFrom) ?? 0
        let start = Timestamp(microseconds: Int64(max(ruleDay, tableDay)) * 86_400_000_000)
        let needsDetails = DetailsNeed.needsDetails(fields: simulator.fields) ?? true
        var options = CostCalculator.Options()
        options.delays = delays
        options.needsDetails = needsDetails
        options.currentDelay = simulator.currentDelay
        let calculator = CostCalculator(plan: plan, options: options)
        var items: [CostCalculator.Item] = []
        for month in 0..<months {
            let label = CostCalculator.Month(index: PricingPlan.march2025 + month, label: "month \(month + 1)")
            for (search, weight) in simulator.prototypes(start: start) {
                items.append(CostCalculator.Item(search: search, baseCall: nil, weight: weight, month: label))
            }
        }
        let pricing = calculator.price(items)
        var means: [Int: Double] = [:]
        for delay in pricing.delays { means[delay] = simulator.meanRequests(delay: delay) }
        return Result(simulator: simulator, months: months, pricing: pricing, needsDetails: needsDetails, meanRequests: means)
    }
}
