/// `placescost simulate`: what a scenario would cost under each strategy, without logs.
struct SimulateCommand {
    enum Key {
        static let searches = CommandOption("searches", value: "N", help: "Searches a month (default 1000; with --from, the first month's, default the log's).")
        static let requests = CommandOption("requests", value: "R", help: "Mean autocomplete calls per search the app makes now, past its --delay K (1 or more): searches type R+K characters.")
        static let chars = CommandOption(
            "chars", value: "C",
            help: "Characters typed before selecting: one request per character past the delay. Give --requests or --chars (default --chars 8)."
        )
        static let delay = CommandOption(
            "delay", value: "K", help: "The app sends no request until more than K characters are typed (default 0)."
        )
        static let completionRate = CommandOption(
            "completion-rate", value: "P", help: "Share of searches that end with a selected place, 0..1 (default 1)."
        )
        static let fields = CommandOption(
            "fields", value: "LIST", help: "Comma-separated fields of the Place Details call (default: address and location only)."
        )
        // Shown as yes|no, but `auto` (address and location, as `no`) is taken too, as `analyze` takes it.
        static let needsDetails = CommandOption(
            "needs-details", value: "yes|no", completion: .words(["yes", "no"]),
            help: "Instead of --fields: yes asks for the place's name, address and location (the name is a Pro field in Places API (New)); no for address and location only."
        )
        static let pricing = CommandOption(
            "pricing", short: "p", value: "ID|FILE", completion: .wordsOrFiles(BundledPriceTables.files.map(\.id)),
            help: "Price table (default \(SimulateCommand.defaultTable); see `placescost pricing list`)."
        )
        static let months = CommandOption(
            "months", value: "M",
            help: "Months simulated (default 1); each month has its own free caps and tiers (with --from, and the table in force that month), and cost_usd is the total."
        )
        static let delays = CommandOption("delays", value: "K,...", help: "Delays to price (default 1,2,3,4,5,6).")
        static let maxDelay = CommandOption.maxDelay
        static let report = CommandOption(
            "report", choices: ["md", "json"],
            help: "Output format (default md). On a terminal, without --report, the Markdown is shown wrapped and aligned."
        )
        static let json = CommandOption.reportJSON
        /// `analyze`'s, as simulate's notes are analyze's too with --from LOG.
        static let quiet = AnalysisOptionsParser.Key.quiet
        static let from = CommandOption(
            "from", value: "FILE", completion: .files,
            help: "Start from measured traffic: a report.json of `placescost analyze`, or a log (analyzed as analyze would; more logs may follow as arguments). Without --searches, --months, --growth or --start: the log's own months and volume."
        )
        static let growth = CommandOption(
            "growth", value: "PCT", help: "With --from: each month has PCT percent more searches than the one before (default 0; from -100 to 1000)."
        )
        static let start = CommandOption(
            "start", value: "YYYY-MM", help: "With --from: the first simulated month (default: the month after the log's last), which decides the table in force."
        )
        static let scenario = CommandOption(
            "scenario", value: "FILE", completion: .files,
            help: "With --from: price the named scenarios of FILE (JSON, docs/cli.md) side by side; --searches, --months, --growth, --start and --pricing are the defaults of scenarios that leave them out."
        )
        static let out = CommandOption(
            "out", short: "o", value: "DIR", completion: .directories, help: "With --from: write simulation.md, simulation.json and charts/ into DIR."
        )
    }

    /// `analyze`'s options that say how logs are read and grouped into searches, declared there:
    /// `simulate --from LOG` reads the log with them as `analyze` would (`--pricing` and
    /// `--quiet` are simulate's own entries of the same meaning).
    static let logOptions: [CommandOption] = AnalysisOptionsParser.options.filter {
        $0 != AnalysisOptionsParser.Key.pricing && $0 != AnalysisOptionsParser.Key.quiet
    } + [AnalyzeCommand.Key.sessionTimeout, AnalyzeCommand.Key.userGap]

    static let table = OptionTable(
        command: "simulate",
        options: [
            Key.searches, Key.requests, Key.chars, Key.delay, Key.completionRate, Key.fields, Key.needsDetails,
            Key.pricing, Key.months, Key.delays, Key.maxDelay, Key.report, Key.json, TerminalOutput.option, Key.quiet,
            Key.from, Key.growth, Key.start, Key.scenario, Key.out,
        ] + logOptions,
        alternatives: [[Key.requests, Key.chars], [Key.fields, Key.needsDetails]]
    )

    static let usage = table.usage

    static let help = HelpPage(
        intro: "placescost simulate: what-if pricing of autocomplete searches, without logs.",
        epilogue: """
        EXAMPLE
          placescost simulate --pricing legacy-list --chars 7 --delay 3 --completion-rate 1
            4 requests: per-request + Geocoding $0.01632 per search, per session $0.017.
          placescost simulate --from report.json --searches 50000 --growth 10 --months 12
            the log's traffic per search, 50,000 searches in the first month, 10% more each month.
          placescost simulate --from app.jsonl --timezone Europe/Paris --pricing places-new-2025
            the log's searches billed by Places API (New)'s rules, read as analyze would read it.
        """
    )

    static let defaultTable = "places-new-2025"
    /// Fields a selection asks for when `--needs-details yes` is given without `--fields`: the
    /// place's name, address and location, in the naming of the table's API generation (the name
    /// is `name` in the legacy APIs, a Basic field, and `displayName` in Places API (New), a Pro
    /// field; there `name` is the resource name, IDs Only).
    static func detailsFields(_ generation: APIGeneration) -> [String] {
        switch generation {
        case .legacy: ["name", "formatted_address", "geometry"]
        case .new: ["displayName", "formattedAddress", "location"]
        }
    }

    let arguments: [String]
    let context: CommandContext

    func run() throws -> ExitCode {
        let parsed = try ArgumentScanner(SimulateCommand.table).scan(arguments)
        let values = OptionValues(usage: SimulateCommand.usage)
        if let from = parsed[Key.from] {
            return try ForecastCommand(parsed: parsed, input: from, context: context).run()
        }
        for option in [Key.growth, Key.start, Key.scenario, Key.out] where parsed[option] != nil {
            throw values.error("--\(option.name) takes --from: it applies to measured traffic.")
        }
        if let option = SimulateCommand.logOptions.first(where: parsed.given) {
            throw values.error("--\(option.name) takes --from LOG: it says how a log is read.")
        }
        guard parsed.positionals.isEmpty else {
            throw values.error("simulate takes no file arguments (found `\(parsed.positionals[0])`); to start from a log or a report.json, pass it with --from.")
        }
        let searches = try values.wholeNumber(parsed[Key.searches], option: "--searches", range: 1...1_000_000_000_000) ?? 1000
        let typing: SearchSimulator.Typing
        if let requests = try values.number(parsed[Key.requests], option: "--requests", range: 1...10_000) {
            typing = .requests(requests)
        } else {
            typing = .characters(try values.wholeNumber(parsed[Key.chars], option: "--chars", range: 1...10_000) ?? 8)
        }
        let delay = try values.wholeNumber(parsed[Key.delay], option: "--delay", range: 0...1000) ?? 0
        let completion = try values.number(parsed[Key.completionRate], option: "--completion-rate", range: 0...1) ?? 1
        let plan = try PricingPlan.load(parsed[Key.pricing] ?? SimulateCommand.defaultTable)
        let fields: [String]
        if let list = parsed[Key.fields] {
            // `--fields --json` took the next option as its list.
            guard !list.hasPrefix("-") else {
                throw values.error("--fields takes a comma-separated list of field names, and `\(list)` is an option: give the list right after --fields.")
            }
            fields = list.split(separator: ",").map { String($0).trimmingSpaces() }.filter { !$0.isEmpty }
            guard !fields.isEmpty else { throw values.error("--fields takes a comma-separated list of field names.") }
        } else {
            // Without a log there is nothing to tell: yes or no (`auto`, as analyze takes it, is the
            // default, no).
            if let value = parsed[Key.needsDetails], !["yes", "no", "auto"].contains(value) {
                throw values.error("simulate's --needs-details takes yes or no, not `\(value)`.")
            }
            let needs = parsed[Key.needsDetails] == "yes"
            fields = needs ? SimulateCommand.detailsFields(Simulation.table(of: plan).apiVersion) : FieldCatalog.basicMask
        }
        let months = try values.wholeNumber(parsed[Key.months], option: "--months", range: 1...120) ?? 1
        let maxDelay = try values.wholeNumber(parsed[Key.maxDelay], option: "--max-delay", range: 0...100) ?? 4
        let delays = try values.delays(parsed[Key.delays]) ?? Array(1...6)
        let json = parsed.has(Key.json) || parsed[Key.report] == "json"

        let simulator = SearchSimulator(searchesPerMonth: searches, typing: typing, currentDelay: delay, completionRate: completion, fields: fields)
        let simulation = Simulation(simulator: simulator, months: months, plan: plan, delays: Array(Set(delays + [delay] + Array(0...maxDelay))).sorted())
        let result = simulation.run()
        let recommendation = SimulateCommand.recommend(result, maxDelay: maxDelay)

        if !parsed.has(Key.quiet) {
            if let unknown = SimulateCommand.unknownFields(fields) { context.note(unknown) }
            if case .characters(let count) = typing, delay >= count {
                context.note("--delay \(delay) waits past the \(count) characters users type: no prediction shows before they select, so each search is priced with the one request a selection needs (a user types on until predictions appear). Is --chars the characters typed before selecting?")
            }
            for notice in result.pricing.unconfirmedPrices {
                context.note("unconfirmed price used: \(notice)")
            }
            for notice in result.pricing.estimatedPrices {
                context.note("estimated price used (Google quotes this volume by contact with sales): \(notice)")
            }
        }
        let terminal = TerminalOutput(context: context, color: parsed[TerminalOutput.option])
        if json {
            context.standardOutput.write(SimulationRenderer().json(result, recommendation: recommendation).rendered())
        } else if terminal.isTerminal, parsed[Key.report] == nil {
            context.standardOutput.write(terminal.text.document(SimulationRenderer().markdown(result, recommendation: recommendation, brief: true)))
        } else {
            context.standardOutput.write(SimulationRenderer().markdown(result, recommendation: recommendation))
        }
        return .success
    }

    /// The note for `--fields` names no Google field list has (a misspelling prices the mask
    /// as most unlisted fields bill, well above the address), with the nearest known name;
    /// nil when every name is known.
    static func unknownFields(_ fields: [String]) -> String? {
        let unknown = fields.filter { $0 != "*" && FieldCatalog.lookup($0) == nil }
        guard !unknown.isEmpty else { return nil }
        let known = FieldCatalog.names.map(\.name)
        let named = unknown.map { name in
            "`\(name)`" + (NameSuggester.nearest(to: name, among: known).map { " (did you mean `\($0)`?)" } ?? "")
        }
        return "--fields names \(unknown.count == 1 ? "a field" : "fields") no Google field list has: \(named.joined(separator: ", ")). \(unknown.count == 1 ? "It is" : "They are") billed as Basic Data (legacy) or Place Details Pro (Places API (New)), as most unlisted fields are; check the spelling against the fields in docs/billing.md."
    }

    /// The decision tree walked with the scenario's numbers.
    static func recommend(_ result: Simulation.Result, maxDelay: Int) -> Recommendation {
        let completedPerMonth = Int((Double(result.simulator.searchesPerMonth) * result.simulator.completionRate).rounded())
        let needs = DetailsNeed(scenarioFields: result.simulator.fields)
        let delay = result.simulator.currentDelay
        var evidence = Recommendation.Evidence(
            needsDetails: needs,
            meanRequests: Dictionary(uniqueKeysWithValues: (0...max(maxDelay, delay)).map { ($0, result.meanRequests[$0] ?? 0) }),
            breakEvenRequests: result.pricing.breakEvenRequests, tableID: result.pricing.primaryTable.id, maxDelay: maxDelay,
            searches: result.totalSearches, completed: completedPerMonth * result.months,
            abandoned: result.totalSearches - completedPerMonth * result.months
        )
        evidence.currentDelay = delay
        return Advisor().recommend(evidence: evidence, pricing: result.pricing, anomalies: [], platforms: [])
    }
}
