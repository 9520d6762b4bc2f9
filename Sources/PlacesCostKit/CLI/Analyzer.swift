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

        public init() {}
    }

    /// The alternative timeouts the report compares against (`sessions.md`).
    public static let comparedTimeouts: [Double] = [60, 600]

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    public func analyze(paths: [String], usedSampleLogs: Bool = false) throws -> (Analysis, diagnostics: LogReader.Output) {
        var read = try LogReader(options: options.reader).read(paths)
        guard !read.calls.isEmpty || read.outsideWindow > 0 else {
            throw IngestError.noRecords(inputs: paths.map { $0 == "-" ? "<stdin>" : $0 })
        }
        let calls = read.calls
        read.calls = []
        let sessions = SessionBuilder(options: options.sessions).build(calls)
        var byAPI: [String: Int] = [:]
        for call in calls { byAPI[call.api.name, default: 0] += 1 }
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
        let pricing = CostCalculator(plan: plan, options: costOptions).price(sessions)
        let analysis = Analysis(
            input: .init(
                files: read.files, records: calls.count, rejected: read.rejected, outsideWindow: read.outsideWindow,
                byAPI: byAPI.keys.sorted().map { ($0, byAPI[$0]!) }, usedSampleLogs: usedSampleLogs
            ),
            sessionOptions: options.sessions,
            sessions: sessions,
            statistics: SearchStatistics(sessions.searches),
            detailsNeed: detailsNeed,
            timeoutSensitivity: sensitivity,
            pricing: pricing,
            pricingChoice: plan.summary
        )
        return (analysis, read)
    }
}
