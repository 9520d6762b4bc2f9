/// Everything `analyze` found, handed from the pipeline to the renderers.
struct Analysis: Sendable {
    struct Input: Sendable {
        var files: [String]
        var records: Int
        var rejected: Int
        var outsideWindow: Int
        /// Access-log lines and HAR entries that are not Places calls.
        var skippedRequests: Int = 0
        /// Of those, requests to Places endpoints that are not calls (preflights, redirects).
        var unbilled = UnbilledRequests()
        /// New-API calls whose body (token, input) the source does not show.
        var bodiesUnknown: Int = 0
        /// Records repeating an earlier record exactly, and how many `--dedupe` dropped (then
        /// not in `records`).
        var duplicates: Int = 0
        var duplicatesDropped: Int = 0
        /// Calls per canonical API name (unknown names under their own), sorted by name.
        var byAPI: [(api: String, count: Int)]
        /// Whether the bundled sample logs were read because no path was given.
        var usedSampleLogs: Bool
        /// Calls per platform and API generation, most calls first.
        var platforms: [PlatformUse]
        /// The first and last call times; `nil` when no call was kept.
        var firstCall: Timestamp?
        var lastCall: Timestamp?
    }

    /// Expired-session counts had the timeout been different (`docs/sessions.md`: 60 s and 600 s).
    struct TimeoutSensitivity: Sendable {
        var timeoutSeconds: Double
        var expired: Int
        var searches: Int
    }

    var input: Input
    var sessionOptions: SessionOptions
    var sessions: SearchSummary
    var statistics: SearchStatistics
    var detailsNeed: DetailsNeed
    var timeoutSensitivity: [TimeoutSensitivity]
    var pricing: PricingResult
    /// How the price tables were chosen, for the report.
    var pricingChoice: String
    /// Each search's cost as made (`current`, delay 0) at list prices, in `sessions.keptSearches` order (empty unless kept).
    var searchListCosts: [Double]
    /// Every search as a `searches.csv` row, when asked for (`Analyzer.Options.searchRows`).
    var searchRows: SearchRows?
    var recommendation: Recommendation
    /// The figures per group of `--by`; `nil` without it.
    var groups: GroupBreakdown? = nil
    /// When the report was made, only when `--timestamp` asks: otherwise reports hold no
    /// wall-clock time, and the same input gives the same bytes.
    var generatedAt: Timestamp? = nil
}
