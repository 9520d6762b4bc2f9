import Foundation
import Testing
@testable import PlacesCostKit

/// `simulate --from`: measured traffic billed again, at the log's own volume (where it must be
/// `analyze`'s bill to the cent) and over months with growth (checked against a computation made
/// here from the price tables' JSON, not through the engine's billing).
@Suite("simulate --from")
struct SimulateFromTests {
    typealias Object = [String: Any]

    /// A generated log; `start` and `days` choose the months it spans.
    static func log(_ directory: TemporaryDirectory, start: String, days: Int, searches: Int = 1200, seed: Int = 26) -> String {
        let path = directory.path + "/log-\(start)-\(days).jsonl"
        let result = runCLI(["generate", "--searches", String(searches), "--seed", String(seed), "--start", start, "--days", String(days), "--out", path])
        #expect(result.code == .success, "\(result.stderr)")
        return path
    }

    static func json(_ text: String) throws -> Object {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? Object)
    }

    /// `analyze LOG --json` written to a file; returns the path and the document.
    static func report(_ log: String, _ directory: TemporaryDirectory, options: [String] = []) throws -> (path: String, document: Object) {
        let result = runCLI(["analyze", log, "--json", "--quiet"] + options)
        #expect(result.code == .success, "\(result.stderr)")
        let path = directory.path + "/report-\(UUID().uuidString).json"
        try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return (path, try json(result.stdout))
    }

    static func simulate(_ arguments: [String]) throws -> Object {
        let result = runCLI(["simulate", "--json", "--quiet"] + arguments)
        #expect(result.code == .success, "\(result.stderr)")
        return try json(result.stdout)
    }

    /// `(id, delay)` → the strategy object.
    static func strategies(_ document: Object) -> [String: Object] {
        var byKey: [String: Object] = [:]
        for strategy in document["strategies"] as? [Object] ?? [] {
            byKey["\(strategy["id"]!)@\(strategy["delay"]!)"] = strategy
        }
        return byKey
    }

    // MARK: - analyze's bill, to the cent

    @Test("At the log's own volume and tables, every strategy and delay is analyze's bill, month by month", arguments: [
        ["--scale", "1"],
        ["--scale", "20"],
        ["--pricing", "legacy-2025", "--scale", "3.5"],
        ["--pricing", "places-new-2025", "--delays", "2,9"],
    ])
    func reproducesAnalyze(options: [String]) throws {
        let directory = TemporaryDirectory()
        // 2025-02-15 for 30 days: two months, billed with legacy-2018 and then legacy-2025.
        let log = SimulateFromTests.log(directory, start: "2025-02-15", days: 30)
        let (path, report) = try SimulateFromTests.report(log, directory, options: options)
        let pricing = options.firstIndex(of: "--pricing").map { ["--pricing", options[$0 + 1]] } ?? []
        let simulated = try SimulateFromTests.simulate(["--from", path] + pricing)
        let analyzed = SimulateFromTests.strategies(report)
        let billed = SimulateFromTests.strategies(simulated)
        #expect(analyzed.count == 28 || analyzed.count == billed.count)
        #expect(Set(analyzed.keys) == Set(billed.keys))
        for (key, strategy) in analyzed {
            let mine = try #require(billed[key])
            let expected = strategy["cost_usd"] as! Double
            #expect(abs((mine["cost_usd"] as! Double) - expected) <= 1e-6, "\(key): \(mine["cost_usd"]!) against analyze's \(expected)")
        }
        // Month by month too.
        let months = simulated["months"] as! [Object]
        #expect(months.map { $0["month"] as! String } == ["2025-02", "2025-03"])
        for (index, month) in months.enumerated() {
            for entry in month["strategies"] as! [Object] {
                let key = "\(entry["id"]!)@\(entry["delay"]!)"
                let analyzedMonth = (analyzed[key]!["months"] as! [Object])[index]
                #expect(abs((entry["cost_usd"] as! Double) - (analyzedMonth["cost_usd"] as! Double)) <= 1e-6, "\(key) in \(month["month"]!)")
                #expect(abs((entry["credit_usd"] as! Double) - (analyzedMonth["credit_usd"] as! Double)) <= 1e-6)
            }
        }
        let scale = (report["assumptions"] as! Object)["scale"] as! Double
        let searches = months.reduce(0.0) { $0 + ($1["searches"] as! Double) }
        #expect(abs(searches - Double((report["searches"] as! Object)["total"] as! Int) * scale) < 1e-6)
    }

    @Test("A log gives what its report.json gives")
    func logAndReportAgree() throws {
        let directory = TemporaryDirectory()
        let log = SimulateFromTests.log(directory, start: "2026-10-01", days: 20)
        let (path, _) = try SimulateFromTests.report(log, directory)
        for extra in [[], ["--searches", "40000", "--months", "3", "--growth", "5"]] {
            let fromReport = runCLI(["simulate", "--json", "--quiet", "--from", path] + extra)
            let fromLog = runCLI(["simulate", "--json", "--quiet", "--from", log] + extra)
            #expect(fromReport.code == .success && fromLog.code == .success, "\(fromReport.stderr)\(fromLog.stderr)")
            let strip = { (text: String) in text.replacingOccurrences(of: path, with: "INPUT").replacingOccurrences(of: log, with: "INPUT") }
            #expect(strip(fromReport.stdout) == strip(fromLog.stdout))
        }
    }

    @Test("--from LOG LOG... analyzes the logs together, as analyze of the same logs; a report.json takes no more files")
    func severalLogs() throws {
        let directory = TemporaryDirectory()
        let first = SimulateFromTests.log(directory, start: "2026-10-01", days: 10, searches: 400, seed: 1)
        let second = SimulateFromTests.log(directory, start: "2026-11-05", days: 10, searches: 400, seed: 2)
        let result = runCLI(["analyze", first, second, "--json", "--quiet"])
        let path = directory.path + "/both.json"
        try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        let fromLogs = runCLI(["simulate", "--json", "--quiet", "--from", first, second])
        let fromReport = runCLI(["simulate", "--json", "--quiet", "--from", path])
        #expect(fromLogs.code == .success, "\(fromLogs.stderr)")
        let strip = { (text: String) in text.replacingOccurrences(of: path, with: "INPUT").replacingOccurrences(of: first, with: "INPUT") }
        #expect(strip(fromLogs.stdout) == strip(fromReport.stdout))
        #expect(try SimulateFromTests.json(fromLogs.stdout)["months"].map { ($0 as! [Object]).count } == 2)
        let refused = runCLI(["simulate", "--from", path, first])
        #expect(refused.code == .usage && refused.stderr.contains("is a report.json"))
    }

    @Test("--searches at the log's volume in the log's own month is analyze's bill, at every delay")
    func projectedAtOwnVolume() throws {
        let directory = TemporaryDirectory()
        let log = SimulateFromTests.log(directory, start: "2026-10-01", days: 20)
        let (path, report) = try SimulateFromTests.report(log, directory, options: ["--scale", "40"])
        let total = Double((report["searches"] as! Object)["total"] as! Int) * 40
        let simulated = try SimulateFromTests.simulate(["--from", path, "--searches", String(total), "--start", "2026-10", "--months", "1"])
        let analyzed = SimulateFromTests.strategies(report)
        for (key, mine) in SimulateFromTests.strategies(simulated) {
            let expected = analyzed[key]!["cost_usd"] as! Double
            #expect(abs((mine["cost_usd"] as! Double) - expected) <= 1e-6, "\(key)")
        }
    }

    // MARK: - Months, growth and tables, computed independently

    /// A bundled table read straight from `Pricing/ID.json`.
    struct Table {
        var id: String
        var credit: Double
        /// SKU name → (free a month, nil when free without limit; tiers as (up to, USD per 1000)).
        var skus: [String: (free: Double?, tiers: [(upTo: Double?, price: Double)])]

        init(_ id: String) throws {
            let data = try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/Pricing/\(id).json"))
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? Object)
            self.id = id
            credit = (object["monthly_credit_usd"] as! NSNumber).doubleValue
            var skus: [String: (free: Double?, tiers: [(upTo: Double?, price: Double)])] = [:]
            for sku in object["skus"] as! [Object] {
                let tiers = (sku["tiers"] as! [Object]).map { tier in
                    ((tier["up_to"] as? NSNumber)?.doubleValue, (tier["usd_per_1000"] as! NSNumber).doubleValue)
                }
                skus[sku["name"] as! String] = ((sku["free_monthly"] as? NSNumber)?.doubleValue, tiers)
            }
            self.skus = skus
        }

        /// Graduated pricing, written out: events past the free cap, each slice at its tier.
        func cost(_ name: String, volume: Double) -> Double {
            guard let sku = skus[name], let free = sku.free else { return 0 }
            var cost = 0.0
            var lower = 0.0
            for tier in sku.tiers {
                let upper = tier.upTo ?? .infinity
                let from = max(lower, free)
                let to = min(volume, upper)
                if to > from { cost += (to - from) * tier.price / 1000 }
                lower = upper
            }
            return cost
        }

        /// A month's bill of SKU volumes: the sum, less the credit, never below 0.
        func bill(_ volumes: [String: Double]) -> Double {
            let gross = volumes.reduce(0) { $0 + cost($1.key, volume: $1.value) }
            return max(gross - credit, 0)
        }
    }

    /// A strategy's events per search, per SKU, over the whole log.
    static func perSearch(_ strategy: Object, searches: Int) -> [String: Double] {
        var counts: [String: Double] = [:]
        for month in strategy["months"] as! [Object] {
            for line in month["lines"] as! [Object] {
                counts[line["sku"] as! String, default: 0] += Double(line["count"] as! Int)
            }
        }
        return counts.mapValues { $0 / Double(searches) }
    }

    @Test("12 months from 2025-01 growing 10%: each month with its own volume, the table in force, its credit, caps and tiers")
    func twelveMonthsOfGrowth() throws {
        let directory = TemporaryDirectory()
        let log = SimulateFromTests.log(directory, start: "2026-10-01", days: 20)
        let (path, report) = try SimulateFromTests.report(log, directory)
        let searches = (report["searches"] as! Object)["total"] as! Int
        let simulated = try SimulateFromTests.simulate(["--from", path, "--searches", "50000", "--growth", "10", "--months", "12", "--start", "2025-01"])
        let months = simulated["months"] as! [Object]
        #expect(months.count == 12)
        let legacy2018 = try Table("legacy-2018")
        let legacy2025 = try Table("legacy-2025")
        let analyzed = SimulateFromTests.strategies(report)
        for (index, month) in months.enumerated() {
            // Month m (from 0) has 50,000 × 1.1^m searches, kept fractional.
            let volume = 50_000 * pow(1.1, Double(index))
            #expect(abs((month["searches"] as! Double) - volume) < 1e-6)
            // January and February 2025 are billed with legacy-2018 ($200 credit, nothing free),
            // March on with legacy-2025 (free caps per SKU, five tiers).
            let table = index < 2 ? legacy2018 : legacy2025
            #expect(month["month"] as? String == String(format: "2025-%02d", index + 1))
            #expect(month["tables"] as? [String] == [table.id])
            for entry in month["strategies"] as! [Object] {
                let key = "\(entry["id"]!)@\(entry["delay"]!)"
                let rates = SimulateFromTests.perSearch(analyzed[key]!, searches: searches)
                let expected = table.bill(rates.mapValues { $0 * volume })
                #expect(abs((entry["cost_usd"] as! Double) - expected) < 1e-6, "\(key) in \(month["month"]!): \(entry["cost_usd"]!) against \(expected)")
            }
        }
        // The period's total is the sum of its months.
        for strategy in simulated["strategies"] as! [Object] {
            let key = "\(strategy["id"]!)@\(strategy["delay"]!)"
            let sum = months.reduce(0.0) { total, month in
                total + ((month["strategies"] as! [Object]).first { "\($0["id"]!)@\($0["delay"]!)" == key }!["cost_usd"] as! Double)
            }
            // Each figure is written to the micro-dollar: twelve roundings apart at most.
            #expect(abs((strategy["cost_usd"] as! Double) - sum) < 12e-6)
        }
    }

    @Test("Growing volumes are shown in whole searches, with a sentence saying the bills use the exact ones; whole volumes need no such sentence")
    func wholeSearchesShown() throws {
        let directory = TemporaryDirectory()
        let log = SimulateFromTests.log(directory, start: "2026-10-01", days: 20)
        let (path, _) = try SimulateFromTests.report(log, directory)
        let grown = runCLI(["simulate", "--from", path, "--searches", "538", "--growth", "10", "--months", "12", "--report", "md", "--quiet"])
        #expect(grown.code == .success, "\(grown.stderr)")
        let lines = grown.stdout.split(separator: "\n").map(String.init)
        // 538 × 1.1^m: 591.8, 650.98, ... and 11,504.74 in all, shown to the whole search.
        #expect(lines.first == "# What-if from measured traffic: 11,505 searches over 12 months")
        let rows = lines.filter { $0.hasPrefix("| 20") || $0.hasPrefix("| **total**") }
        #expect(rows.count == 13, "\(lines)")
        for (index, row) in rows.enumerated() {
            let cell = row.split(separator: "|")[1].trimmingCharacters(in: .whitespaces)
            let volume = index == 12 ? (0 ..< 12).reduce(0.0) { $0 + 538 * pow(1.1, Double($1)) } : 538 * pow(1.1, Double(index))
            #expect(cell == Money.count(volume), "\(row)")
            #expect(!cell.contains("."), "\(row)")
        }
        #expect(grown.stdout.contains("Searches are shown to the whole search; each month is billed for its exact volume."))

        let flat = runCLI(["simulate", "--from", path, "--searches", "538", "--months", "3", "--report", "md", "--quiet"])
        #expect(flat.code == .success, "\(flat.stderr)")
        #expect(flat.stdout.hasPrefix("# What-if from measured traffic: 1,614 searches over 3 months"))
        #expect(!flat.stdout.contains("shown to the whole search"))
        // A volume under one search keeps its decimals rather than read as none.
        #expect(ForecastRenderer.searches(0.25) == "0.25")
        #expect(ForecastRenderer.searches(0) == "0")
    }

    @Test("--start defaults to the month after the log's last; --growth -100 leaves later months empty")
    func startAndShrink() throws {
        let directory = TemporaryDirectory()
        let log = SimulateFromTests.log(directory, start: "2026-10-01", days: 20)
        let (path, _) = try SimulateFromTests.report(log, directory)
        let simulated = try SimulateFromTests.simulate(["--from", path, "--months", "3", "--growth", "-100", "--searches", "100000"])
        let months = simulated["months"] as! [Object]
        #expect(months.map { $0["month"] as! String } == ["2026-11", "2026-12", "2027-01"])
        #expect(months.map { $0["searches"] as! Double } == [100_000, 0, 0])
        #expect((months[2]["strategies"] as! [Object]).allSatisfy { ($0["cost_usd"] as! Double) == 0 })
    }

    // MARK: - Free caps and break-even

    @Test("A small volume sits inside the free caps, and says so; each option bills from the volume it names")
    func freeCapsAndBreakEven() throws {
        let directory = TemporaryDirectory()
        let log = SimulateFromTests.log(directory, start: "2026-10-01", days: 20)
        let (path, report) = try SimulateFromTests.report(log, directory)
        let searches = (report["searches"] as! Object)["total"] as! Int
        let small = try SimulateFromTests.simulate(["--from", path, "--searches", "100"])
        #expect(small["inside_free_caps"] as? Bool == true)
        let markdown = runCLI(["simulate", "--report", "md", "--from", path, "--searches", "100"])
        #expect(markdown.stdout.contains("Every strategy bills $0.00 in every month: this volume stays inside the free caps."))
        #expect(markdown.stdout.contains("Monthly volume from which each strategy bills more than $0"))

        let table = try Table("legacy-2025")
        let analyzed = SimulateFromTests.strategies(report)
        for strategy in small["strategies"] as! [Object] {
            let key = "\(strategy["id"]!)@\(strategy["delay"]!)"
            let from = try #require(strategy["bills_from_searches_per_month"] as? Double, "\(key)")
            #expect(from == from.rounded() && from > 100)
            let rates = SimulateFromTests.perSearch(analyzed[key]!, searches: searches)
            #expect((table.bill(rates.mapValues { $0 * from }) * 1e6).rounded() > 0, "\(key) bills at \(from)")
            #expect((table.bill(rates.mapValues { $0 * (from - 1) }) * 1e6).rounded() == 0, "\(key) is free at \(from - 1)")
        }
        let large = try SimulateFromTests.simulate(["--from", path, "--searches", "1000000"])
        #expect(large["inside_free_caps"] as? Bool == false)
    }

    @Test("bisection finds the first billed volume of a step, and nil for a bill that stays $0")
    func bisection() {
        #expect(Forecast.firstBilledVolume { $0 > 12_345.2 ? 1 : 0 } == 12_346)
        #expect(Forecast.firstBilledVolume { $0 >= 7 ? 1 : 0 } == 7)
        #expect(Forecast.firstBilledVolume { _ in 0 } == nil)
    }

    // MARK: - Output and errors

    @Test("--out writes simulation.md, simulation.json and a chart of the bill per month for each strategy")
    func outDirectory() throws {
        let directory = TemporaryDirectory()
        let log = SimulateFromTests.log(directory, start: "2026-10-01", days: 20)
        let (path, _) = try SimulateFromTests.report(log, directory)
        let out = directory.path + "/what-if"
        let result = runCLI(["simulate", "--from", path, "--months", "4", "--growth", "25", "--out", out, "--quiet"])
        #expect(result.code == .success, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let markdown = try String(contentsOfFile: out + "/simulation.md", encoding: .utf8)
        #expect(markdown.contains("| month | searches | tables |") && markdown.contains("growing 25% a month"))
        let document = try SimulateFromTests.json(try String(contentsOfFile: out + "/simulation.json", encoding: .utf8))
        #expect(document["schema"] as? String == ForecastRenderer.schema)
        for strategy in StrategyID.allCases {
            let svg = try String(contentsOfFile: out + "/" + ForecastRenderer.chartPath(strategy), encoding: .utf8)
            #expect(svg.contains("<svg") && svg.contains("2026-11") && svg.contains("2027-02"))
            #expect(markdown.contains(ForecastRenderer.chartPath(strategy)))
        }
    }

    /// `report` with `edit` made to every month of every strategy.
    static func editingMonths(_ report: Object, _ edit: (inout Object) -> Void) -> Object {
        var edited = report
        edited["strategies"] = (report["strategies"] as! [Object]).map { strategy in
            var strategy = strategy
            strategy["months"] = (strategy["months"] as! [Object]).map { month in
                var month = month
                edit(&month)
                return month
            }
            return strategy
        }
        return edited
    }

    @Test("Bad input is a usage or data error with a sentence, never a crash", arguments: [
        (["--from", "REPORT", "--growth", "-101"], ExitCode.usage, "--growth takes a percentage a month from -100 to 1000"),
        (["--from", "REPORT", "--growth", "nan"], .usage, "--growth takes"),
        (["--from", "REPORT", "--start", "2025-13"], .usage, "--start takes a month as YYYY-MM"),
        (["--from", "REPORT", "--chars", "8"], .usage, "--chars describes typed traffic"),
        (["--from", "REPORT", "--searches", "-5"], .usage, "--searches takes"),
        (["--from", "REPORT", "--searches", "1000000000000", "--growth", "1000", "--months", "3"], .usage, "the volume passes"),
        (["--growth", "10"], .usage, "--growth takes --from"),
        (["--from", "NOTRAFFIC", "--pricing", "places-new-2025"], .dataError, "has no `traffic` member: it was written by an older placescost"),
        (["--from", "BADTRAFFIC", "--pricing", "places-new-2025"], .dataError, "`traffic.searches[0][1]` is not session, spent_token or inferred"),
        (["--from", "NOTREPORT"], .dataError, "not a report.json of `analyze`"),
        (["--from", "OLDREPORT"], .dataError, "written by an older placescost"),
        (["--from", "SHORTREPORT"], .dataError, "do not name the same months in every strategy"),
    ])
    func badInput(arguments: [String], code: ExitCode, message: String) throws {
        let directory = TemporaryDirectory()
        let log = SimulateFromTests.log(directory, start: "2026-10-01", days: 5, searches: 200)
        let (path, report) = try SimulateFromTests.report(log, directory)
        let notReport = directory.path + "/other.json"
        try #"{"schema": "placescost.simulation/1"}"#.write(toFile: notReport, atomically: true, encoding: .utf8)
        // A report.json of an earlier placescost: no month lines.
        let old = SimulateFromTests.editingMonths(report) { month in
            month["lines"] = nil
            month["tables"] = nil
        }
        let oldPath = directory.path + "/old.json"
        try JSONSerialization.data(withJSONObject: old).write(to: URL(fileURLWithPath: oldPath))
        // A damaged report.json: one strategy lost its month.
        var short = report
        var damaged = report["strategies"] as! [Object]
        damaged[1]["months"] = [Object]()
        short["strategies"] = damaged
        let shortPath = directory.path + "/short.json"
        try JSONSerialization.data(withJSONObject: short).write(to: URL(fileURLWithPath: shortPath))
        // A report.json of a placescost that kept no `traffic`, and one whose traffic was edited.
        var noTraffic = report
        noTraffic["traffic"] = nil
        let noTrafficPath = directory.path + "/no-traffic.json"
        try JSONSerialization.data(withJSONObject: noTraffic).write(to: URL(fileURLWithPath: noTrafficPath))
        var badTraffic = report
        var traffic = report["traffic"] as! Object
        var rows = traffic["searches"] as! [[Any]]
        rows[0][1] = "typed"
        traffic["searches"] = rows
        badTraffic["traffic"] = traffic
        let badTrafficPath = directory.path + "/bad-traffic.json"
        try JSONSerialization.data(withJSONObject: badTraffic).write(to: URL(fileURLWithPath: badTrafficPath))
        let files = ["REPORT": path, "NOTREPORT": notReport, "OLDREPORT": oldPath, "SHORTREPORT": shortPath, "NOTRAFFIC": noTrafficPath, "BADTRAFFIC": badTrafficPath]
        let replaced = arguments.map { files[$0] ?? $0 }
        let result = runCLI(["simulate"] + replaced)
        #expect(result.code == code, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal") && result.stdout.isEmpty)
    }

    @Test("A report's strategy or month that analyze never writes is refused naming the key, never put into the month table")
    func textNoAnalyzeWrites() throws {
        let directory = TemporaryDirectory()
        let log = SimulateFromTests.log(directory, start: "2026-10-01", days: 5, searches: 200)
        let (_, report) = try SimulateFromTests.report(log, directory)
        let injected = "2026-10\n| x | y |\n# heading"
        let month = SimulateFromTests.editingMonths(report) { $0["month"] = injected }
        var strategy = report
        var headline = report["headline"] as! Object
        headline["recommended_strategy"] = injected
        strategy["headline"] = headline
        for (edited, member, reason) in [
            (month, "strategies[].months[].month", "is not a month as YYYY-MM"),
            (strategy, "headline.recommended_strategy", "holds no strategy of this placescost"),
        ] {
            let path = directory.path + "/edited.json"
            try JSONSerialization.data(withJSONObject: edited).write(to: URL(fileURLWithPath: path))
            for options in [[String](), ["--report", "md"], ["--months", "2"], ["--pricing", "legacy-2025"]] {
                let result = runCLI(["simulate", "--from", path] + options)
                #expect(result.code == .dataError, "\(options): \(result.stderr)")
                #expect(result.stderr == "placescost: error: \(path) is not a whole report.json (`placescost.report/1`): `\(member)` \(reason). Write it again with `placescost analyze --json`.\n")
                #expect(result.stdout.isEmpty)
            }
        }
    }

    @Test("A report with a count below 0 or more months than analyze bills is refused naming the key, as compare refuses it")
    func countsNoAnalyzeWrites() throws {
        let directory = TemporaryDirectory()
        let log = SimulateFromTests.log(directory, start: "2026-10-01", days: 5, searches: 200)
        let (_, report) = try SimulateFromTests.report(log, directory)
        func set(_ section: String, _ key: String, _ value: Int) -> Object {
            var edited = report
            var part = report[section] as! Object
            part[key] = value
            edited[section] = part
            return edited
        }
        let whole = { (member: String) in "`\(member)` is not a whole number of 0 or more" }
        var byMonth = report
        var period = report["period"] as! Object
        period["searches_by_month"] = ["2026-10": -3]
        byMonth["period"] = period
        for (edited, reason) in [
            (set("searches", "completed", -10), whole("searches.completed")),
            (set("anomalies", "token_reused", -5), whole("anomalies.token_reused")),
            (set("input", "records", -1), whole("input.records")),
            (set("assumptions", "max_delay", -1), whole("assumptions.max_delay")),
            (set("needs_details", "selections_with_mask", -1), whole("needs_details.selections_with_mask")),
            (byMonth, whole("period.searches_by_month.2026-10")),
            (set("headline", "months", 1_000_000_000_000_000_000), "`headline.months` is not a whole number from 1 to 119,990, the calendar months a report of calls in the years 1 to 9999 can bill"),
        ] {
            let path = directory.path + "/edited.json"
            try JSONSerialization.data(withJSONObject: edited).write(to: URL(fileURLWithPath: path))
            for options in [[String](), ["--months", "2"]] {
                let result = runCLI(["simulate", "--from", path, "--json"] + options)
                #expect(result.code == .dataError, "\(reason): \(result.stderr)")
                #expect(result.stderr == "placescost: error: \(path) is not a whole report.json (`placescost.report/1`): \(reason). Write it again with `placescost analyze --json`.\n")
                #expect(result.stdout.isEmpty)
            }
        }
    }

    @Test("A report of a call at the last second of 9999 east of UTC (its month 10000-01) is read back, as a report and as a log")
    func yearTenThousand() throws {
        let directory = TemporaryDirectory()
        let log = directory.write("last.jsonl", #"{"timestamp":"9999-12-31T23:59:59Z","api":"autocomplete","session_token":"t","input_length":3}"# + "\n")
        let analyzed = runCLI(["analyze", log, "--timezone", "Pacific/Kiritimati", "--json", "--quiet"])
        #expect(analyzed.code == .success, "\(analyzed.stderr)")
        #expect(analyzed.stdout.contains("\"10000-01\""))
        let report = directory.write("report.json", analyzed.stdout)
        for arguments in [["simulate", "--from", report], ["simulate", "--from", log, "--timezone", "Pacific/Kiritimati"]] {
            let run = runCLI(arguments + ["--quiet"])
            #expect(run.code == .success, "\(arguments): \(run.stderr)")
        }
        #expect(Forecast.monthIndex("10000-01") == 10_000 * 12)
        #expect(Forecast.monthIndex("100000-01") == nil && Forecast.monthIndex("999-01") == nil)
    }
}
