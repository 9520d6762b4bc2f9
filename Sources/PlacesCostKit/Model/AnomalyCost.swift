/// What one kind of anomaly cost over the analysed period, at first-tier list prices (the
/// monthly free caps and tiers cannot be split between calls), with the same calls made the
/// right way where there is one.
struct AnomalyCost: Sendable, Equatable {
    /// The `report.json` `anomalies` name.
    var name: String
    var count: Int
    /// What the affected calls were billed, at list prices (times `--scale`).
    var billedListUSD: Double
    /// The same calls made the right way, at list prices; `nil` when no single right way exists.
    var alternativeListUSD: Double?
    /// What the alternative is, for people ("as proper sessions").
    var alternative: String?
    /// Why the right way bills more than the mistake did, when it does (a full sentence).
    var alternativeCostsMoreBecause: String?

    init(
        name: String, count: Int, billedListUSD: Double, alternativeListUSD: Double? = nil, alternative: String? = nil,
        alternativeCostsMoreBecause: String? = nil
    ) {
        self.name = name
        self.count = count
        self.billedListUSD = billedListUSD
        self.alternativeListUSD = alternativeListUSD
        self.alternative = alternative
        self.alternativeCostsMoreBecause = alternativeCostsMoreBecause
    }

    /// What making the calls the right way would have saved; `nil` without an alternative.
    var excessListUSD: Double? {
        alternativeListUSD.map { billedListUSD - $0 }
    }
}
