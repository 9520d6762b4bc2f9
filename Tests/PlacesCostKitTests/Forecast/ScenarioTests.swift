import Foundation
import Testing
@testable import PlacesCostKit

/// `simulate --from --scenario FILE`: named scenarios priced side by side on one traffic.
@Suite("simulate --from --scenario")
struct ScenarioTests {
    static let example = packageRoot + "/docs/examples/scenarios/scenarios.json"

    static func reportPath(_ directory: TemporaryDirectory) throws -> String {
        let log = SimulateFromTests.log(directory, start: "2026-10-01", days: 20)
        return try SimulateFromTests.report(log, directory).path
    }

    @Test("The example's three scenarios give three priced columns, each the bill simulate --from gives for the same volume and option")
    func threeColumns() throws {
        let directory = TemporaryDirectory()
        let report = try ScenarioTests.reportPath(directory)
        let document = try SimulateFromTests.json(runCLI(["simulate", "--json", "--quiet", "--from", report, "--scenario", ScenarioTests.example]).stdout)
        let scenarios = try #require(document["scenarios"] as? [[String: Any]])
        #expect(scenarios.map { $0["name"] as! String } == ["as we are", "after the fix", "fix, address only, delay 3", "fix, half on the old build for 3 months"])
        #expect(scenarios.map { "\($0["strategy"]!)@\($0["delay"]!)" } == ["current@0", "session_details@0", "session_details_basic@3", "session_details@0"])
        let single = try SimulateFromTests.simulate(["--from", report, "--searches", "50000", "--growth", "10", "--months", "12", "--start", "2027-03"])
        let totals = SimulateFromTests.strategies(single)
        // The cohort's three months are billed with its half beside the rest; the nine after as "after the fix".
        let mixed = scenarios[3]["months"] as! [[String: Any]]
        let fixed = scenarios[1]["months"] as! [[String: Any]]
        #expect(mixed.count == 12 && (scenarios[3]["cohorts"] as? [Any])?.count == 1)
        for index in 0..<12 {
            let (mine, plain) = (mixed[index]["cost_usd"] as! Double, fixed[index]["cost_usd"] as! Double)
            #expect(index < 3 ? mine != plain : mine == plain, "month \(index)")
        }
        for scenario in scenarios.prefix(3) {
            let key = "\(scenario["strategy"]!)@\(scenario["delay"]!)"
            #expect(abs((scenario["cost_usd"] as! Double) - (totals[key]!["cost_usd"] as! Double)) < 1e-9, "\(key)")
            #expect((scenario["months"] as! [Any]).count == 12)
            let tree = scenario["tree_answer"] as! [String: Any]
            let treeKey = "\(tree["strategy"]!)@\(tree["delay"]!)"
            #expect(abs((tree["cost_usd"] as! Double) - (totals[treeKey]!["cost_usd"] as! Double)) < 1e-9)
        }
        // Address-only fields change the tree's first answer: the app no longer needs details.
        let lastTree = scenarios[2]["tree_answer"] as! [String: Any]
        #expect(lastTree["strategy"] as? String != "session_details")

        let markdown = runCLI(["simulate", "--report", "md", "--from", report, "--scenario", ScenarioTests.example]).stdout
        let header = try #require(markdown.split(separator: "\n").first { $0.hasPrefix("| | ") })
        #expect(header.split(separator: "|").count == 5)
        #expect(markdown.contains("| cohorts | none | none | none | 50% `current` d0 until 2027-05 |"))
        #expect(markdown.contains("| decision tree's answer |") && markdown.contains("| **bill over the period** |"))
    }

    @Test("Members a scenario leaves out take the command line's options")
    func defaultsFromOptions() throws {
        let directory = TemporaryDirectory()
        let report = try ScenarioTests.reportPath(directory)
        let file = directory.path + "/two.json"
        try #"{"schema": "placescost.scenarios/1", "scenarios": [{"name": "a"}, {"name": "b", "months": 2, "pricing": "legacy-list"}]}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        let document = try SimulateFromTests.json(runCLI(["simulate", "--json", "--from", report, "--scenario", file, "--months", "5", "--searches", "1000", "--start", "2025-01"]).stdout)
        let scenarios = document["scenarios"] as! [[String: Any]]
        #expect((scenarios[0]["months"] as! [Any]).count == 5 && (scenarios[1]["months"] as! [Any]).count == 2)
        #expect(scenarios[0]["start"] as? String == "2025-01" && scenarios[0]["searches_per_month"] as? Double == 1000)
        #expect(scenarios[1]["pricing"] as? String == "legacy-list")
        let tables = (scenarios[0]["months"] as! [[String: Any]]).map { ($0["tables"] as! [String])[0] }
        #expect(tables == ["legacy-2018", "legacy-2018", "legacy-2025", "legacy-2025", "legacy-2025"])
    }

    @Test("A bad scenario file is a data error naming the member; a missing one exit 66", arguments: [
        (#"{"schema": "placescost.report/1", "scenarios": []}"#, ExitCode.dataError, "`schema` is \"placescost.report/1\""),
        (#"{"schema": "placescost.scenarios/1", "scenarios": []}"#, .dataError, "holds 0 scenarios"),
        (#"{"schema": "placescost.scenarios/1", "scenarios": [{"name": "a", "colour": 1}]}"#, .dataError, "`scenarios[0].colour` is not a key"),
        (#"{"schema": "placescost.scenarios/1", "scenarios": [{"name": "a"}, {"name": "a"}]}"#, .dataError, "two scenarios are named \"a\""),
        (#"{"schema": "placescost.scenarios/1", "scenarios": [{"name": "a", "growth_pct": -150}]}"#, .dataError, "`scenarios[0].growth_pct` must be a number from -100"),
        (#"{"schema": "placescost.scenarios/1", "scenarios": [{"name": "a", "months": 2.5}]}"#, .dataError, "`scenarios[0].months` must be a whole number"),
        (#"{"schema": "placescost.scenarios/1", "scenarios": [{"name": "a", "mistakes_fixed": 1}]}"#, .dataError, "scenarios[0].mistakes_fixed` has the wrong type"),
        (#"{"schema": "placescost.scenarios/1", "scenarios": [{"name": "a", "fields": "address_only"}]}"#, .dataError, "set `mistakes_fixed` to true"),
        (#"{"schema": "placescost.scenarios/1", "scenarios": [{"name": "a", "delay": 50}]}"#, .dataError, "asks for delay 50, which the report did not price"),
        (#"{"schema": "placescost.scenarios/1", "scenarios": [{"name": "a", "strategy": "cheapest"}]}"#, .dataError, "`scenarios[0].strategy` must be one of"),
        (#"[1, 2]"#, .dataError, "it is not a JSON object"),
        ("MISSING", .noInput, "cannot read the scenario file"),
    ])
    func badFiles(text: String, code: ExitCode, message: String) throws {
        let directory = TemporaryDirectory()
        let report = try ScenarioTests.reportPath(directory)
        let file = directory.path + "/scenarios.json"
        if text != "MISSING" { try text.write(toFile: file, atomically: true, encoding: .utf8) }
        let result = runCLI(["simulate", "--from", report, "--scenario", file])
        #expect(result.code == code, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("A scenario's or a cohort's pricing naming no table is a data error naming the member, a missing table file exit 66; never the usage line", arguments: [
        (#"{"name": "a", "pricing": "legacy-1999"}"#, ExitCode.dataError, "`scenarios[1].pricing` of FILE names no price table `legacy-1999`: give one of legacy-2018, legacy-2025, legacy-list, places-new-2025"),
        (#"{"name": "a", "pricing": "/nonexistent/p.json"}"#, .noInput, "cannot read the price table /nonexistent/p.json that `scenarios[1].pricing` of FILE names: there is no such file."),
        (#"{"name": "a", "pricing": "BAD"}"#, .dataError, "`scenarios[1].pricing` of FILE names an invalid price table: BAD: not valid JSON"),
        (#"{"name": "a", "cohorts": [{"share": 0.5, "months": 1}, {"share": 0.5, "months": 1, "pricing": "legacy-1999"}]}"#, .dataError, "`scenarios[1].cohorts[1].pricing` of FILE names no price table `legacy-1999`"),
        (#"{"name": "a", "pricing": "legacy-2025", "cohorts": [{"share": 0.5, "months": 1, "pricing": "missing/p.json"}]}"#, .noInput, "cannot read the price table DIR/missing/p.json that `scenarios[1].cohorts[0].pricing` of FILE names"),
    ])
    func badPricing(scenario: String, code: ExitCode, message: String) throws {
        let directory = TemporaryDirectory()
        let report = try ScenarioTests.reportPath(directory)
        let bad = directory.write("bad.json", #"{"schema_version": 1, "#)
        let file = directory.write("scenarios.json", #"{"schema": "placescost.scenarios/1", "scenarios": [{"name": "first"}, "# + scenario.replacingOccurrences(of: "BAD", with: bad) + "]}")
        let result = runCLI(["simulate", "--from", report, "--scenario", file])
        #expect(result.code == code, "\(result.stderr)")
        let expected = message.replacingOccurrences(of: "FILE", with: file).replacingOccurrences(of: "BAD", with: bad)
            .replacingOccurrences(of: "DIR", with: directory.path)
        #expect(result.stderr.hasPrefix("placescost: error: " + expected), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1 && !result.stderr.contains("usage:") && !result.stderr.contains("--pricing path"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("A relative `pricing` file is found beside the scenario file, not in the working directory; `--pricing` still fills the members left out")
    func tablesBesideTheScenarioFile() throws {
        let directory = TemporaryDirectory()
        let report = try ScenarioTests.reportPath(directory)
        try FileManager.default.createDirectory(atPath: directory.path + "/plans/tables", withIntermediateDirectories: true)
        // Copies of a bundled table under ids of their own, so the output shows which file was read.
        let bundled = try #require(BundledPriceTables.files.first { $0.id == "legacy-list" })
        var table = try #require(try JSONSerialization.jsonObject(with: Data(bundled.json.utf8)) as? [String: Any])
        func writeTable(id: String, at path: String) throws {
            table["id"] = id
            try JSONSerialization.data(withJSONObject: table).write(to: URL(fileURLWithPath: directory.path + "/" + path))
        }
        try writeTable(id: "team-list", at: "plans/tables/team.json")
        try writeTable(id: "option-list", at: "option.json")
        _ = directory.write("plans/what-if.json", #"{"schema": "placescost.scenarios/1", "scenarios": [{"name": "ours", "pricing": "tables/team.json"}, {"name": "bundled", "pricing": "legacy-2025"}, {"name": "option"}]}"#)
        // The scenario file named from its parent folder: the table is not under the working directory.
        let result = runCLI(["simulate", "--json", "--from", report, "--scenario", "plans/what-if.json", "--pricing", directory.path + "/option.json"], workingDirectory: directory.path)
        #expect(result.code == .success, "\(result.stderr)")
        let scenarios = try #require(try SimulateFromTests.json(result.stdout)["scenarios"] as? [[String: Any]])
        let firstTables = scenarios.map { (($0["months"] as? [[String: Any]])?.first?["tables"] as? [String])?.first }
        #expect(firstTables == ["team-list", "legacy-2025", "option-list"], "\(result.stdout)")
        #expect(ScenarioFile.tableArgument("tables/t.json", scenarioFile: "s.json") == "tables/t.json")
        #expect(ScenarioFile.tableArgument("/abs/t.json", scenarioFile: "/a/s.json") == "/abs/t.json")
        #expect(ScenarioFile.tableArgument("legacy-list", scenarioFile: "/a/s.json") == "legacy-list")
        #expect(ScenarioFile.tableArgument("t.json", scenarioFile: "/a/s.json") == "/a/t.json")
    }

    @Test("--scenario needs --from; --out writes scenarios.md, scenarios.json and the chart")
    func optionsAndOut() throws {
        #expect(runCLI(["simulate", "--scenario", ScenarioTests.example]).code == .usage)
        let directory = TemporaryDirectory()
        let report = try ScenarioTests.reportPath(directory)
        let out = directory.path + "/scenarios"
        let result = runCLI(["simulate", "--from", report, "--scenario", ScenarioTests.example, "--out", out, "--quiet"])
        #expect(result.code == .success, "\(result.stderr)")
        let markdown = try String(contentsOfFile: out + "/scenarios.md", encoding: .utf8)
        #expect(markdown.contains("after the fix") && markdown.contains(ScenarioRenderer.chartPath))
        let svg = try String(contentsOfFile: out + "/" + ScenarioRenderer.chartPath, encoding: .utf8)
        #expect(svg.contains("<svg") && svg.contains("as we are"))
        #expect(FileManager.default.fileExists(atPath: out + "/scenarios.json"))
    }
}
