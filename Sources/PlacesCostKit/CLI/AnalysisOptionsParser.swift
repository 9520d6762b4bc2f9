/// The input and pricing options `analyze` and `reconcile` share, parsed in one place so the two
/// commands read the same logs the same way (`reconcile` must price exactly what `analyze` prices).
struct AnalysisOptionsParser {
    /// `--format`, `--log-format`, `--route`, `--strip-prefix`, `--user-header`, `--pricing`,
    /// `--since`, `--until`, `--timezone`, `--scale`, `--strict`, `--dedupe`, `--quiet`,
    /// `--threads`, `--no-progress`, `--reorder-window`.
    static let options: [ArgumentScanner.Option] = [
        .init("format", value: "FORMAT"), .init("log-format", value: "STRING"),
        .init("route", value: "PATH=API"), .init("strip-prefix", value: "PATH"), .init("user-header", value: "NAME"),
        .init("pricing", value: "ID|FILE"),
        .init("since", value: "DATE"), .init("until", value: "DATE"),
        .init("timezone", value: "TZ"), .init("scale", value: "X"),
        .init("strict"), .init("dedupe"), .init("quiet"), .init("threads", value: "N"), .init("no-progress"),
        .init("reorder-window", value: "SECONDS"),
    ]

    /// The command's usage line, shown with usage errors.
    let usage: String

    private var values: OptionValues { OptionValues(usage: usage) }

    private func usageError(_ message: String) -> CLIError {
        .usage(message: message, usage: usage)
    }

    /// Sets the reader, pricing, time zone and scale options from `parsed`.
    func apply(_ parsed: ArgumentScanner.Parsed, to options: inout Analyzer.Options) throws {
        options.reader.strict = parsed.has("strict")
        options.reader.dedupe = parsed.has("dedupe")
        options.reader.format = try parseFormat(parsed["format"])
        if let logFormat = parsed["log-format"] {
            do {
                options.reader.logFormat = try AccessLogFormat(logFormat)
            } catch {
                throw usageError("--log-format: \(error)")
            }
        }
        do {
            for route in parsed.all("route") { try options.reader.routes.addRoute(route) }
            for prefix in parsed.all("strip-prefix") { try options.reader.routes.addStrippedPrefix(prefix) }
        } catch {
            throw usageError("\(error)")
        }
        if let header = parsed["user-header"] {
            let name = header.trimmingSpaces().lowercased()
            guard !name.isEmpty, name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") }) else {
                throw usageError("--user-header takes a request header's name, such as X-User-Id, not `\(header)`.")
            }
            options.reader.userHeader = name
        }
        let window = TimeWindow(
            start: try parsed["since"].map { try parseDate($0, option: "--since", endOfDay: false) },
            end: try parsed["until"].map { try parseDate($0, option: "--until", endOfDay: true) }
        )
        if let start = window.start, let end = window.end, start >= end {
            throw usageError("--since \(parsed["since"]!) is not before --until \(parsed["until"]!): the period would hold no call.")
        }
        options.reader.window = window
        options.pricing = parsed["pricing"]
        options.costs.timeZone = try values.timeZone(parsed["timezone"]) ?? options.costs.timeZone
        options.costs.scale = try values.number(parsed["scale"], option: "--scale", range: CostCalculator.Options.scaleRange, meaning: "a factor") ?? 1
        options.threads = try values.wholeNumber(parsed["threads"], option: "--threads", range: 1...256) ?? options.threads
        options.reorderWindowSeconds = try values.seconds(parsed["reorder-window"], option: "--reorder-window") ?? options.reorderWindowSeconds
    }

    /// Progress on standard error for long reads, when it is a terminal and not turned off.
    func progressReporter(_ parsed: ArgumentScanner.Parsed, paths: [String], context: CommandContext) -> ProgressReporter? {
        guard !parsed.has("no-progress"), !parsed.has("quiet"), context.standardError.isTerminal else { return nil }
        return ProgressReporter(
            sink: context.standardError, totalBytes: ProgressReporter.totalBytes(of: paths),
            writingShare: parsed["out"] != nil ? ProgressReporter.outWritingShare : 0
        )
    }

    /// The log paths to read: the positionals, or the bundled `SampleLogs/` (with a note) when none.
    func inputPaths(_ parsed: ArgumentScanner.Parsed, context: CommandContext, verb: String) throws -> (paths: [String], usedSampleLogs: Bool) {
        guard parsed.positionals.isEmpty else { return (parsed.positionals, false) }
        guard let sample = SampleLogsLocator().locate(workingDirectory: context.workingDirectory, executablePath: context.executablePath) else {
            throw CLIError.sampleLogsNotFound
        }
        if !parsed.has("quiet") {
            context.note("no input given: \(verb) the bundled sample logs in \(sample) (pass a path to \(verb == "analyzing" ? "analyze" : "use") your own).")
        }
        return ([sample], true)
    }

    /// Writes the reader's warnings to standard error (the first 20, then a count) unless `--quiet`.
    func reportDiagnostics(_ read: LogReader.Output, parsed: ArgumentScanner.Parsed, context: CommandContext) {
        guard !parsed.has("quiet") else { return }
        for copy in read.spooled {
            context.note("\(copy.name) is \(copy.kind), which cannot be read twice: it was spooled to a temporary file (\(copy.bytes < 1_000_000 ? "\(copy.bytes) bytes" : ProgressReporter.size(copy.bytes))) and read from there, so a log out of time order still gives the exact answer.")
        }
        for diagnostic in read.diagnostics {
            context.writeError("\(diagnostic)")
        }
        if read.duplicatesDropped > 0 {
            context.note(read.duplicatesDropped == 1
                ? "--dedupe dropped 1 record that repeated an earlier record exactly (same time, same content)."
                : "--dedupe dropped \(read.duplicatesDropped) records that repeated an earlier record exactly (same time, same content).")
        } else if read.duplicates > 0 {
            context.note(read.duplicates == 1
                ? "1 record repeats an earlier record exactly (same time, same content), as exporters that retry write them; it is counted as a call. --dedupe drops it."
                : "\(read.duplicates) records repeat an earlier record exactly (same time, same content), as exporters that retry write them; they are counted as calls. --dedupe drops them.")
        }
        if !read.hosts.proxies.isEmpty {
            let hosts = RequestHosts.most(read.hosts.proxies, 5).map { "\($0.host) (\(Money.count($0.requests)))" }
            let more = read.hosts.proxies.count > 5 ? " and \(read.hosts.proxies.count - 5) more" : ""
            context.note("requests to \(hosts.joined(separator: ", "))\(more) were read by their Google API paths, taking \(read.hosts.proxies.count == 1 ? "the host" : "these hosts") as a proxy of Google's APIs.")
        }
        if read.bodiesUnknown > 0 {
            context.note("\(read.bodiesUnknown) Places API (New) calls in access logs carry their session token and input in a body the log does not show: they count as autocomplete calls without a token. A HAR capture shows the bodies.")
        }
        let unshown = read.diagnosticCount - read.diagnostics.count
        if unshown > 0 {
            context.writeError("placescost: warning: \(unshown) more malformed records or problems not shown (\(read.diagnosticCount) in all).")
        }
    }

    /// `--out DIR` as given (for messages) and resolved against the working directory.
    func outDirectory(_ parsed: ArgumentScanner.Parsed, context: CommandContext) throws -> (shown: String, path: String)? {
        guard let out = parsed["out"] else { return nil }
        if out.isEmpty { throw usageError("--out takes a directory.") }
        return (out, out.hasPrefix("/") ? out : context.workingDirectory + "/" + out)
    }

    private func parseFormat(_ value: String?) throws -> InputFormat? {
        guard let value, value != "auto" else { return nil }
        guard let format = InputFormat(rawValue: value) else {
            throw usageError("--format takes auto, jsonl, csv, access-log or har, not `\(value)`.")
        }
        return format
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
