/// `placescost sql --dialect bigquery|duckdb`: the analysis as one SQL statement for a warehouse.
struct SQLCommand {
    static let usage = "placescost sql --dialect bigquery|duckdb [--pricing ID|FILE] [--table NAME] [--order-column NAME] [--delays K,...] [--max-delay K] [--session-timeout SECONDS] [--user-gap SECONDS] [--by-month] [--timezone TZ] [--quiet]"

    static let help = """
    placescost sql: the same analysis as `placescost analyze`, as one SQL statement your warehouse
    runs over billions of calls.

    USAGE
      \(usage)

    The statement reads a table of canonical calls, one row per call, with the columns timestamp
    (TIMESTAMP), api, session_token, input, fields (a list of strings), user_id and project (these
    two may be all NULL; DuckDB also reads a table made by read_json_auto as it is). It applies the session rules of `analyze` with window
    functions (timeout, reused and expired tokens, standalone details, runs after a spent token,
    token-less searches of one user, delays in Unicode code points), inlines the prices of one
    table and returns one row: searches_total, searches_completed, searches_abandoned,
    avg_requests, the anomaly counts of report.json, and cost_<strategy>_d<delay> with that
    strategy's list_cost_usd. Api aliases (findAutocompletePredictions, fetchPlace, ...) are
    mapped as `analyze` maps them. docs/warehouse.md shows how to load a log into BigQuery or
    DuckDB.

    OPTIONS
      --dialect bigquery|duckdb  The SQL dialect (required).
      --pricing ID|FILE          A bundled price table or your own JSON table (default
                                 legacy-list: list prices, no free caps, no tiers; a warehouse
                                 has no log dates to choose a table by).
      --table NAME               The table of calls (default calls); up to three parts,
                                 project.dataset.table, each quoted in the dialect's way.
      --order-column NAME        A column that keeps the log's order (a line number), used for
                                 calls at the same time. Default: DuckDB's row order (the log's
                                 order when loaded as the README shows); BigQuery tables have no
                                 row order, so ties are taken autocomplete first.
      --delays K,...             Delays to price (default 1,2,3,4,5,6; 1..--max-delay are always
                                 included, as in `analyze`).
      --max-delay K              As in `analyze` (default 4).
      --session-timeout SECS     As in `analyze` (default 180).
      --user-gap SECS            As in `analyze` (default 60).
      --by-month                 One row per calendar month: month (YYYY-MM) and
                                 cost_<strategy>_d<delay> holding the bill after free caps,
                                 tiers and credit (cost_usd), as costs.csv.
      --timezone TZ              Calendar months for --by-month in this zone (default UTC).
      --quiet                    No notes on standard error.
      -h, --help                 Show this help.

    EXAMPLE
      placescost sql --dialect duckdb --pricing legacy-list > analysis.sql
      duckdb -line calls.db < analysis.sql

    """

    static let scanner = ArgumentScanner(options: [
        .init("dialect", value: "bigquery|duckdb"), .init("pricing", value: "ID|FILE"), .init("table", value: "NAME"),
        .init("order-column", value: "NAME"), .init("delays", value: "K,..."), .init("max-delay", value: "K"),
        .init("session-timeout", value: "SECONDS"), .init("user-gap", value: "SECONDS"), .init("by-month"),
        .init("timezone", value: "TZ"), .init("quiet"), .init("help"),
    ], usage: usage)

    static let defaultTable = "legacy-list"

    let arguments: [String]
    let context: CommandContext

    func run() throws -> ExitCode {
        if arguments.contains("-h") || arguments.contains("--help") {
            context.standardOutput.write(SQLCommand.help)
            return .success
        }
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
        let parsed = try scanner.scan(arguments)
        let values = OptionValues(usage: usage)
        guard parsed.positionals.isEmpty else {
            throw values.error("sql takes no file arguments (found `\(parsed.positionals[0])`); it reads a warehouse table, see --table.")
        }
        guard let dialectName = parsed["dialect"] else {
            throw values.error("sql needs --dialect bigquery or --dialect duckdb.")
        }
        guard let dialect = SQLDialect(rawValue: dialectName) else {
            throw values.error("--dialect takes bigquery or duckdb, not `\(dialectName)`.")
        }
        do {
            var options = SessionSQLWriter.Options(
                dialect: dialect, table: try SQLName(parsed["table"] ?? "calls", maxParts: 3, option: "--table")
            )
            options.orderColumn = try parsed["order-column"].map { try SQLName($0, maxParts: 1, option: "--order-column") }
            let maxDelay = try values.wholeNumber(parsed["max-delay"], option: "--max-delay", range: 0...100) ?? 4
            let delays = try values.delays(parsed["delays"]) ?? Array(1...6)
            options.delays = Array(Set(delays + Array(0...maxDelay)).subtracting([0])).sorted()
            options.sessions = SessionOptions(
                timeoutSeconds: try values.seconds(parsed["session-timeout"], option: "--session-timeout") ?? SessionOptions.defaultTimeoutSeconds,
                userGapSeconds: try values.seconds(parsed["user-gap"], option: "--user-gap") ?? SessionOptions.defaultUserGapSeconds
            )
            options.byMonth = parsed.has("by-month")
            if let zone = parsed["timezone"] {
                guard options.byMonth else { throw values.error("--timezone only applies with --by-month.") }
                _ = try values.timeZone(zone)
                options.timeZone = zone
            }
            return Request(options: options, pricing: parsed["pricing"] ?? defaultTable, quiet: parsed.has("quiet"))
        } catch let error as WarehouseError {
            throw values.error(error.description)
        }
    }
}
