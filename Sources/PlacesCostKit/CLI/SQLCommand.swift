/// `placescost sql --dialect bigquery|duckdb`: the analysis as one SQL statement for a warehouse.
struct SQLCommand {
    enum Key {
        static let dialect = CommandOption(
            "dialect", choices: SQLDialect.allCases.map(\.rawValue), required: true, help: "The SQL dialect (required)."
        )
        static let pricing = CommandOption(
            "pricing", short: "p", value: "ID|FILE", completion: .wordsOrFiles(BundledPriceTables.files.map(\.id)),
            help: "A bundled price table or your own JSON table (default \(SQLCommand.defaultTable): list prices, no free caps, no tiers; a warehouse has no log dates to choose a table by)."
        )
        static let table = CommandOption(
            "table", value: "NAME",
            help: "The table of calls (default calls); up to three parts, project.dataset.table, each quoted in the dialect's way."
        )
        static let orderColumn = CommandOption(
            "order-column", value: "NAME",
            help: "A column that keeps the log's order (a line number), used for calls at the same time. Default: DuckDB's row order (the log's order when loaded as the README shows); BigQuery tables have no row order, so ties are taken autocomplete first."
        )
        static let delays = CommandOption(
            "delays", value: "K,...",
            help: "Delays to price (default 1,2,3,4,5,6; 1..--max-delay are always included, as in `analyze`)."
        )
        static let maxDelay = CommandOption("max-delay", value: "K", help: "As in `analyze` (default 4).")
        static let sessionTimeout = CommandOption("session-timeout", value: "SECONDS", help: "As in `analyze` (default 180).")
        static let userGap = CommandOption("user-gap", value: "SECONDS", help: "As in `analyze` (default 60).")
        static let byMonth = CommandOption(
            "by-month",
            help: "One row per calendar month: month (YYYY-MM) and cost_<strategy>_d<delay> holding the bill after free caps, tiers and credit (cost_usd), as costs.csv."
        )
        static let timezone = CommandOption("timezone", value: "TZ", help: "Calendar months for --by-month in this zone (default UTC).")
        static let quiet = CommandOption("quiet", short: "q", help: "No notes on standard error.")
    }

    static let table = OptionTable(
        command: "sql",
        options: [
            Key.dialect, Key.pricing, Key.table, Key.orderColumn, Key.delays, Key.maxDelay, Key.sessionTimeout, Key.userGap,
            Key.byMonth, Key.timezone, Key.quiet,
        ]
    )

    static let usage = table.usage

    static let help = HelpPage(
        intro: """
        placescost sql: the same analysis as `placescost analyze`, as one SQL statement your warehouse
        runs over billions of calls.
        """,
        description: """
        The statement reads a table of canonical calls, one row per call, with the columns timestamp
        (TIMESTAMP), api, session_token, input, input_length (the typed length of a call without
        input), fields (a list of strings), user_id and project (these two may be all NULL; DuckDB
        also reads a table made by read_json_auto as it is). It applies the session rules of
        `analyze` with window functions (timeout, reused and expired tokens, standalone details,
        runs after a spent token, token-less searches of one user, delays in Unicode code points),
        inlines the prices of one table and returns one row: searches_total, searches_completed,
        searches_abandoned, avg_requests, the anomaly counts of report.json, and
        cost_<strategy>_d<delay> with that strategy's list_cost_usd. Api aliases
        (findAutocompletePredictions, fetchPlace, ...) are mapped as `analyze` maps them.
        docs/warehouse.md shows how to load a log into BigQuery or DuckDB.
        """,
        epilogue: """
        EXAMPLE
          placescost sql --dialect duckdb --pricing legacy-list > analysis.sql
          duckdb -line calls.db < analysis.sql
        """
    )

    static let defaultTable = "legacy-list"

    let arguments: [String]
    let context: CommandContext

    func run() throws -> ExitCode {
        let request = try SQLCommand.parse(arguments)
        let table = try PriceTableLoader().load(request.pricing)
        let writer = try SessionSQLWriter(table: table, options: request.options)
        let statement = writer.statement()
        if !request.quiet {
            let options = request.options
            if options.dialect == .bigquery && options.orderColumn == nil {
                context.note("BigQuery tables have no row order: calls of one token or user at the same microsecond are taken autocomplete first; pass --order-column with a line number for the log's order.")
            }
            for price in writer.unconfirmedPrices {
                context.note("unconfirmed price inlined: \(price)")
            }
        }
        context.standardOutput.write(statement)
        return .success
    }

    /// What the arguments ask for.
    struct Request {
        var options: SessionSQLWriter.Options
        /// `--pricing`: a bundled table id or a file.
        var pricing: String
        var quiet: Bool
    }

    /// The writer's options, the price table and `--quiet`, from the arguments.
    ///
    /// - Throws: `CLIError.usage` for a bad option or value.
    static func parse(_ arguments: [String]) throws -> Request {
        let parsed = try ArgumentScanner(table).scan(arguments)
        let values = OptionValues(usage: usage)
        guard parsed.positionals.isEmpty else {
            throw values.error("sql takes no file arguments (found `\(parsed.positionals[0])`); it reads a warehouse table, see --table.")
        }
        guard let dialectName = parsed[Key.dialect] else {
            throw values.error("sql needs --dialect bigquery or --dialect duckdb.")
        }
        guard let dialect = SQLDialect(rawValue: dialectName.lowercased()) else {
            throw values.error("--dialect takes bigquery or duckdb, not `\(dialectName)`.")
        }
        do {
            var options = SessionSQLWriter.Options(
                dialect: dialect, table: try SQLName(parsed[Key.table] ?? "calls", maxParts: 3, option: "--table")
            )
            options.orderColumn = try parsed[Key.orderColumn].map { try SQLName($0, maxParts: 1, option: "--order-column") }
            let maxDelay = try values.wholeNumber(parsed[Key.maxDelay], option: "--max-delay", range: 0...100) ?? 4
            let delays = try values.delays(parsed[Key.delays]) ?? Array(1...6)
            options.delays = Array(Set(delays + Array(0...maxDelay)).subtracting([0])).sorted()
            options.sessions = SessionOptions(
                timeoutSeconds: try values.seconds(parsed[Key.sessionTimeout], option: "--session-timeout") ?? SessionOptions.defaultTimeoutSeconds,
                userGapSeconds: try values.seconds(parsed[Key.userGap], option: "--user-gap") ?? SessionOptions.defaultUserGapSeconds
            )
            options.byMonth = parsed.has(Key.byMonth)
            if let zone = parsed[Key.timezone] {
                guard options.byMonth else { throw values.error("--timezone only applies with --by-month.") }
                _ = try values.timeZone(zone)
                options.timeZone = zone
            }
            return Request(options: options, pricing: parsed[Key.pricing] ?? defaultTable, quiet: parsed.has(Key.quiet))
        } catch let error as WarehouseError {
            throw values.error(error.description)
        }
    }
}
