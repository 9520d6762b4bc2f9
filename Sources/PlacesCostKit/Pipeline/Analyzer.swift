import Foundation

/// Runs the pipeline for `analyze`: Ingest -> Sessions -> statistics.
struct Analyzer: Sendable {
    struct Options: Sendable {
        var reader = LogReader.Options()
        var sessions = SessionOptions()
        /// `--needs-details yes|no`; `nil` measures it from the log.
        var needsDetails: Bool?
        /// `--pricing ID|FILE`; `nil` chooses per month and API generation.
        var pricing: String?
        var costs = CostCalculator.Options()
        /// `--max-delay`: the largest delay the recommendation may choose.
        var maxDelay = 4
        /// `--threads`: workers that parse and build sessions (the report is the same for any number).
        var threads = ProcessInfo.processInfo.activeProcessorCount
        /// How far out of time order calls may arrive and still be walked as they stream by
        /// (`--reorder-window`, seconds); a log more out of order is read again with a window
        /// that covers it.
        var reorderWindowSeconds = 600.0
        /// Keep every search whole (`SearchSummary.keptSearches`; memory then grows with the
        /// searches): for the tests' comparisons.
        var keepSearches = false
        /// Make every search a `searches.csv` row (`Analysis.searchRows`), in bounded memory.
        var searchRows: SearchRowOptions?
        /// Where `searches.csv` is written while the log is read, from the rows the walks publish as
        /// they spill them (`SearchesCSVSpeculator`); the writer after the walks keeps what proves
        /// true (`--out`'s staging). `nil` writes it only after the walks.
        var speculatedSearchesPath: String?
        /// Write during the walk every row published, however far behind the writing is when the
        /// walks end, taking the publications one at a time (tests: with one walk, the same rows
        /// written in the same steps however the threads ran).
        var speculationDrains = false
        /// Called with the rows as soon as the walks are done and before the searches are priced,
        /// so `searches.csv` can be written while they are (`--out`).
        var rowsReady: (@Sendable (SearchRows) -> Void)?
        /// Called with the bytes read so far, from the reading thread.
        var progress: (@Sendable (Int) -> Void)?
        /// JSON Lines block size and line limit: fixed in use; tests make them small to cut
        /// small logs into many blocks.
        var blockSize = 4 << 20
        var maxLineLength = LineReader.maxRecordLength
        /// New tokens a walk holds in full before moving finished ones to the compact set
        /// (`SessionStream.Options.compactAfter`); tests make it small.
        var compactAfter = SessionStream.Options.defaultCompactAfter
        /// Read CSV with the line reader on one thread (`CallPipeline.Options.readsCSVByLines`).
        var readsCSVByLines = false
        /// Where inputs that cannot be read twice (standard input, pipes) are copied (`TMPDIR`).
        var temporaryDirectory = "/tmp"
        /// `--by`: the figures per group too (`Analysis.groups`); `nil` counts no group.
        var groupBy: GroupDimension?

        init() {}
    }

    /// The alternative timeouts the report compares against (`docs/sessions.md`).
    static let comparedTimeouts: [Double] = [60, 600]

    var options: Options

    private struct PlatformKey: Hashable {
        var platform: ClientPlatform
        var generation: APIGeneration
    }

    init(options: Options = Options()) {
        self.options = options
    }

    func analyze(paths: [String], usedSampleLogs: Bool = false) throws -> (Analysis, diagnostics: LogReader.Output) {
        let plan = try PricingPlan.load(options.pricing)
        var costOptions = options.costs
        // The recommendation may choose any delay up to --max-delay, so those are always priced.
        costOptions.delays = Array(Set(costOptions.delays + Array(0...options.maxDelay)).subtracting([0])).sorted()
        let clip = costOptions.delays.max() ?? 0
        let alternatives = Analyzer.comparedTimeouts.map { Duration64(seconds: $0) }.filter { $0 != options.sessions.timeout }
        let catalogs = CallCatalogs()
        var pipelineOptions = CallPipeline.Options(
            threads: max(1, options.threads), reader: options.reader,
            sessions: SessionStream.Options(
                timeout: options.sessions.timeout, alternativeTimeouts: alternatives, userGap: options.sessions.userGap,
                clip: clip, keepSearches: options.keepSearches, rows: options.searchRows,
                window: Duration64(seconds: options.reorderWindowSeconds).microseconds,
                dedupe: options.reader.dedupe, compactAfter: options.compactAfter, groupBy: options.groupBy
            ),
            calendar: BillingCalendar(timeZone: costOptions.timeZone, ruleStartDays: plan.ruleStartDays),
            progress: options.progress, blockSize: options.blockSize, maxLineLength: options.maxLineLength,
            readsCSVByLines: options.readsCSVByLines,
            // Inputs that cannot be read twice are copied as they are opened: the second read
            // below, when the first finds the log too far out of order, reads the copies.
            spool: InputSpool(directory: options.temporaryDirectory)
        )
        var speculator: SearchesCSVSpeculator?
        if let path = options.speculatedSearchesPath, pipelineOptions.sessions.rows != nil {
            let publications = RowPublications(
                partitions: pipelineOptions.threads, idleRunAge: pipelineOptions.sessions.longestWait, oneAtATime: options.speculationDrains
            )
            speculator = SearchesCSVSpeculator(path: path, publications: publications) { [costOptions] in
                ShapeDescriber(plan: plan, options: costOptions, catalogs: catalogs, clip: clip)
            }
            if speculator != nil { pipelineOptions.sessions.rows?.publications = publications }
        }
        // Listed once: a second read takes the same files.
        let files = try LogReader.expand(paths)
        var streamed: CallPipeline.Result
        do {
            streamed = try CallPipeline(options: pipelineOptions, catalogs: catalogs).run(files: files)
        } catch {
            _ = speculator?.finish()
            throw error
        }
        // Stopped before any spill file is closed: it reads them.
        var speculated = speculator?.finish(options.speculationDrains ? .drained : .now)
        let readTwiceFor = streamed.late ? streamed.disorder : nil
        if streamed.late {
            // An input read once as it came, its copy having failed, cannot be read again.
            if let failure = pipelineOptions.spool?.failed.first {
                for (store, _) in streamed.rows { store.close() }
                throw IngestError.readTwiceWithoutCopy(failure, disorder: streamed.disorder)
            }
            // More out of order than the window: read again with a window that covers the disorder
            // seen. What was written during the first read is written again.
            for (store, _) in streamed.rows { store.close() }
            speculated = speculated?.headerOnly
            pipelineOptions.sessions.window = streamed.disorder + 2_000_000
            pipelineOptions.sessions.rows?.publications = nil
            streamed = try CallPipeline(options: pipelineOptions, catalogs: catalogs).run(files: files)
        }
        // Owns the rows' spill files from here, whatever is thrown.
        let searchRows = options.searchRows == nil ? nil : SearchRows(stores: streamed.rows.map(\.store), threads: pipelineOptions.threads)
        searchRows?.speculated = speculated
        var read = streamed.read
        // Said of the user's logs when a day or more out of order (files of several servers named
        // one by one, a newest-first export): then the second read holds that much. Client
        // telemetry that arrives minutes late is read twice too, cheaply, without a word.
        read.readTwiceForDisorder = readTwiceFor.flatMap { usedSampleLogs || $0 < Analyzer.disorderNoted ? nil : $0 }
        read.spooled = pipelineOptions.spool?.copied ?? []
        read.spoolFailures = pipelineOptions.spool?.failed ?? []
        // The bundled samples' folders hold the same week in other forms (SampleLogs/README.md).
        (read.foldersNotRead, read.logsNotNamedAsLogs) = usedSampleLogs ? ([], []) : LogReader.unlisted(paths)
        guard streamed.tally.calls.records > 0 else {
            let inputs = paths.map { $0 == "-" ? "<stdin>" : $0 }
            if read.outsideWindow > 0 {
                throw IngestError.noCallInPeriod(inputs: inputs, calls: read.outsideWindow, span: read.outsidePeriod, period: options.reader.window)
            }
            if read.skippedRequests > 0 {
                let hosts = RequestHosts.most(read.hosts.skipped, 5).map { "\($0.host) (\(Money.count($0.requests)))" }
                let prefixes = read.hosts.prefixes.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map(\.key)
                throw IngestError.noPlacesCall(inputs: inputs, requests: read.skippedRequests, rejected: read.rejected, hostsSeen: hosts, prefixes: prefixes)
            }
            throw IngestError.noRecords(inputs: inputs, problems: Analyzer.whyNothingWasRead(paths, read))
        }
        read.calls = []
        // Priced when the rows are written, on the writer's threads: a calculator per walk (its
        // pricers' cache is not shared between threads).
        let walkShapes = streamed.rows.map(\.shapes)
        let periodTimes = streamed.tally.periodTimes
        let rowOptions = costOptions
        searchRows?.describeShapes = { walk in
            let describer = ShapeDescriber(plan: plan, options: rowOptions, catalogs: catalogs, clip: clip)
            return walkShapes[walk].map { describer.figures($0, at: periodTimes[$0.period] ?? 0) }
        }
        if let searchRows { options.rowsReady?(searchRows) }
        // With --by the tally's shapes carry groups: the totals read them folded together.
        var tally = streamed.tally
        var groups: [String?: SearchTally.Group] = [:]
        let groupBuilder = options.groupBy.map {
            GroupBreakdownBuilder(dimension: $0, plan: plan, costOptions: costOptions, catalogs: catalogs, clip: clip)
        }
        if let groupBuilder { (tally, groups) = streamed.tally.separatingGroups(groupBuilder.name(of:)) }
        let sessions = SearchSummary(tally: tally, catalogs: catalogs, clip: clip, alternativeTimeouts: alternatives)
        read.unknownFields = Analyzer.unknownFields(sessions)
        var byPlatform: [PlatformKey: Int] = [:]
        for (key, count) in streamed.tally.calls.byPlatform {
            let platform = ClientPlatform(logValue: catalogs.labels.value(key.platform))
            byPlatform[PlatformKey(platform: platform, generation: key.generation ?? .legacy), default: 0] += count
        }
        let platforms = byPlatform
            .map { PlatformUse(platform: $0.key.platform, generation: $0.key.generation, calls: $0.value) }
            .sorted { ($1.calls, $0.platform.rawValue, $0.generation.rawValue) < ($0.calls, $1.platform.rawValue, $1.generation.rawValue) }
        let sensitivity = sessions.alternatives.map {
            Analysis.TimeoutSensitivity(timeoutSeconds: Double($0.timeout.microseconds) / 1_000_000, expired: $0.expired, searches: $0.searches)
        }
        let detailsNeed = DetailsNeed(weighted: sessions.searches, override: options.needsDetails)
        costOptions.needsDetails = detailsNeed.needsDetails
        let calculator = CostCalculator(plan: plan, options: costOptions)
        let pricing = calculator.price(sessions)
        let statistics = SearchStatistics(weighted: sessions.searches)
        var evidence = Recommendation.Evidence(
            needsDetails: detailsNeed,
            meanRequests: Dictionary(uniqueKeysWithValues: (0...options.maxDelay).map { ($0, SearchStatistics.meanRequests(weighted: sessions.searches, delay: $0)) }),
            breakEvenRequests: pricing.breakEvenRequests, tableID: pricing.primaryTable.id, maxDelay: options.maxDelay,
            searches: statistics.total, completed: statistics.completed, abandoned: statistics.abandoned
        )
        evidence.otherGeneration = pricing.otherGeneration.map {
            Recommendation.OtherGeneration(tableID: $0.table.id, breakEvenRequests: $0.breakEvenRequests, share: $0.share)
        }
        let recommendation = Advisor().recommend(
            evidence: evidence, pricing: pricing, anomalies: AnomalyPricer(calculator: calculator).price(sessions), platforms: platforms
        )
        var builder = groupBuilder
        builder?.costOptions = costOptions
        let breakdown = builder?.build(groups: groups, pricing: pricing, strategy: recommendation.strategy, delay: recommendation.delay)
        var analysis = Analysis(
            input: .init(
                files: read.files, records: streamed.tally.calls.records, rejected: read.rejected, outsideWindow: read.outsideWindow,
                skippedRequests: read.skippedRequests, unbilled: read.unbilled, bodiesUnknown: read.bodiesUnknown,
                duplicates: read.duplicates, duplicatesDropped: read.duplicatesDropped,
                byAPI: sessions.unknownAPIs.folding(streamed.tally.calls.byAPI(labels: catalogs.labels)).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, usedSampleLogs: usedSampleLogs,
                platforms: platforms, firstCall: streamed.firstCall.map(Timestamp.init(microseconds:)),
                lastCall: streamed.lastCall.map(Timestamp.init(microseconds:))
            ),
            sessionOptions: options.sessions,
            sessions: sessions,
            statistics: statistics,
            detailsNeed: detailsNeed,
            timeoutSensitivity: sensitivity,
            pricing: pricing,
            pricingChoice: plan.summary,
            searchListCosts: sessions.keptSearches.map { calculator.listCost(of: $0) },
            searchRows: searchRows,
            recommendation: recommendation
        )
        analysis.groups = breakdown
        return (analysis, read)
    }

    /// The disorder, in microseconds, from which a second read is noted: a day.
    static let disorderNoted: Int64 = 86_400_000_000

    /// The `--reorder-window`, in whole minutes of seconds, under which a log whose calls came
    /// `disorder` microseconds out of time order is read once: the window covers the disorder.
    package static func singleReadWindow(disorder: Int64) -> Int {
        Int((Double(disorder) / 60_000_000).rounded(.up)) * 60
    }

    /// The field names of Place Details masks the catalog does not know, with how many details
    /// calls named each, most first: they are billed as the categories of most unlisted fields,
    /// and a note asks the user to check their spelling.
    static func unknownFields(_ sessions: SearchSummary) -> [(name: String, calls: Int)] {
        var calls: [String: Int] = [:]
        func note(_ fields: [String]?, _ count: Int) {
            for name in Set(fields ?? []) where name != "*" && FieldCatalog.lookup(name) == nil { calls[name, default: 0] += count }
        }
        for entry in sessions.searches where entry.search.selection?.api == .placeDetails {
            note(entry.search.selection?.fields, entry.count)
        }
        for entry in sessions.baseCalls where entry.call.api == .placeDetails {
            note(entry.call.fields, entry.count)
        }
        return calls.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { (name: $0.key, calls: $0.value) }
    }

    /// What was skipped when no record was read: the first warnings (file and reason) and the
    /// entries of the directories given that are not log files by their names.
    static func whyNothingWasRead(_ paths: [String], _ read: LogReader.Output) -> [String] {
        var problems = (read.fileWarnings + read.diagnostics).prefix(3).map { "\($0.location): \($0.reason)" }
        for path in paths {
            guard let names = LogReader.entries(ofDirectory: path) else { continue }
            let base = path.hasSuffix("/") ? path : path + "/"
            // Listed once, by `analyze`: the folders among this directory's entries.
            let folders = Set(read.foldersNotRead.filter { $0.hasPrefix(base) && !$0.dropFirst(base.count).contains("/") })
            let skipped = names.filter { !$0.hasPrefix(".") && RotatedLogName($0) == nil && !folders.contains(base + $0) }.sorted()
            if skipped.isEmpty, folders.isEmpty {
                if names.allSatisfy({ $0.hasPrefix(".") }) { problems.append("\(path) holds no file") }
                continue
            }
            func listed(_ names: [String]) -> String {
                names.prefix(5).joined(separator: ", ") + (names.count > 5 ? " and \(names.count - 5) more" : "")
            }
            if !skipped.isEmpty {
                problems.append("in \(path), \(listed(skipped)) \(skipped.count == 1 ? "was" : "were") skipped: not a log file's name (.jsonl, .ndjson, .json, .csv, .log, .txt, .har or _log, maybe rotated, numbered or dated, or .gz)")
            }
            if !folders.isEmpty {
                problems.append("\(LogReader.listedFolders(folders.sorted())) \(folders.count == 1 ? "is a folder" : "are folders") inside \(path), and folders inside a folder are not searched: name \(folders.count == 1 ? "it" : "them") as inputs")
            }
        }
        return problems
    }
}
