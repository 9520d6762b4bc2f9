/// `placescost pricing list | pricing show ID|FILE [--json]`: the price tables and their sources.
struct PricingCommand {
    enum Key {
        static let json = CommandOption("json", short: "j", help: "Print JSON: with list, the tables' ids, API generations, periods and titles; with show, the table.")
    }

    static let table = OptionTable(
        command: "pricing", arguments: .init("list | show ID|FILE", completion: .words(["list", "show"])), options: [Key.json]
    )

    static let usage = table.usage

    static let help = HelpPage(
        intro: "placescost pricing: the price tables PlacesCost bills with.",
        arguments: [
            ("list", "One line per bundled table: id, API generation, period, title."),
            (
                "show ID|FILE",
                "Every SKU of a table with its free monthly cap, tiers (USD per 1,000) and where each price comes from; unconfirmed prices are marked. --json prints the table as JSON. A FILE is checked against the schema, so this also validates your own table."
            ),
        ]
    )

    let arguments: [String]
    let context: CommandContext

    func run() throws -> ExitCode {
        let parsed = try ArgumentScanner(PricingCommand.table).scan(arguments)
        let loader = PriceTableLoader()
        switch parsed.positionals.first {
        case "list" where parsed.positionals.count == 1:
            let tables = try loader.bundled()
            if parsed.has(Key.json) {
                let rows: [JSONValue] = tables.map { table in
                    .object([
                        ("id", .string(table.id)), ("api_version", .string(table.apiVersion.rawValue)),
                        ("effective_from", .string(table.effectiveFrom)), ("effective_to", table.effectiveTo.map { .string($0) } ?? .null),
                        ("title", .string(table.title)),
                    ])
                }
                context.standardOutput.write(JSONValue.array(rows).rendered())
                return .success
            }
            var lines = ["| id | API | from | to | title |", "|---|---|---|---|---|"]
            for table in tables {
                lines.append("| `\(table.id)` | \(table.apiVersion.rawValue) | \(table.effectiveFrom) | \(table.effectiveTo ?? "in force") | \(table.title) |")
            }
            context.standardOutput.write(lines.joined(separator: "\n") + "\n")
        case "show" where parsed.positionals.count == 2:
            let table = try loader.load(parsed.positionals[1])
            if parsed.has(Key.json) {
                let encoder = JSONEncoderForTables.make()
                context.standardOutput.write(String(decoding: try encoder.encode(table), as: UTF8.self) + "\n")
            } else {
                context.standardOutput.write(describe(table))
            }
        default:
            throw CLIError.usage(message: "pricing takes `list` or `show ID|FILE`.", usage: PricingCommand.usage)
        }
        return .success
    }

    private func describe(_ table: PriceTable) -> String {
        var lines = ["# \(table.id): \(table.title)", ""]
        lines.append("API: \(table.apiVersion.rawValue); in force \(table.effectiveFrom) to \(table.effectiveTo ?? "today"); monthly credit \(Money.usd(table.monthlyCreditUSD)).")
        lines.append("Break-even: \(Money.plain(BreakEven.requests(table))) autocomplete calls per search.")
        if let rules = table.sessionRules {
            let terminating = rules.terminatingDetails
            lines.append("Session rules: a session ended by Place Details Essentials bills its first \(rules.essentialsRequestCap) requests; from \(terminating.effectiveFrom) a session ended by Pro or higher bills its details call as \(terminating.rule == .enterpriseAtmosphere ? "Enterprise + Atmosphere" : "the SKU of its fields") (\(terminating.source)).")
        }
        lines.append("")
        lines.append("| SKU | free a month | tier | USD per 1,000 | confirmed | source |")
        lines.append("|---|---:|---|---:|---|---|")
        for sku in table.skus {
            var lower = 0
            for (index, tier) in sku.tiers.enumerated() {
                let range = tier.upTo.map { "\(Money.count(lower))-\(Money.count($0))" } ?? "\(Money.count(lower))+"
                let free = index == 0 ? (sku.freeMonthly.map(Money.count) ?? "all") : ""
                let cells = [index == 0 ? sku.name : "", free, range, Money.plain(tier.usdPer1000, digits: 6), tier.confirmed ? "yes" : "**no**", tier.source + (tier.note.map { "; \($0)" } ?? "")]
                // A `|` in a table's own words would open a cell.
                lines.append("| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |")
                lower = tier.upTo ?? lower
            }
        }
        if !table.notes.isEmpty {
            lines.append("")
            lines += table.notes.map { "- \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
