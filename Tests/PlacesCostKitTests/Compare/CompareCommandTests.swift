import Foundation
import Testing
@testable import PlacesCostKit

/// `placescost compare`: the normalisation by volume (selections, else searches), sides read
/// from logs or from report.json alike, the CI thresholds, bad inputs, and the worked example of
/// the README.
@Suite("compare")
struct CompareCommandTests {
    /// The six anomalies `report.json` names, in its order.
    static let anomalyNames = ["token_reused", "expired", "details_without_autocomplete", "no_token_requests", "fields_unspecified", "one_request_sessions"]

    /// `count` searches of user `user`, 10 minutes apart from `start` (seconds after
    /// 2026-10-01T09:00Z): four autocomplete calls each, then, with a token, a details call on it
    /// (a session: $0.017 at legacy-list prices) or, without, a geocoding call by place
    /// (4 × $0.00283 + $0.005 = $0.01632 per request).
    static func searches(_ count: Int, start: Double, tokens: Bool, user: String = "u1") -> [TestRecord] {
        (0..<count).flatMap { index -> [TestRecord] in
            let at = start + Double(index) * 600
            let token = tokens ? "t-\(user)-\(Int(start))-\(index)" : nil
            let typed = (1...4).map { ac(at + Double($0), token, String("Mark".prefix($0)), user: user) }
            return typed + [tokens ? details(at + 6, token, user: user) : geocode(at + 6, user: user)]
        }
    }

    static func log(_ directory: TemporaryDirectory, _ name: String, _ records: [TestRecord]) -> String {
        directory.write(name, records.map(\.jsonLine).joined(separator: "\n") + "\n")
    }

    static func json(_ output: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    }

    static func number(_ object: [String: Any], _ path: String...) -> Double? {
        var value: Any? = object
        for key in path { value = (value as? [String: Any])?[key] }
        return (value as? NSNumber)?.doubleValue
    }

    /// A month of token-less searches before, two months of sessions after: the after side has
    /// fewer searches a month, and its cost per search is the session's.
    static func periods(_ directory: TemporaryDirectory) -> (before: String, after: String) {
        let before = log(directory, "before.jsonl", searches(4, start: 0, tokens: false))
        // 3 searches in October, 3 in November: 2 calendar months billed, 3 searches a month.
        let november = 31 * 86_400.0
        let after = log(directory, "after.jsonl", searches(3, start: 0, tokens: true) + searches(3, start: november, tokens: true))
        return (before, after)
    }

    @Test("the saving is normalised by volume: (before − after cost per selection) × after selections a month, computed by hand")
    func handComputed() throws {
        let directory = TemporaryDirectory()
        let (before, after) = CompareCommandTests.periods(directory)
        let result = runCLI(["compare", before, after, "--pricing", "legacy-list", "--json", "--quiet"])
        #expect(result.code == .success, "\(result.stderr)")
        let document = try CompareCommandTests.json(result.stdout)
        let number = { (path: [String]) in path.reduce(document as Any?) { ($0 as? [String: Any])?[$1] } as? NSNumber }
        // Before: 4 searches in 1 month, each 4 requests + a geocoding call.
        #expect(number(["before", "searches"])?.intValue == 4)
        #expect(number(["before", "period", "month_count"])?.intValue == 1)
        #expect(number(["before", "current", "list_cost_usd"])?.doubleValue == 0.06528)
        #expect(number(["before", "current", "list_cost_per_search_usd"])?.doubleValue == 0.01632)
        // After: 6 sessions over 2 months, $0.017 each.
        #expect(number(["after", "searches"])?.intValue == 6)
        #expect(number(["after", "period", "month_count"])?.intValue == 2)
        #expect(number(["after", "searches_per_month"])?.doubleValue == 3)
        #expect(number(["after", "current", "list_cost_usd_per_month"])?.doubleValue == 0.051)
        #expect(number(["after", "current", "list_cost_per_1000_searches_usd"])?.doubleValue == 17)
        // Every search ends with a selection: per selection is per search here.
        #expect(document["saving_basis"] as? String == "selections")
        #expect(number(["after", "selections_per_month"])?.doubleValue == 3)
        #expect(number(["before", "current", "list_cost_per_selection_usd"])?.doubleValue == 0.01632)
        // (0.01632 − 0.017) × 3 = −0.00204: the sessions cost more for 4-request searches.
        #expect(number(["monthly_saving_usd"])?.doubleValue == -0.00204)
        #expect(number(["cost_per_search_change_pct"])?.doubleValue == JSONValue.rounded((0.017 - 0.01632) / 0.01632 * 100))

        let reversed = try CompareCommandTests.json(runCLI(["compare", after, before, "--pricing", "legacy-list", "--json", "--quiet"]).stdout)
        // (0.017 − 0.01632) × 4 searches a month = 0.00272.
        #expect(CompareCommandTests.number(reversed, "monthly_saving_usd") == 0.00272)
    }

    @Test("the monthly saving is the documented formula of the two separate analyze reports, for logs of different lengths and volumes")
    func formulaOfReports() throws {
        let directory = TemporaryDirectory()
        var reports: [[String: Any]] = []
        var paths: [String] = []
        for (name, searches, days, seed) in [("short", "700", "9", "3"), ("long", "2600", "45", "4")] {
            let log = directory.path + "/\(name).jsonl"
            let generated = runCLI(["generate", "--searches", searches, "--days", days, "--seed", seed, "--start", "2026-09-20", "--out", log])
            #expect(generated.code == .success, "\(generated.stderr)")
            let analyzed = runCLI(["analyze", log, "--json", "--quiet"])
            #expect(analyzed.code == .success, "\(analyzed.stderr)")
            reports.append(try CompareCommandTests.json(analyzed.stdout))
            paths.append(log)
        }
        let compared = runCLI(["compare", paths[0], paths[1], "--json", "--quiet"])
        #expect(compared.code == .success, "\(compared.stderr)")
        let document = try CompareCommandTests.json(compared.stdout)
        func perSelection(_ report: [String: Any]) throws -> Double {
            let list = try #require(CompareCommandTests.number(report, "headline", "current_list_cost_usd"))
            let selections = try #require(CompareCommandTests.number(report, "searches", "completed"))
            let scale = try #require(CompareCommandTests.number(report, "assumptions", "scale"))
            return list / (selections * scale)
        }
        let after = reports[1]
        let selectionsPerMonth = try #require(CompareCommandTests.number(after, "searches", "completed"))
            / #require(CompareCommandTests.number(after, "headline", "months"))
        #expect(CompareCommandTests.number(after, "headline", "months") == 3, "September to November")
        let expected = (try perSelection(reports[0]) - perSelection(after)) * selectionsPerMonth
        let saving = try #require(CompareCommandTests.number(document, "monthly_saving_usd"))
        #expect(abs(saving - expected) < 1e-6, "\(saving) against \(expected)")
        #expect(saving != 0)
    }

    @Test("a side gives the same figures as a log or as that log's report.json: the JSON is byte for byte the same")
    func logOrReport() throws {
        let directory = TemporaryDirectory()
        let (before, after) = CompareCommandTests.periods(directory)
        var reports: [String] = []
        for (index, log) in [before, after].enumerated() {
            let analyzed = runCLI(["analyze", log, "--pricing", "legacy-list", "--scale", "3", "--json", "--quiet"])
            #expect(analyzed.code == .success, "\(analyzed.stderr)")
            reports.append(directory.write("report\(index).json", analyzed.stdout))
        }
        let options = ["--pricing", "legacy-list", "--scale", "3", "--json", "--quiet"]
        let fromLogs = runCLI(["compare", before, after] + options)
        #expect(fromLogs.code == .success, "\(fromLogs.stderr)")
        #expect(runCLI(["compare", reports[0], reports[1], "--json", "--quiet"]).stdout == fromLogs.stdout)
        #expect(runCLI(["compare", reports[0], after] + options).stdout == fromLogs.stdout)
        // The sample log and the report analyze --out writes for it.
        let sample = packageRoot + "/SampleLogs/ios-app.jsonl"
        let out = directory.path + "/sample"
        #expect(runCLI(["analyze", sample, "--out", out, "--quiet"]).code == .success)
        let fixed = packageRoot + "/docs/examples/after-fix/ios-app.jsonl"
        #expect(runCLI(["compare", out + "/report.json", fixed, "--json"]).stdout == runCLI(["compare", sample, fixed, "--json", "--quiet"]).stdout)
    }

    @Test("every anomaly has a row, with 0 on the side that did not see it")
    func anomalyRows() throws {
        let directory = TemporaryDirectory()
        let (before, after) = CompareCommandTests.periods(directory)
        let document = try CompareCommandTests.json(runCLI(["compare", before, after, "--json", "--quiet"]).stdout)
        let rows = try #require(document["anomalies"] as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == CompareCommandTests.anomalyNames)
        let noToken = try #require(rows.first { $0["name"] as? String == "no_token_requests" })
        #expect((noToken["before_count"] as? NSNumber)?.intValue == 16)
        #expect((noToken["after_count"] as? NSNumber)?.intValue == 0)
        #expect(((noToken["before_list_cost_usd"] as? NSNumber)?.doubleValue ?? 0) > 0)
        #expect((noToken["after_list_cost_usd"] as? NSNumber)?.doubleValue == 0)
        let markdown = runCLI(["compare", before, after, "--quiet"]).stdout
        for name in CompareCommandTests.anomalyNames { #expect(markdown.contains("| `\(name)` |")) }
    }

    @Test("--fail-if-cost-per-search-rises PCT: exit 1 with one line when the rise is larger, 0 otherwise")
    func threshold() throws {
        let directory = TemporaryDirectory()
        let (before, after) = CompareCommandTests.periods(directory)
        let options = ["--pricing", "legacy-list", "--quiet", "--json"]
        // The cost per search rose 4.17%, from $0.01632 to $0.017.
        let failed = runCLI(["compare", before, after, "--fail-if-cost-per-search-rises", "4"] + options)
        #expect(failed.code == .checkFailed)
        #expect(failed.code.rawValue == 1)
        #expect(failed.stderr == "placescost: error: cost per search rose 4.2% (from $0.0163 to $0.017), more than the 4% allowed.\n")
        #expect(failed.stdout.contains("\"schema\": \"placescost.comparison/2\""), "the comparison is printed before the check fails")
        let passed = runCLI(["compare", before, after, "--fail-if-cost-per-search-rises", "4.5"] + options)
        #expect(passed.code == .success, "\(passed.stderr)")
        #expect(passed.stderr.isEmpty)
        // A fall passes any threshold, 0 included.
        #expect(runCLI(["compare", after, before, "--fail-if-cost-per-search-rises", "0"] + options).code == .success)
        #expect(runCLI(["compare", before, before, "--fail-if-cost-per-search-rises", "0"] + options).code == .success)
    }

    /// `users` users' searches of four keystrokes each ending in a details call, one token a
    /// search (`perKeystroke: false`) or a new token a keystroke, the details call on the last.
    static func keystrokes(_ directory: TemporaryDirectory, _ name: String, users: Int, perKeystroke: Bool) -> String {
        let records = (0..<users).flatMap { user -> [TestRecord] in
            let at = Double(user) * 600
            let token = { (keystroke: Int) in perKeystroke ? "k-\(user)-\(keystroke)" : "t-\(user)" }
            return (1...4).map { ac(at + Double($0), token($0), String("Mark".prefix($0)), user: "u\(user)") }
                + [details(at + 6, token(4), user: "u\(user)")]
        }
        return log(directory, name, records)
    }

    @Test("fixing a token per keystroke saves what the bill falls by: per selection, where per search it looked like nothing")
    func tokenPerKeystrokeFixed() throws {
        let directory = TemporaryDirectory()
        let broken = CompareCommandTests.keystrokes(directory, "broken.jsonl", users: 3, perKeystroke: true)
        let fixed = CompareCommandTests.keystrokes(directory, "fixed.jsonl", users: 3, perKeystroke: false)
        let result = runCLI(["compare", broken, fixed, "--pricing", "legacy-list", "--json", "--quiet"])
        #expect(result.code == .success, "\(result.stderr)")
        let document = try CompareCommandTests.json(result.stdout)
        // Before: 12 one-request sessions, $0.017 each; after: 3 sessions. Per search both $0.017.
        #expect(CompareCommandTests.number(document, "before", "searches") == 12)
        #expect(CompareCommandTests.number(document, "cost_per_search_change_pct") == 0)
        // Per selection $0.068 against $0.017: (0.068 − 0.017) × 3 selections a month.
        #expect(document["saving_basis"] as? String == "selections")
        #expect(CompareCommandTests.number(document, "monthly_saving_usd") == 0.153)
        #expect(CompareCommandTests.number(document, "cost_per_selection_change_pct") == -75)
        let markdown = runCLI(["compare", broken, fixed, "--pricing", "legacy-list", "--quiet"]).stdout
        #expect(markdown.contains("**The change saves $0.15 a month** at the after side's 3 selections a month (list prices)."), "\(markdown)")
        #expect(markdown.contains("| **Per 1,000 selections** | **$68.00** | **$17.00** | **-75%** |"), "\(markdown)")
        // The regression the other way: the cost per search does not rise, the cost per selection does.
        let options = ["--pricing", "legacy-list", "--quiet", "--json"]
        #expect(runCLI(["compare", fixed, broken, "--fail-if-cost-per-search-rises", "0"] + options).code == .success)
        let caught = runCLI(["compare", fixed, broken, "--fail-if-cost-per-selection-rises", "5"] + options)
        #expect(caught.code == .checkFailed)
        #expect(caught.stderr == "placescost: error: cost per selection rose 300% (from $0.017 to $0.068), more than the 5% allowed.\n", "\(caught.stderr)")
        #expect(runCLI(["compare", broken, fixed, "--fail-if-cost-per-selection-rises", "0"] + options).code == .success)
    }

    @Test("logs of less than a month of traffic: the headline adds the saving over 30 days at their daily rate; whole months add nothing")
    func partialMonths() throws {
        let directory = TemporaryDirectory()
        let broken = CompareCommandTests.keystrokes(directory, "broken.jsonl", users: 3, perKeystroke: true)
        let fixed = CompareCommandTests.keystrokes(directory, "fixed.jsonl", users: 3, perKeystroke: false)
        let markdown = runCLI(["compare", broken, fixed, "--pricing", "legacy-list", "--quiet"]).stdout
        // $0.153 in one day: 30 days of it.
        #expect(markdown.contains("(list prices). The after logs cover 1 day in 1 calendar month, so a month here holds about 1 day of traffic: at their daily rate, 30 days save about $4.59."), "\(markdown)")
        // A month of traffic in each calendar month: a month is a month.
        var logs: [String] = []
        for (seed, name) in [("3", "before.jsonl"), ("4", "after.jsonl")] {
            let run = runCLI(["generate", "--searches", "400", "--seed", seed, "--start", "2026-10-01", "--days", "31", "--format", "jsonl"])
            logs.append(directory.write(name, run.stdout))
        }
        let whole = runCLI(["compare", logs[0], logs[1], "--pricing", "legacy-list", "--quiet"]).stdout
        #expect(whole.contains("(list prices).\n"), "\(whole.prefix(600))")
        #expect(!whole.contains("at their daily rate"))
    }

    @Test("a side without a selection is compared per search, and fails the per-selection check after one with selections")
    func noSelection() throws {
        let directory = TemporaryDirectory()
        let selected = CompareCommandTests.keystrokes(directory, "selected.jsonl", users: 2, perKeystroke: false)
        let abandoned = CompareCommandTests.log(directory, "abandoned.jsonl", (0..<2).flatMap { user in
            (1...4).map { ac(Double(user) * 600 + Double($0), "a-\(user)", String("Mark".prefix($0)), user: "u\(user)") }
        })
        let result = runCLI(["compare", selected, abandoned, "--pricing", "legacy-list", "--json", "--quiet"])
        #expect(result.code == .success, "\(result.stderr)")
        let document = try CompareCommandTests.json(result.stdout)
        #expect(document["saving_basis"] as? String == "searches")
        #expect(document["cost_per_selection_change_pct"] is NSNull)
        let after = try #require(document["after"] as? [String: Any])
        #expect((after["current"] as? [String: Any])?["list_cost_per_selection_usd"] is NSNull)
        let checked = runCLI(["compare", selected, abandoned, "--pricing", "legacy-list", "--quiet", "--json", "--fail-if-cost-per-selection-rises", "0"])
        #expect(checked.code == .checkFailed)
        #expect(checked.stderr.contains("to no selection at all"), "\(checked.stderr)")
    }

    @Test("--fail-if-cost-per-search-rises takes a finite percentage from 0", arguments: ["-1", "nan", "inf", "five", "", "1e400"])
    func thresholdValue(value: String) {
        let result = runCLI(["compare", "a.jsonl", "b.jsonl", "--fail-if-cost-per-search-rises", value])
        #expect(result.code == .usage)
        #expect(result.stderr.hasPrefix("placescost: error: --fail-if-cost-per-search-rises takes a percentage from 0 to 1000000, not `\(value)`."), "\(result.stderr)")
    }

    @Test("bad inputs: a missing file, JSON that is no report, a report of another schema or with a key missing, one input")
    func badInputs() throws {
        let directory = TemporaryDirectory()
        let (before, _) = CompareCommandTests.periods(directory)
        let missing = runCLI(["compare", before, directory.path + "/missing.jsonl", "--quiet"])
        #expect(missing.code == .noInput)
        #expect(missing.stderr.contains("missing.jsonl"), "\(missing.stderr)")

        let reconciliation = runCLI(["reconcile", "--billing", "SampleLogs/billing/cost-table-2026-10.csv", "--json", "--quiet"], workingDirectory: packageRoot)
        let other = directory.write("reconciliation.json", reconciliation.stdout)
        let wrongSchema = runCLI(["compare", other, before, "--quiet"])
        #expect(wrongSchema.code == .dataError)
        #expect(wrongSchema.stderr == "placescost: error: \(other) is a `placescost.reconciliation/1` document, not a report.json of `analyze` (`placescost.report/1`). Give compare a log, a directory of logs or a report.json written by `placescost analyze --json` or `--out`.\n")

        let report = runCLI(["analyze", before, "--json", "--quiet"]).stdout
        var object = try CompareCommandTests.json(report)
        var headline = try #require(object["headline"] as? [String: Any])
        headline["current_list_cost_usd"] = nil
        object["headline"] = headline
        let damaged = directory.write("damaged.json", String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
        let incomplete = runCLI(["compare", before, damaged, "--quiet"])
        #expect(incomplete.code == .dataError)
        #expect(incomplete.stderr.contains("\(damaged) is not a whole report.json (`placescost.report/1`): `headline.current_list_cost_usd` is missing."), "\(incomplete.stderr)")

        let numberSchema = directory.write("number.json", #"{"schema": 3}"#)
        #expect(runCLI(["compare", numberSchema, before, "--quiet"]).code == .dataError)

        // JSON without a `schema` key is read as a log: here, one that holds no call.
        let notALog = directory.write("settings.json", #"{"theme": "dark", "size": 3}"#)
        let result = runCLI(["compare", before, notALog, "--quiet"])
        #expect(result.code == .dataError)
        #expect(result.stderr.contains("settings.json"), "\(result.stderr)")

        #expect(runCLI(["compare", before]).code == .usage)
        #expect(runCLI(["compare", before, before, before]).code == .usage)
        #expect(runCLI(["compare", "-", "-"]).code == .usage)
        // The page is written by --out only, as analyze's report.html.
        #expect(runCLI(["compare", before, before, "--report", "html"]).code == .usage)
    }

    @Test("a report.json whose figures are out of range is refused with the member named; no figure prints as infinity")
    func figuresOutOfRange() throws {
        let directory = TemporaryDirectory()
        let (before, _) = CompareCommandTests.periods(directory)
        let report = runCLI(["analyze", before, "--json", "--quiet"]).stdout
        func edited(_ name: String, _ edit: (inout [String: Any]) -> Void) throws -> String {
            var object = try CompareCommandTests.json(report)
            edit(&object)
            return directory.write(name, String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
        }
        func set(_ section: String, _ key: String, _ value: Double) -> (inout [String: Any]) -> Void {
            { object in
                var part = object[section] as! [String: Any]
                part[key] = value
                object[section] = part
            }
        }
        let refused: [(String, (inout [String: Any]) -> Void)] = [
            ("headline.current_list_cost_usd", set("headline", "current_list_cost_usd", 1e308)),
            ("headline.current_cost_usd", set("headline", "current_cost_usd", -0.01)),
            ("headline.savings_usd_per_month", set("headline", "savings_usd_per_month", -1e300)),
            ("headline.recommended_list_cost_usd", set("headline", "recommended_list_cost_usd", 2e15)),
            ("searches.avg_requests", set("searches", "avg_requests", 1e308)),
            ("assumptions.scale", set("assumptions", "scale", 1e-300)),
        ]
        for (member, edit) in refused {
            let path = try edited("refused.json", edit)
            for sides in [[before, path], [path, before]] {
                let run = runCLI(["compare"] + sides + ["--quiet"])
                #expect(run.code == .dataError, "\(member)")
                #expect(run.stderr.contains("\(path) is not a whole report.json") && run.stderr.contains("`\(member)`"), "\(run.stderr)")
            }
        }
        // A count no Int holds, or with a fraction: said as such, not as "not JSON".
        for value in [1e20, 0.5] {
            let path = try edited("count.json", set("searches", "total", value))
            let run = runCLI(["compare", before, path, "--quiet"])
            #expect(run.code == .dataError)
            #expect(run.stderr.contains("a count in it (of searches, calls, months, days or an anomaly) is not a whole number"), "\(run.stderr)")
        }
        // The largest figures it takes, against a before side of a tiny cost per search: every
        // figure is a number, and the rise from next to nothing has no percent.
        let tiny = try edited("tiny.json") { object in
            set("headline", "current_list_cost_usd", 1e-320)(&object)
        }
        let huge = try edited("huge.json") { object in
            set("headline", "current_list_cost_usd", 1e15)(&object)
            set("assumptions", "scale", CostCalculator.Options.scaleRange.lowerBound)(&object)
        }
        let run = runCLI(["compare", tiny, huge])
        #expect(run.code == .success, "\(run.stderr)")
        #expect(!run.stdout.lowercased().contains("inf") && !run.stdout.lowercased().contains("nan"), "\(run.stdout)")
        let json = runCLI(["compare", tiny, huge, "--json"])
        #expect(json.code == .success && !json.stdout.contains("inf"))
    }

    /// `analyze --json` of `log`, edited by `edit` and written to `name` in `directory`.
    static func editedReport(
        _ log: String, _ directory: TemporaryDirectory, _ name: String, _ edit: (inout [String: Any]) -> Void
    ) throws -> String {
        var object = try CompareCommandTests.json(runCLI(["analyze", log, "--json", "--quiet"]).stdout)
        edit(&object)
        return directory.write(name, String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
    }

    /// `object[section][key] = value`.
    static func set(_ section: String, _ key: String, _ value: Any) -> (inout [String: Any]) -> Void {
        { object in
            var part = object[section] as! [String: Any]
            part[key] = value
            object[section] = part
        }
    }

    @Test("a report's text reaches comparison.md only as analyze writes it: a strategy, time or month that is none is refused naming the key")
    func textNoAnalyzeWrites() throws {
        let directory = TemporaryDirectory()
        let (before, after) = CompareCommandTests.periods(directory)
        let injected = "evil\n| x | y |\n# heading"
        let refused: [(String, (inout [String: Any]) -> Void)] = [
            ("`headline.recommended_strategy` holds no strategy of this placescost", CompareCommandTests.set("headline", "recommended_strategy", injected)),
            ("`period.first_call` is not an RFC 3339 time", CompareCommandTests.set("period", "first_call", injected)),
            ("`period.last_call` is not an RFC 3339 time", CompareCommandTests.set("period", "last_call", "2026-10-01")),
            ("`period.months[0]` is not a month as YYYY-MM", CompareCommandTests.set("period", "months", [injected])),
        ]
        for (reason, edit) in refused {
            let path = try CompareCommandTests.editedReport(after, directory, "edited.json", edit)
            for sides in [[before, path], [path, before]] {
                for format in ["md", "json"] {
                    let run = runCLI(["compare"] + sides + ["--report", format, "--quiet"])
                    #expect(run.code == .dataError, "\(reason)")
                    #expect(run.stderr == "placescost: error: \(path) is not a whole report.json (`placescost.report/1`): \(reason). Write it again with `placescost analyze --json`.\n")
                    #expect(run.stdout.isEmpty)
                }
            }
        }
        // What analyze writes at the ends of the years it reads is taken: the month before year 1.
        let earliest = try CompareCommandTests.editedReport(after, directory, "earliest.json") { object in
            CompareCommandTests.set("period", "months", ["0000-12", "10000-01"])(&object)
            CompareCommandTests.set("period", "first_call", "0001-01-01T00:00:00.000Z")(&object)
        }
        #expect(runCLI(["compare", before, earliest, "--quiet"]).code == .success)
    }

    @Test("a report with a count below 0, more selections than searches or more months than analyze bills is refused naming the key, on either side")
    func countsNoAnalyzeWrites() throws {
        let directory = TemporaryDirectory()
        let (before, after) = CompareCommandTests.periods(directory)
        let set = CompareCommandTests.set
        let whole = { (member: String, lowest: Int) in "`\(member)` is not a whole number of \(lowest) or more" }
        let months = "`headline.months` is not a whole number from 1 to 119,990, the calendar months a report of calls in the years 1 to 9999 can bill"
        let refused: [(String, (inout [String: Any]) -> Void)] = [
            (whole("searches.completed", 0), set("searches", "completed", -10)),
            (whole("searches.total", 0), set("searches", "total", -1)),
            (whole("input.records", 0), set("input", "records", -1)),
            (whole("anomalies.token_reused", 0), set("anomalies", "token_reused", -5)),
            (whole("headline.recommended_delay", 0), set("headline", "recommended_delay", -1)),
            (whole("period.days", 1), set("period", "days", 0)),
            ("`searches.completed` is more than `searches.total`", set("searches", "completed", 7)),
            (months, set("headline", "months", 1_000_000_000_000_000_000)),
            (months, set("headline", "months", ReportDocument.maxMonths + 1)),
            (months, set("headline", "months", 0)),
        ]
        for (reason, edit) in refused {
            let path = try CompareCommandTests.editedReport(after, directory, "edited.json", edit)
            for sides in [[before, path], [path, before]] {
                let run = runCLI(["compare"] + sides + ["--json", "--quiet", "--fail-if-cost-per-selection-rises", "0"])
                #expect(run.code == .dataError, "\(reason)")
                #expect(run.stderr == "placescost: error: \(path) is not a whole report.json (`placescost.report/1`): \(reason). Write it again with `placescost analyze --json`.\n")
                #expect(run.stdout.isEmpty)
            }
        }
        // The most months a report can bill is taken.
        let longest = try CompareCommandTests.editedReport(after, directory, "longest.json", set("headline", "months", ReportDocument.maxMonths))
        #expect(runCLI(["compare", before, longest, "--quiet"]).code == .success)
    }

    @Test("the most months a report can bill are those from the month of analyze's earliest call west of UTC to that of its latest east of it")
    func monthBound() throws {
        let directory = TemporaryDirectory()
        func month(_ timestamp: String, _ zone: String) throws -> Int {
            let log = directory.write("call.jsonl", #"{"timestamp":""# + timestamp + #"","api":"autocomplete","session_token":"t","input_length":3}"# + "\n")
            let report = try CompareCommandTests.json(runCLI(["analyze", log, "--timezone", zone, "--json", "--quiet"]).stdout)
            let label = try #require((report["period"] as? [String: Any])?["months"] as? [String]).first ?? ""
            let parts = label.split(separator: "-").compactMap { Int($0) }
            return parts[0] * 12 + parts[1] - 1
        }
        let earliest = try month("0001-01-01T00:00:00Z", "America/Los_Angeles")
        let latest = try month("9999-12-31T23:59:59.999Z", "Pacific/Kiritimati")
        #expect(earliest == 11 && latest == 120_000, "0000-12 and 10000-01")
        #expect(ReportDocument.maxMonths == latest - earliest + 1)
    }

    @Test("a report.json after a byte order mark is read; one that is no valid JSON is refused naming the file and where it stops, by compare and simulate --from")
    func damagedReportFile() throws {
        let directory = TemporaryDirectory()
        let (before, after) = CompareCommandTests.periods(directory)
        let text = runCLI(["analyze", after, "--json", "--quiet"]).stdout
        let report = directory.write("report.json", text)
        let expected = runCLI(["compare", before, report, "--json", "--quiet"])
        #expect(expected.code == .success, "\(expected.stderr)")
        let marked = directory.path + "/bom.json"
        try (Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8)).write(to: URL(fileURLWithPath: marked))
        #expect(runCLI(["compare", before, marked, "--json", "--quiet"]).stdout == expected.stdout)
        #expect(runCLI(["compare", marked, before, "--json", "--quiet"]).code == .success)
        let simulated = runCLI(["simulate", "--from", marked, "--json", "--quiet"])
        #expect(simulated.code == .success, "\(simulated.stderr)")
        #expect(simulated.stdout.replacingOccurrences(of: marked, with: report) == runCLI(["simulate", "--from", report, "--json", "--quiet"]).stdout)

        // Written by analyze, or by `jq -c`, then damaged.
        let minified = String(decoding: try JSONSerialization.data(withJSONObject: CompareCommandTests.json(text), options: [.sortedKeys]), as: UTF8.self)
            .replacingOccurrences(of: #"{"anomalies""#, with: #"{"schema":"placescost.report/1","anomalies""#)
        let damaged = [
            ("cut.json", String(text.dropLast(2))),
            ("bom-cut.json", "\u{FEFF}" + String(text.dropLast(40))),
            ("nan.json", text.replacingOccurrences(of: #""current_list_cost_usd": "#, with: #""current_list_cost_usd": NaN, "was": "#)),
            ("huge.json", text.replacingOccurrences(of: #""current_list_cost_usd": "#, with: #""current_list_cost_usd": 1e400, "was": "#)),
            ("minified-cut.json", String(minified.dropLast(3))),
        ]
        for (name, contents) in damaged {
            let path = directory.write(name, contents)
            for arguments in [["compare", before, path], ["compare", path, before], ["simulate", "--from", path]] {
                let run = runCLI(arguments + ["--quiet"])
                #expect(run.code == .dataError, "\(name): \(run.stderr)")
                #expect(run.stderr.hasPrefix("placescost: error: \(path) is not a whole report.json (`placescost.report/1`): it is not valid JSON ("), "\(name): \(run.stderr)")
                #expect(run.stderr.hasSuffix("). Write it again with `placescost analyze --json`.\n") && !run.stderr.contains("not a log"), "\(run.stderr)")
                #expect(run.stdout.isEmpty)
            }
        }
        // Foundation's reason says where: around which character, or at the end of the file.
        let nan = runCLI(["compare", before, directory.path + "/nan.json", "--quiet"]).stderr
        #expect(nan.contains("character") || nan.contains("line"), "\(nan)")
        // JSON Lines starting with `{` that names no placescost schema is still a log.
        #expect(runCLI(["compare", before, after, "--quiet"]).code == .success)
    }

    @Test("an anomaly a report names that this placescost does not know is shown escaped, never as Markdown")
    func unknownAnomalyEscaped() throws {
        let directory = TemporaryDirectory()
        let (before, after) = CompareCommandTests.periods(directory)
        let name = "new`one | x |\n# heading <b>"
        let path = try CompareCommandTests.editedReport(after, directory, "report.json") { object in
            var anomalies = object["anomalies"] as! [String: Any]
            anomalies[name] = 3
            object["anomalies"] = anomalies
        }
        let run = runCLI(["compare", before, path, "--quiet"])
        #expect(run.code == .success, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.contains("| \(MarkdownText.name(name)) | 0 | 3 | $0.00 | $0.00 |"), "\(run.stdout)")
        #expect(!lines.contains { $0.hasPrefix("# heading") } && !run.stdout.contains("<b>"))
        // Every row of the anomaly table has its five cells.
        let table = lines.drop { !$0.hasPrefix("| anomaly") }.prefix { $0.hasPrefix("|") }
        #expect(table.count == 2 + CompareCommandTests.anomalyNames.count + 1)
        for row in table { #expect(row.replacingOccurrences(of: "\\|", with: "").split(separator: "|", omittingEmptySubsequences: false).count == 7, "\(row)") }
    }

    @Test("comparison.html holds comparison.md's figures, loads nothing and escapes the input names")
    func page() throws {
        let directory = TemporaryDirectory()
        let (before, after) = CompareCommandTests.periods(directory)
        let hostile = directory.path + "/<b>before&\"x\".jsonl"
        try FileManager.default.copyItem(atPath: before, toPath: hostile)
        #expect(runCLI(["compare", hostile, after, "-o", directory.path + "/out", "-q"]).code == .success)
        let html = try String(contentsOfFile: directory.path + "/out/comparison.html", encoding: .utf8)
        let markdown = try String(contentsOfFile: directory.path + "/out/comparison.md", encoding: .utf8)
        #expect(html.contains("Content-Security-Policy"))
        for forbidden in ["<script", "src=", "url(", "@import", "<b>before"] {
            #expect(!html.contains(forbidden), "\(forbidden)")
        }
        #expect(html.contains("&lt;b&gt;before&amp;&quot;x&quot;.jsonl"))
        // Every figure of the Markdown's tables is on the page.
        var figures = 0
        for line in markdown.split(separator: "\n") where line.hasPrefix("| ") && !line.hasPrefix("| anomaly") && !line.hasPrefix("| |") {
            for cell in line.split(separator: "|").dropFirst().map({ $0.trimmingCharacters(in: .whitespaces) }) where cell.first?.isNumber == true || cell.hasPrefix("$") || cell.hasPrefix("**$") || cell.hasPrefix("+") || cell.hasPrefix("-") {
                let figure = cell.replacingOccurrences(of: "**", with: "")
                #expect(html.contains(">\(figure)<"), "\(figure) of `\(line)`")
                figures += 1
            }
        }
        #expect(figures > 20)
        #expect(html.contains(">What changed</h1>"))
    }

    @Test("--out writes comparison.md, comparison.json and comparison.html; the first two are the bytes --report prints")
    func outDirectory() throws {
        let directory = TemporaryDirectory()
        let (before, after) = CompareCommandTests.periods(directory)
        let result = runCLI(["compare", before, after, "-o", directory.path + "/out", "-q"])
        #expect(result.code == .success)
        #expect(result.stdout.isEmpty)
        #expect(FileManager.default.fileExists(atPath: directory.path + "/out/comparison.html"))
        for format in ["md", "json"] {
            let written = try String(contentsOfFile: directory.path + "/out/comparison.\(format)", encoding: .utf8)
            #expect(written == runCLI(["compare", before, after, "--report", format, "-q"]).stdout)
        }
    }

    // MARK: - The worked example

    static let goldenFolder = packageRoot + "/Tests/PlacesCostKitTests/Fixtures/golden/compare"

    @Test("the README's worked example: the sample log before and after its token mistakes were fixed, as golden files", arguments: ["md", "json"])
    func workedExample(format: String) throws {
        let result = runCLI(
            ["compare", "SampleLogs/ios-app.jsonl", "docs/examples/after-fix/ios-app.jsonl", "--report", format, "--quiet"],
            workingDirectory: packageRoot
        )
        #expect(result.code == .success, "\(result.stderr)")
        let path = CompareCommandTests.goldenFolder + "/comparison.\(format)"
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(atPath: CompareCommandTests.goldenFolder, withIntermediateDirectories: true)
            try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let golden = try String(contentsOfFile: path, encoding: .utf8)
        #expect(result.stdout == golden, "comparison.\(format) differs from its golden file; run RECORD_GOLDEN=1 swift test if the change is intended.")
    }

    @Test("the after-fix example log has none of the token mistakes the sample has")
    func afterFixLog() throws {
        let document = try CompareCommandTests.json(
            runCLI(["compare", "SampleLogs/ios-app.jsonl", "docs/examples/after-fix/ios-app.jsonl", "--json", "--quiet"], workingDirectory: packageRoot).stdout
        )
        let rows = try #require(document["anomalies"] as? [[String: Any]])
        for row in rows where row["name"] as? String != "one_request_sessions" {
            #expect((row["after_count"] as? NSNumber)?.intValue == 0, "\(row)")
            #expect(((row["before_count"] as? NSNumber)?.intValue ?? 0) > 0, "\(row)")
        }
        #expect((CompareCommandTests.number(document, "monthly_saving_usd") ?? 0) > 0)
    }
}
