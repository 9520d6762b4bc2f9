import Foundation

/// `placescost simulate --from FILE`: measured traffic priced at another volume, month by month
/// (`Forecast`). A log is analyzed as `analyze` would and read back through its `report.json`, so
/// a log and its report give the same answer.
struct ForecastCommand {
    typealias Key = SimulateCommand.Key

    /// Options that describe typed traffic, which `--from` measures instead.
    static let averagesOnly = [Key.requests, Key.chars, Key.delay, Key.completionRate, Key.fields, Key.needsDetails]
    /// Options that say how a log is read, grouped and priced into a report: `--from LOG` takes
    /// them as `analyze` does; a report.json was made with its own (`assumptions`).
    static let logOnly = SimulateCommand.logOptions + [Key.delays, Key.maxDelay]
    /// The largest monthly growth taken, in percent (ten-fold a month).
    static let maxGrowthPercent = 1000.0

    let parsed: ArgumentScanner.Parsed
    let input: String
    let context: CommandContext

    func run() throws -> ExitCode {
        let values = OptionValues(usage: SimulateCommand.usage)
        for option in ForecastCommand.averagesOnly where parsed[option] != nil {
            throw values.error("--\(option.name) describes typed traffic; --from measures it from the log. Give one of them.")
        }
        guard !input.isEmpty else { throw values.error("--from takes a report.json or a log.") }
        let searches = try values.number(parsed[Key.searches], option: "--searches", range: 0.000_001...Forecast.maxSearches)
        let months = try values.wholeNumber(parsed[Key.months], option: "--months", range: 1...120)
        let growth = try values.number(
            parsed[Key.growth], option: "--growth", range: -100...ForecastCommand.maxGrowthPercent, meaning: "a percentage a month"
        )
        var start: Int?
        if let value = parsed[Key.start] {
            guard let index = Forecast.monthIndex(value), (1...9999).contains(index / 12) else {
                throw values.error("--start takes a month as YYYY-MM, such as 2025-03, not `\(value)`.")
            }
            start = index
        }
        let out = try AnalysisOptionsParser(usage: SimulateCommand.usage).outDirectory(parsed[Key.out], context: context)
        let pinned = try parsed[Key.pricing].map { try PriceTableLoader().load($0) }
        let bundled = Dictionary(uniqueKeysWithValues: try PriceTableLoader().bundled().map { ($0.id, $0) })

        let profile = try self.profile()
        if let scenarioFile = parsed[Key.scenario] {
            guard !scenarioFile.isEmpty else { throw values.error("--scenario takes a JSON file of scenarios.") }
            let path = scenarioFile.hasPrefix("/") ? scenarioFile : context.workingDirectory + "/" + scenarioFile
            let file = try ScenarioFile.read(path: path, shownAs: scenarioFile)
            let defaults = ScenarioComparison.Defaults(
                searches: searches, growthPercent: growth, months: months, start: start, pricing: pinned
            )
            let priced = try ScenarioComparison(profile: profile, bundled: bundled, defaults: defaults).run(file, shownAs: scenarioFile) {
                try PriceTableLoader().load(ScenarioFile.tableArgument($0, scenarioFile: path))
            }
            for entry in priced {
                guard case .projected(let first, let count, let rate, _) = entry.forecast.volume else { continue }
                if first * pow(1 + rate / 100, Double(count - 1)) > Forecast.maxSearches {
                    throw ForecastError.invalidScenarios(file: scenarioFile, reason: "the scenario \"\(entry.scenario.name)\" passes \(Money.plain(Forecast.maxSearches)) searches a month")
                }
            }
            try write(
                markdown: { ScenarioRenderer().markdown(priced, source: input, brief: $0) }, json: { ScenarioRenderer().json(priced, source: input) },
                files: { ScenarioRenderer().files(priced, source: input) }, out: out
            )
            return .success
        }
        let volume: Forecast.Volume
        if searches == nil, months == nil, growth == nil, start == nil {
            volume = .measured
        } else {
            let first = searches ?? profile.searchesPerMonth
            let count = months ?? 1
            let rate = growth ?? 0
            let last = first * pow(1 + rate / 100, Double(count - 1))
            guard last <= Forecast.maxSearches else {
                throw values.error("with --growth \(Money.plain(rate)) the volume passes \(Money.plain(Forecast.maxSearches)) searches a month before month \(count); give fewer --months or a smaller --growth.")
            }
            let after = profile.months.last.flatMap(Forecast.monthIndex).map { $0 + 1 } ?? PricingPlan.march2025
            volume = .projected(searches: first, months: count, growthPercent: rate, start: start ?? after)
        }
        let result = try Forecast(profile: profile, pinned: pinned, bundled: bundled, volume: volume).run()

        let renderer = ForecastRenderer()
        try write(
            markdown: { renderer.markdown(result, source: input, brief: $0) }, json: { renderer.json(result, source: input) },
            files: { renderer.files(result, source: input) }, out: out
        )
        return .success
    }

    /// Writes `--out`'s files, then standard output: JSON with `--json`, the Markdown with
    /// `--report md` or without `--out` (the brief form on a terminal).
    private func write(
        markdown: (_ brief: Bool) -> String, json: () -> JSONValue, files: () -> [(path: String, contents: String)],
        out: (shown: String, path: String)?
    ) throws {
        if let out {
            let files = files()
            // One simulate report replaces the other: `simulation.*` and `scenarios.*` side by
            // side would be of two runs.
            try ReportDirectoryWriter(directory: out.path, replaces: ForecastRenderer.paths + ScenarioRenderer.paths).write(files)
            if !parsed.has(Key.quiet) { context.note("wrote \(files.map(\.path).joined(separator: ", ")) to \(out.shown).") }
        }
        let terminal = TerminalOutput(context: context, color: parsed[TerminalOutput.option])
        if parsed.has(Key.json) || parsed[Key.report] == "json" {
            context.standardOutput.write(json().rendered())
        } else if parsed[Key.report] == "md" || out == nil {
            if terminal.isTerminal, parsed[Key.report] == nil {
                context.standardOutput.write(terminal.text.document(markdown(true)))
            } else {
                context.standardOutput.write(markdown(false))
            }
        }
    }

    /// The traffic of `--from`: a `report.json` read as it is, or logs (`--from LOG` and any more
    /// given as arguments) analyzed as `analyze` would with the same reading and grouping options
    /// (`SimulateCommand.logOptions`, `--delays`, `--max-delay`), and read back through the
    /// report `analyze --json` prints for it.
    private func profile() throws -> TrafficProfile {
        let path = context.path(of: input)
        let isReport: Bool
        do {
            isReport = try input != "-" && ReportDocument.read(path: path, shownAs: input) != nil
        } catch CompareError.notAReport(let file, let schema) {
            throw ForecastError.notAReport(file: file, schema: schema)
        }
        let more = parsed.positionals
        if isReport {
            if let option = ForecastCommand.logOnly.first(where: parsed.given) {
                throw OptionValues(usage: SimulateCommand.usage).error(
                    "--\(option.name) says how a log is read; \(input) is a report.json, read with the options it records: give the log, or leave --\(option.name) out."
                )
            }
            guard more.isEmpty else {
                throw OptionValues(usage: SimulateCommand.usage).error("--from \(input) is a report.json; more logs (`\(more[0])`) go with a log: --from LOG LOG...")
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw IngestError.unreadable(path: input, reason: "the file cannot be read")
            }
            return try TrafficProfile.decode(data, file: input)
        }
        let shared = AnalysisOptionsParser(usage: SimulateCommand.usage)
        let values = OptionValues(usage: SimulateCommand.usage)
        var options = Analyzer.Options()
        try shared.apply(parsed, to: &options)
        // Billed by `Forecast`: the log's own tables, then --pricing's (so a log and its
        // report.json give the same simulation).
        options.pricing = nil
        options.temporaryDirectory = context.temporaryDirectory
        options.reader.zlibLibrary = context.zlibLibrary
        options.sessions = try AnalyzeCommand.sessionOptions(parsed, values)
        options.maxDelay = try values.wholeNumber(parsed[Key.maxDelay], option: "--max-delay", range: 0...100) ?? 4
        options.costs.delays = try values.delays(parsed[Key.delays]) ?? Array(1...6)
        let paths = [path] + more.map(context.path(of:))
        let progress = shared.progressReporter(parsed, paths: paths, writingOut: false, context: context)
        if let progress {
            options.progress = { @Sendable bytes in progress.update(bytes) }
        }
        defer { progress?.finish() }
        let (analysis, read) = try Analyzer(options: options).analyze(paths: paths)
        progress?.finish()
        shared.reportDiagnostics(read, parsed: parsed, context: context)
        return try TrafficProfile.decode(Data(JSONReportRenderer().render(analysis).utf8), file: input)
    }
}
