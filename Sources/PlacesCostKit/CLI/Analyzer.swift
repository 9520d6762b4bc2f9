/// Runs the pipeline for `analyze`: Ingest -> Sessions -> statistics.
public struct Analyzer: Sendable {
    public struct Options: Sendable {
        public var reader = LogReader.Options()
        public var sessions = SessionOptions()
        /// `--needs-details yes|no`; `nil` measures it from the log.
        public var needsDetails: Bool?
        /// `--pricing ID|FILE`; `nil` chooses per month and API generation.
        public var pricing: String?
        public var costs = CostCalculator.Options()
        /// `--max-delay`: the largest delay the recommendation may choose.
        public var maxDelay = 4

        public init() {}
    }

    /// The alternative timeouts the report compares against (`sessions.md`).
    public static let comparedTimeouts: [Double] = [60, 600]

    public var options: Options

    private struct PlatformKey: Hashable {
        var platform: ClientPlatform
        var generation: APIGeneration
    }

    public init(options: Options = Options()) {
        self.options = options
    }

    public func analyze(paths: [String], usedSampleLogs: Bool = false) throws -> (Analysis, diagnostics: LogReader.Output) {
        var read = try LogReader(options: options.reader).read(paths)
        guard !read.calls.isEmpty || read.outsideWindow > 0 || read.skippedRequests > 0 else {
            throw IngestError.noRecords(inputs: paths.map { $0 == "-" ? "<stdin>" : $0 })
        }
        let calls = read.calls
        read.calls = []
        let sessions = SessionBuilder(options: options.sessions).build(calls)
        var byAPI: [String: Int] = [:]
        var byPlatform: [PlatformKey: Int] = [:]
        var firstCall: Timestamp?
        var lastCall: Timestamp?
        for call in calls {
            byAPI[call.api.name, default: 0] += 1
            byPlatform[PlatformKey(platform: ClientPlatform(logValue: call.platform), generation: call.generation ?? .legacy), default: 0] += 1
            firstCall = min(firstCall ?? call.time, call.time)
            lastCall = max(lastCall ?? call.time, call.time)
        }
        let platforms = byPlatform
            .map { PlatformUse(platform: $0.key.platform, generation: $0.key.generation, calls: $0.value) }
            .sorted { ($1.calls, $0.platform.rawValue, $0.generation.rawValue) < ($0.calls, $1.platform.rawValue, $1.generation.rawValue) }
        let sensitivity = Analyzer.comparedTimeouts
            .filter { Duration64(seconds: $0) != options.sessions.timeout }
            .map { seconds -> Analysis.TimeoutSensitivity in
                var alternative = options.sessions
                alternative.timeout = Duration64(seconds: seconds)
                let other = SessionBuilder(options: alternative).build(calls)
                return .init(timeoutSeconds: seconds, expired: other.anomalies.expired, searches: other.searches.count)
            }
        let detailsNeed = DetailsNeed(searches: sessions.searches, override: options.needsDetails)
        let plan = try PricingPlan.load(options.pricing)
        var costOptions = options.costs
        costOptions.needsDetails = detailsNeed.needsDetails
        // The recommendation may choose any delay up to --max-delay, so those are always priced.
        costOptions.delays = Array(Set(costOptions.delays + Array(0...options.maxDelay)).subtracting([0])).sorted()
        let calculator = CostCalculator(plan: plan, options: costOptions)
        let pricing = calculator.price(sessions)
        let statistics = SearchStatistics(sessions.searches)
        let evidence = Recommendation.Evidence(
            needsDetails: detailsNeed,
            meanRequests: Dictionary(uniqueKeysWithValues: (0...options.maxDelay).map { ($0, SearchStatistics.meanRequests(sessions.searches, delay: $0)) }),
            breakEvenRequests: pricing.breakEvenRequests, tableID: pricing.primaryTable.id, maxDelay: options.maxDelay,
            searches: statistics.total, completed: statistics.completed, abandoned: statistics.abandoned
        )
        let recommendation = Advisor().recommend(
            evidence: evidence, pricing: pricing, anomalies: AnomalyPricer(calculator: calculator).price(sessions), platforms: platforms
        )
        let analysis = Analysis(
            input: .init(
                files: read.files, records: calls.count, rejected: read.rejected, outsideWindow: read.outsideWindow,
                skippedRequests: read.skippedRequests, bodiesUnknown: read.bodiesUnknown,
                byAPI: byAPI.keys.sorted().map { ($0, byAPI[$0]!) }, usedSampleLogs: usedSampleLogs,
                platforms: platforms, firstCall: firstCall, lastCall: lastCall
            ),
            sessionOptions: options.sessions,
            sessions: sessions,
            statistics: statistics,
            detailsNeed: detailsNeed,
            timeoutSensitivity: sensitivity,
            pricing: pricing,
            pricingChoice: plan.summary,
            searchListCosts: pricing.searchListCosts,
            recommendation: recommendation
        )
        return (analysis, read)
    }
}
