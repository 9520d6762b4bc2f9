/// What the team should do, and what it saves: the valid option with the lowest bill, the decision
/// tree's answer it was checked against, every option ranked, and the concrete changes to make
/// (`docs/recommendation.md`).
///
/// The headline never recommends paying more: when no valid option bills less than the calls as
/// made, the recommendation is `current` at delay 0, "keep the integration as it is". `current`
/// with a delay (the calls as made, sent from a later character) is an option like the others.
struct Recommendation: Sendable, Equatable {
    /// The recommended strategy; `.current` at delay 0 keeps the integration as it is, at a delay
    /// keeps the calls as made and sends them from a later character.
    var strategy: StrategyID
    var delay: Int
    /// The decision tree's literal answer, with its steps (each citing the number it used).
    var tree: DecisionTree.Answer
    /// The numbers the tree walked with.
    var evidence: Evidence
    /// Every priced option: the valid ones by the bill (list prices break ties), then the invalid
    /// ones in the same order.
    var ranking: [Option]
    /// The recommendation priced, with its savings against `current`.
    var recommended: Option
    /// The bill as the log shows it (`current`, delay 0).
    var current: Option
    /// The tree's answer priced.
    var treeOption: Option
    /// One sentence, with the number, on why the recommendation is not the tree's literal answer;
    /// `nil` when it is.
    var differsFromTree: String?
    /// The cheapest valid restructuring with no more delay than the app has (none for a log, K
    /// for `simulate --delay K`), when the recommendation adds one: the saving without the
    /// latency trade-off.
    var bestWithoutDelay: Option?
    /// When keeping: the cheapest valid alternative, and why it does not pay.
    var cheapestAlternative: Option?
    var keepBecause: String?
    /// When keeping: the nearest volume at which some valid option starts to bill less.
    var adviceChanges: ScaleChange?
    /// When every valid option bills $0 (free caps or credit): the option cheapest at list prices,
    /// which is what is cheapest once past them.
    var cheapestAtListPrices: Option?
    /// Calendar months the costs cover (savings per month divide by this).
    var months: Int
    /// Changes to make, for the platforms and API generation seen in the log.
    var nextSteps: [String]
    /// Each anomaly with what it cost and how to fix it.
    var anomalies: [AnomalyAdvice]

    /// The tree's steps as sentences.
    var path: [String] { tree.path }
    /// Whether no valid option bills less than the calls as made.
    var keepsCurrent: Bool { strategy == .current && delay == 0 }
    /// Whether the recommendation makes users wait for characters before predictions appear.
    var latencyWarning: Bool { delay > 0 }
    /// Whether every valid option up to `--max-delay` bills $0 at this volume.
    var allBillsZero: Bool { cheapestAtListPrices != nil }

    /// The options a summary shows, in ranking order: every strategy without delay, and each
    /// option the headline names.
    var highlights: [Option] {
        let named = [recommended, treeOption, bestWithoutDelay, cheapestAlternative, cheapestAtListPrices].compactMap { $0 }
        return ranking.filter { option in option.delay == 0 || named.contains { $0.sameChoice(as: option) } }
    }

    /// The measured numbers of the decision tree.
    /// Another API generation's table in a log of both, beside the one the tree walks with.
    struct OtherGeneration: Sendable, Equatable {
        var tableID: String
        var breakEvenRequests: Double
        /// Its share of the searches and calls priced, 0...1.
        var share: Double
    }

    struct Evidence: Sendable, Equatable {
        var needsDetails: DetailsNeed
        /// Mean autocomplete calls per search (over all searches) at delays 0...maxDelay.
        var meanRequests: [Int: Double]
        var breakEvenRequests: Double
        /// The price table the break-even comes from.
        var tableID: String
        /// The other API generation's table, break-even and share of the calls and searches
        /// priced, when the log holds both (`PricingResult.otherGeneration`).
        var otherGeneration: OtherGeneration?
        var maxDelay: Int
        var searches: Int
        var completed: Int
        var abandoned: Int
        /// The delay the app has now (`simulate --delay K`; 0 for a log, whose calls are the ones
        /// the app makes). The tree reads the mean at a shorter delay as the mean at this one, as
        /// a log of the app would show it, and its answer waits at least this long: dropping a
        /// delay the app has is never its advice.
        var currentDelay = 0

        init(
            needsDetails: DetailsNeed, meanRequests: [Int: Double], breakEvenRequests: Double, tableID: String,
            maxDelay: Int, searches: Int, completed: Int, abandoned: Int
        ) {
            self.needsDetails = needsDetails
            self.meanRequests = meanRequests
            self.breakEvenRequests = breakEvenRequests
            self.tableID = tableID
            self.maxDelay = maxDelay
            self.searches = searches
            self.completed = completed
            self.abandoned = abandoned
        }

        /// Share of searches that ended without a selection.
        var abandonedShare: Double { searches == 0 ? 0 : Double(abandoned) / Double(searches) }
    }

    /// One strategy at one delay, priced, with its savings against `current` at delay 0.
    struct Option: Sendable, Equatable {
        var strategy: StrategyID
        var delay: Int
        var costUSD: Double
        var listCostUSD: Double
        var valid: Bool
        /// `current.costUSD - costUSD`, per month; negative when the option costs more.
        var savingsUSDPerMonth: Double
        /// The same saving as a percentage of the current bill (0 when the bill is 0).
        var savingsPercent: Double
        /// The same saving at list prices, per month: what it is worth past the free caps.
        var listSavingsUSD: Double
        var listSavingsPercent: Double

        init(
            strategy: StrategyID, delay: Int, costUSD: Double, listCostUSD: Double, valid: Bool,
            savingsUSDPerMonth: Double, savingsPercent: Double, listSavingsUSD: Double, listSavingsPercent: Double
        ) {
            self.strategy = strategy
            self.delay = delay
            self.costUSD = costUSD
            self.listCostUSD = listCostUSD
            self.valid = valid
            self.savingsUSDPerMonth = savingsUSDPerMonth
            self.savingsPercent = savingsPercent
            self.listSavingsUSD = listSavingsUSD
            self.listSavingsPercent = listSavingsPercent
        }

        /// Whether the two are the same strategy at the same delay.
        func sameChoice(as other: Option) -> Bool {
            strategy == other.strategy && delay == other.delay
        }
    }

    /// The volume at which the advice to keep the integration changes.
    struct ScaleChange: Sendable, Equatable {
        /// The `--scale` from which `strategy` at `delay` bills less than the calls as made.
        var scale: Double
        /// The searches a month that scale means.
        var searchesPerMonth: Double
        var strategy: StrategyID
        var delay: Int
        /// Whether the change lies above this volume (else below it).
        var growing: Bool

        init(scale: Double, searchesPerMonth: Double, strategy: StrategyID, delay: Int, growing: Bool) {
            self.scale = scale
            self.searchesPerMonth = searchesPerMonth
            self.strategy = strategy
            self.delay = delay
            self.growing = growing
        }
    }
}
