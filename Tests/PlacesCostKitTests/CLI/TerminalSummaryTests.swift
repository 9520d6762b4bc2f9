import Foundation
import Testing
@testable import PlacesCostKit

/// What a user sees running the tool in a terminal, and that a pipe still gets the report's bytes.
@Suite("Terminal summary")
struct TerminalSummaryTests {
    /// The environment of a terminal session: no `COLUMNS` (shells do not export it) and no
    /// `NO_COLOR` unless a test sets them.
    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = testEnvironment
        for name in ["COLUMNS", "LINES", "NO_COLOR"] { environment[name] = nil }
        return environment.merging(extra) { $1 }
    }

    func terminal(_ arguments: [String], columns: UInt16 = 100, environment: [String: String] = [:]) throws -> String {
        let executable = try #require(EndToEndTests.executable, "placescost was not built beside the tests")
        return try Pseudoterminal(columns: columns).run(executable, arguments, environment: Self.environment(environment), directory: packageRoot)
    }

    func check(_ screen: String, columns: Int, maxLines: Int = 45, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let lines = Pseudoterminal.plain(screen).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count <= maxLines, "\(lines.count) lines", sourceLocation: sourceLocation)
        for line in lines where line.unicodeScalars.count > columns {
            Issue.record("a line of \(line.unicodeScalars.count) columns: \(line)", sourceLocation: sourceLocation)
        }
    }

    /// Logs of every kind the tool reads, from a handful of searches to thousands with every anomaly.
    static let inputs: [[String]] = [
        [],  // the bundled sample logs
        ["SampleLogs/ios-app.jsonl", "--scale", "300"],
        ["SampleLogs/har/web-app.har"],
        ["SampleLogs/har/maps-javascript-page.har", "--pricing", "places-new-2025"],
        ["SampleLogs/proxy/access.log", "--scale", "0.5"],
        ["SampleLogs/ios-app.jsonl", "--pricing", "legacy-list", "--max-delay", "6"],
    ]

    @Test("Under a pseudo-terminal, analyze prints the bill and the recommendation in at most 45 lines of 100 columns", arguments: inputs)
    func summaryFits(_ arguments: [String]) throws {
        let screen = try terminal(["analyze"] + arguments)
        check(screen, columns: 100)
        let plain = Pseudoterminal.plain(screen)
        #expect(plain.contains("Estimated bill now") && plain.contains("a month"))
        #expect(plain.contains("Recommended"))
        #expect(plain.contains("--out DIR"), "says where the full report is")
        #expect(screen.contains("\u{1B}["), "colour on a terminal")
        #expect(!plain.contains("| "), "no Markdown table syntax")
    }

    @Test("The summary's bill says when the logs hold less than a month of traffic a month, as report.md does")
    func billCoverage() throws {
        let screen = Pseudoterminal.plain(try terminal(["analyze", "-q"])).replacingOccurrences(of: "\n                       ", with: " ")
        #expect(screen.contains("Estimated bill now     $0.00 a month (7 days of logs: a full month bills more); $10.05 at list prices"), "\(screen)")
    }

    @Test("The options the summary leaves out are counted: every ranked option of report.md is on the screen or in the count")
    func optionsCounted() throws {
        for arguments in [["--needs-details", "no"], [], ["--needs-details", "yes", "--pricing", "legacy-list"]] {
            let screen = Pseudoterminal.plain(try terminal(["analyze", "-q"] + arguments))
            let shown = screen.split(separator: "\n").filter { $0.hasPrefix("   ") && ($0.contains("  $") ) && $0.dropFirst(3).first.map { $0.isNumber || $0 == "-" } == true }.count
            let more = screen.split(separator: "\n").first { $0.hasSuffix("in the full report") && $0.contains("more option") }
                .flatMap { Int($0.trimmingCharacters(in: .whitespaces).split(separator: " ")[0]) } ?? 0
            let markdown = runCLI(["analyze", "-q", "--report", "md"] + arguments, workingDirectory: packageRoot).stdout
            let ranked = markdown.components(separatedBy: "## Strategies ranked by the bill")[1].components(separatedBy: "\n\n")[2]
                .split(separator: "\n").dropFirst(2).filter { !$0.contains("**Not valid") }.count
            #expect(shown + more == ranked, "\(arguments): \(shown) shown + \(more) counted, \(ranked) ranked\n\(screen)")
        }
    }

    @Test("A narrower terminal gets narrower lines, notes on standard error included", arguments: [60, 72, 80] as [UInt16])
    func narrowTerminal(_ columns: UInt16) throws {
        check(try terminal(["analyze"], columns: columns), columns: Int(columns), maxLines: 60)
        // At 60 columns each of simulate's two tables says how many delay columns it left out.
        check(try terminal(["simulate"], columns: columns), columns: Int(columns), maxLines: 62)
        if columns == 60 {
            #expect(Pseudoterminal.plain(try terminal(["simulate"], columns: columns)).contains("(2 more columns in the full report)"))
            // Cut to the screen, the summary keeps the recommended option and counts what it left out.
            let summary = Pseudoterminal.plain(try terminal(["analyze", "-q"], columns: columns))
            #expect(summary.contains("current (keep)") && summary.contains("4 more anomalies in the full report"), "\(summary)")
        }
    }

    @Test("NO_COLOR and --color never leave no escape sequence; --color always colours a pipe")
    func colourSwitches() throws {
        for screen in [try terminal(["analyze"], environment: ["NO_COLOR": "1"]), try terminal(["analyze", "--color", "never"]),
                       try terminal(["simulate"], environment: ["NO_COLOR": "1"])] {
            #expect(!screen.contains("\u{1B}"))
            #expect(screen.contains("Recommended"))
        }
        let piped = runCLI(["simulate", "--color", "always", "--searches", "200000"])
        #expect(piped.code == .success)
        #expect(!piped.stdout.contains("\u{1B}"), "--color changes the terminal form only; a pipe gets the report's bytes")
        #expect(runCLI(["analyze", "--color", "sometimes"]).code == .usage)
    }

    @Test("Piped or redirected, analyze writes the Markdown report byte for byte as --report md")
    func pipedIsTheReport() throws {
        let endToEnd = EndToEndTests()
        let piped = try endToEnd.run(["analyze"])
        let report = try endToEnd.run(["analyze", "--report", "md"])
        #expect(piped.status == 0 && report.status == 0)
        #expect(piped.stdout == report.stdout)
        #expect(piped.stdout.hasPrefix("# Places Autocomplete cost report"))
        // --report md on a terminal is the Markdown too.
        let screen = try terminal(["analyze", "--report", "md", "--color", "always"])
        #expect(Pseudoterminal.plain(screen).contains("# Places Autocomplete cost report"))
        #expect(Pseudoterminal.plain(screen).contains(report.stdout.split(separator: "\n")[4]))
    }

    @Test("simulate and reconcile on a terminal fit the screen too")
    func otherCommands() throws {
        let simulate = try terminal(["simulate", "--searches", "250000", "--chars", "9"])
        check(simulate, columns: 100)
        #expect(Pseudoterminal.plain(simulate).contains("Bill per month"))
        #expect(Pseudoterminal.plain(simulate).contains("--report md"), "says where the full what-if is")
        let reconcile = try terminal(["reconcile", "SampleLogs/ios-app.jsonl", "--billing", "SampleLogs/billing/cost-table-2026-10.csv"])
        check(reconcile, columns: 100)
        #expect(Pseudoterminal.plain(reconcile).contains("Estimate vs bill"))
    }

    /// The aligned table under the line that starts with `title`: each row's label and its cells
    /// under their headers (cells are two spaces or more apart).
    func table(in screen: String, titled title: String) throws -> [String: [String: String]] {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix(title) }, "no \(title) on the screen")
        // The rows under the title, whether a blank line parts them from it or not.
        let rows = lines[(start + 1)...].drop { $0.isEmpty }.prefix { !$0.isEmpty }
        func cells(_ line: String) -> [String] {
            line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        let headers = cells(try #require(rows.first))
        var table: [String: [String: String]] = [:]
        for row in rows.dropFirst() {
            let row = cells(row)
            table[row[0]] = Dictionary(uniqueKeysWithValues: zip(headers, row.dropFirst()))
        }
        return table
    }

    @Test("reconcile on a terminal: the SKU names stay apart, no number is cut, the flag is never dropped", arguments: [60, 80, 120])
    func reconcileTable(_ columns: Int) throws {
        let screen = Pseudoterminal.plain(try terminal(
            ["reconcile", "SampleLogs/ios-app.jsonl", "--billing", "SampleLogs/billing/cost-table-2026-10.csv", "-q"], columns: UInt16(columns)
        ))
        check(screen, columns: columns, maxLines: 60)
        let rows = screen.split(separator: "\n").map(String.init)
        let details = try #require(rows.first { $0.hasPrefix("Plac") }, "\(screen)")
        #expect(details.contains("  393  ") && details.contains("  405  ") && details.hasSuffix("-3%, flagged"), "\(details)")
        let sessions = rows.filter { $0.hasPrefix("Auto") && $0.contains("$0.00") }
        #expect(sessions.count == 3, "\(sessions)")
        if columns >= 80 {
            #expect(rows.contains { $0.hasPrefix("Autocomplete (included with") }, "\(screen)")
            #expect(rows.contains { $0.hasPrefix("Autocomplete without Places") }, "\(screen)")
        }
    }

    @Test("simulate on a terminal shows the seeds' worked example per search: 4 requests, $0.01632 per request + Geocoding, $0.017 a session")
    func simulatePerSearch() throws {
        let screen = Pseudoterminal.plain(try terminal(["simulate", "--pricing", "legacy-list", "--chars", "7", "--delay", "3", "--completion-rate", "1"]))
        check(screen, columns: 100)
        let perSearch = try table(in: screen, titled: "Per search, at list prices")
        #expect(perSearch["requests"]?["delay 3"] == "4")
        #expect(perSearch["requests"]?["delay 0"] == "7")
        #expect(perSearch["per_request_geocoding"]?["delay 3"] == "$0.01632")
        #expect(perSearch["session_details"]?["delay 3"] == "$0.017")
        #expect(perSearch["session_details_basic"]?["delay 3"] == "$0.017")
        // With a delay now, `current` keeps it at every shorter delay, unlike the others: its row is shown.
        #expect(perSearch["current"]?["delay 0"] == "$0.017" && perSearch["session_details"]?["delay 0"] == "$0.017")
        #expect(perSearch["current"]?["delay 4"] == perSearch["session_details"]?["delay 4"])
        let bill = try table(in: screen, titled: "Bill per month")
        #expect(bill["per_request_geocoding"]?["delay 3"] == "$16.32", "the bill is still there, apart from the list prices")
        #expect(bill["current"]?["delay 3"] == "$17.00")
        // Options that do not serve the app are marked, and the title says what the mark means.
        let details = Pseudoterminal.plain(try terminal(["simulate", "--pricing", "legacy-list", "--needs-details", "yes"]))
        check(details, columns: 100)
        #expect(details.contains("Per search, at list prices (* not valid: the app needs details):"))
        let marked = try table(in: details, titled: "Per search, at list prices")
        #expect(marked["per_request_geocoding*"]?["delay 0"] == "$0.02764", "8 requests x $0.00283 + $0.005")
        #expect(marked["session_details"]?["delay 0"] == "$0.017")
    }

    @Test("The summary in-process: --out names the directory; anomalies under --scale show the billed count")
    func summaryContent() throws {
        let out = TemporaryDirectory()
        let sink = TerminalSink()
        let context = CommandContext(standardOutput: sink, standardError: StringSink(), workingDirectory: packageRoot,
                                     environment: Self.environment(["NO_COLOR": "1"]))
        let code = CLI(arguments: ["analyze", "SampleLogs/ios-app.jsonl", "--scale", "300", "--out", out.path], context: context).run()
        #expect(code == .success)
        #expect(sink.text.contains("Full report in \(out.path)/"))
        #expect(sink.text.contains("billed"))
        #expect(sink.text.contains("10,800"), "36 reused tokens in the log, 10,800 at --scale 300")
        #expect(!sink.text.contains("\u{1B}"))
    }

    @Test("On a narrow screen an option that does not serve the app keeps a mark and its legend; the anomalies lose their fix and its header", arguments: [50, 60, 100])
    func narrowSummaryMarks(columns: Int) throws {
        let sink = TerminalSink(columns: columns)
        let context = CommandContext(standardOutput: sink, standardError: StringSink(), workingDirectory: packageRoot,
                                     environment: Self.environment(["NO_COLOR": "1"]))
        #expect(CLI(arguments: ["analyze", "SampleLogs/ios-app.jsonl"], context: context).run() == .success)
        let invalid = sink.text.split(separator: "\n").filter { $0.hasPrefix("   -  ") }
        #expect(!invalid.isEmpty)
        if columns == 100 {
            #expect(invalid.allSatisfy { $0.contains(" (not valid)") } && !sink.text.contains("* not valid"))
            #expect(sink.text.contains("  fix\n"))
        } else {
            #expect(invalid.allSatisfy { $0.contains(" *  ") }, "\(invalid)")
            #expect(sink.text.contains("\n      * not valid: does not serve the app\n"))
            #expect(!sink.text.contains("  fix\n") && sink.text.contains("Anomalies"))
        }
    }

    @Test("Cut to fit, the summary shows the legend of the `*` mark exactly when it shows a marked option", arguments: [[String](), ["--scale", "40"], ["--scale", "60"], ["--needs-details", "no"]])
    func legendFollowsTheMarks(extra: [String]) throws {
        for columns in [40, 50, 60, 70, 80] {
            let sink = TerminalSink(columns: columns)
            let context = CommandContext(standardOutput: sink, standardError: StringSink(), workingDirectory: packageRoot,
                                         environment: Self.environment(["NO_COLOR": "1"]))
            #expect(CLI(arguments: ["analyze", "SampleLogs/ios-app.jsonl"] + extra, context: context).run() == .success)
            let lines = sink.text.split(separator: "\n", omittingEmptySubsequences: false)
            let marked = lines.contains { $0.hasPrefix("   -  ") && $0.contains(" *  ") }
            let legend = lines.contains { $0 == "      * not valid: does not serve the app" }
            #expect(marked == legend, "\(columns) columns, \(extra): \(sink.text)")
            #expect(lines.count <= TerminalSummaryRenderer.maxLines + 1, "\(columns) columns, \(extra)")
        }
    }

    @Test("A table cut to fit keeps its cells apart: names that the cut would make alike are cut in the middle, others at the end")
    func cutKeepsCellsApart() {
        let figures = ["$115,012.70", "$104,512.70"]
        let rows = [["", "delay 0", "delay 1"], ["current"] + figures, ["session_details"] + figures, ["session_details_basic"] + figures, ["per_request_geocoding"] + figures]
        let lines = TerminalText(width: 40, color: false).tableLines(rows)
        #expect(lines.allSatisfy { $0.unicodeScalars.count <= 40 })
        let names = lines.dropFirst().map { String($0.prefix { $0 != " " }) }
        #expect(names == ["current", "session…etails", "session…_basic", "per_req…coding"])
        // Cut at the end where that leaves the cells apart.
        let apart = TerminalText(width: 40, color: false).tableLines([["", "delay 0", "delay 1"], ["alpha_strategy_one"] + figures, ["beta_strategy_two_x"] + figures])
        #expect(apart.dropFirst().map { String($0.prefix { $0 != " " }) } == ["alpha_strateg…", "beta_strategy…"])
    }

    @Test("Bills of $10,000, $100,000 and millions stay in their columns: each figure ends under its header, two spaces from the one before", arguments: [1, 300, 3000, 300_000])
    func wideFigures(_ scale: Int) throws {
        let sink = TerminalSink()
        let context = CommandContext(standardOutput: sink, standardError: StringSink(), workingDirectory: packageRoot,
                                     environment: Self.environment(["NO_COLOR": "1"]))
        let code = CLI(arguments: ["analyze", "SampleLogs/ios-app.jsonl", "--scale", String(scale)], context: context).run()
        #expect(code == .success)
        let lines = sink.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (title, headers) in [("Options by the bill", ["delay", "bill", "saving a month", "list price"]), ("Anomalies", ["count", "billed", "cost"])] {
            let start = try #require(lines.firstIndex { $0.hasPrefix(title) })
            let header = lines[start]
            let rows = lines[(start + 1)...].prefix { !$0.isEmpty }
            #expect(rows.count >= 2)
            // Where each header ends; "bill" is the one after "delay", not the title's.
            var ends: [Int] = []
            var searchFrom = header.index(header.startIndex, offsetBy: title.count)
            for name in headers {
                guard let range = header.range(of: " " + name, range: searchFrom ..< header.endIndex) else { continue }
                ends.append(header.distance(from: header.startIndex, to: range.upperBound))
                searchFrom = range.upperBound
            }
            #expect(ends.count >= 2, "\(title): \(header)")
            for row in rows {
                let characters = Array(row)
                for end in ends {
                    // A figure ends here: a digit, then a space or the line's end; and the figure
                    // (its digits, commas, point and dollar sign) has two spaces before it.
                    #expect(end <= characters.count && characters[end - 1].isNumber, "\(title), scale \(scale): \(row)")
                    #expect(end == characters.count || characters[end] == " ", "\(title), scale \(scale): \(row)")
                    var first = end - 1
                    while first > 0, characters[first - 1].isNumber || ",.$".contains(characters[first - 1]) { first -= 1 }
                    #expect(first >= 2 && characters[first - 1] == " " && characters[first - 2] == " ", "\(title), scale \(scale): \(row)")
                }
            }
        }
    }
}

@Suite("Errors that say what to do")
struct ErrorAdviceTests {
    @Test("A CSV without a required column names it, lists the columns found and the likely one", arguments: [
        ("ts,api,session_token\n2026-10-01T09:00:00Z,autocomplete,t\n", "timestamp", "`ts`", "found: ts, api and session_token;"),
        ("created_at,endpoint\n2026-10-01T09:00:00Z,autocomplete\n", "timestamp", "`created_at`", "found: created_at and endpoint;"),
        ("timestamp,method,input\n2026-10-01T09:00:00Z,autocomplete,a\n", "api", "`method`", "found: timestamp, method and input;"),
        // A cell that is no known column name may be a record's data: counted, never shown.
        ("when,api,pizza hut\n2026-10-01T09:00:00Z,autocomplete\n", "timestamp", nil, "found: api and 2 other cells, not shown as they may be data)"),
    ] as [(String, String, String?, String)])
    func missingColumn(_ content: String, _ column: String, _ likely: String?, _ found: String) {
        let directory = TemporaryDirectory()
        let file = directory.write("log.csv", content)
        for arguments in [["analyze", file], ["analyze", file, "--format", "csv"]] {
            let result = runCLI(arguments)
            #expect(result.code == .dataError)
            #expect(result.stderr.contains("no `\(column)` column"), "\(result.stderr)")
            #expect(result.stderr.contains(found), "\(result.stderr)")
            #expect(!result.stderr.contains("pizza"))
            if let likely { #expect(result.stderr.contains("\(likely) column may be it")) }
            #expect(!result.stderr.contains("autocomplete,"), "no record's content is quoted")
        }
    }

    @Test("An access log in another layout is answered with --log-format and the variables it needs", arguments: [
        "10.0.0.1 [01/Oct/2026:09:00:00 +0000] \"GET /maps/api/place/autocomplete/json?input=a HTTP/1.1\" 200 rt=0.1\n",
        "2026-10-01T09:00:00+00:00 host=api.example.com \"POST /v1/places:autocomplete HTTP/2.0\" 200\n",
        "time=1790845200.123 method=GET uri=/maps/api/geocode/json?place_id=x status=200 proto=HTTP/1.1\n",
    ])
    func accessLogHint(_ line: String) {
        let directory = TemporaryDirectory()
        let file = directory.write("access.log", line + line)
        let result = runCLI(["analyze", file])
        #expect(result.code == .dataError)
        #expect(result.stderr.contains("--log-format"), "\(result.stderr)")
        #expect(result.stderr.contains("$request"))
        #expect(!result.stderr.contains("input=a") && !result.stderr.contains("place_id=x"), "the line itself is not quoted")
    }

    @Test("A directory with nothing readable lists what it skipped and why")
    func directorySkipped() {
        let directory = TemporaryDirectory()
        directory.write("cost-table-2026-10.csv", "Billing account name,SKU description,Cost (USD)\nacct,Autocomplete,1.00\n")
        directory.write("NOTES.md", "# notes\n")
        directory.write("screenshot.png", "\u{89}PNG")
        let result = runCLI(["analyze", directory.path])
        #expect(result.code == .dataError)
        #expect(result.stderr.contains("no record could be read"))
        #expect(result.stderr.contains("cost-table-2026-10.csv"), "\(result.stderr)")
        #expect(result.stderr.contains("skipped: it looks like a Google Cloud billing export"))
        #expect(result.stderr.contains("reconcile LOG --billing FILE"))
        #expect(result.stderr.contains("NOTES.md, screenshot.png were skipped: not a log file's name"))
    }

    @Test("simulate says when a scenario sits inside the free caps, and which volume changes the advice")
    func freeCaps() {
        let result = runCLI(["simulate", "--report", "md"])
        #expect(result.code == .success)
        #expect(result.stdout.contains("Every bill is $0.00: 1,000 searches a month stay inside the monthly free caps"))
        #expect(result.stdout.contains("`--searches 1300`"))
        #expect(!result.stdout.contains("--scale"), "simulate has no --scale")
        let large = runCLI(["simulate", "--searches", "2000000", "--report", "md"])
        #expect(!large.stdout.contains("Every bill is $0.00"))
        let one = runCLI(["simulate", "--searches", "1", "--report", "md"])
        #expect(one.stdout.contains("Every bill is $0.00: 1 search a month stays inside the monthly free caps"), "\(one.stdout)")
        #expect(one.stdout.contains("# What-if: 1 search a month"))
    }

    @Test("A warning on a terminal wraps to its width; to a pipe it stays one line")
    func wrappedNotes() {
        let long = "placescost: note: " + Array(repeating: "word", count: 60).joined(separator: " ")
        let terminal = TerminalSink(columns: 70)
        CommandContext(standardOutput: StringSink(), standardError: terminal, workingDirectory: "/", environment: [:]).writeError(long)
        let lines = terminal.text.split(separator: "\n")
        #expect(lines.count > 1 && lines.allSatisfy { $0.count <= 70 })
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("    word") })
        #expect(lines.joined(separator: " ").split(separator: " ").joined(separator: " ") == long)
        let pipe = StringSink()
        CommandContext(standardOutput: StringSink(), standardError: pipe, workingDirectory: "/", environment: [:]).writeError(long)
        #expect(pipe.text == long + "\n")
    }

    @Test("An error is one line on a terminal too, however narrow: a notice may wrap, the error never")
    func errorOneLine() throws {
        let executable = try #require(EndToEndTests.executable, "placescost was not built beside the tests")
        let arguments = ["reconcile", "SampleLogs/ios-app.jsonl", "--billing", "/nonexistent/folder/of/bills/october.csv"]
        let screen = Pseudoterminal.plain(try Pseudoterminal(columns: 40).run(executable, arguments, environment: TerminalSummaryTests.environment(), directory: packageRoot))
        let errors = screen.split(separator: "\n").filter { $0.hasPrefix("placescost: error: ") }
        #expect(errors.count == 1, "\(screen)")
        #expect(errors.first?.hasSuffix("Check the --billing path.") == true, "\(screen)")
    }
}
