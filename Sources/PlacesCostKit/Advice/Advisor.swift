/// Turns the priced strategies into a `Recommendation`: the decision tree's answer, every option
/// ranked by the bill, why the cheapest differs from the tree when it does, savings against
/// `current`, next steps for the platforms seen, and the fix of each anomaly.
public struct Advisor: Sendable {
    public init() {}

    /// - Parameters:
    ///   - evidence: the measured numbers the tree walks with.
    ///   - pricing: every strategy at every priced delay (it must include 0...maxDelay).
    ///   - anomalies: what each anomaly cost, in `Anomalies.named` order.
    ///   - platforms: where the calls came from, most calls first; empty for simulations.
    public func recommend(
        evidence: Recommendation.Evidence, pricing: PricingResult, anomalies: [AnomalyCost], platforms: [PlatformUse]
    ) -> Recommendation {
        let answer = DecisionTree.walk(evidence)
        let months = max(pricing.cost(.current, delay: 0)?.months.count ?? 1, 1)
        let currentCost = pricing.cost(.current, delay: 0)
        func option(_ cost: StrategyCost) -> Recommendation.Option {
            let now = currentCost?.costUSD ?? 0
            let nowList = currentCost?.listCostUSD ?? 0
            return Recommendation.Option(
                strategy: cost.strategy, delay: cost.delay, costUSD: cost.costUSD, listCostUSD: cost.listCostUSD, valid: cost.valid,
                savingsUSDPerMonth: (now - cost.costUSD) / Double(months),
                savingsPercent: now > 0 ? (now - cost.costUSD) / now * 100 : 0,
                listSavingsUSD: nowList - cost.listCostUSD,
                listSavingsPercent: nowList > 0 ? (nowList - cost.listCostUSD) / nowList * 100 : 0
            )
        }
        let ranking = pricing.strategies.map(option).sorted { Advisor.rankKey($0) < Advisor.rankKey($1) }
        let recommended = ranking.first { $0.strategy == answer.strategy && $0.delay == answer.delay }
            ?? option(StrategyCost(strategy: answer.strategy, delay: answer.delay, listCostUSD: 0, costUSD: 0, valid: true, skus: [], months: []))
        // `current` is what the app does now, anomalies included: not a strategy to adopt.
        let choices = ranking.filter { $0.valid && $0.delay <= evidence.maxDelay && $0.strategy != .current }
        // A tie with the tree's answer keeps the tree's answer: only a lower bill is a difference.
        var cheapest = choices.first ?? recommended
        if Advisor.cents(cheapest.costUSD) >= Advisor.cents(recommended.costUSD) { cheapest = recommended }
        let current = ranking.first { $0.strategy == .current && $0.delay == 0 } ?? recommended

        let usedPlatforms = platforms.isEmpty
            ? [PlatformUse(platform: .webService, generation: pricing.primaryTable.apiVersion, calls: 0)]
            : Array(platforms.prefix(3))
        return Recommendation(
            strategy: answer.strategy, delay: answer.delay, path: answer.path, evidence: evidence,
            ranking: ranking, cheapest: cheapest,
            cheaperBecause: cheapest == recommended ? [] : reasons(recommended: recommended, cheapest: cheapest, evidence: evidence, pricing: pricing),
            currentCheaperBecause: Advisor.cents(current.costUSD) < Advisor.cents(recommended.costUSD)
                ? currentReason(recommended: recommended, current: current, pricing: pricing) : nil,
            recommended: recommended, current: current, months: months,
            nextSteps: PlatformGuide.nextSteps(strategy: answer.strategy, delay: answer.delay, platforms: usedPlatforms),
            anomalies: anomalies.map { AnomalyAdvice(cost: $0, fix: PlatformGuide.fix(for: $0.name)) }
        )
    }

    /// Bill first (to the micro-dollar, as reports round it), then list cost (which orders the
    /// options a free cap bills at $0), then strategy order, then delay.
    static func rankKey(_ option: Recommendation.Option) -> (Double, Double, Int, Int) {
        (cents(option.costUSD), cents(option.listCostUSD), StrategyID.allCases.firstIndex(of: option.strategy)!, option.delay)
    }

    /// Money rounded to 1e-6 USD, so sums taken in different orders compare equal.
    static func cents(_ usd: Double) -> Double {
        (usd * 1_000_000).rounded()
    }

    /// Why `cheapest` bills less than the tree's answer: the tree's averages against the full
    /// pricing of every search under the table's caps, credit and tiers.
    func reasons(
        recommended: Recommendation.Option, cheapest: Recommendation.Option, evidence: Recommendation.Evidence, pricing: PricingResult
    ) -> [String] {
        let name = { (option: Recommendation.Option) in
            "`\(option.strategy.rawValue)`" + (option.delay > 0 ? " with delay \(option.delay)" : "")
        }
        let bills = "\(name(cheapest)) bills \(Money.usd(cheapest.costUSD)) against \(Money.usd(recommended.costUSD)) for \(name(recommended))"
        if cheapest.strategy == recommended.strategy {
            return ["\(bills): the tree takes the smallest delay that reaches the break-even, because every character of delay is a wait users see before predictions appear."]
        }
        var reasons: [String] = []
        if Advisor.cents(cheapest.listCostUSD) >= Advisor.cents(recommended.listCostUSD) {
            reasons.append("\(bills), although at first-tier list prices \(name(recommended)) costs \(Money.usd(recommended.listCostUSD)) and \(name(cheapest)) \(Money.usd(cheapest.listCostUSD)): " + Advisor.volumeEffects(pricing) + " change the order at this volume. The tree compares list prices per search; if the volume grows, its answer wins again.")
            return reasons
        }
        let table = pricing.primaryTable
        if table.apiVersion == .legacy, evidence.abandoned > 0,
           recommended.strategy != .perRequestGeocoding, cheapest.strategy == .perRequestGeocoding {
            let abandonedSession = table.skus.first { $0.roles.contains(.sessionWithoutDetails) }?.tiers[0].usdPer1000 ?? 0
            reasons.append("\(bills): \(Money.plain(evidence.abandonedShare * 100))% of searches (\(Money.count(evidence.abandoned))) end without a selection. Under legacy pricing each abandoned session is billed \(Money.usd(abandonedSession / 1000, digits: 5)), while per request an abandoned search costs only its requests and needs no Geocoding call; the break-even counts only searches that end in a selection.")
        } else if table.apiVersion == .new, recommended.strategy == .perRequestGeocoding, cheapest.strategy != .perRequestGeocoding {
            let cap = table.sessionRules?.essentialsRequestCap ?? 12
            reasons.append("\(bills): a session ending in Place Details Essentials bills at most \(cap) requests, so searches longer than that cost less as sessions; the tree looks at the mean only.")
        } else {
            reasons.append("\(bills) when every search is priced on its own: the tree works from the mean number of requests per search, while the bill depends on each search's count and on how many searches end in a selection.")
        }
        return reasons
    }

    /// Why the calls as made bill less than the tree's answer.
    func currentReason(recommended: Recommendation.Option, current: Recommendation.Option, pricing: PricingResult) -> String {
        let bills = "The calls as made (`current`) bill \(Money.usd(current.costUSD)) against \(Money.usd(recommended.costUSD)) for the recommendation"
        if Advisor.cents(current.listCostUSD) >= Advisor.cents(recommended.listCostUSD) {
            return "\(bills), although at first-tier list prices they cost \(Money.usd(current.listCostUSD)) against \(Money.usd(recommended.listCostUSD)): spread over more SKUs, they get more of " + Advisor.volumeEffects(pricing) + ". Past the caps the recommendation costs less."
        }
        return "\(bills): some searches cost less as made than under one strategy for all (token-less runs and runs on spent tokens are billed only their requests when they end without a selection). Fix the anomalies first, then compare again."
    }

    /// The table features that make the bill differ from list prices.
    static func volumeEffects(_ pricing: PricingResult) -> String {
        let table = pricing.primaryTable
        var effects: [String] = []
        if table.skus.contains(where: { ($0.freeMonthly ?? 0) > 0 }) { effects.append("the monthly free caps per SKU") }
        if table.monthlyCreditUSD > 0 { effects.append("the \(Money.usd(table.monthlyCreditUSD)) monthly credit") }
        let firstTierEnds = Dictionary(table.skus.map { ($0.name, $0.tiers[0].upTo ?? Int.max) }, uniquingKeysWith: { first, _ in first })
        let pastFirstTier = pricing.strategies.contains { cost in
            cost.months.contains { month in month.lines.contains { line in Double(line.count) * pricing.scale > Double(firstTierEnds[line.sku] ?? Int.max) } }
        }
        if pastFirstTier { effects.append("the volume tiers") }
        switch effects.count {
        case 0: return "the monthly billing"
        case 1: return effects[0]
        default: return effects.dropLast().joined(separator: ", ") + " and " + effects.last!
        }
    }
}
