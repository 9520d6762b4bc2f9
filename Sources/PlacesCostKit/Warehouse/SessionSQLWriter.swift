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
    private var dialect: SQLDialect { options.dialect }

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

    /// API names and aliases of `docs/formats.md`, lowercased, with the canonical name (`API.parse`).
    static let apiNames: [(alias: String, api: String)] = [
        ("autocomplete", "autocomplete"), ("findautocompletepredictions", "autocomplete"),
        ("autocompleteplaces", "autocomplete"), ("query_autocomplete", "query_autocomplete"),
        ("place_details", "place_details"), ("fetchplace", "place_details"), ("getplace", "place_details"),
        ("geocoding", "geocoding"), ("geocode", "geocoding"), ("find_place", "find_place"),
        ("text_search", "text_search"), ("address_validation", "address_validation"),
    ]

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
    private func commented(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map {
            $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" ? " " : $0
        }))
    }

    private func seconds(_ duration: Duration64) -> String {
        let micros = duration.microseconds
        return micros % 1_000_000 == 0 ? String(micros / 1_000_000) : String(Double(micros) / 1_000_000)
    }

    // MARK: - Calls

    private func column(_ name: String) -> String { dialect.quote(name) }

    /// The ORDER BY of every walk: time, then the tie-break.
    private var timeOrder: String {
        if options.orderColumn != nil || dialect == .duckdb { return "ts_us, ord" }
        return "ts_us, CASE WHEN api = 'autocomplete' THEN 0 ELSE 1 END, api, input_len, ARRAY_TO_STRING(fields, CHR(31))"
    }

    private func callsRead() -> [String] {
        let timestamp = column("timestamp")
        let api = dialect.text(column("api"))
        var lines = [
            "-- The calls as the engine reads them: time in microseconds since the epoch (UTC), api names and",
            "-- their aliases in any case mapped to the canonical name (unknown names: 'other', no part in",
            "-- sessions), empty strings as absent, the input's length in code points (NULL: no input).",
            "calls_read AS (",
            "  SELECT",
        ]
        let epoch = dialect.epochMicroseconds(timestamp)
        lines += epoch.dropLast().map { "    " + $0 }
        lines.append("    " + epoch.last! + " AS ts_us,")
        if let order = options.orderColumn {
            lines.append("    \(order.quoted(in: dialect)) AS ord,")
        } else if dialect == .duckdb {
            lines.append("    ROW_NUMBER() OVER () AS ord,")
        }
        lines.append("    CASE lower(\(api))")
        for (alias, canonical) in SessionSQLWriter.apiNames {
            lines.append("      WHEN '\(alias)' THEN '\(canonical)'")
        }
        let token = "NULLIF(\(dialect.text(column("session_token"))), '')"
        lines += [
            "      ELSE 'other'",
            "    END AS api,",
            dialect == .duckdb
                ? "    COALESCE(\(token), NULLIF(\(dialect.text(column("sessionToken"))), '')) AS token,"
                : "    \(token) AS token,",
            "    \(dialect.codePoints(dialect.text(column("input")))) AS input_len,",
            "    NULLIF(\(dialect.text(column("user_id"))), '') AS user_id,",
            "    NULLIF(\(dialect.text(column("project"))), '') AS project,",
        ]
        lines += dialect.fieldList(column("fields")).enumerated().map { index, line in
            "    " + line + (index == dialect.fieldList(column("fields")).count - 1 ? " AS fields" : "")
        }
        switch dialect {
        case .bigquery:
            lines.append("  FROM \(options.table.quoted(in: dialect))")
        case .duckdb:
            // UNION BY NAME adds what is missing and leaves the row order alone.
            let fillers = ["session_token", "sessionToken", "input", "fields", "user_id", "project"].map { "NULL AS \(column($0))" }
            lines += [
                "  FROM (",
                "    -- Optional columns a loader left out (read_json_auto drops keys no record has) are NULL;",
                "    -- sessionToken, the alias analyze also reads, counts when session_token is empty.",
                "    SELECT * FROM \(options.table.quoted(in: dialect))",
                "    UNION ALL BY NAME",
                "    SELECT " + fillers.joined(separator: ", ") + " WHERE false",
                "  ) AS source",
            ]
        }
        lines += [
            "  WHERE \(timestamp) IS NOT NULL AND \(column("api")) IS NOT NULL AND \(api) <> ''",
            ")",
        ]
        return lines
    }

    /// The SKU code of one field key, `field` (FieldCatalog): legacy data SKU bits (1 Basic,
    /// 2 Contact, 4 Atmosphere) or the New SKU level (0 IDs Only ... 4 Enterprise + Atmosphere).
    private func fieldSKU(_ field: String) -> [String] {
        var lines = ["CASE"]
        let prefixes = FieldCatalog.atmospherePrefixes.map { "starts_with(\(field), '\($0)')" }.joined(separator: " OR ")
        switch table.apiVersion {
        case .legacy:
            for category in FieldCatalog.LegacyCategory.allCases {
                let names = FieldCatalog.entries.filter { $0.value.0 == category }.map(\.key).sorted()
                lines += inList(field, names, then: String(1 << category.rawValue))
            }
            lines.append("  WHEN \(prefixes) THEN \(1 << FieldCatalog.LegacyCategory.atmosphere.rawValue)")
            lines.append("  ELSE \(1 << FieldCatalog.LegacyCategory.basic.rawValue)")
        case .new:
            for sku in FieldCatalog.NewSKU.allCases {
                let names = FieldCatalog.entries.filter { $0.value.1 == sku }.map(\.key).sorted()
                lines += inList(field, names, then: String(sku.rawValue))
            }
            lines.append("  WHEN \(prefixes) THEN \(FieldCatalog.NewSKU.enterpriseAtmosphere.rawValue)")
            lines.append("  ELSE \(FieldCatalog.NewSKU.pro.rawValue)")
        }
        lines.append("END")
        return lines
    }

    /// `WHEN value IN ('a', 'b', ...) THEN result`, wrapped to lines of about 100 characters.
    private func inList(_ value: String, _ names: [String], then result: String) -> [String] {
        guard !names.isEmpty else { return [] }
        var lines: [String] = []
        var current = "  WHEN \(value) IN ("
        for (index, name) in names.enumerated() {
            let item = "'\(name)'" + (index < names.count - 1 ? "," : ") THEN \(result)")
            if current.count + item.count + 1 > 100 {
                lines.append(current)
                current = "      " + item
            } else {
                current += (current.hasSuffix("(") ? "" : " ") + item
            }
        }
        lines.append(current)
        return lines
    }

    /// The SKU code of a details call with every field (no mask, or `*`).
    private var allFieldsSKU: Int {
        switch table.apiVersion {
        case .legacy: FieldCatalog.LegacyCategory.allCases.reduce(0) { $0 | 1 << $1.rawValue }
        case .new: FieldCatalog.NewSKU.enterpriseAtmosphere.rawValue
        }
    }

    /// The SKU code of `FieldCatalog.basicMask` (what the basic strategies cut masks to).
    private var basicMaskSKU: Int {
        switch table.apiVersion {
        case .legacy: FieldCatalog.legacyCategories(FieldCatalog.basicMask).reduce(0) { $0 | 1 << $1.rawValue }
        case .new: FieldCatalog.newSKU(FieldCatalog.basicMask).rawValue
        }
    }

    /// The distinct field masks of place_details calls, each classified once (a log holds a few
    /// dozen): classifying every call in place costs DuckDB seconds per million calls.
    private func maskFields() -> [String] {
        let whitespace = "' ' || CHR(9)"
        return [
            "-- The named fields of each distinct field mask of place_details calls (a log holds a few dozen",
            "-- masks): names trimmed of spaces and tabs, blank names dropped. A name is looked up without case,",
            "-- a path (geometry/location) by its first part, with `places.` dropped (FieldCatalog).",
            "mask_fields AS (",
            "  SELECT",
            "    mask_key, name,",
            "    REGEXP_REPLACE(REGEXP_REPLACE(LOWER(name), '(?s)/.*', ''), '^places[.]', '') AS field",
            "  FROM (",
            "    SELECT d.mask_key, TRIM(f, \(whitespace)) AS name",
            "    FROM (",
            "      SELECT \(dialect.maskKey("fields")) AS mask_key, ANY_VALUE(fields) AS fields",
            "      FROM calls_read WHERE api = 'place_details' AND fields IS NOT NULL",
            "      GROUP BY 1",
            "    ) AS d",
            "    CROSS JOIN \(dialect.unnest("d.fields", as: "f"))",
            "  ) AS trimmed",
            "  WHERE name <> ''",
            ")",
        ]
    }

    private func masks() -> [String] {
        let sku = fieldSKU("field")
        let aggregate = table.apiVersion == .legacy ? "BIT_OR" : "MAX"
        var lines = [
            "-- What each mask bills: " + (table.apiVersion == .legacy
                ? "the legacy data SKUs as bits 1 Basic, 2 Contact, 4 Atmosphere (all with `*`;"
                : "the New details SKU, 0 IDs Only, 1 Essentials, 2 Pro, 3 Enterprise, 4 Enterprise"),
            table.apiVersion == .legacy
                ? "-- an unknown name bills as Basic)."
                : "-- + Atmosphere: the highest of its fields (4 with `*`; an unknown name bills as Pro).",
            "masks AS (",
            "  SELECT",
            "    mask_key,",
            "    CASE WHEN MAX(CASE WHEN name = '*' THEN 1 ELSE 0 END) = 1 THEN \(allFieldsSKU)",
            "      ELSE \(aggregate)(",
        ]
        lines += sku.map { "        " + $0 }
        lines += [
            "      ) END AS mask_sku",
            "  FROM mask_fields",
            "  GROUP BY mask_key",
            ")",
        ]
        return lines
    }

    private func callsMasked() -> [String] {
        [
            "-- Each call with its mask; a call with no field mask (NULL, empty, only blank names) has",
            "-- has_mask = 0 and bills every field.",
            "calls_masked AS (",
            "  SELECT",
            "    c.*,",
            "    CASE WHEN m.mask_key IS NULL THEN 0 ELSE 1 END AS has_mask,",
            "    COALESCE(m.mask_sku, \(allFieldsSKU)) AS mask_sku",
            "  FROM calls_read AS c",
            "  LEFT JOIN masks AS m ON c.api = 'place_details' AND \(dialect.maskKey("c.fields")) = m.mask_key",
            ")",
        ]
    }

    // MARK: - The token walk (TokenWalk)

    private var timeoutMicroseconds: String { String(options.sessions.timeout.microseconds) }

    private func tokenCalls() -> [String] {
        [
            "-- Token walk, sessions.md rules 1-5. The calls with a token that take part in sessions",
            "-- (autocomplete, place_details, address_validation), grouped by (project, token) and numbered in",
            "-- time order; start_us is the first call's time, the session's start when it is an autocomplete call.",
            "token_calls AS (",
            "  SELECT",
            "    c.*,",
            "    ROW_NUMBER() OVER w AS step,",
            "    FIRST_VALUE(api) OVER w AS first_api,",
            "    FIRST_VALUE(ts_us) OVER w AS start_us",
            "  FROM calls_masked AS c",
            "  WHERE token IS NOT NULL AND api IN ('autocomplete', 'place_details', 'address_validation')",
            "  WINDOW w AS (PARTITION BY project, token ORDER BY \(timeOrder))",
            ")",
        ]
    }

    private func tokenEnds() -> [String] {
        [
            "-- Where the session ends: the first call after the opening autocomplete call that does not join",
            "-- it, i.e. a details call (rule 3: it completes the session) or any call more than the timeout",
            "-- after the start (rule 2: the session expired).",
            "token_ends AS (",
            "  SELECT",
            "    t.*,",
            "    MIN(CASE WHEN first_api = 'autocomplete' AND step > 1",
            "             AND (api <> 'autocomplete' OR ts_us - start_us > \(timeoutMicroseconds)) THEN step END)",
            "      OVER (PARTITION BY project, token) AS end_step",
            "  FROM token_calls AS t",
            ")",
        ]
    }

    private func tokenRoles() -> [String] {
        [
            "-- Each call's part: 'session' (the opener and the calls that join it), 'selection' (the details",
            "-- call that completes it), 'orphan' (a details call on a fresh token, rule 4: a standalone details",
            "-- call that spends the token) or 'spent' (every call after the token was spent: completed, used",
            "-- by a details call, or expired, the call that revealed the expiry included).",
            "token_roles AS (",
            "  SELECT",
            "    e.*,",
            "    CASE",
            "      WHEN first_api <> 'autocomplete' AND step = 1 THEN 'orphan'",
            "      WHEN first_api = 'autocomplete' AND (end_step IS NULL OR step < end_step) THEN 'session'",
            "      WHEN step = end_step AND ts_us - start_us <= \(timeoutMicroseconds) THEN 'selection'",
            "      ELSE 'spent'",
            "    END AS role",
            "  FROM token_ends AS e",
            ")",
        ]
    }

    private func tokenRuns() -> [String] {
        [
            "-- Calls after the token was spent form runs, each up to and including a details call: run counts",
            "-- the spent details calls before the call.",
            "token_runs AS (",
            "  SELECT",
            "    r.*,",
            "    COALESCE(SUM(CASE WHEN role = 'spent' AND api <> 'autocomplete' THEN 1 ELSE 0 END) OVER (",
            "      PARTITION BY project, token ORDER BY step ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS run",
            "  FROM token_roles AS r",
            ")",
        ]
    }

    /// `kept_<k>`: autocomplete calls a delay of k keeps (input longer than k, or unrecorded).
    private func keptColumns(where condition: String) -> [String] {
        pricedDelays.filter { $0 > 0 }.map { delay in
            "    SUM(CASE WHEN \(condition) AND (input_len IS NULL OR input_len > \(delay)) THEN 1 ELSE 0 END) AS kept_\(delay),"
        }
    }

    private func sessions() -> [String] {
        var lines = [
            "-- One session per token opened by an autocomplete call: completed by its selection, else",
            "-- expired (closed by the timeout) or abandoned (still open at the end of the token's calls).",
            "sessions AS (",
            "  SELECT",
            "    MIN(start_us) AS start_us,",
            "    SUM(CASE WHEN role = 'session' THEN 1 ELSE 0 END) AS requests,",
        ]
        lines += keptColumns(where: "role = 'session'")
        lines += [
            "    MAX(CASE WHEN role = 'selection' THEN 1 ELSE 0 END) AS completed,",
            "    MAX(CASE WHEN role = 'spent' AND step = end_step THEN 1 ELSE 0 END) AS expired,",
            "    MAX(CASE WHEN role = 'selection' THEN api END) AS selection_api,",
            "    MAX(CASE WHEN role = 'selection' THEN mask_sku END) AS selection_sku",
            "  FROM token_runs",
            "  WHERE first_api = 'autocomplete'",
            "  GROUP BY project, token",
            ")",
        ]
        return lines
    }

    private func spentRuns() -> [String] {
        var lines = [
            "-- The runs after the token was spent: a run with an autocomplete call is a search billed as",
            "-- without a token (completed when a details call ends it); a run of one details call is a",
            "-- standalone details call.",
            "spent_runs AS (",
            "  SELECT",
            "    MIN(CASE WHEN api = 'autocomplete' THEN ts_us END) AS start_us,",
            "    MAX(CASE WHEN api <> 'autocomplete' THEN ts_us END) AS selection_us,",
            "    SUM(CASE WHEN api = 'autocomplete' THEN 1 ELSE 0 END) AS requests,",
        ]
        lines += keptColumns(where: "api = 'autocomplete'")
        lines += [
            "    MAX(CASE WHEN api <> 'autocomplete' THEN 1 ELSE 0 END) AS completed,",
            "    MAX(CASE WHEN api <> 'autocomplete' THEN api END) AS selection_api,",
            "    MAX(CASE WHEN api <> 'autocomplete' THEN mask_sku END) AS selection_sku",
            "  FROM token_runs",
            "  WHERE role = 'spent'",
            "  GROUP BY project, token, run",
            ")",
        ]
        return lines
    }

    // MARK: - The user walk (UserWalk)

    private func userCalls() -> [String] {
        [
            "-- User walk (sessions.md, token-less calls): autocomplete, place_details and geocoding calls",
            "-- without a token but with a user id, by (project, user_id) in time order. A call continues the",
            "-- open search when the call before it is an autocomplete call at most the gap (\(seconds(options.sessions.userGap)) s) earlier:",
            "-- an autocomplete call joins it, a details or geocoding call completes it.",
            "user_calls AS (",
            "  SELECT",
            "    c.*,",
            "    ROW_NUMBER() OVER w AS step,",
            "    CASE WHEN LAG(api) OVER w = 'autocomplete' AND ts_us - LAG(ts_us) OVER w <= \(options.sessions.userGap.microseconds)",
            "         THEN 1 ELSE 0 END AS continues",
            "  FROM calls_masked AS c",
            "  WHERE token IS NULL AND user_id IS NOT NULL AND api IN ('autocomplete', 'place_details', 'geocoding')",
            "  WINDOW w AS (PARTITION BY project, user_id ORDER BY \(timeOrder))",
            ")",
        ]
    }

    private func userSearches() -> [String] {
        [
            "-- An autocomplete call that does not continue a search starts one: search numbers them.",
            "user_searches AS (",
            "  SELECT",
            "    u.*,",
            "    SUM(CASE WHEN api = 'autocomplete' AND continues = 0 THEN 1 ELSE 0 END) OVER (",
            "      PARTITION BY project, user_id ORDER BY step ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS search",
            "  FROM user_calls AS u",
            ")",
        ]
    }

    private func inferredSearches() -> [String] {
        var lines = [
            "-- The inferred searches: their autocomplete calls and the call that completed them.",
            "inferred AS (",
            "  SELECT",
            "    MIN(CASE WHEN api = 'autocomplete' THEN ts_us END) AS start_us,",
            "    SUM(CASE WHEN api = 'autocomplete' THEN 1 ELSE 0 END) AS requests,",
        ]
        lines += keptColumns(where: "api = 'autocomplete'")
        lines += [
            "    MAX(CASE WHEN api <> 'autocomplete' THEN 1 ELSE 0 END) AS completed,",
            "    MAX(CASE WHEN api <> 'autocomplete' THEN api END) AS selection_api,",
            "    MAX(CASE WHEN api <> 'autocomplete' THEN mask_sku END) AS selection_sku",
            "  FROM user_searches",
            "  WHERE search > 0 AND (api = 'autocomplete' OR continues = 1)",
            "  GROUP BY project, user_id, search",
            ")",
        ]
        return lines
    }

    // MARK: - Searches and base calls

    private func searchRows() -> [String] {
        let kept = pricedDelays.filter { $0 > 0 }.map { "kept_\($0)" }
        let columns = (["start_us", "requests"] + kept + ["completed"]).joined(separator: ", ")
        return [
            "-- Every search: sessions, runs after a spent token that hold an autocomplete call, inferred searches.",
            "search_rows AS (",
            "  SELECT 'session' AS kind, \(columns), expired, selection_api, selection_sku FROM sessions",
            "  UNION ALL",
            "  SELECT 'spent_token' AS kind, \(columns), 0 AS expired, selection_api, selection_sku FROM spent_runs WHERE requests > 0",
            "  UNION ALL",
            "  SELECT 'inferred' AS kind, \(columns), 0 AS expired, selection_api, selection_sku FROM inferred",
            ")",
        ]
    }

    private func searches() -> [String] {
        var lines = [
            "-- n_<k>: the autocomplete calls billed at delay k; a completed search keeps at least one request",
            "-- (the user types on until predictions appear), an abandoned one may keep none.",
            "searches AS (",
            "  SELECT",
            "    kind, start_us, requests, completed, expired,",
            "    COALESCE(selection_api, 'none') AS selection_api,",
            "    COALESCE(selection_sku, 0) AS selection_sku,",
            "    requests AS n_0,",
        ]
        for delay in pricedDelays where delay > 0 {
            lines.append("    CASE WHEN completed = 1 AND kept_\(delay) = 0 THEN 1 ELSE kept_\(delay) END AS n_\(delay),")
        }
        lines[lines.count - 1].removeLast()
        lines += ["  FROM search_rows", ")"]
        return lines
    }

    private func baseCalls() -> [String] {
        [
            "-- Calls outside every search, priced alike in every strategy: calls in neither walk (no token",
            "-- and no user id, or an api that takes no part), details calls on a fresh token, standalone",
            "-- details calls after a spent token, and token-less details or geocoding calls no search took.",
            "base_calls AS (",
            "  SELECT ts_us, api, mask_sku FROM calls_masked",
            "  WHERE NOT (token IS NOT NULL AND api IN ('autocomplete', 'place_details', 'address_validation'))",
            "    AND NOT (token IS NULL AND user_id IS NOT NULL AND api IN ('autocomplete', 'place_details', 'geocoding'))",
            "  UNION ALL",
            "  SELECT ts_us, api, mask_sku FROM token_runs WHERE role = 'orphan'",
            "  UNION ALL",
            "  SELECT selection_us AS ts_us, selection_api AS api, selection_sku AS mask_sku FROM spent_runs WHERE requests = 0",
            "  UNION ALL",
            "  SELECT ts_us, api, mask_sku FROM user_searches WHERE api <> 'autocomplete' AND continues = 0",
            ")",
        ]
    }

    // MARK: - Pricing (SearchPricer)

    private var nColumns: [String] { pricedDelays.map { "n_\($0)" } }

    /// Whether the New table's terminating-details rule bills Enterprise + Atmosphere for a search
    /// starting at `start_us` (the rule has a start day; before it, its `before` rule).
    private var terminatorRule: String {
        guard let rules = table.sessionRules else { return "0" }
        let now = rules.terminatingDetails.rule == .enterpriseAtmosphere ? "1" : "0"
        let before = rules.terminatingDetails.before == .enterpriseAtmosphere ? "1" : "0"
        guard let day = PriceTableLoader.parseDay(rules.terminatingDetails.effectiveFrom), now != before else { return now }
        // The engine compares whole days since the epoch, truncated toward zero.
        let threshold = day > 0 ? "start_us >= \(Int64(day) * 86_400_000_000)" : "start_us > \(Int64(day - 1) * 86_400_000_000)"
        return "CASE WHEN \(threshold) THEN \(now) ELSE \(before) END"
    }

    private func monthOf(_ microseconds: String) -> String {
        dialect.monthLabel(microseconds: microseconds, timeZone: options.timeZone)
    }

    private func searchShapes() -> [String] {
        var keys = ["kind", "completed", "selection_api", "selection_sku"] + nColumns
        var lines = [
            "-- Searches that bill alike, counted once (the engine's SearchSummary does the same).",
            "search_shapes AS (",
            "  SELECT",
            "    " + keys.joined(separator: ", ") + ",",
        ]
        if table.apiVersion == .new {
            lines.append("    \(terminatorRule) AS terminator_ea,")
            keys.append("terminator_ea")
        }
        if options.byMonth {
            lines.append("    \(monthOf("start_us")) AS month,")
            keys.append("month")
        }
        lines += [
            "    COUNT(*) AS searches",
            "  FROM searches",
            "  GROUP BY " + keys.joined(separator: ", "),
            ")",
        ]
        return lines
    }

    private func strategyGrid() -> [String] {
        var rows: [String] = []
        for strategy in StrategyID.allCases {
            for delay in pricedDelays {
                rows.append("SELECT '\(strategy.rawValue)' AS strategy, \(delay) AS delay")
            }
        }
        return ["-- Every strategy at delay 0 and at each priced delay.", "strategy_grid AS ("]
            + rows.enumerated().map { "  " + $0.element + ($0.offset < rows.count - 1 ? " UNION ALL" : "") }
            + [")"]
    }

    private func searchPlans() -> [String] {
        var lines = [
            "-- How each strategy bills a search (SearchPricer): n calls kept at the delay, and a plan:",
            "-- per_request (every call a request; `current` for runs and inferred searches, and",
            "-- per_request_geocoding), abandoned_session, completed_session, or session_elsewhere (`current`,",
            "-- a session ended by a call no table prices: address_validation). selection: the call billed",
            "-- after per-request calls; mask: the field mask its details call is billed with.",
            "search_plans AS (",
            "  SELECT",
            "    g.strategy, g.delay, s.searches," + (table.apiVersion == .new ? " s.terminator_ea," : "") + (options.byMonth ? " s.month," : ""),
            "    CASE g.delay",
        ]
        for delay in pricedDelays {
            lines.append("      WHEN \(delay) THEN s.n_\(delay)")
        }
        lines += [
            "    END AS n,",
            "    CASE",
            "      WHEN g.strategy = 'per_request_geocoding' THEN 'per_request'",
            "      WHEN g.strategy = 'current' AND s.kind <> 'session' THEN 'per_request'",
            "      WHEN s.completed = 0 THEN 'abandoned_session'",
            "      WHEN g.strategy = 'current' AND s.selection_api <> 'place_details' THEN 'session_elsewhere'",
            "      ELSE 'completed_session'",
            "    END AS plan,",
            "    CASE",
            "      WHEN s.completed = 0 THEN 'none'",
            "      WHEN g.strategy = 'per_request_geocoding' THEN 'geocoding'",
            "      ELSE s.selection_api",
            "    END AS selection,",
            "    CASE",
            "      WHEN g.strategy = 'session_details_basic' THEN \(basicMaskSKU)",
            "      WHEN g.strategy = 'session_details' AND s.selection_api <> 'place_details' THEN \(basicMaskSKU)",
            "      ELSE s.selection_sku",
            "    END AS mask",
            "  FROM search_shapes AS s",
            "  CROSS JOIN strategy_grid AS g",
            ")",
        ]
        return lines
    }

    /// The billing roles the table's generation bills, in `BillingRole` order.
    private var roles: [BillingRole] { BillingRole.required(for: table.apiVersion) }

    /// The count of `role` one search row of `search_plans` bills (times `searches`), or nil
    /// when searches never bill it (only base calls do).
    private func searchRoleCount(_ role: BillingRole) -> String? {
        let details = "(plan = 'completed_session' OR (plan = 'per_request' AND selection = 'place_details'))"
        switch (table.apiVersion, role) {
        case (.legacy, .autocompleteRequest): return "CASE WHEN plan = 'per_request' THEN n ELSE 0 END"
        case (.legacy, .sessionWithDetails): return "CASE WHEN plan IN ('completed_session', 'session_elsewhere') THEN 1 ELSE 0 END"
        case (.legacy, .sessionWithoutDetails): return "CASE WHEN plan = 'abandoned_session' AND n > 0 THEN 1 ELSE 0 END"
        case (.legacy, .placeDetails): return "CASE WHEN \(details) THEN 1 ELSE 0 END"
        case (.legacy, .dataBasic): return "CASE WHEN \(details) AND (mask & 1) <> 0 THEN 1 ELSE 0 END"
        case (.legacy, .dataContact): return "CASE WHEN \(details) AND (mask & 2) <> 0 THEN 1 ELSE 0 END"
        case (.legacy, .dataAtmosphere): return "CASE WHEN \(details) AND (mask & 4) <> 0 THEN 1 ELSE 0 END"
        case (.new, .autocompleteRequest):
            let cap = table.sessionRules?.essentialsRequestCap ?? 12
            return "CASE WHEN plan IN ('per_request', 'abandoned_session') THEN n"
                + " WHEN plan = 'completed_session' AND mask = 0 THEN n"
                + " WHEN plan = 'completed_session' AND mask = 1 THEN LEAST(n, \(cap)) ELSE 0 END"
        case (.new, .sessionUsage):
            let cap = table.sessionRules?.essentialsRequestCap ?? 12
            return "CASE WHEN plan = 'session_elsewhere' THEN n"
                + " WHEN plan = 'completed_session' AND mask = 1 THEN n - LEAST(n, \(cap))"
                + " WHEN plan = 'completed_session' AND mask >= 2 THEN n ELSE 0 END"
        case (.new, .detailsIDsOnly): return "CASE WHEN \(details) AND mask = 0 THEN 1 ELSE 0 END"
        case (.new, .detailsEssentials): return "CASE WHEN \(details) AND mask = 1 THEN 1 ELSE 0 END"
        case (.new, .detailsPro):
            return "CASE WHEN \(details) AND mask = 2 AND NOT (plan = 'completed_session' AND terminator_ea = 1) THEN 1 ELSE 0 END"
        case (.new, .detailsEnterprise):
            return "CASE WHEN \(details) AND mask = 3 AND NOT (plan = 'completed_session' AND terminator_ea = 1) THEN 1 ELSE 0 END"
        case (.new, .detailsEnterpriseAtmosphere):
            return "CASE WHEN \(details) AND (mask = 4 OR (plan = 'completed_session' AND mask >= 2 AND terminator_ea = 1)) THEN 1 ELSE 0 END"
        case (_, .geocoding): return "CASE WHEN plan = 'per_request' AND selection = 'geocoding' THEN 1 ELSE 0 END"
        default: return nil
        }
    }

    /// The count of `role` one base call bills.
    private func baseRoleCount(_ role: BillingRole) -> String? {
        switch (table.apiVersion, role) {
        case (_, .autocompleteRequest): return "CASE WHEN api = 'autocomplete' THEN 1 ELSE 0 END"
        case (_, .queryAutocompleteRequest): return "CASE WHEN api = 'query_autocomplete' THEN 1 ELSE 0 END"
        case (_, .geocoding): return "CASE WHEN api = 'geocoding' THEN 1 ELSE 0 END"
        case (.legacy, .placeDetails): return "CASE WHEN api = 'place_details' THEN 1 ELSE 0 END"
        case (.legacy, .dataBasic): return "CASE WHEN api = 'place_details' AND (mask_sku & 1) <> 0 THEN 1 ELSE 0 END"
        case (.legacy, .dataContact): return "CASE WHEN api = 'place_details' AND (mask_sku & 2) <> 0 THEN 1 ELSE 0 END"
        case (.legacy, .dataAtmosphere): return "CASE WHEN api = 'place_details' AND (mask_sku & 4) <> 0 THEN 1 ELSE 0 END"
        case (.new, .detailsIDsOnly), (.new, .detailsEssentials), (.new, .detailsPro), (.new, .detailsEnterprise),
             (.new, .detailsEnterpriseAtmosphere):
            let level = [BillingRole.detailsIDsOnly, .detailsEssentials, .detailsPro, .detailsEnterprise, .detailsEnterpriseAtmosphere].firstIndex(of: role)!
            return "CASE WHEN api = 'place_details' AND mask_sku = \(level) THEN 1 ELSE 0 END"
        default: return nil
        }
    }

    private var periodKeys: [String] { options.byMonth ? ["month"] : [] }

    private func searchEvents() -> [String] {
        let keys = ["strategy", "delay"] + periodKeys
        var lines = [
            "-- The billable events of the searches per strategy and delay, by billing role.",
            "search_events AS (",
            "  SELECT",
            "    " + keys.joined(separator: ", ") + ",",
        ]
        let counted = roles.compactMap { role in searchRoleCount(role).map { (role, $0) } }
        for (index, (role, count)) in counted.enumerated() {
            lines.append("    SUM(searches * \(count)) AS \(role.rawValue)" + (index < counted.count - 1 ? "," : ""))
        }
        lines += ["  FROM search_plans", "  GROUP BY " + keys.joined(separator: ", "), ")"]
        return lines
    }

    private func baseEvents() -> [String] {
        var lines = [
            "-- The billable events of the base calls, the same in every strategy and delay" + (options.byMonth ? ", per month." : "."),
            "-- find_place, text_search, address_validation and unknown apis are not priced.",
            "base_events AS (",
            "  SELECT",
        ]
        if options.byMonth { lines.append("    month,") }
        let counted = roles.compactMap { role in baseRoleCount(role).map { (role, $0) } }
        for (index, (role, count)) in counted.enumerated() {
            lines.append("    COALESCE(SUM(\(count)), 0) AS \(role.rawValue)" + (index < counted.count - 1 ? "," : ""))
        }
        if options.byMonth {
            lines += ["  FROM (SELECT api, mask_sku, \(monthOf("ts_us")) AS month FROM base_calls) AS b", "  GROUP BY month", ")"]
        } else {
            lines += ["  FROM base_calls", ")"]
        }
        return lines
    }

    private func events() -> [String] {
        var lines = [
            "-- All events per strategy and delay" + (options.byMonth ? " and month (the months any search or base call falls in)." : "."),
            "events AS (",
            "  SELECT",
            "    " + (["g.strategy", "g.delay"] + periodKeys.map { "m.\($0)" }).joined(separator: ", ") + ",",
        ]
        for (index, role) in roles.enumerated() {
            var terms: [String] = []
            if searchRoleCount(role) != nil { terms.append("COALESCE(e.\(role.rawValue), 0)") }
            if baseRoleCount(role) != nil { terms.append("COALESCE(b.\(role.rawValue), 0)") }
            let sum = terms.isEmpty ? "0" : terms.joined(separator: " + ")
            lines.append("    \(sum) AS \(role.rawValue)" + (index < roles.count - 1 ? "," : ""))
        }
        if options.byMonth {
            lines += [
                "  FROM strategy_grid AS g",
                "  CROSS JOIN (SELECT month FROM search_shapes UNION DISTINCT SELECT month FROM base_events) AS m",
                "  LEFT JOIN search_events AS e ON e.strategy = g.strategy AND e.delay = g.delay AND e.month = m.month",
                "  LEFT JOIN base_events AS b ON b.month = m.month",
                ")",
            ]
        } else {
            lines += [
                "  FROM strategy_grid AS g",
                "  LEFT JOIN search_events AS e ON e.strategy = g.strategy AND e.delay = g.delay",
                "  CROSS JOIN base_events AS b",
                ")",
            ]
        }
        return lines
    }

    // MARK: - Costs (CostCalculator)

    /// A price as an SQL number literal (Swift prints the shortest text that reads back exactly).
    private func literal(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(format: "%.1f", value) : "\(value)"
    }

    /// The SKU's events: the sum of its roles' counts.
    private func volume(_ sku: PriceTable.SKU) -> String {
        "CAST(" + sku.roles.map(\.rawValue).joined(separator: " + ") + " AS \(dialect.doubleType))"
    }

    private func rounded(_ expression: String) -> String {
        "ROUND(\(expression) * 1000000) / 1000000"
    }

    private func costs() -> [String] {
        var lines = [
            "-- list_cost_usd (sessions.md, From counts to money): every event at its SKU's first-tier price,",
            "-- no free cap, no credit. Prices of `\(commented(table.id))`, USD per 1,000 events.",
            "costs AS (",
            "  SELECT",
            "    strategy, delay,",
            "    ROUND((",
        ]
        let priced = table.skus.filter { $0.tiers[0].usdPer1000 != 0 }
        if priced.isEmpty { lines.append("      0") }
        for (index, sku) in priced.enumerated() {
            let note = sku.tiers[0].confirmed ? "" : " (unconfirmed: \(sku.tiers[0].source))"
            lines.append("      \(index == 0 ? "  " : "+ ")\(volume(sku)) * \(literal(sku.tiers[0].usdPer1000)) / 1000  -- \(commented(sku.name + note))")
        }
        lines += ["    ) * 1000000) / 1000000 AS list_cost_usd", "  FROM events", ")"]
        return lines
    }

    private func monthCosts() -> [String] {
        var lines = [
            "-- cost_usd (sessions.md, From counts to money): per month, each SKU's volume after its free",
            "-- monthly cap, priced through the graduated tiers of `\(commented(table.id))` (USD per 1,000 events)"
                + (table.monthlyCreditUSD > 0 ? ", less the monthly credit." : "."),
            "month_costs AS (",
            "  SELECT",
            "    month, strategy, delay,",
        ]
        var terms: [String] = []
        for sku in table.skus {
            guard let free = sku.freeMonthly else { continue }  // free without limit
            var lower = 0
            var parts: [String] = []
            for tier in sku.tiers {
                defer { lower = tier.upTo ?? lower }
                guard tier.usdPer1000 != 0 else { continue }
                // The engine bills min(volume, tier top) - max(free, tier bottom) when positive.
                let top = tier.upTo.map { "LEAST(\(volume(sku)), \($0))" } ?? volume(sku)
                let bottom = max(free, lower)
                let billed = bottom == 0 ? top : "GREATEST(\(top) - \(bottom), 0)"
                parts.append("\(billed) * \(literal(tier.usdPer1000)) / 1000")
            }
            if parts.isEmpty { continue }
            terms.append("(" + parts.joined(separator: " + ") + ")  -- \(commented(sku.name))")
        }
        let gross = terms.isEmpty ? ["      0"] : terms.enumerated().map { "      \($0.offset == 0 ? "  " : "+ ")\($0.element)" }
        if table.monthlyCreditUSD > 0 {
            lines += ["    gross - LEAST(\(literal(table.monthlyCreditUSD)), gross) AS cost_usd", "  FROM (", "    SELECT month, strategy, delay, ("]
            lines += gross.map { "  " + $0 }
            lines += ["      ) AS gross", "    FROM events", "  ) AS billed", ")"]
        } else {
            lines += ["    ("] + gross + ["    ) AS cost_usd", "  FROM events", ")"]
        }
        return lines
    }

    private func summary() -> [String] {
        let double = dialect.doubleType
        return [
            "-- The counts of report.json: searches, the mean autocomplete calls per search (rounded to 1e-6",
            "-- as the report does) and the anomalies, each source read once.",
            "summary AS (",
            "  SELECT *",
            "  FROM (",
            "    SELECT",
            "      COUNT(*) AS searches_total,",
            "      COALESCE(SUM(completed), 0) AS searches_completed,",
            "      COALESCE(SUM(1 - completed), 0) AS searches_abandoned,",
            "      CASE WHEN COUNT(*) = 0 THEN 0",
            "        ELSE ROUND(CAST(SUM(requests) AS \(double)) / CAST(COUNT(*) AS \(double)) * 1000000) / 1000000 END AS avg_requests",
            "    FROM searches",
            "  ) AS search_counts",
            "  CROSS JOIN (",
            "    SELECT",
            "      COALESCE(SUM(CASE WHEN role = 'spent' THEN 1 ELSE 0 END), 0) AS token_reused,",
            "      COALESCE(SUM(CASE WHEN role = 'orphan' THEN 1 ELSE 0 END), 0) AS details_without_autocomplete",
            "    FROM token_runs",
            "  ) AS token_counts",
            "  CROSS JOIN (",
            "    SELECT",
            "      COALESCE(SUM(expired), 0) AS expired,",
            "      COALESCE(SUM(CASE WHEN requests = 1 THEN 1 ELSE 0 END), 0) AS one_request_sessions",
            "    FROM sessions",
            "  ) AS session_counts",
            "  CROSS JOIN (",
            "    SELECT",
            "      COALESCE(SUM(CASE WHEN api = 'autocomplete' AND token IS NULL THEN 1 ELSE 0 END), 0) AS no_token_requests,",
            "      COALESCE(SUM(CASE WHEN api = 'place_details' AND has_mask = 0 THEN 1 ELSE 0 END), 0) AS fields_unspecified",
            "    FROM calls_masked",
            "  ) AS call_counts",
            ")",
        ]
    }

    private func pivot(_ value: String) -> [String] {
        var columns: [String] = []
        for strategy in StrategyID.allCases {
            for delay in pricedDelays {
                columns.append("  MAX(CASE WHEN strategy = '\(strategy.rawValue)' AND delay = \(delay) THEN \(value) END) AS \(SessionSQLWriter.costColumn(strategy, delay: delay))")
            }
        }
        return columns
    }

    private func finalSummary() -> [String] {
        let integer = dialect.integerType
        let double = dialect.doubleType
        var lines = ["SELECT"]
        for name in SessionSQLWriter.countColumns {
            let type = name == "avg_requests" ? double : integer
            lines.append("  CAST(MAX(summary.\(name)) AS \(type)) AS \(name),")
        }
        let columns = pivot("list_cost_usd")
        lines += columns.enumerated().map { $0.element + ($0.offset < columns.count - 1 ? "," : "") }
        lines += ["FROM costs", "CROSS JOIN summary"]
        return lines
    }

    private func finalByMonth() -> [String] {
        var lines = ["SELECT", "  month,"]
        let columns = pivot(rounded("cost_usd"))
        lines += columns.enumerated().map { $0.element + ($0.offset < columns.count - 1 ? "," : "") }
        lines += ["FROM month_costs", "GROUP BY month", "ORDER BY month"]
        return lines
    }
}
