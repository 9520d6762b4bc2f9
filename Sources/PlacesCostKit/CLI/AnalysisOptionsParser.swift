/// The input and pricing options `analyze` and `reconcile` share, parsed in one place so the two
/// commands read the same logs the same way (`reconcile` must price exactly what `analyze` prices).
struct AnalysisOptionsParser {
    /// The options both commands take, each declared once; `analyze` and `reconcile` put them
    /// in their tables whole.
    enum Key {
        static let format = CommandOption(
            "format", short: "f", choices: ["auto"] + InputFormat.allCases.map(\.rawValue),
            help: "auto (default: told from each file's content), jsonl (call records or web servers' JSON access logs), csv, access-log (nginx/Apache combined or common, an AWS load balancer's, or --log-format) or har."
        )
        static let logFormat = CommandOption(
            "log-format", value: "STRING",
            help: """
            The nginx log_format of an access log, e.g.
            '$remote_addr - $remote_user [$time_local] "$request" $status',
            or a named layout: combined, common, aws-alb (an AWS load balancer's).
            $http_x_goog_fieldmask, $request_body and any $http_NAME are read.
            """
        )
        static let route = CommandOption(
            "route", value: "PATH=API", repeats: true,
            help: "Requests at a proxy's own PATH are calls of API (autocomplete, place_details, geocoding, ...; API:new for Places API (New)), e.g. --route /geo/suggest=autocomplete."
        )
        static let stripPrefix = CommandOption(
            "strip-prefix", value: "PATH", repeats: true,
            help: "A prefix a proxy puts before Google's paths (/google). Google's paths are read under any host without it."
        )
        static let userHeader = CommandOption(
            "user-header", value: "NAME",
            help: "The request header that carries a user id (default X-User-Id), in HAR captures and as $http_NAME in an access log."
        )
        static let pricing = CommandOption(
            "pricing", short: "p", value: "ID|FILE", completion: .wordsOrFiles(BundledPriceTables.files.map(\.id)),
            help: "A bundled price table (see `placescost pricing list`) or your own JSON table of the same schema. Default: per month, the table in force for the calls' API generation."
        )
        static let since = CommandOption("since", value: "DATE", help: "Only calls at or after DATE (YYYY-MM-DD, UTC, or RFC 3339).")
        static let until = CommandOption(
            "until", value: "DATE", help: "Only calls before the end of DATE (YYYY-MM-DD, inclusive) or before an RFC 3339 time."
        )
        static let timezone = CommandOption("timezone", value: "TZ", help: "Calendar months for the bill are taken in this zone (default UTC).")
        static let scale = CommandOption("scale", value: "X", help: "Multiply volumes by X (a 10% sample: --scale 10).")
        static let strict = CommandOption("strict", help: "Stop at the first malformed record (exit 65) instead of skipping it.")
        static let dedupe = CommandOption(
            "dedupe", help: "Drop records that repeat an earlier record exactly (same time, same content); without it they are counted, and reported."
        )
        static let quiet = CommandOption("quiet", short: "q", help: "Print no warnings or notes on standard error (errors still).")
        static let threads = CommandOption(
            "threads", value: "N", help: "Parse and build sessions on N threads (default: the cores). The report is the same for any N."
        )
        static let noProgress = CommandOption(
            "no-progress", help: "No progress line on standard error (shown only on a terminal, for reads longer than a second)."
        )
        static let reorderWindow = CommandOption(
            "reorder-window", value: "SECONDS",
            help: "How far out of time order calls may be and still be walked as they stream by (default 600). A log more out of order is read a second time with a window that covers it: exact either way."
        )
    }

    /// `--format`, `--log-format`, `--route`, `--strip-prefix`, `--user-header`, `--pricing`,
    /// `--since`, `--until`, `--timezone`, `--scale`, `--strict`, `--dedupe`, `--quiet`,
    /// `--threads`, `--no-progress`, `--reorder-window`, in the order of the help.
    static let options: [CommandOption] = [
        Key.format, Key.logFormat, Key.route, Key.stripPrefix, Key.userHeader, Key.pricing, Key.since, Key.until,
        Key.timezone, Key.scale, Key.strict, Key.dedupe, Key.quiet, Key.threads, Key.noProgress, Key.reorderWindow,
    ]

    /// The command's usage line, shown with usage errors.
    let usage: String

    private var values: OptionValues { OptionValues(usage: usage) }

    private func usageError(_ message: String) -> CLIError {
        .usage(message: message, usage: usage)
    }

    /// Sets the reader, pricing, time zone and scale options from `parsed`.
    func apply(_ parsed: ArgumentScanner.Parsed, to options: inout Analyzer.Options) throws {
        options.reader.strict = parsed.has(Key.strict)
        options.reader.dedupe = parsed.has(Key.dedupe)
        options.reader.format = try parseFormat(parsed[Key.format])
        if let logFormat = parsed[Key.logFormat] {
            do {
                options.reader.logFormat = try AccessLogFormat(nameOrFormat: logFormat)
            } catch {
                throw usageError("--log-format: \(error)")
            }
        }
        do {
            for route in parsed.all(Key.route) { try options.reader.routes.addRoute(route) }
            for prefix in parsed.all(Key.stripPrefix) { try options.reader.routes.addStrippedPrefix(prefix) }
        } catch {
            throw usageError("\(error)")
        }
        if let header = parsed[Key.userHeader] {
            let name = header.trimmingSpaces().lowercased()
            guard !name.isEmpty, name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") }) else {
                throw usageError("--user-header takes a request header's name, such as X-User-Id, not `\(header)`.")
            }
            options.reader.userHeader = name
        }
        let window = TimeWindow(
            start: try parsed[Key.since].map { try parseDate($0, option: "--since", endOfDay: false) },
            end: try parsed[Key.until].map { try parseDate($0, option: "--until", endOfDay: true) }
        )
        if let start = window.start, let end = window.end, start >= end {
            throw usageError("--since \(parsed[Key.since]!) is not before --until \(parsed[Key.until]!): the period would hold no call.")
        }
        options.reader.window = window
        options.pricing = parsed[Key.pricing]
        options.costs.timeZone = try values.timeZone(parsed[Key.timezone]) ?? options.costs.timeZone
        options.costs.scale = try values.number(parsed[Key.scale], option: "--scale", range: CostCalculator.Options.scaleRange, meaning: "a factor") ?? 1
        options.threads = try values.wholeNumber(parsed[Key.threads], option: "--threads", range: 1...256) ?? options.threads
        options.reorderWindowSeconds = try values.seconds(parsed[Key.reorderWindow], option: "--reorder-window") ?? options.reorderWindowSeconds
    }

    /// Progress on standard error for long reads, when it is a terminal and not turned off;
    /// `writingOut` when `--out` will write the report after the read.
    func progressReporter(_ parsed: ArgumentScanner.Parsed, paths: [String], writingOut: Bool, context: CommandContext) -> ProgressReporter? {
        guard !parsed.has(Key.noProgress), !parsed.has(Key.quiet), context.standardError.isTerminal else { return nil }
        return ProgressReporter(
            sink: context.standardError, totalBytes: ProgressReporter.totalBytes(of: paths),
            writingShare: writingOut ? ProgressReporter.outWritingShare : 0
        )
    }

    /// The log paths to read: the positionals, or the bundled `SampleLogs/` (with a note) when none.
    func inputPaths(_ parsed: ArgumentScanner.Parsed, context: CommandContext, verb: String) throws -> (paths: [String], usedSampleLogs: Bool) {
        guard parsed.positionals.isEmpty else {
            // `-` on a terminal waits for typing: say so, or the run looks hung.
            if parsed.positionals.contains("-"), context.standardInputIsTerminal, !parsed.has(Key.quiet) {
                context.note("reading standard input from the terminal: paste the log and press Ctrl-D, or pipe it in (cat calls.jsonl | placescost ...); Ctrl-C stops.")
            }
            return (parsed.positionals, false)
        }
        guard let sample = SampleLogsLocator().locate(workingDirectory: context.workingDirectory, executablePath: context.executablePath) else {
            throw CLIError.sampleLogsNotFound
        }
        if !parsed.has(Key.quiet) {
            context.note("no input given: \(verb) the bundled sample logs in \(sample) (pass a path to \(verb == "analyzing" ? "analyze" : "use") your own).")
        }
        return ([sample], true)
    }

    /// Writes the reader's warnings to standard error (the first 20, then a count) unless `--quiet`.
    func reportDiagnostics(_ read: LogReader.Output, parsed: ArgumentScanner.Parsed, context: CommandContext) {
        guard !parsed.has(Key.quiet) else { return }
        for copy in read.spooled {
            context.note("\(copy.name) is \(copy.kind), which cannot be read twice: it was spooled to a temporary file (\(copy.bytes < 1_000_000 ? "\(copy.bytes) bytes" : ProgressReporter.size(copy.bytes))) and read from there, so a log out of time order still gives the exact answer.")
        }
        for failure in read.spoolFailures {
            let held = failure.bytes == 0 ? "" : " after \(failure.bytes < 1_000_000 ? "\(failure.bytes) bytes" : ProgressReporter.size(failure.bytes))"
            context.note("\(failure.name) is \(failure.kind), which cannot be read twice, and its copy to a temporary file in \(failure.directory) failed\(held) (\(failure.reason)): it was read once, as it came, and that was exact, its calls being in time order within --reorder-window. A log more out of order needs the copy: set TMPDIR to a directory with room.")
        }
        for diagnostic in read.diagnostics + read.fileWarnings {
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
        if !read.foldersNotRead.isEmpty {
            let one = read.foldersNotRead.count == 1
            context.note("\(LogReader.listedFolders(read.foldersNotRead)) \(one ? "is a folder" : "are folders") inside a folder given, and folders inside a folder are not searched: \(one ? "its" : "their") logs are not in this report. \(AnalysisOptionsParser.nameAsInputs(one: one))")
        }
        if !read.logsNotNamedAsLogs.isEmpty {
            let one = read.logsNotNamedAsLogs.count == 1
            context.note("\(LogReader.listedFolders(read.logsNotNamedAsLogs)) \(one ? "starts" : "start") as a log does but \(one ? "is" : "are") not named as logs are (.jsonl, .csv, .log, ..., docs/formats.md section 5), so \(one ? "it was" : "they were") not read. \(AnalysisOptionsParser.nameAsInputs(one: one))")
        }
        if let disorder = read.readTwiceForDisorder {
            context.note("calls came up to \(Duration64.spoken(seconds: Double(disorder) / 1_000_000)) out of time order, more than --reorder-window allows: the log was read a second time, holding that span of calls, which takes longer and more memory; the report is the same. To read it once, pass --reorder-window \(Analyzer.singleReadWindow(disorder: disorder)); logs of several servers named one by one are read one after the other, so merge them by time first (docs/performance.md).")
        }
        if !read.unknownFields.isEmpty {
            // Only names shaped as field names are quoted: a mask is the app's text, not a user's,
            // but anything else in one is not repeated.
            let shaped = read.unknownFields.filter { FieldCatalog.shownName($0.name) == $0.name }
            let names = shaped.prefix(5).map { "`\($0.name)` (\(Money.count($0.calls, "call", "calls")))" }
            let others = read.unknownFields.count - names.count
            let more = others > 0 ? (names.isEmpty ? "\(others) names" : " and \(others) more") : ""
            context.note("Place Details field masks name fields no Google field list has: \(names.joined(separator: ", "))\(more). They are billed as Basic Data (legacy) or Place Details Pro (Places API (New)), as most unlisted fields are; check their spelling against the fields in docs/billing.md.")
        }
        if read.bodiesUnknown > 0 {
            context.note("\(Money.count(read.bodiesUnknown)) Places API (New) \(read.bodiesUnknown == 1 ? "call carries its" : "calls carry their") session token and input in a body that could not be read (an access log does not show it; a gRPC call's binary protobuf is read only where the capture kept it as text, with lengths under 128 bytes): \(read.bodiesUnknown == 1 ? "it counts as a call" : "they count as calls") without a token. A HAR capture (browser dev tools, or mitmproxy's --set hardump=FILE) shows the bodies.")
        }
        let unshown = read.diagnosticCount - read.diagnostics.count
        if unshown > 0 {
            context.writeError("placescost: warning: \(unshown) more malformed records or problems not shown (\(read.diagnosticCount) in all).")
        }
    }

    /// Says once, unless `--quiet`, that canonical logs carry typed text where its length would
    /// do: the records and files the readers counted (`LogReader.Output.typedTextRecords`). The
    /// text is never quoted. Access logs and HAR captures are not counted: their URLs and bodies
    /// carry `input` by nature, and no field rename can change that.
    /// What to do about what a folder given holds and was not read.
    static func nameAsInputs(one: Bool) -> String {
        one ? "Name it as an input to read it too." : "Name them as inputs to read them too."
    }

    func noteTypedText(records: Int, files: [String], parsed: ArgumentScanner.Parsed, context: CommandContext) {
        guard !parsed.has(Key.quiet), records > 0, let first = files.first else { return }
        let holders = files.count == 1 ? "\(first) holds" : "\(first) and \(files.count - 1) more \(files.count == 2 ? "file" : "files") hold"
        let count = records == 1 ? "1 record" : "\(Money.count(records)) records"
        context.note(
            "\(holders) typed text in \"input\" (\(count)); only its length is used: log \"input_length\" (code points) instead, and no user's words need to be kept (docs/formats.md)."
        )
    }

    /// `--out DIR` as given (for messages) and resolved against the working directory.
    func outDirectory(_ out: String?, context: CommandContext) throws -> (shown: String, path: String)? {
        guard let out else { return nil }
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
