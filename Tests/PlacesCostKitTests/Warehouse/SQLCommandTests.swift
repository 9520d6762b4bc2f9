import Testing
@testable import PlacesCostKit

/// `placescost sql`: its options, as `docs/cli.md` and the help describe them.
@Suite("sql command")
struct SQLCommandTests {
    @Test("--help explains the command; the main help lists it")
    func help() {
        let help = runCLI(["sql", "--help"])
        #expect(help.code == .success)
        #expect(help.stdout.contains("--dialect bigquery|duckdb"))
        // The help is wrapped to the terminal: read as one line of words.
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.stdout.contains("--pricing ID|FILE") && words.contains("legacy-list: list prices"))
        #expect(runCLI(["--help"]).stdout.contains("placescost sql --dialect bigquery|duckdb"))
    }

    @Test("bad options exit 64 with one error line and the usage line", arguments: [
        ["sql"], ["sql", "--dialect", "oracle"], ["sql", "--dialect"], ["sql", "--dialect", "duckdb", "calls.jsonl"],
        ["sql", "--dialect", "duckdb", "--table", "a`b"], ["sql", "--dialect", "duckdb", "--table", "a.b.c.d"],
        ["sql", "--dialect", "duckdb", "--order-column", "t.line"], ["sql", "--dialect", "duckdb", "--delays", "1,x"],
        ["sql", "--dialect", "duckdb", "--session-timeout", "0"], ["sql", "--dialect", "duckdb", "--user-gap", "soon"],
        ["sql", "--dialect", "duckdb", "--timezone", "Europe/Paris"],
        ["sql", "--dialect", "duckdb", "--by-month", "--timezone", "Mars/Olympus"],
        ["sql", "--dialect", "duckdb", "--frobnicate"],
    ])
    func usageErrors(arguments: [String]) {
        let result = runCLI(arguments)
        #expect(result.code == .usage, "\(arguments)")
        #expect(result.stderr.hasPrefix("placescost: error: "), "\(arguments)")
        #expect(result.stderr.contains("usage: placescost"), "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("an unknown price table exits 64 naming the bundled ones, as analyze does")
    func unknownTable() {
        let result = runCLI(["sql", "--dialect", "duckdb", "--pricing", "no-such-table"])
        #expect(result.code == .usage)
        #expect(result.stderr.hasPrefix("placescost: error: no price table `no-such-table`: pass one of legacy-2018"))
    }

    @Test("the options reach the writer: defaults as analyze's, delays with 1..max-delay")
    func parsing() throws {
        let defaults = try SQLCommand.parse(["--dialect", "duckdb"])
        #expect(defaults.pricing == "legacy-list")
        #expect(defaults.options.table.parts == ["calls"])
        #expect(defaults.options.orderColumn == nil)
        #expect(defaults.options.delays == [1, 2, 3, 4, 5, 6])
        #expect(defaults.options.sessions == SessionOptions())
        #expect(!defaults.options.byMonth && defaults.options.timeZone == "UTC")
        let all = try SQLCommand.parse([
            "--dialect=bigquery", "--pricing", "places-new-2025", "--table", "p.d.t", "--order-column", "line",
            "--delays", "2,8", "--max-delay", "3", "--session-timeout", "60", "--user-gap", "30", "--by-month",
            "--timezone", "Europe/Paris", "--quiet",
        ])
        #expect(all.options.dialect == .bigquery)
        #expect(all.pricing == "places-new-2025")
        #expect(all.options.table.parts == ["p", "d", "t"])
        #expect(all.options.orderColumn?.parts == ["line"])
        #expect(all.options.delays == [1, 2, 3, 8])
        #expect(all.options.sessions == SessionOptions(timeoutSeconds: 60, userGapSeconds: 30))
        #expect(all.options.byMonth && all.options.timeZone == "Europe/Paris")
        #expect(all.quiet)
    }

    @Test("the SQL goes to standard output; notes about ties and unconfirmed prices to standard error")
    func output() {
        let bigquery = runCLI(["sql", "--dialect", "bigquery"])
        #expect(bigquery.code == .success)
        #expect(bigquery.stdout.hasPrefix("-- placescost \(CLI.version): "))
        #expect(bigquery.stdout.hasSuffix(";\n"))
        #expect(bigquery.stderr.contains("placescost: note: BigQuery tables have no row order"))
        #expect(bigquery.stderr.contains("placescost: note: unconfirmed price inlined: legacy-list: Contact Data"))
        let duckdb = runCLI(["sql", "--dialect", "duckdb", "--pricing", "places-new-2025"])
        #expect(!duckdb.stderr.contains("row order"))
        #expect(runCLI(["sql", "--dialect", "bigquery", "--quiet"]).stderr.isEmpty)
        let columns = runCLI(["sql", "--dialect", "duckdb", "--delays", "2,8", "--quiet"]).stdout
        #expect(columns.contains("AS cost_current_d8") && columns.contains("AS cost_current_d4") && !columns.contains("AS cost_current_d5"))
    }
}
