import Foundation

/// `placescost analyze [PATH|-]... [options]`: logs -> sessions -> searches -> report.
struct AnalyzeCommand {
    static let usage = "placescost analyze [PATH|-]... [--format auto|jsonl|csv|access-log|har] [--log-format STRING] [--route PATH=API]... [--strip-prefix PATH]... [--user-header NAME] [--report md|csv|json] [--json] [--out DIR] [--session-timeout SECONDS] [--user-gap SECONDS] [--needs-details auto|yes|no] [--pricing ID|FILE] [--delays K,...] [--max-delay K] [--since DATE] [--until DATE] [--timezone TZ] [--scale X] [--strict] [--dedupe] [--timestamp] [--color auto|always|never] [--quiet] [--threads N] [--no-progress] [--reorder-window SECONDS]"

    static let help = """
    placescost analyze: read request logs, group the calls into searches, price every strategy and
    recommend the cheapest way to bill them.

    USAGE
      \(usage)

    ARGUMENTS
      PATH                     A log file, a directory (its .jsonl/.ndjson/.json/.csv/.log/.txt/
                               .har files, by name, and rotated ones such as access.log.1 and
                               access.log.2.gz, oldest first), or - for standard input. Several
                               may be given. Canonical logs, access logs and HAR captures may be
                               mixed; gzip input is decompressed (told from its content, through
                               the system's zlib). With none, the bundled SampleLogs/ are
                               analyzed. Standard input, pipes and FIFOs are copied to a
                               temporary file in $TMPDIR (removed at once) so they can be read
                               twice, with a note saying so.

    OPTIONS
      --format FORMAT          auto (default: told from each file's content), jsonl, csv,
                               access-log (nginx/Apache combined or common) or har.
      --log-format STRING      The nginx log_format of an access log, e.g.
                               '$remote_addr - $remote_user [$time_local] "$request" $status'.
                               $http_x_goog_fieldmask, $request_body and any $http_NAME are read.
      --route PATH=API         Requests at a proxy's own PATH are calls of API (autocomplete,
                               place_details, geocoding, ...; API:new for Places API (New)),
                               e.g. --route /geo/suggest=autocomplete. May be repeated.
      --strip-prefix PATH      A prefix a proxy puts before Google's paths (/google). May be
                               repeated. Google's paths are read under any host without it.
      --user-header NAME       The request header that carries a user id (default X-User-Id),
                               in HAR captures and as $http_NAME in an access log.
      --report md|csv|json     What to print on standard output: the Markdown report (default),
                               costs.csv, or report.json. With --out, nothing is printed unless
                               --report or --json is given. On a terminal, without --report, a
                               summary that fits the screen is printed instead (with --out too).
      --color auto|always|never  Colour on a terminal (default auto: off with NO_COLOR set).
      --json                   Same as --report json.
      --out DIR                Write report.md, report.json, searches.csv, costs.csv and the
                               charts/ the Markdown links to into DIR (created if needed).
      --session-timeout SECS   A session with no selection this long after its first call is
                               billed as abandoned (default 180; Google says "a few minutes").
      --user-gap SECS          Token-less calls of one user at most this far apart form one
                               search (default 60).
      --needs-details MODE     auto (default: from the field masks in the log), yes or no.
      --pricing ID|FILE        A bundled price table (see `placescost pricing list`) or your own
                               JSON table of the same schema. Default: per month, the table in
                               force for the calls' API generation.
      --delays K,...           Delays to price, in characters typed before the first request
                               (default 1,2,3,4,5,6; 1..--max-delay are always included).
      --max-delay K            The largest delay the recommendation may choose (default 4).
      --timezone TZ            Calendar months for the bill are taken in this zone (default UTC).
      --scale X                Multiply volumes by X (a 10% sample: --scale 10).
      --since DATE             Only calls at or after DATE (YYYY-MM-DD, UTC, or RFC 3339).
      --until DATE             Only calls before the end of DATE (YYYY-MM-DD, inclusive) or
                               before an RFC 3339 time.
      --strict                 Stop at the first malformed record (exit 65) instead of
                               skipping it.
      --timestamp              Put the time the report was made in it (reports otherwise hold
                               no wall-clock time: the same input gives the same bytes).
      --dedupe                 Drop records that repeat an earlier record exactly (same time,
                               same content); without it they are counted, and reported.
      --quiet                  Print no warnings or notes on standard error (errors still).
      --threads N              Parse and build sessions on N threads (default: the cores).
                               The report is the same for any N.
      --no-progress            No progress line on standard error (shown only on a terminal,
                               for reads longer than a second).
      --reorder-window SECS    How far out of time order calls may be and still be walked as
                               they stream by (default 600). A log more out of order is read
                               a second time with a window that covers it: exact either way.
      -h, --help               Show this help.

    """

    static let scanner = ArgumentScanner(options: AnalysisOptionsParser.options + [
        .init("report", value: "md|csv|json"), .init("json"), .init("out", value: "DIR"),
        .init("session-timeout", value: "SECONDS"), .init("user-gap", value: "SECONDS"),
        .init("needs-details", value: "auto|yes|no"), .init("delays", value: "K,..."), .init("max-delay", value: "K"),
        .init("timestamp"), .init("color", value: "auto|always|never"),
        .init("help"),
    ], usage: usage)

    let arguments: [String]
    let context: CommandContext

    func run() throws -> ExitCode {
        if arguments.contains("-h") || arguments.contains("--help") {
            context.standardOutput.write(AnalyzeCommand.help)
            return .success
        }
        let parsed = try AnalyzeCommand.scanner.scan(arguments)
        let shared = AnalysisOptionsParser(usage: AnalyzeCommand.usage)
        var options = Analyzer.Options()
        try shared.apply(parsed, to: &options)
        options.temporaryDirectory = context.temporaryDirectory
        options.reader.zlibLibrary = context.zlibLibrary
        let values = OptionValues(usage: AnalyzeCommand.usage)
        options.sessions = SessionOptions(
            timeoutSeconds: try values.seconds(parsed["session-timeout"], option: "--session-timeout") ?? SessionOptions.defaultTimeoutSeconds,
            userGapSeconds: try values.seconds(parsed["user-gap"], option: "--user-gap") ?? SessionOptions.defaultUserGapSeconds
        )
        options.needsDetails = try values.yesNoAuto(parsed["needs-details"], option: "--needs-details")
        let maxDelay = try values.wholeNumber(parsed["max-delay"], option: "--max-delay", range: 0...100) ?? 4
        let delays = try values.delays(parsed["delays"]) ?? Array(1...6)
        options.costs.delays = delays
        options.maxDelay = maxDelay
        let report: ReportBundle.Format?
        if parsed.has("json") {
            report = .json
        } else if let value = parsed["report"] {
            guard let format = ReportBundle.Format(rawValue: value) else {
                throw usageError("--report takes md, csv or json, not `\(value)`.")
            }
            report = format
        } else {
            report = parsed["out"] == nil ? .md : nil
        }
        let terminal = try TerminalOutput(context: context, color: parsed["color"], usage: AnalyzeCommand.usage)
        // On a terminal, without --report or --json: the summary that fits the screen.
        let summary = terminal.isTerminal && !parsed.has("json") && parsed["report"] == nil
        let out = try shared.outDirectory(parsed, context: context)
        let quiet = parsed.has("quiet")
        let (paths, usedSampleLogs) = try shared.inputPaths(parsed, context: context, verb: "analyzing")

        if out != nil {
            // Made before the walks, which pseudonymize each search's token and user as it ends.
            let (key, source) = try PseudonymKeyStore(environment: context.environment).key()
            options.searchRows = SearchRowOptions(pseudonymizer: Pseudonymizer(key: key), directory: context.temporaryDirectory)
            if !quiet { PseudonymKeyStore.note(source, context: context) }
        }
        let progress = shared.progressReporter(parsed, paths: paths, context: context)
        if let progress {
            options.progress = { @Sendable bytes in progress.update(bytes) }
        }
        defer { progress?.finish() }
        var (analysis, read) = try Analyzer(options: options).analyze(paths: paths, usedSampleLogs: usedSampleLogs)
        if parsed.has("timestamp") { analysis.generatedAt = Timestamp(epochMilliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded())) }
        progress?.finish()
        shared.reportDiagnostics(read, parsed: parsed, context: context)
        let bundle = ReportBundle()
        if let out {
            progress?.beginWriting(rows: analysis.searchRows?.count ?? 0)
            let files = bundle.files(analysis) { rows, bytes in progress?.wrote(rows: rows, bytes: bytes) }
            try ReportDirectoryWriter(directory: out.path).write(files)
            progress?.finish()
            if !quiet { context.note("wrote \(files.map(\.path).joined(separator: ", ")) to \(out.shown).") }
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
