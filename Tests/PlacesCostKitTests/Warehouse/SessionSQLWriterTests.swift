import Foundation
import Testing
@testable import PlacesCostKit

/// The statement `placescost sql` prints, compared byte for byte with `Fixtures/golden/sql/`
/// (`RECORD_GOLDEN=1 swift test` rewrites them after an intended change). Whether the SQL gives
/// the engine's numbers is checked by `scripts/sql/check_sql.py`, which runs it in DuckDB.
@Suite("SQL statement")
struct SessionSQLWriterTests {
    static let fixtures = packageRoot + "/Tests/PlacesCostKitTests/Fixtures/golden/sql"
    static let recording = ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1"

    /// The option sets kept as golden files: the defaults of both dialects, and every option.
    static let goldenCases: [(file: String, arguments: [String])] = [
        ("duckdb-legacy-list.sql", ["--dialect", "duckdb"]),
        ("bigquery-legacy-list.sql", ["--dialect", "bigquery"]),
        ("duckdb-places-new-2025-by-month.sql", ["--dialect", "duckdb", "--pricing", "places-new-2025", "--by-month", "--timezone", "Europe/Paris"]),
        ("bigquery-places-new-2025.sql", ["--dialect", "bigquery", "--pricing", "places-new-2025", "--table", "my-project.logs.calls", "--order-column", "line", "--delays", "2,8", "--session-timeout", "120", "--user-gap", "30.5"]),
        ("bigquery-legacy-2018-by-month.sql", ["--dialect", "bigquery", "--pricing", "legacy-2018", "--by-month"]),
    ]

    @Test("the statements of fixed option sets match their golden files", arguments: goldenCases.map(\.file))
    func golden(file: String) throws {
        let arguments = SessionSQLWriterTests.goldenCases.first { $0.file == file }!.arguments
        let result = runCLI(["sql", "--quiet"] + arguments)
        #expect(result.code == .success, "\(result.stderr)")
        let path = SessionSQLWriterTests.fixtures + "/" + file
        if SessionSQLWriterTests.recording {
            try FileManager.default.createDirectory(atPath: SessionSQLWriterTests.fixtures, withIntermediateDirectories: true)
            try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let expected = SessionSQLWriterTests.withCurrentVersion(try String(contentsOfFile: path, encoding: .utf8))
        if result.stdout != expected {
            let line = zip(result.stdout.split(separator: "\n", omittingEmptySubsequences: false), expected.split(separator: "\n", omittingEmptySubsequences: false))
                .enumerated().first { $0.element.0 != $0.element.1 }
            Issue.record("\(file) differs at line \((line?.offset ?? -1) + 1): got `\(line?.element.0 ?? "")`, expected `\(line?.element.1 ?? "")`. Run RECORD_GOLDEN=1 swift test if the change is intended.")
        }
    }

    /// `golden` with the version in its first line (`-- placescost VERSION: ...`) replaced by
    /// `CLI.version`: raising the version is a change of `CLI.version` alone, not of five golden
    /// files. That the header prints `CLI.version` is `SQLCommandTests`' check; every other byte
    /// of the golden file is still compared.
    static func withCurrentVersion(_ golden: String) -> String {
        let prefix = "-- placescost "
        guard golden.hasPrefix(prefix), let colon = golden.firstIndex(of: ":") else { return golden }
        let recorded = golden[golden.index(golden.startIndex, offsetBy: prefix.count)..<colon]
        guard recorded.first?.isNumber == true, !recorded.contains(where: { $0 == " " || $0 == "\n" }) else { return golden }
        return prefix + CLI.version + golden[colon...]
    }

    static func writer(_ table: String = "legacy-list", dialect: SQLDialect = .duckdb, _ configure: (inout SessionSQLWriter.Options) -> Void = { _ in }) throws -> SessionSQLWriter {
        var options = SessionSQLWriter.Options(dialect: dialect, table: try SQLName("calls", maxParts: 3, option: "--table"))
        configure(&options)
        return try SessionSQLWriter(table: try PriceTableLoader().load(table), options: options)
    }

    @Test("the summary row has the spec's columns: the counts, then one cost column per strategy and delay")
    func columns() throws {
        let writer = try SessionSQLWriterTests.writer()
        #expect(writer.pricedDelays == [0, 1, 2, 3, 4, 5, 6])
        #expect(writer.outputColumns.prefix(10) == [
            "searches_total", "searches_completed", "searches_abandoned", "avg_requests", "token_reused", "expired",
            "details_without_autocomplete", "no_token_requests", "fields_unspecified", "one_request_sessions",
        ])
        #expect(writer.outputColumns.count == 10 + 4 * 7)
        #expect(writer.outputColumns[10] == "cost_current_d0")
        #expect(writer.outputColumns.last == "cost_per_request_geocoding_d6")
        let statement = writer.statement()
        for column in writer.outputColumns {
            #expect(statement.contains(" AS \(column)"), "\(column)")
        }
        let byMonth = try SessionSQLWriterTests.writer { $0.byMonth = true }
        #expect(byMonth.outputColumns.first == "month")
        #expect(byMonth.outputColumns.count == 1 + 4 * 7)
    }

    @Test("the prices of the chosen table are inlined as literals, one line per priced SKU")
    func prices() throws {
        let legacy = try SessionSQLWriterTests.writer().statement()
        #expect(legacy.contains("CAST(autocomplete_request AS DOUBLE) * 2.83 / 1000  -- Autocomplete - Per Request"))
        #expect(legacy.contains("CAST(autocomplete_session_without_details AS DOUBLE) * 17.0 / 1000"))
        #expect(legacy.contains("CAST(geocoding AS DOUBLE) * 5.0 / 1000  -- Geocoding"))
        #expect(legacy.contains("-- Contact Data (unconfirmed"))
        #expect(!legacy.contains("autocomplete_session_with_details AS DOUBLE"), "a $0 SKU adds nothing")
        let new = try SessionSQLWriterTests.writer("places-new-2025", dialect: .bigquery).statement()
        #expect(new.contains("CAST(autocomplete_request + query_autocomplete_request AS FLOAT64) * 2.83 / 1000  -- Autocomplete Requests"))
        #expect(new.contains("CAST(details_enterprise_atmosphere AS FLOAT64) * 25.0 / 1000"))
        #expect(new.contains("LEAST(n, 12)"), "the Essentials request cap")
    }

    @Test("tiers, free caps and the monthly credit of a table are inlined with --by-month")
    func tiers() throws {
        let statement = try SessionSQLWriterTests.writer("legacy-2018") { $0.byMonth = true }.statement()
        #expect(statement.contains("(LEAST(CAST(autocomplete_request AS DOUBLE), 100000) * 2.83 / 1000 + GREATEST("))
        #expect(statement.contains("GREATEST(LEAST(CAST(autocomplete_request AS DOUBLE), 500000) - 100000, 0) * 2.27 / 1000"))
        // Past the last published band the price is an estimate, and the statement says so.
        #expect(statement.contains("GREATEST(CAST(autocomplete_request AS DOUBLE) - 500000, 0) * 2.27 / 1000)  -- Autocomplete - Per Request; above 500000 a month an estimate (contact sales)"))
        #expect(statement.contains("gross - LEAST(200.0, gross) AS cost_usd"))
        let capped = try SessionSQLWriterTests.writer("legacy-2025") { $0.byMonth = true }.statement()
        #expect(capped.contains("GREATEST(LEAST(CAST(geocoding AS DOUBLE), 100000) - 10000, 0) * 5.0 / 1000"))
    }

    @Test("the session timeout and the user gap are inlined in microseconds")
    func durations() throws {
        let statement = try SessionSQLWriterTests.writer {
            $0.sessions = SessionOptions(timeoutSeconds: 90.5, userGapSeconds: 0.25)
        }.statement()
        #expect(statement.contains("ts_us - start_us > 90500000"))
        #expect(statement.contains("ts_us - start_us <= 90500000"))
        #expect(statement.contains("ts_us - LAG(ts_us) OVER w <= 250000"))
        #expect(statement.contains("session timeout 90.5 s"))
    }

    @Test("the New table's terminating-details rule applies from its start day")
    func terminatingRule() throws {
        let statement = try SessionSQLWriterTests.writer("places-new-2025").statement()
        // 2025-03-01 is day 20148 since the epoch.
        #expect(statement.contains("CASE WHEN start_us >= \(Int64(20148) * 86_400_000_000) THEN 1 ELSE 0 END AS terminator_ea"))
    }

    @Test("every api name and alias the SQL maps is the one API.parse gives")
    func apiAliases() {
        for (alias, canonical) in SessionSQLWriter.apiNames {
            #expect(API.parse(alias).api.name == canonical, "\(alias)")
            #expect(API.parse(alias.uppercased()).api.name == canonical, "\(alias) in capitals")
        }
        for name in ["findAutocompletePredictions", "AutocompletePlaces", "fetchPlace", "GetPlace", "geocode"] {
            #expect(SessionSQLWriter.apiNames.contains { $0.alias == name.lowercased() }, "\(name)")
        }
    }

    @Test("every field name of the catalog is in the SQL's lists, under its own category")
    func fieldCatalog() throws {
        let legacy = try SessionSQLWriterTests.writer().statement()
        let new = try SessionSQLWriterTests.writer("places-new-2025").statement()
        for (name, _) in FieldCatalog.entries {
            #expect(legacy.contains("'\(name)'"), "\(name)")
            #expect(new.contains("'\(name)'"), "\(name)")
        }
        #expect(legacy.contains("WHEN starts_with(field, 'serves') OR starts_with(field, 'allows') OR starts_with(field, 'goodfor') THEN 4"))
        #expect(new.contains("ELSE 2"), "an unknown New field bills as Pro")
    }

    @Test("ties in time: DuckDB keeps row order, BigQuery takes an order column or autocomplete first")
    func ties() throws {
        #expect(try SessionSQLWriterTests.writer().statement().contains("ROW_NUMBER() OVER () AS ord,"))
        let bigquery = try SessionSQLWriterTests.writer(dialect: .bigquery).statement()
        #expect(!bigquery.contains("OVER () "), "an unpartitioned window runs on one BigQuery worker")
        #expect(bigquery.contains("ORDER BY ts_us, CASE WHEN api = 'autocomplete' THEN 0 ELSE 1 END"))
        let ordered = try SessionSQLWriterTests.writer(dialect: .bigquery) {
            $0.orderColumn = try! SQLName("line", maxParts: 1, option: "--order-column")
        }.statement()
        #expect(ordered.contains("`line` AS ord,"))
        #expect(ordered.contains("ORDER BY ts_us, ord)"))
    }

    @Test("DuckDB reads what read_json_auto and read_csv_auto leave: missing columns, sessionToken, text fields")
    func duckdbLoaders() throws {
        let duckdb = try SessionSQLWriterTests.writer().statement()
        #expect(duckdb.contains("UNION ALL BY NAME"))
        #expect(duckdb.contains("NULL AS \"project\""))
        #expect(duckdb.contains("COALESCE(NULLIF(CAST(\"session_token\" AS VARCHAR), ''), NULLIF(CAST(\"sessionToken\" AS VARCHAR), '')) AS token"))
        #expect(duckdb.contains("WHEN typeof(\"timestamp\") = 'TIMESTAMP WITH TIME ZONE'"))
        #expect(duckdb.contains("THEN string_split(CAST(\"fields\" AS VARCHAR), CASE WHEN contains(CAST(\"fields\" AS VARCHAR), '|') THEN '|' ELSE ',' END)"),
                "a CSV cell of fields is split as analyze splits it")
        let bigquery = try SessionSQLWriterTests.writer(dialect: .bigquery).statement()
        #expect(!bigquery.contains("sessionToken") && !bigquery.contains("BY NAME"), "BigQuery reads its schema's columns")
        #expect(bigquery.contains("UNIX_MICROS(`timestamp`) AS ts_us"))
    }

    @Test("a call's typed length is its input's code points, else its recorded input_length (privacy-first logs)")
    func inputLength() throws {
        let duckdb = try SessionSQLWriterTests.writer().statement()
        #expect(duckdb.contains("""
                COALESCE(
                  length(CAST("input" AS VARCHAR)),
                  CAST(COALESCE(NULLIF(trim(CAST("input_length" AS VARCHAR), '"'), ''), NULLIF(trim(CAST("inputLength" AS VARCHAR), '"'), '')) AS BIGINT)
                ) AS input_len,
            """))
        #expect(duckdb.contains("NULL AS \"input_length\", NULL AS \"inputLength\""), "a table loaded without the column reads it as NULL")
        let bigquery = try SessionSQLWriterTests.writer(dialect: .bigquery).statement()
        #expect(bigquery.contains("""
                COALESCE(
                  CHAR_LENGTH(CAST(`input` AS STRING)),
                  CAST(NULLIF(CAST(`input_length` AS STRING), '') AS INT64)
                ) AS input_len,
            """))
    }

    @Test("text from a user's price table cannot end a comment and become SQL")
    func userTableText() throws {
        var table = try PriceTableLoader().load("legacy-list")
        table.id = "mine\nDROP TABLE calls; --"
        table.skus[0].name = "Autocomplete\r\nDELETE FROM calls"
        var options = SessionSQLWriter.Options(dialect: .duckdb, table: try SQLName("calls", maxParts: 3, option: "--table"))
        options.byMonth = true
        for byMonth in [false, true] {
            options.byMonth = byMonth
            let statement = try SessionSQLWriter(table: table, options: options).statement()
            for line in statement.split(separator: "\n") {
                #expect(!line.hasPrefix("DROP") && !line.hasPrefix("DELETE") && !line.hasPrefix("\r"), "\(line)")
            }
        }
    }

    @Test("an unknown time zone is refused")
    func timeZone() {
        #expect(throws: WarehouseError.unknownTimeZone("Mars/Olympus")) {
            try SessionSQLWriterTests.writer { $0.timeZone = "Mars/Olympus" }
        }
    }
}
