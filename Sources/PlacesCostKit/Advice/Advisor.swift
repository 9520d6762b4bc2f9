import Foundation

/// Turns the priced strategies into a `Recommendation` that follows the money within the app's
/// needs (`docs/recommendation.md`):
///
/// - the decision tree decides what is valid (does the app need Place Details?) and is shown with
///   its numbers;
/// - the recommendation is the valid option (any strategy at any delay up to `--max-delay`,
///   `current` with a delay included: the calls as made, sent from a later character) with the
///   lowest bill; ties go to the tree's answer, then the smaller delay, then the lower list cost;
/// - it is never an option that bills more than the calls as made: when no valid option bills
///   less, the advice is to keep the integration as it is (`current`, delay 0), with the cheapest
///   alternative and the volume from which the advice changes.
struct Advisor: Sendable {
    init() {}

    /// - Parameters:
    ///   - evidence: the measured numbers the tree walks with.
    ///   - pricing: every strategy at every priced delay (it must include 0...maxDelay).
    ///   - anomalies: what each anomaly cost, in `Anomalies.named` order.
    ///   - platforms: where the calls came from, most calls first; empty for simulations.
    func recommend(
        evidence: Recommendation.Evidence, pricing: PricingResult, anomalies: [AnomalyCost], platforms: [PlatformUse]
    ) -> Recommendation {
        let tree = DecisionTree.walk(evidence)
        let currentCost = pricing.cost(.current, delay: 0)
        let months = max(currentCost?.months.count ?? 1, 1)
        func option(_ cost: StrategyCost) -> Recommendation.Option {
            let now = currentCost?.costUSD ?? 0
            let nowList = currentCost?.listCostUSD ?? 0
            return Recommendation.Option(
                strategy: cost.strategy, delay: cost.delay, costUSD: cost.costUSD, listCostUSD: cost.listCostUSD, valid: cost.valid,
                savingsUSDPerMonth: (now - cost.costUSD) / Double(months),
                savingsPercent: now > 0 ? (now - cost.costUSD) / now * 100 : 0,
                listSavingsUSD: (nowList - cost.listCostUSD) / Double(months),
                listSavingsPercent: nowList > 0 ? (nowList - cost.listCostUSD) / nowList * 100 : 0
            )
        }
        let priced = pricing.strategies.map { (option: option($0), cost: $0) }
        let ranking = Advisor.ranked(priced.map(\.option))
        // An option the pricing lacks (never for a complete `PricingResult`), priced at $0.
        let unpriced = { (strategy: StrategyID, delay: Int) in
            option(StrategyCost(strategy: strategy, delay: delay, listCostUSD: 0, costUSD: 0, valid: true, skus: [], months: []))
        }
        let current = currentCost.map(option) ?? unpriced(.current, 0)
        let considered = priced.filter { $0.option.delay <= evidence.maxDelay }
        // The calls as made at delay 0 are what the candidates are held against, not one of them.
        let candidates = considered.filter { $0.option.valid && ($0.option.strategy != .current || $0.option.delay > 0) }
        let restructurings = candidates.filter { $0.option.strategy != .current }
        let treeOption = priced.first { $0.option.strategy == tree.strategy && $0.option.delay == tree.delay }?.option
            ?? unpriced(tree.strategy, tree.delay)
        let choose = { (options: [Recommendation.Option]) in options.min { Advisor.choiceKey($0, tree: tree) < Advisor.choiceKey($1, tree: tree) } }
        let best = choose(candidates.map(\.option))
        let keeps = best.map { Money.micros($0.costUSD) >= Money.micros(current.costUSD) } ?? true
        let recommended = keeps ? current : best!

        let validConsidered = considered.map(\.option).filter(\.valid)
        let allZero = validConsidered.allSatisfy { Money.micros($0.costUSD) == 0 } && validConsidered.contains { Money.micros($0.listCostUSD) > 0 }
        let cheapestAtList = allZero
            ? candidates.map(\.option).min { Advisor.listKey($0, tree: tree) < Advisor.listKey($1, tree: tree) }
            : nil

        var differs: String?
        if !recommended.sameChoice(as: treeOption) {
            differs = reason(winner: recommended, loser: treeOption, tree: tree, evidence: evidence, pricing: pricing, months: months)
        }
        var change: Recommendation.ScaleChange?
        if keeps, let currentCost {
            change = Advisor.adviceChange(
                pricing: pricing, current: currentCost, candidates: candidates.map(\.cost), tree: tree,
                searchesPerMonthAtScaleOne: Double(evidence.searches) / Double(months)
            )
        }

        let usedPlatforms = platforms.isEmpty
            ? [PlatformUse(platform: .webService, generation: pricing.primaryTable.apiVersion, calls: 0)]
            : Array(platforms.prefix(3))
        let advice = anomalies.map { AnomalyAdvice(cost: $0, fix: PlatformGuide.fix(for: $0.name)) }
        let steps = keeps
            ? PlatformGuide.keepSteps(searches: evidence.searches, fixes: advice.filter(\.fixSavesMoney), change: change)
            : PlatformGuide.nextSteps(strategy: recommended.strategy, delay: recommended.delay, platforms: usedPlatforms)
        return Recommendation(
            strategy: recommended.strategy, delay: recommended.delay, tree: tree, evidence: evidence,
            ranking: ranking, recommended: recommended, current: current, treeOption: treeOption,
            differsFromTree: differs,
            // No more delay than the app has: restructurings at its delay (0 for a log).
            bestWithoutDelay: !keeps && recommended.delay > evidence.currentDelay
                ? choose(restructurings.map(\.option).filter { $0.delay == evidence.currentDelay }) : nil,
            cheapestAlternative: keeps ? choose(restructurings.map(\.option)) : nil,
            adviceChanges: change,
            cheapestAtListPrices: cheapestAtList,
            months: months, nextSteps: steps, anomalies: advice
        )
    }

    // MARK: - Orders

    /// The one order every table and chart uses: valid options first, each part by the bill (to
    /// the micro-dollar, as reports round it), then list cost (which orders the options a free cap
    /// bills at $0), then strategy, then delay.
    static func ranked(_ options: [Recommendation.Option]) -> [Recommendation.Option] {
        options.sorted { rankKey($0) < rankKey($1) }
    }

    static func rankKey(_ option: Recommendation.Option) -> (Int, Double, Double, Int, Int) {
        (option.valid ? 0 : 1, Money.micros(option.costUSD), Money.micros(option.listCostUSD), strategyIndex(option.strategy), option.delay)
    }

    /// The recommendation's order: the bill, then the tree's answer, then the smaller delay (a
    /// delay that saves nothing is latency for nothing), then list cost.
    static func choiceKey(_ option: Recommendation.Option, tree: DecisionTree.Answer) -> (Double, Int, Int, Double, Int) {
        choiceKey(costUSD: option.costUSD, listCostUSD: option.listCostUSD, strategy: option.strategy, delay: option.delay, tree: tree)
    }

    static func choiceKey(costUSD: Double, listCostUSD: Double, strategy: StrategyID, delay: Int, tree: DecisionTree.Answer) -> (Double, Int, Int, Double, Int) {
        (Money.micros(costUSD), strategy == tree.strategy && delay == tree.delay ? 0 : 1, delay, Money.micros(listCostUSD), strategyIndex(strategy))
    }

    /// What is cheapest once past the free caps: list cost first.
    static func listKey(_ option: Recommendation.Option, tree: DecisionTree.Answer) -> (Double, Int, Int, Int) {
        (Money.micros(option.listCostUSD), option.strategy == tree.strategy && option.delay == tree.delay ? 0 : 1, option.delay, strategyIndex(option.strategy))
    }

    private static func strategyIndex(_ strategy: StrategyID) -> Int {
        StrategyID.allCases.firstIndex(of: strategy)!
    }

    // MARK: - Volume

    /// The nearest `--scale` at which some valid option starts to bill less than the calls as
    /// made: first above this volume, else below it; `nil` when none does between a millionth and a
    /// million times this volume. The scale shown is rounded (up when growing, down when
    /// shrinking) to two significant digits, or more where the change does not hold at two.
    static func adviceChange(
        pricing: PricingResult, current: StrategyCost, candidates: [StrategyCost], tree: DecisionTree.Answer,
        searchesPerMonthAtScaleOne: Double
    ) -> Recommendation.ScaleChange? {
        guard !candidates.isEmpty, pricing.scale > 0 else { return nil }
        // The candidate the recommendation would choose at `scale`, when it bills less than `current`.
        func winner(at scale: Double) -> StrategyCost? {
            let keyed = candidates.map { cost in
                (key: choiceKey(costUSD: pricing.costUSD(of: cost, atScale: scale), listCostUSD: cost.listCostUSD, strategy: cost.strategy, delay: cost.delay, tree: tree), cost: cost)
            }
            guard let best = keyed.min(by: { $0.key < $1.key }) else { return nil }
            return best.key.0 < Money.micros(pricing.costUSD(of: current, atScale: scale)) ? best.cost : nil
        }
        let step = 1.1
        let steps = Int((log(1_000_000) / log(step)).rounded(.up))
        for growing in [true, false] {
            var lower = pricing.scale
            for index in 1...steps {
                let factor = pow(step, Double(index))
                let upper = growing ? pricing.scale * factor : pricing.scale / factor
                guard winner(at: upper) != nil else {
                    lower = upper
                    continue
                }
                // `lower` keeps the integration, `upper` changes it: halve the gap on a log scale.
                var (keeps, changes) = (lower, upper)
                for _ in 0..<60 {
                    let middle = (keeps * changes).squareRoot()
                    if winner(at: middle) != nil { changes = middle } else { keeps = middle }
                }
                var shown = changes
                for digits in 2...5 {
                    let rounded = roundedScale(changes, significantDigits: digits, up: growing)
                    if winner(at: rounded) != nil {
                        shown = rounded
                        break
                    }
                }
                guard let option = winner(at: shown) else { return nil }
                return Recommendation.ScaleChange(
                    scale: shown, searchesPerMonth: searchesPerMonthAtScaleOne * shown,
                    strategy: option.strategy, delay: option.delay, growing: growing
                )
            }
        }
        return nil
    }

    /// `value` rounded up (or down) to `significantDigits` digits.
    static func roundedScale(_ value: Double, significantDigits: Int, up: Bool) -> Double {
        let unit = pow(10, (log10(value)).rounded(.down) - Double(significantDigits - 1))
        let units = value / unit
        return (up ? units.rounded(.up) : units.rounded(.down)) * unit
    }

    // MARK: - Reasons

    /// One sentence, with the numbers, on why `winner` bills less than `loser` (the tree's answer).
    /// Its amounts are a month, as the headline's are: over a log of several months, each is the
    /// period's divided by `months`, and says "a month".
    func reason(
        winner: Recommendation.Option, loser: Recommendation.Option, tree: DecisionTree.Answer,
        evidence: Recommendation.Evidence, pricing: PricingResult, months: Int
    ) -> String {
        let name = Advisor.name
        let usd = { (amount: Double) in Money.usd(amount / Double(months)) + (months > 1 ? " a month" : "") }
        let means = evidence.meanRequests
        let bills = "\(name(winner)) bills \(usd(winner.costUSD)) against \(usd(loser.costUSD)) for \(name(loser))"
        if winner.strategy == .current, winner.delay > 0 {
            let calls = "Keeping the calls as made and waiting for the \(DecisionTree.ordinal(winner.delay + 1)) character bills \(usd(winner.costUSD)) against \(usd(loser.costUSD)) for the tree's answer, \(name(loser))"
            // The delay counts in the reason only where the tree's answer waits less.
            let fewer = winner.delay > loser.delay
                ? "the delay cuts autocomplete requests per search from \(Money.plain(means[loser.delay] ?? 0)) to \(Money.plain(means[winner.delay] ?? 0)), and "
                : ""
            if Money.micros(winner.listCostUSD) >= Money.micros(loser.listCostUSD) {
                return "\(calls), although at first-tier list prices they cost \(usd(winner.listCostUSD)) against \(usd(loser.listCostUSD)): \(fewer)spread over more SKUs, the calls as made get more of \(Advisor.volumeEffects(pricing))."
            }
            return "\(calls), and less at list prices too (\(usd(winner.listCostUSD)) against \(usd(loser.listCostUSD))): \(fewer)runs without a token or on a spent token that end without a selection are billed only their requests."
        }
        if winner.strategy == .current {
            if Money.micros(winner.costUSD) == Money.micros(loser.costUSD) {
                // "Yet" only where the tree's answer is cheaper at list prices, past the free caps.
                guard Money.micros(loser.listCostUSD) < Money.micros(winner.listCostUSD) else {
                    return "The tree's answer, \(name(loser)), bills what the calls as made bill at this volume (\(usd(winner.costUSD))) and no less at list prices (\(usd(loser.listCostUSD)) against \(usd(winner.listCostUSD))): changing the integration would save nothing."
                }
                return "The tree's answer, \(name(loser)), bills what the calls as made bill at this volume (\(usd(winner.costUSD))): changing the integration would save nothing yet."
            }
            let asMade = "The calls as made bill \(usd(winner.costUSD)) against \(usd(loser.costUSD)) for the tree's answer, \(name(loser))"
            if Money.micros(winner.listCostUSD) >= Money.micros(loser.listCostUSD) {
                return "\(asMade), although at first-tier list prices they cost \(usd(winner.listCostUSD)) against \(usd(loser.listCostUSD)): spread over more SKUs, they get more of \(Advisor.volumeEffects(pricing))."
            }
            return "\(asMade), and less at list prices too (\(usd(winner.listCostUSD)) against \(usd(loser.listCostUSD))): runs without a token or on a spent token that end without a selection are billed only their requests, which costs less than one strategy for every search."
        }
        if winner.strategy == loser.strategy, winner.delay > loser.delay {
            let from = loser.delay == 0 ? "sending a request from the first character" : "the \(DecisionTree.ordinal(loser.delay + 1))"
            let treeWay = tree.strategy == .perRequestGeocoding
                ? "the tree stops at the first delay that reaches the break-even"
                : "the tree weighs delays only on the per-request branch"
            return "Waiting for the \(DecisionTree.ordinal(winner.delay + 1)) character rather than \(from) cuts autocomplete requests per search from \(Money.plain(means[loser.delay] ?? 0)) to \(Money.plain(means[winner.delay] ?? 0)) and the bill from \(usd(loser.costUSD)) to \(usd(winner.costUSD)); \(treeWay)."
        }
        let withDelay = winner.delay > 0 && winner.delay != loser.delay
            ? " (waiting for the \(DecisionTree.ordinal(winner.delay + 1)) character cuts requests per search from \(Money.plain(means[0] ?? 0)) to \(Money.plain(means[winner.delay] ?? 0)))"
            : ""
        if Money.micros(winner.listCostUSD) >= Money.micros(loser.listCostUSD) {
            return "\(bills)\(withDelay), although at first-tier list prices \(name(loser)) costs \(usd(loser.listCostUSD)) and \(name(winner)) \(usd(winner.listCostUSD)): \(Advisor.volumeEffects(pricing)) change the order at this volume."
        }
        let table = pricing.primaryTable
        if table.apiVersion == .legacy, evidence.abandoned > 0, loser.strategy != .perRequestGeocoding, winner.strategy == .perRequestGeocoding {
            let abandonedSession = table.skus.first { $0.roles.contains(.sessionWithoutDetails) }?.tiers[0].usdPer1000 ?? 0
            return "\(bills)\(withDelay): \(Money.plain(evidence.abandonedShare * 100))% of searches (\(Money.count(evidence.abandoned))) end without a selection, and under legacy pricing each abandoned session is billed \(Money.usd(abandonedSession / 1000, digits: 5)) while per request it costs only its requests; the break-even counts only searches that end in a selection."
        }
        if table.apiVersion == .new, loser.strategy == .perRequestGeocoding, winner.strategy != .perRequestGeocoding {
            let cap = table.sessionRules?.essentialsRequestCap ?? 12
            return "\(bills)\(withDelay): a session ending in Place Details Essentials bills at most \(cap) requests, so searches longer than that cost less as sessions; the tree looks at the mean of \(Money.plain(means[0] ?? 0)) requests only."
        }
        return "\(bills)\(withDelay) when every search is priced on its own: the tree works from the mean of \(Money.plain(means[0] ?? 0)) requests per search, while the bill depends on each search's count and on how many end in a selection."
    }

    /// An option as the reports name it: `strategy` with its delay.
    static func name(_ option: Recommendation.Option) -> String {
        "`\(option.strategy.rawValue)`" + (option.delay > 0 ? " with delay \(option.delay)" : "")
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
