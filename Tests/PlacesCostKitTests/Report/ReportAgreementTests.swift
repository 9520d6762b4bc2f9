import Foundation
import Testing
@testable import PlacesCostKit

/// The Markdown and HTML reports print no figure that `report.json` does not hold: each figure
/// is read from the JSON and looked for, formatted for people, in the report. `report.html` is
/// read through `markdownView`, which writes its table rows, code and emphasis as Markdown does.
@Suite("Markdown, HTML and JSON agree")
struct ReportAgreementTests {
    enum Format: String, CaseIterable, CustomTestStringConvertible {
        case md, html
        var testDescription: String { rawValue }
    }

    struct Report {
        var markdown: String
        var json: [String: Any]
    }

    static func report(_ arguments: [String] = [], format: Format = .md) throws -> Report {
        let json = runCLI(["analyze", "--json", "--quiet"] + arguments, workingDirectory: packageRoot)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        switch format {
        case .md:
            let md = runCLI(["analyze", "--quiet"] + arguments, workingDirectory: packageRoot)
            return Report(markdown: md.stdout, json: try #require(object))
        case .html:
            let out = TemporaryDirectory()
            let run = runCLI(["analyze", "--out", out.path, "--quiet"] + arguments, workingDirectory: packageRoot)
            #expect(run.code == .success, "\(run.stderr)")
            let html = try String(contentsOfFile: out.path + "/report.html", encoding: .utf8)
            return Report(markdown: markdownView(html), json: try #require(object))
        }
    }

    /// `html` as the text a reader sees, with each table row on a line as `| cell | cell |`,
    /// `<code>` as backticks and `<strong>` as `**`, the charts left out (their labels repeat
    /// figures of the tables) and entities decoded.
    static func markdownView(_ html: String) -> String {
        func replacing(_ pattern: String, in text: String, _ transform: (NSTextCheckingResult, NSString) -> String) -> String {
            let regex = try! NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
            let source = text as NSString
            var output = ""
            var last = 0
            for match in regex.matches(in: text, range: NSRange(location: 0, length: source.length)) {
                output += source.substring(with: NSRange(location: last, length: match.range.location - last))
                output += transform(match, source)
                last = match.range.location + match.range.length
            }
            return output + source.substring(from: last)
        }
        var text = replacing("<svg.*?</svg>", in: html) { _, _ in "" }
        text = replacing("<tr[^>]*>(.*?)</tr>", in: text) { match, source in
            let cells = replacing("<t[hd][^>]*>(.*?)</t[hd]>", in: source.substring(with: match.range(at: 1))) { cell, row in
                "\u{1}" + row.substring(with: cell.range(at: 1))
            }.split(separator: "\u{1}", omittingEmptySubsequences: false).dropFirst()
            return "\n| " + cells.joined(separator: " | ") + " |\n"
        }
        text = replacing("</?code[^>]*>", in: text) { _, _ in "`" }
        text = replacing("</?strong>", in: text) { _, _ in "**" }
        text = replacing("<[^>]*>", in: text) { _, _ in "" }
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text
    }

    func expectContains(_ markdown: String, _ text: String, _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(markdown.contains(text), "\(what): `\(text)` not in the report", sourceLocation: sourceLocation)
    }

    @Test("A log of calls nothing prices: every option bills the same $0.00, said so, never as $-0.00")
    func nothingPriced() throws {
        let directory = TemporaryDirectory()
        let path = directory.write("log.jsonl", """
        {"timestamp":"2026-10-01T09:00:00Z","api":"directions"}
        {"timestamp":"2026-10-01T09:00:01Z","api":"directions"}

        """)
        let run = runCLI(["analyze", path])
        #expect(run.code == .success, "\(run.stderr)")
        #expect(run.stdout.contains("| Cheapest alternative | `session_details` bills the same as the calls as made, $0.00 a month |"), "\(run.stdout)")
        #expect(!run.stdout.contains("$-"), "\(run.stdout)")
    }

    @Test("A log with no autocomplete search says so, and never calls an option as dear as the calls as made cheaper")
    func noSearch() throws {
        let directory = TemporaryDirectory()
        let path = directory.write("log.jsonl", """
        {"timestamp":"2026-10-01T09:00:00Z","api":"geocoding","user_id":"u"}
        {"timestamp":"2026-10-01T09:05:00Z","api":"geocoding","user_id":"v"}

        """)
        let run = runCLI(["analyze", path])
        #expect(run.code == .success, "\(run.stderr)")
        let report = run.stdout
        #expect(report.contains("| Recommended | **Keep the integration as it is** (`current`, delay 0): the log holds no autocomplete search, so there is no search to bill another way |"), "\(report)")
        // Inside the free caps every option bills $0.00; past them the geocoding calls bill the same
        // whatever the strategy, so none is "cheapest", and nothing is saved "yet".
        #expect(report.contains("| Saving | none to make: every option bills $0.00 a month inside the monthly free caps per SKU at this volume; past them too, no option bills less at list prices than the calls as made ($0.01 a month) |"), "\(report)")
        #expect(report.contains("| Why not the tree's answer | The tree's answer, `session_details`, bills what the calls as made bill at this volume ($0.00) and no less at list prices ($0.01 against $0.01): changing the integration would save nothing. |"), "\(report)")
        #expect(report.contains("1. Keep the integration as it is: the log holds no autocomplete search to bill another way."), "\(report)")
        #expect(!report.contains("is cheapest at list prices"))
        #expect(!report.contains("nothing yet"))
    }

    @Test("The bill's coverage names up to three months, else their count and ends, and groups the days' digits")
    func coverage() throws {
        let directory = TemporaryDirectory()
        let months = (1...5).map { #"{"timestamp":"2026-0\#($0)-15T09:00:00Z","api":"autocomplete","session_token":"t\#($0)"}"# }
        let long = directory.write("long.jsonl", months.joined(separator: "\n") + "\n")
        let run = runCLI(["analyze", long])
        // Mid-month to mid-month: each calendar month holds about 24 days of the traffic, and the bill says so.
        let partly = " (121 days of logs over 5 calendar months, about 24 days of traffic in each: a full month of it bills more; `--scale` extrapolates);"
        #expect(run.stdout.contains("a month** for 5 months, 2026-01 to 2026-05" + partly), "\(run.stdout)")
        let short = directory.write("short.jsonl", months.prefix(3).joined(separator: "\n") + "\n")
        #expect(runCLI(["analyze", short]).stdout.contains("a month** for 2026-01, 2026-02, 2026-03 (60 days of logs over 3 calendar months, about 20 days of traffic in each: a full month of it bills more; `--scale` extrapolates);"))
        let wide = directory.write("wide.jsonl", [#"{"timestamp":"1970-01-01T00:00:01Z","api":"autocomplete","session_token":"a"}"#, #"{"timestamp":"9999-12-31T23:59:59Z","api":"autocomplete","session_token":"b"}"#].joined(separator: "\n") + "\n")
        #expect(runCLI(["analyze", wide]).stdout.contains("for 1970-01, 9999-12 (2,932,897 days of logs);"))
        let html = directory.path + "/out"
        #expect(runCLI(["analyze", long, "--out", html, "--quiet"]).code == .success)
        #expect(try String(contentsOfFile: html + "/report.html", encoding: .utf8).contains("a month</strong> for 5 months, 2026-01 to 2026-05 (121 days of logs over 5 calendar months, about 24 days of traffic in each: a full month of it bills more; <code>--scale</code> extrapolates);"))
    }

    @Test("One of a thing reads in the singular: 1 request per search over 1 search, 1 call, the 1 selection asks")
    func singular() throws {
        let directory = TemporaryDirectory()
        let path = directory.write("log.jsonl", """
        {"timestamp":"2026-10-01T09:00:00Z","api":"autocomplete","session_token":"a","input_length":3}
        {"timestamp":"2026-10-01T09:00:02Z","api":"place_details","session_token":"a","fields":["formatted_address"]}
        {"timestamp":"2026-10-01T09:00:03Z","api":"place_details","api_version":"new","fields":["formattedAddress"],"user_id":"u"}

        """)
        let run = runCLI(["analyze", path, "--needs-details", "no"])
        #expect(run.code == .success, "\(run.stderr)")
        #expect(run.stdout.contains("Yes: 1 request per search over 1 search."), "\(run.stdout)")
        #expect(run.stdout.contains("Characters typed at selection: mean 3 over 1 completed search with recorded input."), "\(run.stdout)")
        #expect(run.stdout.contains("web_service (new API): 1 call"), "\(run.stdout)")
        #expect(run.stdout.contains("web_service (legacy API): 2 calls"), "\(run.stdout)")
        for plural in ["1 requests", "1 searches", "1 calls"] {
            #expect(!run.stdout.contains(plural), "\(plural)")
        }
        // Measured from the one selection's field mask, address only and then with a rating.
        let measured = runCLI(["analyze", path])
        #expect(measured.stdout.contains("No: the 1 selection with a field mask asks only for address and location fields."), "\(measured.stdout)")
        let rating = directory.write("rating.jsonl", """
        {"timestamp":"2026-10-01T09:00:00Z","api":"autocomplete","session_token":"a","input_length":3}
        {"timestamp":"2026-10-01T09:00:02Z","api":"place_details","session_token":"a","fields":["formatted_address","rating"]}

        """)
        let compared = runCLI(["compare", path, path])
        #expect(compared.stdout.contains("× 1 selection a month after = $0.00 a month."), "\(compared.stdout)")
        let forecast = runCLI(["simulate", "--from", path, "--months", "2"])
        #expect(forecast.stdout.contains(", per search, at 1 search in 2026-11,"), "\(forecast.stdout)")
        let needs = runCLI(["analyze", rating])
        #expect(needs.stdout.contains("Yes: 1 of 1 selection with a field mask (100%) asks for other fields."), "\(needs.stdout)")
        #expect(needs.stdout.contains("**Yes**: 1 of 1 selection with a field mask (100%) asks for more than the address and location."), "\(needs.stdout)")
    }

    @Test("On a log of two months, every amount of the headline is a month", arguments: Format.allCases)
    func twoMonths(format: Format) throws {
        let directory = TemporaryDirectory()
        let log = JSONSchemaTests.generatedLog(directory)
        for scale in ["1", "30"] {
            try agree(arguments: [log, "--scale", scale], format: format)
            let report = try Self.report([log, "--scale", scale], format: format)
            #expect((report.json["headline"] as? [String: Any])?["months"] as? Int == 2)
            // 20 days over two calendar months: "a month" holds about 10 days of traffic, and says so.
            #expect(report.markdown.contains("for 2026-10, 2026-11 (20 days of logs over 2 calendar months, about 10 days of traffic in each: a full month of it bills more; `--scale` extrapolates)"), "\(report.markdown.prefix(600))")
        }
    }

    @Test("headline, decision path, ranking, anomalies, searches and costs", arguments: [[], ["--pricing", "legacy-list", "--needs-details", "no"], ["--scale", "40"]], Format.allCases)
    func agree(arguments: [String], format: Format) throws {
        let report = try ReportAgreementTests.report(arguments, format: format)
        let md = report.markdown
        let json = report.json

        let headline = try #require(json["headline"] as? [String: Any])
        let months = Double(try #require(headline["months"] as? Int))
        expectContains(md, "**\(Money.usd(try #require(headline["current_cost_usd"] as? Double) / months)) a month**", "bill now")
        // A month, as the bill is: "a month" said where the log spans several.
        let listNow = try #require(headline["current_list_cost_usd"] as? Double)
        expectContains(md, "; \(Money.usd(listNow / months))\(months > 1 ? " a month" : "") at list prices", "bill at list prices")
        let recommendation = try #require(json["recommendation"] as? [String: Any])
        let strategy = try #require(recommendation["strategy"] as? String)
        let delay = try #require(recommendation["delay"] as? Int)
        expectContains(md, "(`\(strategy)`, delay \(delay))", "recommended strategy")
        #expect(headline["recommended_strategy"] as? String == strategy && headline["recommended_delay"] as? Int == delay)
        for step in try #require(recommendation["path"] as? [String]) {
            expectContains(md, step, "decision step")
        }
        for step in try #require(recommendation["next_steps"] as? [String]) {
            expectContains(md, step, "next step")
        }
        if let reason = recommendation["differs_from_tree_because"] as? String {
            expectContains(md, reason, "why the recommendation is not the tree's answer")
            // Its amounts are a month, as the headline's; over several months it says so.
            if months > 1, reason.contains("$") { #expect(reason.contains(" a month"), "\(reason)") }
        }
        let recommendedList = try #require(headline["recommended_list_cost_usd"] as? Double)
        #expect(abs((try #require(recommendation["list_savings_usd"] as? Double)) - (listNow - recommendedList) / months) < 1e-6, "list saving a month")
        let savings = try #require(headline["savings_usd_per_month"] as? Double)
        #expect(abs(savings - (try #require(recommendation["savings_usd"] as? Double))) < 1e-9)
        #expect(savings >= 0, "the headline never recommends paying more")
        if recommendation["keep_current"] as? Bool == true {
            expectContains(md, "**Keep the integration as it is** (`current`, delay 0)", "keep")
            if let alternative = recommendation["cheapest_alternative"] as? [String: Any], recommendation["all_bills_zero"] as? Bool != true {
                let saving = try #require(alternative["savings_usd"] as? Double)
                expectContains(md, Money.micros(saving) == 0 ? "bills the same as the calls as made" : "bills \(Money.usd(-saving)) a month more", "cheapest alternative")
            }
        } else {
            expectContains(md, "**\(Money.usd(savings)) a month**", "saving")
        }
        // `current` with a delay is a candidate: the recommendation bills no more than any valid
        // option up to --max-delay, so the calls as made at its delay never bill less.
        #expect(recommendation["current_with_delay"] is NSNull)
        let maxDelay = try #require((json["assumptions"] as? [String: Any])?["max_delay"] as? Int)
        let recommendedBill = try #require(headline["recommended_cost_usd"] as? Double)
        for entry in try #require(json["strategies"] as? [[String: Any]]) where entry["valid"] as? Bool == true && (entry["delay"] as? Int ?? .max) <= maxDelay {
            #expect(Money.micros(recommendedBill) <= Money.micros(try #require(entry["cost_usd"] as? Double)), "\(entry["id"] ?? "") delay \(entry["delay"] ?? "")")
        }
        if let change = recommendation["advice_changes_at"] as? [String: Any] {
            expectContains(md, "`--scale \(Money.plain(try #require(change["scale"] as? Double), digits: 4))`", "the volume the advice changes at")
        }

        // The Markdown ranks the valid rows it shows 1..n; JSON ranks every valid option.
        var shownRank = 0
        let named = ["tree_answer", "best_without_delay", "cheapest_alternative", "cheapest_at_list_prices"]
            .compactMap { recommendation[$0] as? [String: Any] }
            .map { "\($0["strategy"] as? String ?? "")/\($0["delay"] as? Int ?? -1)" } + ["\(strategy)/\(delay)"]
        for entry in try #require(recommendation["ranking"] as? [[String: Any]]) {
            let id = try #require(entry["strategy"] as? String)
            let entryDelay = try #require(entry["delay"] as? Int)
            guard entryDelay == 0 || named.contains("\(id)/\(entryDelay)") else { continue }
            let valid = try #require(entry["valid"] as? Bool)
            #expect(valid == (entry["rank"] is Int))
            if valid { shownRank += 1 }
            let row = "| \(valid ? String(shownRank) : "–") | `\(id)`"
            expectContains(md, row, "ranking row")
            let cells = "| \(entryDelay) | \(Money.usd(try #require(entry["cost_usd"] as? Double))) | \(Money.usd(try #require(entry["savings_usd"] as? Double))) | \(Money.plain(try #require(entry["savings_pct"] as? Double)))% | \(Money.usd(try #require(entry["list_cost_usd"] as? Double))) |"
            expectContains(md, cells, "ranking figures of \(id)")
        }

        for anomaly in try #require(json["anomaly_costs"] as? [[String: Any]]) {
            let name = try #require(anomaly["name"] as? String)
            let count = try #require(anomaly["count"] as? Int)
            // `fields_wildcard` is priced beside the anomalies, not counted among them.
            #expect((json["anomalies"] as? [String: Int])?[name] == (name == "fields_wildcard" ? nil : count))
            // Under --scale the billed count stands beside the log's, as the money is the billed volume's.
            let scale = try #require((json["assumptions"] as? [String: Any])?["scale"] as? Double)
            let billedCount = try #require(anomaly["billed_count"] as? Double)
            #expect(billedCount == Double(count) * scale)
            let billed = scale == 1 ? "" : " | " + Money.count(billedCount)
            expectContains(md, "| `\(name)` | \(Money.count(count))\(billed) | \(Money.usd(try #require(anomaly["billed_list_usd"] as? Double))) |", "anomaly \(name)")
            if let alternative = anomaly["alternative_list_usd"] as? Double {
                expectContains(md, "| \(Money.usd(alternative)) (", "anomaly \(name) done right")
            }
        }

        let searches = try #require(json["searches"] as? [String: Any])
        for key in ["total", "completed", "abandoned"] {
            expectContains(md, "| \(Money.count(try #require(searches[key] as? Int))) |", "searches.\(key)")
        }
        expectContains(md, "mean **\(Money.plain(try #require(searches["avg_requests"] as? Double)))**", "avg_requests")
        expectContains(md, "completed searches: \(Money.plain(try #require(searches["avg_requests_completed"] as? Double)))", "avg_requests_completed")
        for (requests, count) in try #require(searches["requests_histogram"] as? [String: Int]) {
            expectContains(md, "| \(requests) | \(Money.count(count)) |", "requests histogram")
        }

        let strategies = try #require(json["strategies"] as? [[String: Any]])
        for id in StrategyID.allCases.map(\.rawValue) {
            let rows = strategies.filter { $0["id"] as? String == id }.sorted { ($0["delay"] as! Int) < ($1["delay"] as! Int) }
            for key in ["cost_usd", "list_cost_usd"] {
                let cells = try rows.map { Money.usd(try #require($0[key] as? Double)) }.joined(separator: " | ")
                expectContains(md, " | " + cells + " |", "\(id) \(key) by delay")
            }
        }
        expectContains(md, "**\(Money.plain(try #require(json["break_even_requests"] as? Double)))**", "break-even")
        let evidence = try #require(recommendation["evidence"] as? [String: Any])
        let means = try #require(evidence["mean_requests_by_delay"] as? [String: Double])
        expectContains(md, means.keys.sorted().map { "\($0): \(Money.plain(means[$0]!))" }.joined(separator: ", "), "means by delay")
        let period = try #require(json["period"] as? [String: Any])
        expectContains(md, "\(try #require(period["days"] as? Int)) days of logs", "days covered")
        expectContains(md, "First call \(try #require(period["first_call"] as? String)), last call \(try #require(period["last_call"] as? String))", "period")
    }
}
