import Foundation
import Testing
@testable import PlacesCostKit

/// `analyze --by`: every group's counts and money add up exactly to the totals `report.json`
/// prints, for every dimension, under `--scale`, across months with free caps in play, on any
/// number of threads; names from the input are escaped.
@Suite("Cost by group (--by)")
struct GroupBreakdownTests {
    /// A JSON number printed on the 1e-6 grid, as whole micro-dollars.
    static func micros(_ tree: JSONTree?) -> Int64? {
        guard case .number(let value)? = tree else { return nil }
        return Int64((value * 1_000_000).rounded())
    }

    static func count(_ tree: JSONTree?) -> Int? {
        guard case .number(let value)? = tree else { return nil }
        return Int(value)
    }

    /// Checks that the `by` groups of `report` add up to its totals; returns the groups.
    @discardableResult
    static func expectSums(_ report: JSONTree, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [JSONTree] {
        let by = try #require(report["by"], sourceLocation: sourceLocation)
        guard case .array(let groups)? = by["groups"] else {
            Issue.record("by.groups is not an array", sourceLocation: sourceLocation)
            return []
        }
        #expect(!groups.isEmpty, sourceLocation: sourceLocation)
        func sum(_ value: (JSONTree) -> Int?) -> Int { groups.reduce(0) { $0 + (value($1) ?? -1_000_000) } }
        func sumMicros(_ value: (JSONTree) -> Int64?) -> Int64 { groups.reduce(0) { $0 + (value($1) ?? -1_000_000_000) } }
        #expect(sum { count($0["calls"]) } == count(report["input"]?["records"]), "calls", sourceLocation: sourceLocation)
        #expect(sum { count($0["searches"]) } == count(report["searches"]?["total"]), "searches", sourceLocation: sourceLocation)
        #expect(sum { count($0["completed"]) } == count(report["searches"]?["completed"]), "completed", sourceLocation: sourceLocation)
        for (name, total) in report["anomalies"]?.members ?? [] {
            #expect(sum { count($0["anomalies"]?[name]) } == count(total), "\(name)", sourceLocation: sourceLocation)
        }
        guard case .array(let strategies)? = report["strategies"] else { Issue.record("no strategies", sourceLocation: sourceLocation); return groups }
        func strategy(_ id: String?, _ delay: Int?) -> JSONTree? {
            strategies.first { $0["id"]?.string == id && count($0["delay"]) == delay }
        }
        let current = try #require(strategy("current", 0), sourceLocation: sourceLocation)
        let recommendation = report["recommendation"]
        #expect(by["recommended"]?["strategy"]?.string == recommendation?["strategy"]?.string, sourceLocation: sourceLocation)
        #expect(count(by["recommended"]?["delay"]) == count(recommendation?["delay"]), sourceLocation: sourceLocation)
        let recommended = try #require(strategy(recommendation?["strategy"]?.string, count(recommendation?["delay"])), sourceLocation: sourceLocation)
        for (key, total) in [("current", current), ("recommended", recommended)] {
            for money in ["list_cost_usd", "cost_usd"] {
                #expect(sumMicros { micros($0[key]?[money]) } == micros(total[money]), "\(key).\(money)", sourceLocation: sourceLocation)
            }
        }
        // A group's money per search is over the searches it bills: its searches times `--scale`.
        guard case .number(let scale)? = report["assumptions"]?["scale"] else { Issue.record("no scale", sourceLocation: sourceLocation); return groups }
        for group in groups {
            guard case .number(let searches)? = group["searches"], searches > 0 else { continue }
            for key in ["current", "recommended"] {
                for (money, perSearch) in [("list_cost_usd", "list_cost_per_search_usd"), ("cost_usd", "cost_per_search_usd")] {
                    guard case .number(let amount)? = group[key]?[money], case .number(let printed)? = group[key]?[perSearch] else {
                        Issue.record("\(key).\(perSearch) missing", sourceLocation: sourceLocation)
                        continue
                    }
                    #expect(abs(printed - amount / (searches * scale)) <= 1e-6, "\(key).\(perSearch)", sourceLocation: sourceLocation)
                }
            }
        }
        return groups
    }

    static func analyze(_ arguments: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> JSONTree {
        let result = runCLI(["analyze", "--json", "--quiet"] + arguments, workingDirectory: packageRoot)
        #expect(result.code == .success, "\(result.stderr)", sourceLocation: sourceLocation)
        return try JSONTree(parsing: result.stdout)
    }

    @Test("On a generated log of two months, groups add up to the totals: every dimension, --scale past the free caps, a legacy credit, a time zone", arguments: [
        ["--by", "platform"],
        ["--by", "platform", "--scale", "300"],
        ["--by", "day", "--scale", "300"],
        ["--by", "day", "--timezone", "Asia/Tokyo"],
        ["--by", "api_version", "--pricing", "legacy-2018", "--scale", "300"],
        ["--by", "project", "--scale", "40"],
        ["--by", "platform", "--pricing", "places-new-2025", "--scale", "1000", "--delays", "2,9", "--max-delay", "6"],
    ])
    func generatedSums(arguments: [String]) throws {
        let directory = TemporaryDirectory()
        let log = JSONSchemaTests.generatedLog(directory)
        let report = try GroupBreakdownTests.analyze([log] + arguments)
        let groups = try GroupBreakdownTests.expectSums(report)
        if arguments.contains("platform") { #expect(groups.count == 3) }
        if arguments.contains("day") { #expect(groups.count >= 20) }
        // The log spans two months: the bill is shared month by month.
        #expect((report["period"]?["months"]).map { "\($0)" } != nil)
    }

    @Test("On the bundled SampleLogs, groups add up to the totals for every dimension", arguments: GroupDimension.allCases)
    func sampleLogSums(dimension: GroupDimension) throws {
        try GroupBreakdownTests.expectSums(try GroupBreakdownTests.analyze(["--by", dimension.rawValue]))
    }

    @Test("On the HAR capture (legacy and new API on one page), --by api_version adds up")
    func harSums() throws {
        let groups = try GroupBreakdownTests.expectSums(try GroupBreakdownTests.analyze(["SampleLogs/har/maps-javascript-page.har", "--by", "api_version"]))
        #expect(groups.compactMap { $0["group"]?.string }.allSatisfy { ["legacy", "new"].contains($0) })
    }

    @Test("--by changes no total, and gives the same bytes on 1 and 2 threads")
    func totalsAndThreads() throws {
        let directory = TemporaryDirectory()
        let log = JSONSchemaTests.generatedLog(directory)
        let plain = runCLI(["analyze", log, "--json", "--quiet", "--scale", "300"])
        #expect(!plain.stdout.contains("\"by\""))
        for dimension in GroupDimension.allCases {
            let one = runCLI(["analyze", log, "--json", "--quiet", "--scale", "300", "--by", dimension.rawValue, "--threads", "1"])
            let two = runCLI(["analyze", log, "--json", "--quiet", "--scale", "300", "--by", dimension.rawValue, "--threads", "2"])
            #expect(one.stdout == two.stdout, "\(dimension)")
            let md1 = runCLI(["analyze", log, "--report", "md", "--quiet", "--by", dimension.rawValue, "--threads", "1"])
            let md2 = runCLI(["analyze", log, "--report", "md", "--quiet", "--by", dimension.rawValue, "--threads", "2"])
            #expect(md1.stdout == md2.stdout, "\(dimension)")
            #expect(md1.stdout.contains("## Cost by "))
            // Without the `by` object (and the daily charts), the document is the plain one.
            var grouped = try JSONTree(parsing: one.stdout).replacing(["by"], with: nil)
            grouped = grouped.replacing(["charts"], with: try JSONTree(parsing: plain.stdout)["charts"])
            #expect(grouped == (try JSONTree(parsing: plain.stdout)), "\(dimension)")
        }
    }

    @Test("The table leaves out the recommendation's columns when they would repeat the bill now")
    func keepLeavesOutRepeatedColumns() throws {
        func header(_ arguments: [String]) throws -> String {
            let run = runCLI(["analyze", "SampleLogs/ios-app.jsonl", "--report", "md", "--quiet", "--by", "platform"] + arguments, workingDirectory: packageRoot)
            #expect(run.code == .success, "\(run.stderr)")
            let section = try #require(run.stdout.components(separatedBy: "## Cost by platform").dropFirst().first)
            return try #require(section.split(separator: "\n").first { $0.hasPrefix("| platform") }).description
        }
        // Kept as it is (inside the free caps): the bill now only.
        #expect(try header([]) == "| platform | calls | searches | completed | anomalies | bill now | list price now | per search now |")
        // A change recommended: its bill beside.
        #expect(try header(["--scale", "60"]) == "| platform | calls | searches | completed | anomalies | bill now | list price now | per search now | bill, current, delay 4 | per search, current, delay 4 |")
    }

    /// Projects with names a report must escape, two calls without one, and a token reused
    /// across a project's searches.
    static func projectLog() -> String {
        var records: [TestRecord] = []
        for (index, project) in (HostileNamesTests.hostile + ["app-a", "app-b"]).enumerated() {
            let at = Double(index * 400)
            records += [ac(at, "t\(index)", "12", project: project), ac(at + 1, "t\(index)", "123", project: project), details(at + 2, "t\(index)", project: project)]
            records.append(ac(at + 3, "t\(index)", "9", project: project))  // reused token
        }
        records += [ac(20_000, "u1", "ab"), details(20_001, nil, fields: nil)]
        return records.map(\.jsonLine).joined(separator: "\n") + "\n"
    }

    @Test("--by project: groups add up, hostile project names are escaped in report.md, no project is null")
    func projects() throws {
        let directory = TemporaryDirectory()
        let log = directory.write("projects.jsonl", GroupBreakdownTests.projectLog())
        let report = try GroupBreakdownTests.analyze([log, "--by", "project", "--scale", "5000"])
        let groups = try GroupBreakdownTests.expectSums(report)
        #expect(groups.count == HostileNamesTests.hostile.count + 3)
        #expect(groups.contains { $0["group"] == .null })
        let run = runCLI(["analyze", log, "--report", "md", "--quiet", "--by", "project"])
        #expect(run.code == .success)
        let section = run.stdout.components(separatedBy: "## Cost by project")[1].components(separatedBy: "\n## ")[0]
        for tag in ["<img", "<b>", "</details>", "<!--", "<script"] {
            #expect(!section.contains(tag), "raw \(tag) in the project table")
        }
        #expect(!section.unicodeScalars.contains { $0 == "\u{202E}" || $0 == "\t" })
        let rows = section.split(separator: "\n").filter { $0.hasPrefix("|") }
        let header = HostileNamesTests.unescapedPipes(String(rows[0]))
        for row in rows {
            #expect(HostileNamesTests.unescapedPipes(String(row)) == header, "\(row)")
        }
        #expect(!section.split(separator: "\n").contains { $0.hasPrefix("#") })
    }

    @Test("--by day --out draws calls and cost per search per day, linked from report.md; other dimensions draw neither")
    func dailyCharts() throws {
        let directory = TemporaryDirectory()
        let log = JSONSchemaTests.generatedLog(directory)
        for (dimension, drawn) in [("day", true), ("platform", false)] {
            let out = directory.path + "/out-" + dimension
            let run = runCLI(["analyze", log, "--out", out, "--quiet", "--by", dimension])
            #expect(run.code == .success, "\(run.stderr)")
            let markdown = try String(contentsOfFile: out + "/report.md", encoding: .utf8)
            let json = try String(contentsOfFile: out + "/report.json", encoding: .utf8)
            for chart in [ReportCharts.dailyCalls, ReportCharts.dailyCostPerSearch] {
                #expect(FileManager.default.fileExists(atPath: out + "/" + chart) == drawn)
                #expect(markdown.contains("](\(chart))") == drawn)
                #expect(json.contains("\"\(chart)\"") == drawn)
            }
        }
    }

    @Test("Largest remainders: parts add up to the rounded total, proportional to the weights")
    func apportion() {
        #expect(GroupBreakdownBuilder.apportion(1.0, weights: [1, 1, 1]) == [333_334, 333_333, 333_333])
        #expect(GroupBreakdownBuilder.apportion(0.000_002, weights: [1, 1, 1]) == [1, 1, 0])
        #expect(GroupBreakdownBuilder.apportion(10, weights: [3, 1]) == [7_500_000, 2_500_000])
        #expect(GroupBreakdownBuilder.apportion(0, weights: [3, 1]) == [0, 0])
        #expect(GroupBreakdownBuilder.apportion(5, weights: [0, 0]) == [5_000_000, 0])
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let weights = (0..<Int.random(in: 1...40, using: &generator)).map { _ in Double.random(in: 0...1e4, using: &generator) }
            let total = Double.random(in: 0...1e7, using: &generator)
            let parts = GroupBreakdownBuilder.apportion(total, weights: weights)
            #expect(parts.reduce(0, +) == Int64((total * 1_000_000).rounded()))
            #expect(parts.allSatisfy { $0 >= 0 })
        }
    }
}
