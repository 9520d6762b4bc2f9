/// What the team should do: the decision tree's answer with the numbers it rests on, every
/// strategy ranked by the bill, and the concrete changes to make (`sessions.md`, "From counts to
/// money").
public struct Recommendation: Sendable, Equatable {
    /// The decision tree's answer.
    public var strategy: StrategyID
    public var delay: Int
    /// The tree's steps as sentences, each citing the number it used.
    public var path: [String]
    /// The numbers the tree walked with.
    public var evidence: Evidence
    /// Whether the answer makes users wait for characters before predictions appear.
    public var latencyWarning: Bool { delay > 0 }
    /// Every priced strategy and delay, cheapest bill first.
    public var ranking: [Option]
    /// The cheapest valid option the recommendation may choose: delay at most `--max-delay`, and
    /// not `current` (what the app does now, anomalies included).
    public var cheapest: Option
    /// Why the cheapest option is not the tree's answer; empty when it is (or costs the same).
    public var cheaperBecause: [String]
    /// Why the calls as made bill less than the tree's answer, when they do.
    public var currentCheaperBecause: String?
    /// The tree's answer priced, with its savings against `current`.
    public var recommended: Option
    /// The bill as the log shows it (`current`, delay 0).
    public var current: Option
    /// Calendar months the costs cover (savings per month divide by this).
    public var months: Int
    /// Changes to make, for the platforms and API generation seen in the log.
    public var nextSteps: [String]
    /// Each anomaly with what it cost and how to fix it.
    public var anomalies: [AnomalyAdvice]

    public init(
        strategy: StrategyID, delay: Int, path: [String], evidence: Evidence, ranking: [Option], cheapest: Option,
        cheaperBecause: [String], currentCheaperBecause: String?, recommended: Option, current: Option, months: Int, nextSteps: [String],
        anomalies: [AnomalyAdvice]
    ) {
        self.strategy = strategy
        self.delay = delay
        self.path = path
        self.evidence = evidence
        self.ranking = ranking
        self.cheapest = cheapest
        self.cheaperBecause = cheaperBecause
        self.currentCheaperBecause = currentCheaperBecause
        self.recommended = recommended
        self.current = current
        self.months = months
        self.nextSteps = nextSteps
        self.anomalies = anomalies
    }

    /// The options a summary shows, in ranking order: every strategy without delay, the tree's
    /// answer and the cheapest option.
    public var highlights: [Option] {
        ranking.filter { option in
            option.delay == 0 || option == recommended || option == cheapest
        }
    }

    /// The measured numbers of the decision tree.
    public struct Evidence: Sendable, Equatable {
        public var needsDetails: DetailsNeed
        /// Mean autocomplete calls per search (over all searches) at delays 0...maxDelay.
        public var meanRequests: [Int: Double]
        public var breakEvenRequests: Double
        /// The price table the break-even comes from.
        public var tableID: String
        public var maxDelay: Int
        public var searches: Int
        public var completed: Int
        public var abandoned: Int

        public init(
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
        public var abandonedShare: Double { searches == 0 ? 0 : Double(abandoned) / Double(searches) }
    }

    /// One strategy at one delay, priced, with its savings against `current` at delay 0.
    public struct Option: Sendable, Equatable {
        public var strategy: StrategyID
        public var delay: Int
        public var costUSD: Double
        public var listCostUSD: Double
        public var valid: Bool
        /// `current.costUSD - costUSD`, per month; negative when the option costs more.
        public var savingsUSDPerMonth: Double
        /// The same saving as a percentage of the current bill (0 when the bill is 0).
        public var savingsPercent: Double
        /// The saving at list prices over the period: what it is worth past the free caps.
        public var listSavingsUSD: Double
        public var listSavingsPercent: Double

        public init(
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
    }
}

/// One anomaly of the log: how often it happened, what it cost, and the fix.
public struct AnomalyAdvice: Sendable, Equatable {
    public var cost: AnomalyCost
    /// What to change so it stops costing money.
    public var fix: String

    public init(cost: AnomalyCost, fix: String) {
        self.cost = cost
        self.fix = fix
    }
}
