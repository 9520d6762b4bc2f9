import Foundation

/// `placescost analyze [PATH|-]... [options]`: logs -> sessions -> searches -> report.
struct AnalyzeCommand {
    /// The options only `analyze` takes; the rest are `AnalysisOptionsParser`'s.
    enum Key {
        static let report = CommandOption(
            "report", choices: ReportBundle.Format.allCases.map(\.rawValue),
            help: "What to print on standard output: the Markdown report (default), costs.csv, or report.json. With --out, nothing is printed unless --report or --json is given. On a terminal, without --report, a summary that fits the screen is printed instead (with --out too)."
        )
        static let json = CommandOption.reportJSON
        static let out = CommandOption(
            "out", short: "o", value: "DIR", completion: .directories,
            help: "Write report.md, report.html, report.json, searches.csv, costs.csv and the charts/ the Markdown links to into DIR (created if needed)."
        )
        static let sessionTimeout = CommandOption(
            "session-timeout", value: "SECONDS",
            help: "A session with no selection this long after its first call is billed as abandoned (default 180; Google says \"a few minutes\")."
        )
        static let userGap = CommandOption(
            "user-gap", value: "SECONDS", help: "Token-less calls of one user at most this far apart form one search (default 60)."
        )
        static let needsDetails = CommandOption(
            "needs-details", choices: ["auto", "yes", "no"],
            help: "Whether the app needs Place Details, or only address and location: auto (default) reads it from the field masks in the log."
        )
        static let delays = CommandOption(
            "delays", value: "K,...",
            help: "Delays to price, in characters typed before the first request (default 1,2,3,4,5,6; 1..--max-delay are always included)."
        )
        static let maxDelay = CommandOption.maxDelay
        static let by = CommandOption(
            "by", choices: GroupDimension.allCases.map(\.rawValue),
            help: "Add a table of calls, searches, anomalies and bill per project, platform, API generation or day (in --timezone) to the reports; groups add up exactly to the totals. With day, charts of calls and cost per search per day too."
        )
        static let timestamp = CommandOption(
            "timestamp", help: "Put the time the report was made in it (reports otherwise hold no wall-clock time: the same input gives the same bytes)."
        )
    }

    /// What it writes first, then the options it shares with `reconcile`, then how it analyzes.
    static let table = OptionTable(
        command: "analyze", arguments: .init("[PATH|-]...", completion: .files),
        options: [Key.report, Key.json, Key.out, TerminalOutput.option] + AnalysisOptionsParser.options
            + [Key.sessionTimeout, Key.userGap, Key.needsDetails, Key.delays, Key.maxDelay, Key.by, Key.timestamp]
    )

    static let usage = table.usage

    /// `--session-timeout` and `--user-gap` as every command that analyzes a log takes them.
    static func sessionOptions(_ parsed: ArgumentScanner.Parsed, _ values: OptionValues) throws -> SessionOptions {
        SessionOptions(
            timeoutSeconds: try values.seconds(parsed[Key.sessionTimeout], option: "--session-timeout") ?? SessionOptions.defaultTimeoutSeconds,
            userGapSeconds: try values.seconds(parsed[Key.userGap], option: "--user-gap") ?? SessionOptions.defaultUserGapSeconds
        )
    }

    static let help = HelpPage(
        intro: """
        placescost analyze: read request logs, group the calls into searches, price every strategy and
        recommend the cheapest way to bill them.
        """,
        arguments: [(
            "PATH",
            """
            A log file, a directory (its .jsonl/.ndjson/.json/.csv/.log/.txt/.har/_log files, by name, \
            and rotated ones such as access.log.1, access.log.2.gz and access.log-20261001.gz, oldest \
            first), or - for standard \
            input. Several may be given. Canonical logs, access logs and HAR captures may be mixed; \
            gzip input is decompressed (told from its content, through the system's zlib). With none, \
            the bundled SampleLogs/ are analyzed. Standard input, pipes and FIFOs are copied to a \
            temporary file in $TMPDIR (removed at once) so they can be read twice, with a note saying so.
            """
        )]
    )

    let arguments: [String]
    let context: CommandContext

    func run() throws -> ExitCode {
        let parsed = try ArgumentScanner(AnalyzeCommand.table).scan(arguments)
        let shared = AnalysisOptionsParser(usage: AnalyzeCommand.usage)
        var options = Analyzer.Options()
        try shared.apply(parsed, to: &options)
        options.temporaryDirectory = context.temporaryDirectory
        options.reader.zlibLibrary = context.zlibLibrary
        let values = OptionValues(usage: AnalyzeCommand.usage)
        options.sessions = try AnalyzeCommand.sessionOptions(parsed, values)
        options.needsDetails = try values.yesNoAuto(parsed[Key.needsDetails], option: "--needs-details")
        let maxDelay = try values.wholeNumber(parsed[Key.maxDelay], option: "--max-delay", range: 0...100) ?? 4
        let delays = try values.delays(parsed[Key.delays]) ?? Array(1...6)
        options.costs.delays = delays
        options.maxDelay = maxDelay
        options.groupBy = parsed[Key.by].flatMap(GroupDimension.init(rawValue:))
        let report: ReportBundle.Format?
        if parsed.has(Key.json) {
            report = .json
        } else if let value = parsed[Key.report] {
            guard let format = ReportBundle.Format(rawValue: value) else {
                throw usageError("--report takes md, csv or json, not `\(value)`.")
            }
            report = format
        } else {
            report = parsed[Key.out] == nil ? .md : nil
        }
        let terminal = TerminalOutput(context: context, color: parsed[TerminalOutput.option])
        // On a terminal, without --report or --json: the summary that fits the screen.
        let summary = terminal.isTerminal && !parsed.has(Key.json) && parsed[Key.report] == nil
        let out = try shared.outDirectory(parsed[Key.out], context: context)
        let quiet = parsed.has(AnalysisOptionsParser.Key.quiet)
        let (paths, usedSampleLogs) = try shared.inputPaths(parsed, context: context, verb: "analyzing")

        if out != nil {
            // Made before the walks, which pseudonymize each search's token and user as it ends.
            let (key, source) = try PseudonymKeyStore(environment: context.environment).key()
            options.searchRows = SearchRowOptions(pseudonymizer: Pseudonymizer(key: key), directory: context.temporaryDirectory)
            if !quiet { PseudonymKeyStore.note(source, context: context) }
        }
        let progress = shared.progressReporter(parsed, paths: paths, writingOut: out != nil, context: context)
        if let progress {
            options.progress = { @Sendable bytes in progress.update(bytes) }
        }
        defer { progress?.finish() }
        // With --out, searches.csv is written into the staging folder from the moment the walks
        // are done, while the searches are priced; the staging is undone if the analysis fails.
        let staging = try out.map { try ReportDirectoryWriter(directory: $0.path, replaces: ReportBundle.anyPaths).begin() }
        if let staging {
            // The rows are written into it while the log is read, and checked once it is.
            options.speculatedSearchesPath = try staging.stagedPath(of: ReportBundle.searchesPath)
            options.rowsReady = { rows in
                progress?.beginWriting(rows: rows.count)
                staging.start(ReportBundle.searchesFile(rows) { rows, bytes in progress?.wrote(rows: rows, bytes: bytes) })
            }
        }
        var (analysis, read) = try Analyzer(options: options).analyze(paths: paths, usedSampleLogs: usedSampleLogs)
        if parsed.has(Key.timestamp) { analysis.generatedAt = Timestamp(epochMilliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded())) }
        progress?.finish()
        shared.reportDiagnostics(read, parsed: parsed, context: context)
        shared.noteTypedText(records: read.typedTextRecords, files: read.typedTextFiles, parsed: parsed, context: context)
        let bundle = ReportBundle()
        if let out, let staging {
            let files = bundle.reportFiles(analysis)
            try staging.commit(files)
            progress?.finish()
            if !quiet { context.note("wrote \(ReportBundle.paths(files).joined(separator: ", ")) to \(out.shown).") }
        }
        if summary {
            context.standardOutput.write(TerminalSummaryRenderer(text: terminal.text, outDirectory: out?.shown).render(analysis))
        } else if let report {
            context.standardOutput.write(bundle.render(analysis, as: report))
        }
        return .success
    }

    private func usageError(_ message: String) -> CLIError {
        .usage(message: message, usage: AnalyzeCommand.usage)
    }
}
