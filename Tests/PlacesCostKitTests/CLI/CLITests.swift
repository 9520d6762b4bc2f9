import Foundation
import Testing
@testable import PlacesCostKit

/// The command-line contract of `docs/cli.md`, run in-process.
@Suite("Command line")
struct CLITests {
    @Test("--version and --help succeed and print to standard output")
    func versionAndHelp() {
        let version = runCLI(["--version"])
        #expect(version.code == .success)
        #expect(version.stdout == "placescost \(CLI.version)\n")
        let help = runCLI(["--help"])
        #expect(help.code == .success)
        #expect(help.stdout.contains("placescost analyze"))
        let analyzeHelp = runCLI(["analyze", "--help"])
        #expect(analyzeHelp.code == .success)
        #expect(analyzeHelp.stdout.contains("--session-timeout"))
    }

    @Test("Usage errors exit 64 with one error line and the usage line")
    func usageErrors() {
        for arguments in [["frobnicate"], ["analyze", "--no-such-option"], ["analyze", "--session-timeout", "soon"], ["analyze", "--report", "pdf"], ["analyze", "--since", "yesterday"], ["analyze", "--format"],
                          ["simulate", "--pricing", "no-such-table"], ["sql", "--dialect", "duckdb", "--pricing", "no-such-table"],
                          ["analyze", "--scale", "0x10"], ["analyze", "--session-timeout", "nan"]] {
            let result = runCLI(arguments)
            #expect(result.code == .usage, "\(arguments)")
            #expect(result.stderr.hasPrefix("placescost: error: "), "\(arguments)")
            #expect(result.stderr.contains("usage: placescost"), "\(arguments)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test("A log read a second time for a disorder of a day or more says so once, with how far out of order it was; in order, nothing")
    func readTwiceNoted() throws {
        let directory = TemporaryDirectory()
        let lines = try String(contentsOfFile: packageRoot + "/SampleLogs/ios-app.jsonl", encoding: .utf8).split(separator: "\n")
        let reversed = directory.write("reversed.jsonl", lines.reversed().joined(separator: "\n") + "\n")
        let run = runCLI(["analyze", reversed, "--json"])
        #expect(run.code == .success)
        let notes = run.stderr.split(separator: "\n").filter { $0.contains("out of time order") }
        #expect(notes.count == 1 && notes[0].contains("calls came up to 6 days out of time order"), "\(run.stderr)")
        // With the window it names, the log is read once, and nothing is said.
        let window = try #require(notes.first?.split(separator: "--reorder-window ").last?.split(separator: ";").first.map(String.init))
        #expect(!runCLI(["analyze", reversed, "--json", "--reorder-window", window]).stderr.contains("out of time order"), "\(window)")
        #expect(!runCLI(["analyze", "--json"], workingDirectory: packageRoot).stderr.contains("out of time order"), "the bundled samples")
        // Calls minutes late (the sample's own telemetry, up to 40 min) are read twice without a word.
        #expect(!runCLI(["analyze", packageRoot + "/SampleLogs/ios-app.jsonl", "--json"]).stderr.contains("out of time order"))
        #expect(!runCLI(["analyze", reversed, "--json", "--quiet"]).stderr.contains("out of time order"))
        #expect(Duration64.spoken(seconds: 45) == "45 s" && Duration64.spoken(seconds: 11_520) == "3 h 12 min")
    }

    @Test("A missing input exits 66")
    func missingInput() {
        let result = runCLI(["analyze", "/no/such/file.jsonl"])
        #expect(result.code == .noInput)
        #expect(result.stderr == "placescost: error: cannot read /no/such/file.jsonl: no such file or directory. Check the path, or pass - to read standard input.\n")
    }

    @Test("An empty argument (an unset shell variable) names no input: every command refuses it as a missing one, never reading the working directory", arguments: [
        ["analyze", ""],
        ["analyze", "LOG", ""],
        ["compare", "", "LOG"],
        ["compare", "LOG", ""],
        ["compare", "", ""],
        ["reconcile", "", "--billing", "BILL"],
        ["simulate", "--from", "LOG", ""],
    ])
    func emptyArgument(arguments: [String]) {
        // A folder holding a log: read as `.`, an empty argument would give a report.
        let directory = TemporaryDirectory()
        let log = directory.write("calls.jsonl", CompareCommandTests.searches(3, start: 0, tokens: true).map(\.jsonLine).joined(separator: "\n") + "\n")
        let bill = packageRoot + "/SampleLogs/billing/cost-table-2026-10.csv"
        let result = runCLI(arguments.map { $0 == "LOG" ? log : $0 == "BILL" ? bill : $0 } + ["--quiet"], workingDirectory: directory.path)
        #expect(result.code == .noInput, "\(result.stderr)")
        #expect(result.stderr == "placescost: error: cannot read an input given as an empty argument (\"\"), as an unset shell variable gives: it names no file. Check the arguments, or pass - to read standard input.\n")
        #expect(result.stdout.isEmpty)
    }

    @Test("An empty option value naming a file is a usage error that says what the option takes", arguments: [
        (["simulate", "--from", ""], "--from takes a report.json or a log."),
        (["simulate", "--from", "REPORT", "--scenario", ""], "--scenario takes a JSON file of scenarios."),
        (["reconcile", "LOG", "--billing", ""], "reconcile needs the billing export: --billing FILE."),
        (["compare", "LOG", "LOG", "--out", ""], "--out takes a directory."),
    ])
    func emptyOptionValue(arguments: [String], message: String) throws {
        let directory = TemporaryDirectory()
        let log = directory.write("calls.jsonl", CompareCommandTests.searches(3, start: 0, tokens: true).map(\.jsonLine).joined(separator: "\n") + "\n")
        let report = directory.write("report.json", runCLI(["analyze", log, "--json", "--quiet"]).stdout)
        let result = runCLI(arguments.map { $0 == "LOG" ? log : $0 == "REPORT" ? report : $0 }, workingDirectory: directory.path)
        #expect(result.code == .usage, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("placescost: error: \(message)\nusage: "), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("--strict exits 65 at the first malformed record, naming FILE:LINE")
    func strict() {
        let directory = TemporaryDirectory()
        let file = directory.write("log.jsonl", [ac(0, "t").jsonLine, "{not json", ac(1, "t").jsonLine].joined(separator: "\n"))
        let strict = runCLI(["analyze", file, "--strict", "--json"])
        #expect(strict.code == .dataError)
        #expect(strict.stderr.hasPrefix("placescost: error: \(file):2: malformed record: invalid JSON"))
        let lenient = runCLI(["analyze", file, "--json"])
        #expect(lenient.code == .success)
        #expect(lenient.stderr.hasPrefix("\(file):2: warning: invalid JSON"))
        #expect(lenient.stdout.contains("\"rejected\": 1"))
    }

    @Test("Problems are warned at their lines; past the first 20, one line says how many more there are", arguments: [1, 2])
    func problemsNotShown(_ threads: Int) {
        let directory = TemporaryDirectory()
        var lines: [String] = []
        for second in 0..<40 {
            lines.append(ac(Double(second), "t\(second % 4)").jsonLine)
            if second % 4 == 3 { lines.append("{not json") }
        }
        let file = directory.write("log.jsonl", lines.joined(separator: "\n"))
        var options = ["analyze", file, "--json", "--threads", String(threads)]
        let run = runCLI(options)
        #expect(run.code == .success)
        let warnings = run.stderr.split(separator: "\n").filter { $0.hasPrefix("\(file):") }
        #expect(warnings.map { $0.split(separator: ":")[1] } == (1...10).map { "\($0 * 5)" }, "\(run.stderr)")
        #expect(run.stderr.contains("placescost: warning: 0 more") == false)
        options[1] = directory.write("more.jsonl", (lines + lines.map { _ in "{not json" }).joined(separator: "\n"))
        let more = runCLI(options)
        #expect(more.stderr.split(separator: "\n").filter { $0.contains(": warning: invalid JSON") }.count == 20)
        #expect(more.stderr.contains("placescost: warning: 40 more malformed records or problems not shown (60 in all)."), "\(more.stderr)")
    }

    @Test("No record readable from any input exits 65; an empty file among others is only a warning")
    func noRecords() {
        let directory = TemporaryDirectory()
        let empty = directory.write("empty.jsonl", "")
        let garbage = directory.write("bad.jsonl", "{\n{\n")
        #expect(runCLI(["analyze", empty]).code == .dataError)
        #expect(runCLI(["analyze", garbage]).code == .dataError)
        let good = directory.write("good.jsonl", ac(0, "t").jsonLine + "\n")
        let mixed = runCLI(["analyze", empty, good, "--json"])
        #expect(mixed.code == .success)
        #expect(mixed.stderr.contains("\(empty): warning: the file holds no records"))
        // Every reason in one sentence: a reason that is a sentence of its own loses its period.
        let logs = directory.path + "/logs"
        try? FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        directory.write("logs/a.jsonl", ac(0, "t").jsonLine + "\n")
        directory.write("logs/notes.md", "notes")
        let wrong = runCLI(["analyze", logs, "--format", "har"])
        #expect(wrong.code == .dataError)
        #expect(wrong.stderr == "placescost: error: no record could be read: \(logs)/a.jsonl:1: the input is not a HAR capture: it has no log object. "
            + "A HAR file is one JSON object {\"log\":{\"entries\":[...]}}, as browser developer tools, Charles and Proxyman export it; "
            + "in \(logs), notes.md was skipped: not a log file's name (.jsonl, .ndjson, .json, .csv, .log, .txt, .har or _log, maybe rotated, numbered or dated, or .gz).\n", "\(wrong.stderr)")
    }

    @Test("A file name with a line break, an escape sequence or a bidirectional override is written on one line, escaped")
    func hostileFileNames() throws {
        let directory = TemporaryDirectory()
        let folder = directory.path + "/logs"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        directory.write("logs/a\u{1B}[31mRED\nx\u{202E}.jsonl", "junk\n")
        let run = runCLI(["analyze", folder, "--json"])
        #expect(run.code == .dataError)
        #expect(run.stderr.hasPrefix("placescost: error: no record could be read: \(folder)/a\\u{1B}[31mRED\\nx\\u{202E}.jsonl: not a request log"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(!run.stderr.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" })
        // A usage error quoting what was typed, too.
        let usage = runCLI(["analyze", "--pricing", "x\u{1B}]0;title\u{07}"])
        #expect(!usage.stderr.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" }, "\(usage.stderr)")
        // Letters, emoji and their joiners stay as they are.
        #expect(CommandContext.printable("👩‍💻 café नमस्ते") == "👩‍💻 café नमस्ते")
    }

    @Test("--json prints the report keys the spec relies on")
    func jsonKeys() throws {
        let directory = TemporaryDirectory()
        let file = directory.write("log.jsonl", [ac(0, "t", "ab"), ac(1, "t", "abc"), details(2, "t"), ac(3, nil)].map(\.jsonLine).joined(separator: "\n"))
        let result = runCLI(["analyze", file, "--json"])
        #expect(result.code == .success)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["schema"] as? String == "placescost.report/1")
        let input = try #require(json["input"] as? [String: Any])
        #expect(input["records"] as? Int == 4)
        #expect(input["rejected"] as? Int == 0)
        #expect((input["by_api"] as? [String: Int]) == ["autocomplete": 3, "place_details": 1])
        let searches = try #require(json["searches"] as? [String: Any])
        #expect(searches["total"] as? Int == 1)
        #expect(searches["completed"] as? Int == 1)
        #expect(searches["abandoned"] as? Int == 0)
        #expect(searches["avg_requests"] as? Double == 2)
        #expect(searches["avg_requests_completed"] as? Double == 2)
        let anomalies = try #require(json["anomalies"] as? [String: Int])
        #expect(anomalies == ["token_reused": 0, "expired": 0, "details_without_autocomplete": 0, "no_token_requests": 1, "fields_unspecified": 0, "one_request_sessions": 0])
    }

    @Test("--since and --until keep the calls of the chosen days")
    func period() throws {
        let directory = TemporaryDirectory()
        let day = 86_400.0
        let file = directory.write("log.jsonl", [ac(-day, "a"), ac(0, "b"), ac(day, "c"), ac(2 * day, "d")].map(\.jsonLine).joined(separator: "\n"))
        let result = runCLI(["analyze", file, "--since", "2026-10-01", "--until", "2026-10-02", "--json"])
        #expect(result.code == .success)
        #expect(result.stdout.contains("\"records\": 2"))
        #expect(result.stdout.contains("\"outside_period\": 2"))
    }

    @Test("With no path, analyze reads the bundled SampleLogs/ and says so on standard error")
    func sampleLogs() {
        let result = runCLI(["analyze", "--json"], workingDirectory: packageRoot)
        #expect(result.code == .success)
        #expect(result.stderr.contains("analyzing the bundled sample logs"))
        // Its folders hold the same week in other forms: not named as left out.
        #expect(!result.stderr.contains("folder") && !result.stderr.contains("not named as logs"))
        #expect(result.stdout.contains("\"sample_logs\": true"))
        let quiet = runCLI(["analyze", "--json", "--quiet"], workingDirectory: packageRoot)
        #expect(quiet.stderr.isEmpty)
    }

    @Test("--out writes the five reports and the charts; an output it cannot create exits 73")
    func out() throws {
        let directory = TemporaryDirectory()
        // Privacy-first (`input_length`), so that an error is the only line on standard error: a log
        // with typed text gets a note first (`InputLengthTests`).
        let file = directory.write("log.jsonl", [ac(0, "a", "12"), details(1, "a")].map(\.jsonLine).joined(separator: "\n")
            .replacing(/"input":"([^"]*)"/) { "\"input_length\":\($0.1.count)" })
        let result = runCLI(["analyze", file, "--out", directory.path + "/reports/nested"])
        #expect(result.code == .success)
        #expect(result.stdout.isEmpty)
        for name in ["report.md", "report.html", "report.json", "searches.csv", "costs.csv"] + ReportCharts.files {
            #expect(FileManager.default.fileExists(atPath: directory.path + "/reports/nested/" + name), "\(name)")
        }
        let searches = try String(contentsOfFile: directory.path + "/reports/nested/searches.csv", encoding: .utf8)
        #expect(searches.split(separator: "\n").count == 2)

        let blocked = directory.write("not-a-directory", "x")
        let failed = runCLI(["analyze", file, "--out", blocked + "/reports"])
        #expect(failed.code == .cannotCreate)
        #expect(failed.stderr.hasPrefix("placescost: error: cannot write \(blocked)/reports"))
        #expect(runCLI(["analyze", file, "--report", "pdf"]).code == .usage)
    }

    @Test("simulate: the seeds' 7 characters take delay 3 in the tree, and delay 4 by the money")
    func simulateRecommendation() throws {
        let result = runCLI(["simulate", "--pricing", "legacy-list", "--chars", "7", "--completion-rate", "1", "--searches", "1", "--report", "json"])
        #expect(result.code == .success)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let recommendation = try #require(json["recommendation"] as? [String: Any])
        let tree = try #require(recommendation["tree_answer"] as? [String: Any])
        #expect(tree["strategy"] as? String == "per_request_geocoding" && tree["delay"] as? Int == 3)
        #expect(recommendation["strategy"] as? String == "per_request_geocoding")
        #expect(recommendation["delay"] as? Int == 4)
        let path = try #require(recommendation["path"] as? [String])
        #expect(path.contains { $0.contains("delay 3: 4 <= 4.24") })
        let details = runCLI(["simulate", "--pricing", "legacy-list", "--needs-details", "yes", "--report", "json"])
        #expect(details.stdout.contains("\"strategy\": \"session_details\""))
    }
}

@Suite("What there is to analyze")
struct NothingToAnalyzeTests {
    let log: String
    let directory = TemporaryDirectory()

    init() {
        log = directory.write("log.jsonl", [ac(0, "a", "x"), ac(1, "a", "xy"), details(2, "a")].map(\.jsonLine).joined(separator: "\n") + "\n")
    }

    @Test("no call in the period is a data error that says what the log holds and what was asked for")
    func emptyPeriod() {
        for period in [["--since", "2027-01-01"], ["--until", "2026-09-30"], ["--since", "2026-10-02", "--until", "2026-10-03"]] {
            for format in [["--report", "md"], ["--json"]] {
                let result = runCLI(["analyze", log] + period + format)
                #expect(result.code == .dataError, "\(period)")
                #expect(result.stdout.isEmpty)
                #expect(result.stderr.contains("no call to analyze in the period asked for"), "\(result.stderr)")
                #expect(result.stderr.contains("3 calls from 2026-10-01T09:00:00"), "\(result.stderr)")
                #expect(result.stderr.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 1)
            }
        }
        #expect(runCLI(["analyze", log, "--since", "2026-10-01", "--until", "2026-10-01", "--json"]).code == .success)
    }

    @Test("--since after --until is a usage error")
    func reversedPeriod() {
        let result = runCLI(["analyze", log, "--since", "2026-10-05", "--until", "2026-10-04"])
        #expect(result.code == .usage)
        #expect(result.stderr.contains("--since 2026-10-05 is not before --until 2026-10-04"))
        #expect(runCLI(["analyze", log, "--since", "2026-10-01T10:00:00Z", "--until", "2026-10-01T09:00:00Z"]).code == .usage)
    }

    @Test("requests that hold no Places call are a data error that counts them")
    func noPlacesCall() {
        let lines = (0..<3).map { "127.0.0.1 - - [01/Oct/2026:09:00:0\($0) +0000] \"GET /index.html HTTP/1.1\" 200 12 \"-\" \"curl\"" }
        let access = directory.write("access.log", lines.joined(separator: "\n") + "\n")
        let result = runCLI(["analyze", access, "--format", "access-log"])
        #expect(result.code == .dataError)
        #expect(result.stderr.contains("none of the 3 requests read from"), "\(result.stderr)")
    }
}

@Suite("simulate --needs-details")
struct SimulateDetailsTests {
    func skus(_ arguments: [String]) throws -> [String: Int] {
        let result = runCLI(["simulate", "--report", "json", "--searches", "100"] + arguments)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let strategies = try #require(json["strategies"] as? [[String: Any]])
        let sessions = try #require(strategies.first { $0["id"] as? String == "session_details" && $0["delay"] as? Int == 0 })
        return try #require(sessions["skus"] as? [String: Int])
    }

    @Test("yes prices the name it asks for: above Essentials in Places API (New), Basic Data in legacy")
    func detailsSKU() throws {
        // `displayName` is Pro; the table's terminating-details rule (in force from its date)
        // bills a session's Pro details call as Enterprise + Atmosphere.
        let new = try skus(["--needs-details", "yes"])
        #expect(new["Place Details Enterprise + Atmosphere"] == 100 && new["Place Details Essentials"] == nil)
        #expect(try skus(["--needs-details", "no"])["Place Details Essentials"] == 100)
        let legacy = try skus(["--needs-details", "yes", "--pricing", "legacy-list"])
        #expect(legacy["Places Details"] == 100)
    }

    @Test("simulate --fields: a name no field list has is noted with the nearest known one; an option where the list goes is a usage error")
    func simulateFields() {
        let typo = runCLI(["simulate", "--fields", "formated_address,geometry,displayName,places.rating,*"])
        #expect(typo.code == .success)
        #expect(typo.stderr.contains("placescost: note: --fields names a field no Google field list has: `formated_address` (did you mean `formatted_address`?). It is billed as Basic Data (legacy) or Place Details Pro (Places API (New)), as most unlisted fields are; check the spelling against the fields in docs/billing.md."), "\(typo.stderr)")
        let known = runCLI(["simulate", "--fields", "formatted_address,geometry,displayName,places.rating,*"])
        #expect(!known.stderr.contains("--fields names"), "\(known.stderr)")
        #expect(runCLI(["simulate", "--fields", "formated_address", "--quiet"]).stderr.isEmpty)
        let swallowed = runCLI(["simulate", "--fields", "--json"])
        #expect(swallowed.code == .usage)
        #expect(swallowed.stderr.hasPrefix("placescost: error: --fields takes a comma-separated list of field names, and `--json` is an option: give the list right after --fields.\n"))
    }
}
