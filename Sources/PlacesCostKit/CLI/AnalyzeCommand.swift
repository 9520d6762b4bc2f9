/// `placescost analyze [PATH|-]... [options]`: logs -> sessions -> searches -> report.
struct AnalyzeCommand {
    static let usage = "placescost analyze [PATH|-]... [--format auto|jsonl|csv|access-log|har] [--log-format STRING] [--report md|csv|json] [--json] [--out DIR] [--session-timeout SECONDS] [--user-gap SECONDS] [--needs-details auto|yes|no] [--pricing ID|FILE] [--delays K,...] [--max-delay K] [--since DATE] [--until DATE] [--timezone TZ] [--scale X] [--strict] [--quiet]"

    static let help = """
    placescost analyze: read request logs, group the calls into searches, price every strategy and
    recommend the cheapest way to bill them.

    USAGE
      \(usage)

    ARGUMENTS
      PATH                     A log file, a directory (its .jsonl/.ndjson/.json/.csv/.log/.txt
                               files, by name), or - for standard input. Several may be given.
                               With none, the bundled SampleLogs/ are analyzed.

    OPTIONS
      --format FORMAT          auto (default: told from each file's content), jsonl, csv,
                               access-log (nginx/Apache combined or common) or har.
      --log-format STRING      The nginx log_format of an access log, e.g.
                               '$remote_addr - $remote_user [$time_local] "$request" $status'.
      --report md|csv|json     What to print on standard output: the Markdown report (default),
                               costs.csv, or report.json. With --out, nothing is printed unless
                               --report or --json is given.
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
      --quiet                  Print no warnings or notes on standard error (errors still).
      -h, --help               Show this help.

    """

    static let scanner = ArgumentScanner(options: [
        .init("format", value: "FORMAT"), .init("log-format", value: "STRING"), .init("report", value: "md|csv|json"), .init("json"), .init("out", value: "DIR"),
        .init("session-timeout", value: "SECONDS"), .init("user-gap", value: "SECONDS"),
        .init("needs-details", value: "auto|yes|no"), .init("since", value: "DATE"), .init("until", value: "DATE"),
        .init("pricing", value: "ID|FILE"), .init("delays", value: "K,..."), .init("max-delay", value: "K"),
        .init("timezone", value: "TZ"), .init("scale", value: "X"),
        .init("strict"), .init("quiet"), .init("help"),
    ], usage: usage)

    let arguments: [String]
    let context: CommandContext

    func run() throws -> ExitCode {
        if arguments.contains("-h") || arguments.contains("--help") {
            context.standardOutput.write(AnalyzeCommand.help)
            return .success
        }
        let parsed = try AnalyzeCommand.scanner.scan(arguments)
        var options = Analyzer.Options()
        options.reader.strict = parsed.has("strict")
        options.reader.format = try parseFormat(parsed["format"])
        if let logFormat = parsed["log-format"] {
            do {
                options.reader.logFormat = try AccessLogFormat(logFormat)
            } catch {
                throw usageError("--log-format: \(error)")
            }
        }
        options.reader.window = TimeWindow(
            start: try parsed["since"].map { try parseDate($0, option: "--since", endOfDay: false) },
            end: try parsed["until"].map { try parseDate($0, option: "--until", endOfDay: true) }
        )
        options.sessions = SessionOptions(
            timeoutSeconds: try parseSeconds(parsed["session-timeout"], option: "--session-timeout") ?? SessionOptions.defaultTimeoutSeconds,
            userGapSeconds: try parseSeconds(parsed["user-gap"], option: "--user-gap") ?? SessionOptions.defaultUserGapSeconds
        )
        let values = OptionValues(usage: AnalyzeCommand.usage)
        options.needsDetails = try values.yesNoAuto(parsed["needs-details"], option: "--needs-details")
        options.pricing = parsed["pricing"]
        let maxDelay = try values.wholeNumber(parsed["max-delay"], option: "--max-delay", range: 0...100) ?? 4
        let delays = try values.delays(parsed["delays"]) ?? Array(1...6)
        options.costs.delays = delays
        options.maxDelay = maxDelay
        options.costs.timeZone = try values.timeZone(parsed["timezone"]) ?? options.costs.timeZone
        options.costs.scale = try values.positive(parsed["scale"], option: "--scale") ?? 1
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
        let out = parsed["out"]
        if out?.isEmpty == true { throw usageError("--out takes a directory.") }
        let quiet = parsed.has("quiet")

        var paths = parsed.positionals
        let usedSampleLogs = paths.isEmpty
        if usedSampleLogs {
            guard let sample = SampleLogsLocator().locate(workingDirectory: context.workingDirectory, executablePath: context.executablePath) else {
                throw CLIError.sampleLogsNotFound
            }
            paths = [sample]
            if !quiet { context.note("no input given: analyzing the bundled sample logs in \(sample) (pass a path to analyze your own).") }
        }

        let (analysis, read) = try Analyzer(options: options).analyze(paths: paths, usedSampleLogs: usedSampleLogs)
        if !quiet {
            for diagnostic in read.diagnostics {
                context.standardError.write("\(diagnostic)\n")
            }
            if read.bodiesUnknown > 0 {
                context.note("\(read.bodiesUnknown) Places API (New) calls in access logs carry their session token and input in a body the log does not show: they count as autocomplete calls without a token. A HAR capture shows the bodies.")
            }
            let unshown = read.diagnosticCount - read.diagnostics.count
            if unshown > 0 {
                context.standardError.write("placescost: warning: \(unshown) more malformed records or problems not shown (\(read.diagnosticCount) in all).\n")
            }
        }
        let bundle = ReportBundle()
        if let out {
            let directory = out.hasPrefix("/") ? out : context.workingDirectory + "/" + out
            let files = bundle.files(analysis)
            try ReportDirectoryWriter(directory: directory).write(files)
            if !quiet { context.note("wrote \(files.map(\.path).joined(separator: ", ")) to \(out).") }
        }
        if let report {
            context.standardOutput.write(bundle.render(analysis, as: report))
        }
        return .success
    }

    private func usageError(_ message: String) -> CLIError {
        .usage(message: message, usage: AnalyzeCommand.usage)
    }

    private func parseFormat(_ value: String?) throws -> InputFormat? {
        guard let value, value != "auto" else { return nil }
        guard let format = InputFormat(rawValue: value) else {
            throw usageError("--format takes auto, jsonl, csv, access-log or har, not `\(value)`.")
        }
        return format
    }

    private func parseSeconds(_ value: String?, option: String) throws -> Double? {
        guard let value else { return nil }
        guard let seconds = Double(value), seconds.isFinite, seconds > 0 else {
            throw usageError("\(option) takes a positive number of seconds, not `\(value)`.")
        }
        return seconds
    }

    /// A `YYYY-MM-DD` date (UTC midnight; with `endOfDay`, the next midnight) or an RFC 3339 time.
    private func parseDate(_ value: String, option: String, endOfDay: Bool) throws -> Timestamp {
        let parts = value.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 3, parts[0].count == 4, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
           (1...12).contains(month), (1...CivilDate.daysInMonth(year: year, month: month)).contains(day) {
            let days = CivilDate.daysSinceEpoch(year: year, month: month, day: day) + (endOfDay ? 1 : 0)
            return Timestamp(microseconds: Int64(days) * 86_400 * 1_000_000)
        }
        guard case .success(let time) = TimestampParser.parse(value) else {
            throw usageError("\(option) takes a date (2026-10-01) or an RFC 3339 time, not `\(value)`.")
        }
        return time
    }
}
