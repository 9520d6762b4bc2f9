/// The SQL dialects `placescost sql` writes, and the few expressions in which they differ.
///
/// The statement is written once (`SessionSQLWriter`); everything a dialect spells its own way
/// (quoting, types, time, string length, arrays, month labels) comes from here, so the two
/// dialects cannot drift apart in their rules.
enum SQLDialect: String, Sendable, CaseIterable {
    case bigquery
    case duckdb

    /// The dialect's name for people.
    var title: String {
        switch self {
        case .bigquery: "BigQuery (GoogleSQL)"
        case .duckdb: "DuckDB"
        }
    }

    /// One identifier, quoted so that any name (`timestamp`, a name with a dash) is taken as is.
    func quote(_ identifier: String) -> String {
        switch self {
        case .bigquery: "`" + identifier + "`"
        case .duckdb: "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
    }

    var doubleType: String {
        switch self {
        case .bigquery: "FLOAT64"
        case .duckdb: "DOUBLE"
        }
    }

    var integerType: String {
        switch self {
        case .bigquery: "INT64"
        case .duckdb: "BIGINT"
        }
    }

    /// `value` read as text, whatever type the loader gave the column.
    ///
    /// DuckDB's `read_json_auto` types a column of UUID strings as `UUID`, and a column of numeric
    /// ids as `BIGINT`; the engine compares them as the text of the log.
    func text(_ value: String) -> String {
        switch self {
        case .bigquery: "CAST(\(value) AS STRING)"
        case .duckdb: "CAST(\(value) AS VARCHAR)"
        }
    }

    /// Characters of `text` in Unicode code points (`docs/sessions.md`: delays count code points).
    func codePoints(_ text: String) -> String {
        switch self {
        case .bigquery: "CHAR_LENGTH(\(text))"
        case .duckdb: "length(\(text))"
        }
    }

    /// A recorded `input_length` column as the text of its digits, NULL when absent or empty.
    ///
    /// The engine takes the length as a JSON number or a string of digits, an empty string being
    /// absent (`docs/formats.md` section 1), so loaders keep it as text or as an integer: the
    /// BigQuery schema loads it as STRING, and a table of INT64 reads the same. DuckDB's
    /// `read_json_auto` types a column of numbers and strings as JSON, whose text keeps the quotes.
    func recordedLength(_ column: String) -> String {
        switch self {
        case .bigquery: "NULLIF(\(text(column)), '')"
        case .duckdb: "NULLIF(trim(\(text(column)), '\"'), '')"
        }
    }

    /// Lines that turn the `timestamp` column into microseconds since the Unix epoch (UTC).
    ///
    /// BigQuery's `TIMESTAMP` is an instant. DuckDB tables are loaded in more than one way, so the
    /// expression takes what each loader gives: `TIMESTAMPTZ` (what `read_json_auto` infers from
    /// RFC 3339 strings; an instant), `TIMESTAMP` (naive; taken as UTC), or the log's own text or
    /// number (RFC 3339 with its offset, or epoch milliseconds or seconds, as the engine reads them). The
    /// `typeof` test is constant per column, so each row takes one branch.
    func epochMicroseconds(_ column: String) -> [String] {
        switch self {
        case .bigquery:
            return ["UNIX_MICROS(\(column))"]
        case .duckdb:
            let raw = "trim(CAST(\(column) AS VARCHAR), '\"')"
            return [
                "CASE",
                "  WHEN typeof(\(column)) = 'TIMESTAMP WITH TIME ZONE' THEN epoch_us(CAST(\(column) AS TIMESTAMPTZ))",
                "  WHEN typeof(\(column)) LIKE 'TIMESTAMP%' THEN epoch_us(CAST(\(column) AS TIMESTAMP))",
                // Below 10^11 an epoch number is seconds, else milliseconds (`TimestampParser.epochSecondsLimit`).
                "  WHEN regexp_full_match(\(raw), '[0-9]+')",
                "    THEN CAST(\(raw) AS BIGINT) * CASE WHEN CAST(\(raw) AS BIGINT) < \(TimestampParser.epochSecondsLimit) THEN 1000000 ELSE 1000 END",
                "  WHEN regexp_full_match(\(raw), '-?[0-9]+[.][0-9]*([eE][-+]?[0-9]+)?|-?[0-9]+[eE][-+]?[0-9]+')",
                "    THEN CAST(round(CAST(\(raw) AS DOUBLE) * CASE WHEN CAST(\(raw) AS DOUBLE) < \(TimestampParser.epochSecondsLimit) THEN 1000000 ELSE 1000 END) AS BIGINT)",
                "  ELSE epoch_us(CAST(upper(\(raw)) AS TIMESTAMPTZ))",
                "END",
            ]
        }
    }

    /// Lines that give the `fields` column as a list of strings.
    ///
    /// BigQuery's schema makes it `ARRAY<STRING>`. A DuckDB table loaded from CSV holds one cell
    /// of text, split as `analyze` splits a CSV cell: on `|` when it holds one, else on commas.
    func fieldList(_ column: String) -> [String] {
        switch self {
        case .bigquery:
            return [column]
        case .duckdb:
            let text = "CAST(\(column) AS VARCHAR)"
            return [
                "CASE WHEN typeof(\(column)) = 'VARCHAR'",
                "  THEN string_split(\(text), CASE WHEN contains(\(text), '|') THEN '|' ELSE ',' END)",
                "  ELSE CAST(\(column) AS VARCHAR[]) END",
            ]
        }
    }

    /// The rows of `array` (a list of strings) as a table with one column `alias`.
    func unnest(_ array: String, as alias: String) -> String {
        switch self {
        case .bigquery: "UNNEST(\(array)) AS \(alias)"
        case .duckdb: "unnest(\(array)) AS listed(\(alias))"
        }
    }

    /// A value that tells field lists apart exactly and can be grouped and joined on: DuckDB
    /// compares lists themselves; BigQuery cannot group by an array, so its JSON text stands in.
    func maskKey(_ fields: String) -> String {
        switch self {
        case .bigquery: "TO_JSON_STRING(\(fields))"
        case .duckdb: fields
        }
    }

    /// `YYYY-MM` of an instant given in epoch microseconds, in an IANA time zone.
    func monthLabel(microseconds: String, timeZone: String) -> String {
        let zone = stringLiteral(timeZone)
        switch self {
        case .bigquery:
            return "FORMAT_TIMESTAMP('%Y-%m', TIMESTAMP_MICROS(\(microseconds)), \(zone))"
        case .duckdb:
            if timeZone == "UTC" { return "strftime(make_timestamp(\(microseconds)), '%Y-%m')" }
            return "strftime(timezone(\(zone), timezone('UTC', make_timestamp(\(microseconds)))), '%Y-%m')"
        }
    }

    /// A string literal. DuckDB doubles a quote and takes backslashes as they are; BigQuery
    /// escapes both with a backslash.
    func stringLiteral(_ value: String) -> String {
        switch self {
        case .bigquery:
            "'" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
        case .duckdb:
            "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        }
    }
}
