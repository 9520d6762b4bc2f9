import Foundation

/// Writes the analysis of `placescost analyze` as one SQL statement a warehouse runs at any scale
/// (`docs/cli.md`, `sql`): the session rules of `docs/sessions.md` as window functions over a table of
/// canonical calls, the chosen price table's prices inlined as literals.
///
/// The statement follows the engine step by step, and each CTE says which rule it implements:
/// the token walk (`TokenWalk`), the user walk (`UserWalk`), the billing of each strategy
/// (`SearchPricer`) and the costs (`CostCalculator`). Identical searches are priced once, as the
/// engine's `SearchSummary` does, so the pricing runs over a few thousand rows at any volume.
struct SessionSQLWriter: Sendable {
    struct Options: Sendable {
        var dialect: SQLDialect
        /// The table of canonical calls.
        var table: SQLName
        /// A column whose order breaks ties in time (input order); `nil`: DuckDB's row order, or in
        /// BigQuery autocomplete calls first.
        var orderColumn: SQLName?
        var sessions = SessionOptions()
        /// Delays priced besides 0.
        var delays: [Int] = Array(1...6)
        /// One row per calendar month with the billed cost (free caps, tiers, credit) instead of
        /// the summary row with list costs.
        var byMonth = false
        /// The IANA zone calendar months are taken in (`--by-month`).
        var timeZone = "UTC"

        init(dialect: SQLDialect, table: SQLName) {
            self.dialect = dialect
            self.table = table
        }
    }

    let table: PriceTable
    let options: Options
    var dialect: SQLDialect { options.dialect }

    /// - Throws: `WarehouseError.unknownTimeZone` for a zone Foundation does not know.
    init(table: PriceTable, options: Options) throws {
        guard TimeZone(identifier: options.timeZone) != nil else { throw WarehouseError.unknownTimeZone(options.timeZone) }
        self.table = table
        self.options = options
    }

    /// The delays priced: 0 first, then each other delay once, in order (as `CostCalculator`).
    var pricedDelays: [Int] { [0] + Set(options.delays.filter { $0 > 0 }).sorted() }

    /// The name of the cost column of one strategy at one delay.
    static func costColumn(_ strategy: StrategyID, delay: Int) -> String {
        "cost_\(strategy.rawValue)_d\(delay)"
    }

    /// The columns of the row (or, with `byMonth`, of each row) the statement returns.
    var outputColumns: [String] {
        let costs = StrategyID.allCases.flatMap { strategy in pricedDelays.map { SessionSQLWriter.costColumn(strategy, delay: $0) } }
        if options.byMonth { return ["month"] + costs }
        return SessionSQLWriter.countColumns + costs
    }

    /// The counts of the summary row, under their `report.json` names.
    static let countColumns = [
        "searches_total", "searches_completed", "searches_abandoned", "avg_requests",
        "token_reused", "expired", "details_without_autocomplete", "no_token_requests",
        "fields_unspecified", "one_request_sessions",
    ]

    /// API names and aliases of `docs/formats.md`, lowercased, with the canonical name: the
    /// engine's own table (`API.aliases`), so the SQL and `analyze` read the same names.
    static let apiNames: [(alias: String, api: String)] = API.aliases.map { ($0.name, $0.api.name) }

    /// The unconfirmed prices the statement inlines (`docs/billing.md`: say when one is used), as
    /// `analyze` names them.
    var unconfirmedPrices: [String] {
        table.skus.flatMap { sku in
            sku.tiers.enumerated().compactMap { index, tier -> String? in
                guard index == 0 || options.byMonth, !tier.confirmed, tier.usdPer1000 != 0 else { return nil }
                return "\(table.id): \(sku.name), \(index == 0 ? "first tier" : "tier \(index + 1)"): \(tier.source)"
            }
        }
    }

    /// The whole statement, ending with a newline.
    func statement() -> String {
        var blocks: [[String]] = [
            callsRead(), maskFields(), masks(), callsMasked(),
            tokenCalls(), tokenEnds(), tokenRoles(), tokenRuns(), sessions(), spentRuns(),
            userCalls(), userSearches(), inferredSearches(),
            searchRows(), searches(), baseCalls(),
            searchShapes(), strategyGrid(), searchPlans(), searchEvents(), baseEvents(), events(),
        ]
        blocks += options.byMonth ? [monthCosts()] : [costs(), summary()]
        var lines = header()
        lines.append("WITH")
        for (index, block) in blocks.enumerated() {
            lines += block
            if index < blocks.count - 1 { lines[lines.count - 1] += "," }
        }
        lines += options.byMonth ? finalByMonth() : finalSummary()
        return lines.joined(separator: "\n") + ";\n"
    }

    // MARK: - Header

    private func header() -> [String] {
        let rules = table.apiVersion == .legacy
            ? "legacy API: an abandoned session is one per-session charge"
            : "Places API (New): the \(table.sessionRules?.essentialsRequestCap ?? 12)-request cap and the terminating-SKU rule"
        let delays = pricedDelays.filter { $0 > 0 }.map(String.init).joined(separator: ",")
        var lines = [
            "-- placescost \(CLI.version): the analysis of `placescost analyze` as one \(dialect.title) statement.",
            "-- Reads \(options.table.quoted(in: dialect)): one row per call with the canonical columns timestamp, api,",
            "--   session_token, input, fields (a list of strings), user_id and project (the last two may be all NULL).",
            "-- Rules of sessions.md: session timeout \(seconds(options.sessions.timeout)) s from the session's start, user gap \(seconds(options.sessions.userGap)) s,",
            "--   delays \(delays.isEmpty ? "none" : delays) (characters counted in Unicode code points).",
            "-- Prices of `\(commented(table.id))` (\(rules)), inlined below.",
        ]
        if let column = options.orderColumn {
            lines.append("-- Calls at the same time keep the order of column \(column.quoted(in: dialect)) (the log's order).")
        } else if dialect == .duckdb {
            lines.append("-- Calls at the same time keep the table's row order (the log's order when loaded as the README shows).")
        } else {
            lines.append("-- A BigQuery table has no row order: calls of one token or user at the same microsecond are taken")
            lines.append("--   autocomplete first, then by api, input length and fields (--order-column gives the log's order).")
        }
        if options.byMonth {
            lines.append("-- Returns one row per calendar month (\(options.timeZone)): month (YYYY-MM) and cost_<strategy>_d<delay>,")
            lines.append("--   the bill after free caps, tiers and credit (costs.csv's cost_usd), USD rounded to 1e-6.")
        } else {
            lines.append("-- Returns one row: searches_total, searches_completed, searches_abandoned, avg_requests, the anomaly")
            lines.append("--   counts of report.json, and cost_<strategy>_d<delay>: list_cost_usd, USD rounded to 1e-6.")
        }
        return lines
    }

    /// Text from a price table, made safe for a `--` comment: a user's table could hold a line
    /// break, and what follows it would be SQL.
    func commented(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map {
            $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" ? " " : $0
        }))
    }

    func seconds(_ duration: Duration64) -> String {
        let micros = duration.microseconds
        return micros % 1_000_000 == 0 ? String(micros / 1_000_000) : String(Double(micros) / 1_000_000)
    }
}
