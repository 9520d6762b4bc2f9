/// `placescost simulate`: what a scenario would cost under each strategy, without logs.
struct SimulateCommand {
    static let usage = "placescost simulate [--searches N] (--requests R | --chars C) [--delay K] [--completion-rate P] [--fields LIST | --needs-details yes|no] [--pricing ID|FILE] [--months M] [--delays K,...] [--max-delay K] [--report md|json]"

    static let help = """
    placescost simulate: what-if pricing of autocomplete searches, without logs.

    USAGE
      \(usage)

    OPTIONS
      --searches N             Searches a month (default 1000).
      --requests R             Mean autocomplete calls per search the app makes now (1 or more).
      --chars C                Characters typed before selecting: one request per character
                               past the delay. Give --requests or --chars (default --chars 8).
      --delay K                The app sends no request until more than K characters are typed
                               (default 0).
      --completion-rate P      Share of searches that end with a selected place, 0..1 (default 1).
      --fields LIST            Comma-separated fields of the Place Details call
                               (default: address and location only).
      --needs-details yes|no   Instead of --fields: yes asks for the place's name, address and
                               location (the name is a Pro field in Places API (New)); no for
                               address and location only.
      --pricing ID|FILE        Price table (default places-new-2025; see `placescost pricing list`).
      --months M               Months simulated (default 1); each month has its own free caps
                               and tiers, and cost_usd is the total.
      --delays K,...           Delays to price (default 1,2,3,4,5,6).
      --max-delay K            The largest delay the recommendation may choose (default 4).
      --report md|json         Output format (default md); --json = --report json. On a terminal,
                               without --report, the Markdown is shown wrapped and aligned.
      --color auto|always|never  Colour on a terminal (default auto: off with NO_COLOR set).

    EXAMPLE
      placescost simulate --pricing legacy-list --chars 7 --delay 3 --completion-rate 1
        4 requests: per-request + Geocoding $0.01632 per search, per session $0.017.

    """

    static let scanner = ArgumentScanner(options: [
        .init("searches", value: "N"), .init("requests", value: "R"), .init("chars", value: "C"), .init("delay", value: "K"),
        .init("completion-rate", value: "P"), .init("fields", value: "LIST"), .init("needs-details", value: "yes|no"),
        .init("pricing", value: "ID|FILE"), .init("months", value: "M"), .init("delays", value: "K,..."),
        .init("max-delay", value: "K"), .init("report", value: "md|json"), .init("json"),
        .init("color", value: "auto|always|never"), .init("help"),
    ], usage: usage)

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
        if arguments.contains("-h") || arguments.contains("--help") {
            context.standardOutput.write(SimulateCommand.help)
            return .success
        }
        let parsed = try SimulateCommand.scanner.scan(arguments)
        let values = OptionValues(usage: SimulateCommand.usage)
        guard parsed.positionals.isEmpty else {
            throw values.error("simulate takes no file arguments (found `\(parsed.positionals[0])`); use `placescost analyze` for logs.")
        }
        guard parsed["requests"] == nil || parsed["chars"] == nil else {
            throw values.error("give --requests or --chars, not both.")
        }
        guard parsed["fields"] == nil || parsed["needs-details"] == nil else {
            throw values.error("give --fields or --needs-details, not both.")
        }
        let searches = try values.wholeNumber(parsed["searches"], option: "--searches", range: 1...1_000_000_000_000) ?? 1000
        let typing: SearchSimulator.Typing
        if let requests = try values.number(parsed["requests"], option: "--requests", range: 1...10_000) {
            typing = .requests(requests)
        } else {
            typing = .characters(try values.wholeNumber(parsed["chars"], option: "--chars", range: 1...10_000) ?? 8)
        }
        let delay = try values.wholeNumber(parsed["delay"], option: "--delay", range: 0...1000) ?? 0
        let completion = try values.number(parsed["completion-rate"], option: "--completion-rate", range: 0...1) ?? 1
        let plan = try PricingPlan.load(parsed["pricing"] ?? SimulateCommand.defaultTable)
        let fields: [String]
        if let list = parsed["fields"] {
            fields = list.split(separator: ",").map { String($0).trimmingSpaces() }.filter { !$0.isEmpty }
            guard !fields.isEmpty else { throw values.error("--fields takes a comma-separated list of field names.") }
        } else {
            let needs = try values.yesNoAuto(parsed["needs-details"], option: "--needs-details") ?? false
            fields = needs ? SimulateCommand.detailsFields(Simulation.table(of: plan).apiVersion) : FieldCatalog.basicMask
        }
        let months = try values.wholeNumber(parsed["months"], option: "--months", range: 1...120) ?? 1
        let maxDelay = try values.wholeNumber(parsed["max-delay"], option: "--max-delay", range: 0...100) ?? 4
        let delays = try values.delays(parsed["delays"]) ?? Array(1...6)
        let json = parsed.has("json") || parsed["report"] == "json"
        if let report = parsed["report"], !["md", "json"].contains(report) {
            throw values.error("--report takes md or json, not `\(report)`.")
        }

        let simulator = SearchSimulator(searchesPerMonth: searches, typing: typing, currentDelay: delay, completionRate: completion, fields: fields)
        let simulation = Simulation(simulator: simulator, months: months, plan: plan, delays: Array(Set(delays + [delay] + Array(0...maxDelay))).sorted())
        let result = simulation.run()
        let recommendation = SimulateCommand.recommend(result, maxDelay: maxDelay)

        for notice in result.pricing.unconfirmedPrices {
            context.note("unconfirmed price used: \(notice)")
        }
        let terminal = try TerminalOutput(context: context, color: parsed["color"], usage: SimulateCommand.usage)
        if json {
            context.standardOutput.write(SimulationRenderer().json(result, recommendation: recommendation).rendered())
        } else if terminal.isTerminal, parsed["report"] == nil {
            context.standardOutput.write(terminal.text.document(SimulationRenderer().markdown(result, recommendation: recommendation, brief: true)))
        } else {
            context.standardOutput.write(SimulationRenderer().markdown(result, recommendation: recommendation))
        }
        return .success
    }

    /// The decision tree walked with the scenario's numbers.
    static func recommend(_ result: Simulation.Result, maxDelay: Int) -> Recommendation {
        let completedPerMonth = Int((Double(result.simulator.searchesPerMonth) * result.simulator.completionRate).rounded())
        let needs = DetailsNeed(scenarioFields: result.simulator.fields)
        let evidence = Recommendation.Evidence(
            needsDetails: needs,
            meanRequests: Dictionary(uniqueKeysWithValues: (0...maxDelay).map { ($0, result.meanRequests[$0] ?? 0) }),
            breakEvenRequests: result.pricing.breakEvenRequests, tableID: result.pricing.primaryTable.id, maxDelay: maxDelay,
            searches: result.totalSearches, completed: completedPerMonth * result.months,
            abandoned: result.totalSearches - completedPerMonth * result.months
        )
        return Advisor().recommend(evidence: evidence, pricing: result.pricing, anomalies: [], platforms: [])
    }
}
