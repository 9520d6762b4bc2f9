/// Everything `analyze` found, handed from the pipeline to the renderers.
public struct Analysis: Sendable {
    public struct Input: Sendable {
        public var files: [String]
        public var records: Int
        public var rejected: Int
        public var outsideWindow: Int
        /// Access-log lines and HAR entries that are not Places calls.
        public var skippedRequests: Int = 0
        /// New-API calls whose body (token, input) the source does not show.
        public var bodiesUnknown: Int = 0
        /// Records repeating an earlier record exactly, and how many `--dedupe` dropped (then
        /// not in `records`).
        public var duplicates: Int = 0
        public var duplicatesDropped: Int = 0
        /// Calls per canonical API name (unknown names under their own), sorted by name.
        public var byAPI: [(api: String, count: Int)]
        /// Whether the bundled sample logs were read because no path was given.
        public var usedSampleLogs: Bool
        /// Calls per platform and API generation, most calls first.
        public var platforms: [PlatformUse]
        /// The first and last call times; `nil` when no call was kept.
        public var firstCall: Timestamp?
        public var lastCall: Timestamp?
    }

    /// Expired-session counts had the timeout been different (`docs/sessions.md`: 60 s and 600 s).
    public struct TimeoutSensitivity: Sendable {
        public var timeoutSeconds: Double
        public var expired: Int
        public var searches: Int
    }

    public var input: Input
    public var sessionOptions: SessionOptions
    public var sessions: SearchSummary
    public var statistics: SearchStatistics
    public var detailsNeed: DetailsNeed
    public var timeoutSensitivity: [TimeoutSensitivity]
    public var pricing: PricingResult
    /// How the price tables were chosen, for the report.
    public var pricingChoice: String
    /// Each search's cost as made (`current`, delay 0) at list prices, in `sessions.keptSearches` order (empty unless kept).
    public var searchListCosts: [Double]
    public var recommendation: Recommendation
    /// When the report was made, only when `--timestamp` asks: otherwise reports hold no
    /// wall-clock time, and the same input gives the same bytes.
    public var generatedAt: Timestamp? = nil
}
