import Foundation
import Testing
@testable import PlacesCostKit

/// `simulate --from X --pricing T` where T bills the other API generation: the measured searches
/// billed again, shape by shape, by T's rules. The oracle is `analyze LOG --pricing T`, which
/// prices each search of the log under T: at the log's own volume the two agree to the
/// micro-dollar for every strategy, delay and month.
@Suite("simulate --from with another API generation")
struct OtherGenerationTests {
    typealias Object = [String: Any]

    enum Generations: String, CaseIterable, Sendable {
        case legacy, new, mixed
    }

    /// A generated log whose calls are all legacy, all New, or New for every other user.
    static func log(_ directory: TemporaryDirectory, _ generations: Generations, start: String = "2025-02-15", days: Int = 30, searches: Int = 1500) throws -> String {
        let legacy = SimulateFromTests.log(directory, start: start, days: days, searches: searches, seed: 7)
        guard generations != .legacy else { return legacy }
        let text = try String(contentsOfFile: legacy, encoding: .utf8)
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            // A user's calls share a generation, so no session mixes them.
            let user = line.range(of: #""user_id":"u-\d+"#, options: .regularExpression).map { String(line[$0]) } ?? ""
            let odd = user.last.flatMap { Int(String($0)) }.map { $0 % 2 == 1 } ?? false
            lines.append(generations == .new || odd ? line.replacingOccurrences(of: #""api_version":"legacy""#, with: #""api_version":"new""#) : String(line))
        }
        let path = directory.path + "/\(generations.rawValue)-\(start).jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Every strategy's bill and its months' bills in `simulated` against `analyzed`.
    static func expectSameBills(_ simulated: Object, _ analyzed: Object, _ label: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let expected = SimulateFromTests.strategies(analyzed)
        let billed = SimulateFromTests.strategies(simulated)
        #expect(expected.count >= 20 && Set(expected.keys) == Set(billed.keys), "\(label)", sourceLocation: sourceLocation)
        for (key, strategy) in expected {
            guard let mine = billed[key] else { continue }
            let cost = strategy["cost_usd"] as! Double
            #expect(abs((mine["cost_usd"] as! Double) - cost) <= 1e-6, "\(label) \(key): \(mine["cost_usd"]!) against analyze's \(cost)", sourceLocation: sourceLocation)
        }
        let months = simulated["months"] as! [Object]
        for (index, month) in months.enumerated() {
            for entry in month["strategies"] as! [Object] {
                let key = "\(entry["id"]!)@\(entry["delay"]!)"
                let analyzedMonth = (expected[key]!["months"] as! [Object])[index]
                #expect(analyzedMonth["month"] as? String == month["month"] as? String, sourceLocation: sourceLocation)
                #expect(abs((entry["cost_usd"] as! Double) - (analyzedMonth["cost_usd"] as! Double)) <= 1e-6, "\(label) \(key) in \(month["month"]!)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("At the log's own volume, a report.json and the log billed with the other generation's table are analyze --pricing's bill", arguments: [
        (Generations.legacy, "places-new-2025", [String]()),
        (.legacy, "places-new-2025", ["--scale", "7.5"]),
        (.legacy, "places-new-2025", ["--delays", "2,9"]),
        (.new, "legacy-2025", []),
        (.new, "legacy-2018", ["--scale", "40"]),
        (.mixed, "places-new-2025", []),
        (.mixed, "legacy-2025", ["--scale", "3"]),
    ])
    func reproducesAnalyze(generations: Generations, table: String, options: [String]) throws {
        let directory = TemporaryDirectory()
        // 2025-02-15 for 30 days: February and March 2025, on both sides of the March 2025 switch.
        let log = try OtherGenerationTests.log(directory, generations)
        let (report, measured) = try SimulateFromTests.report(log, directory, options: options)
        let pricing = measured["pricing"] as! Object
        #expect(generations == .mixed || pricing["api_version"] as? String != (table.hasPrefix("legacy") ? "legacy" : "new"))
        let (_, oracle) = try SimulateFromTests.report(log, directory, options: options + ["--pricing", table])
        let fromReport = try SimulateFromTests.simulate(["--from", report, "--pricing", table])
        OtherGenerationTests.expectSameBills(fromReport, oracle, "report.json")
        #expect((fromReport["months"] as! [Object]).map { $0["month"] as! String } == ["2025-02", "2025-03"])
        #expect((fromReport["months"] as! [Object]).allSatisfy { $0["tables"] as? [String] == [table] })
        let fromLog = try SimulateFromTests.simulate(["--from", log, "--pricing", table] + options)
        OtherGenerationTests.expectSameBills(fromLog, oracle, "log")
    }

    @Test("12 months growing 10% of legacy traffic under Places API (New): each month the New SKU counts per search times its volume, billed from Pricing/places-new-2025.json")
    func projectedMove() throws {
        let directory = TemporaryDirectory()
        let log = try OtherGenerationTests.log(directory, .legacy, start: "2026-10-01", days: 20)
        let (report, measured) = try SimulateFromTests.report(log, directory)
        // The New SKUs each search bills, as analyze counts them per search under the New table.
        let (_, oracle) = try SimulateFromTests.report(log, directory, options: ["--pricing", "places-new-2025"])
        let searches = (measured["searches"] as! Object)["total"] as! Int
        let simulated = try SimulateFromTests.simulate([
            "--from", report, "--pricing", "places-new-2025", "--searches", "50000", "--growth", "10", "--months", "12", "--start", "2026-11",
        ])
        let table = try SimulateFromTests.Table("places-new-2025")
        let perSearch = SimulateFromTests.strategies(oracle)
        let months = simulated["months"] as! [Object]
        #expect(months.count == 12)
        for (index, month) in months.enumerated() {
            let volume = 50_000 * pow(1.1, Double(index))
            #expect(month["tables"] as? [String] == ["places-new-2025"])
            for entry in month["strategies"] as! [Object] {
                let key = "\(entry["id"]!)@\(entry["delay"]!)"
                let rates = SimulateFromTests.perSearch(perSearch[key]!, searches: searches)
                #expect(rates.keys.allSatisfy { table.skus[$0] != nil }, "\(key) bills a SKU places-new-2025 does not list")
                let expected = table.bill(rates.mapValues { $0 * volume })
                #expect(abs((entry["cost_usd"] as! Double) - expected) < 1e-6, "\(key) in \(month["month"]!): \(entry["cost_usd"]!) against \(expected)")
            }
        }
        // A scenario with the New table prices the same move, option by option.
        let file = directory.path + "/move.json"
        try """
            {"schema": "placescost.scenarios/1", "scenarios": [
              {"name": "move", "pricing": "places-new-2025", "searches": 50000, "growth_pct": 10, "months": 12, "start": "2026-11"},
              {"name": "move, fixed, delay 2", "pricing": "places-new-2025", "searches": 50000, "growth_pct": 10, "months": 12, "start": "2026-11", "mistakes_fixed": true, "delay": 2}
            ]}
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let scenarios = try #require(try SimulateFromTests.json(runCLI(["simulate", "--json", "--quiet", "--from", report, "--scenario", file]).stdout)["scenarios"] as? [Object])
        let totals = SimulateFromTests.strategies(simulated)
        #expect(scenarios.count == 2)
        for scenario in scenarios {
            let key = "\(scenario["strategy"]!)@\(scenario["delay"]!)"
            #expect(abs((scenario["cost_usd"] as! Double) - (totals[key]!["cost_usd"] as! Double)) < 1e-9, "\(key)")
        }
        // Under New rules an abandoned search bills its requests: the move changes the bill.
        let legacyBill = try SimulateFromTests.simulate(["--from", report, "--searches", "50000", "--growth", "10", "--months", "12", "--start", "2026-11"])
        #expect(SimulateFromTests.strategies(legacyBill)["current@0"]!["cost_usd"] as! Double != SimulateFromTests.strategies(simulated)["current@0"]!["cost_usd"] as! Double)
    }

    @Test("A table whose dated rule starts inside the log's months on a day the report was not split at is refused; one outside them is analyze's bill")
    func ruleDays() throws {
        let directory = TemporaryDirectory()
        let log = try OtherGenerationTests.log(directory, .legacy)
        let (report, document) = try SimulateFromTests.report(log, directory, options: ["--scale", "50"])
        #expect((document["traffic"] as! Object)["rule_days"] as? [String] == ["2025-03-01"])
        func table(_ day: String) throws -> String {
            var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: packageRoot + "/Pricing/places-new-2025.json"))) as? Object)
            var rules = object["session_rules"] as! Object
            var terminating = rules["terminating_details"] as! Object
            terminating["effective_from"] = day
            rules["terminating_details"] = terminating
            object["session_rules"] = rules
            object["id"] = "new-rule-\(day)"
            let path = directory.path + "/new-rule-\(day).json"
            try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
            return path
        }
        let inside = try table("2025-03-10")
        for from in [report, log] {
            let refused = runCLI(["simulate", "--from", from, "--pricing", inside] + (from == log ? ["--scale", "50"] : []))
            #expect(refused.code == .dataError && refused.stderr.contains("changes its terminating-details rule on 2025-03-10"), "\(refused.stderr)")
        }
        let outside = try table("2024-06-01")
        let (_, oracle) = try SimulateFromTests.report(log, directory, options: ["--scale", "50", "--pricing", outside])
        OtherGenerationTests.expectSameBills(try SimulateFromTests.simulate(["--from", report, "--pricing", outside]), oracle, "rule before the log")
    }

    @Test("traffic round-trips: read back from report.json, its shapes price as the analysis' own searches")
    func trafficRoundTrip() throws {
        let directory = TemporaryDirectory()
        let log = try OtherGenerationTests.log(directory, .mixed, days: 20, searches: 600)
        let (report, document) = try SimulateFromTests.report(log, directory)
        let data = try Data(contentsOf: URL(fileURLWithPath: report))
        let profile = try TrafficProfile.decode(data, file: "report.json")
        let traffic = try #require(profile.traffic)
        #expect(traffic.searchCount == (document["searches"] as! Object)["total"] as! Int)
        #expect(traffic.lengthClasses == 6)
        // Written again, the read traffic is the same text.
        let again = JSONReportRenderer().trafficObject(traffic).rendered()
        let original = try #require(String(data: data, encoding: .utf8))
        #expect(original.contains(String(again.dropLast()).replacingOccurrences(of: "\n", with: "\n  ")))
        // No typed text, token or user id: none of the log's tokens or user ids is in it.
        let member = try JSONSerialization.data(withJSONObject: document["traffic"]!)
        let text = try #require(String(data: member, encoding: .utf8))
        let logText = try String(contentsOfFile: log, encoding: .utf8)
        let secrets = Set(logText.matches(of: /"(session_token|user_id)":"([^"]+)"/).map { String($0.output.2) })
        #expect(secrets.count > 100)
        #expect(secrets.allSatisfy { !text.contains($0) })
        #expect(!text.contains("\"input\"") && !text.contains("Est"))
    }
}
