import Foundation
import Testing
@testable import PlacesCostKit

/// Scenario cohorts: shares of each month's searches that behave otherwise for some months.
/// Their events are summed per SKU with the rest's before billing, so free caps and tiers apply
/// to the account's total; checked against bills computed here from `Pricing/*.json`.
@Suite("simulate --from --scenario with cohorts")
struct CohortTests {
    typealias Object = [String: Any]

    /// A legacy log, its report, and its per-search SKU events under its own tables and under New.
    struct Measured {
        var log: String
        var report: String
        var searches: Int
        var legacy: [String: Object]
        var new: [String: Object]
    }

    static func measured(_ directory: TemporaryDirectory) throws -> Measured {
        let log = SimulateFromTests.log(directory, start: "2026-10-01", days: 20)
        let (report, document) = try SimulateFromTests.report(log, directory)
        let (_, new) = try SimulateFromTests.report(log, directory, options: ["--pricing", "places-new-2025"])
        return Measured(
            log: log, report: report, searches: (document["searches"] as! Object)["total"] as! Int,
            legacy: SimulateFromTests.strategies(document), new: SimulateFromTests.strategies(new)
        )
    }

    static func scenarios(_ directory: TemporaryDirectory, _ text: String, report: String) throws -> [Object] {
        let file = directory.path + "/cohorts-\(UUID().uuidString).json"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let result = runCLI(["simulate", "--json", "--quiet", "--from", report, "--scenario", file])
        #expect(result.code == .success, "\(result.stderr)")
        return try #require(try SimulateFromTests.json(result.stdout)["scenarios"] as? [Object])
    }

    static func cost(_ month: Object) -> Double { month["cost_usd"] as! Double }

    @Test("A 50/50 month bills the SKU totals of both halves once, not two half bills added")
    func halvesBilledOnce() throws {
        let directory = TemporaryDirectory()
        let measured = try CohortTests.measured(directory)
        let volume = 30_000.0
        let scenarios = try CohortTests.scenarios(directory, """
            {"schema": "placescost.scenarios/1", "scenarios": [
              {"name": "half on the old build", "searches": \(volume), "months": 1, "start": "2027-03", "mistakes_fixed": true,
               "cohorts": [{"share": 0.5, "months": 1}]}
            ]}
            """, report: measured.report)
        let table = try SimulateFromTests.Table("legacy-2025")
        let old = SimulateFromTests.perSearch(measured.legacy["current@0"]!, searches: measured.searches)
        let fixed = SimulateFromTests.perSearch(measured.legacy["session_details@0"]!, searches: measured.searches)
        var total: [String: Double] = [:]
        for (sku, rate) in old { total[sku, default: 0] += rate * volume / 2 }
        for (sku, rate) in fixed { total[sku, default: 0] += rate * volume / 2 }
        let once = table.bill(total)
        let twice = table.bill(old.mapValues { $0 * volume / 2 }) + table.bill(fixed.mapValues { $0 * volume / 2 })
        // The free caps count once for the account: two half bills would use them twice.
        #expect(once > twice + 1)
        let month = (scenarios[0]["months"] as! [Object])[0]
        #expect(abs(CohortTests.cost(month) - once) < 1e-6, "\(CohortTests.cost(month)) against \(once) (two bills: \(twice))")
        #expect(abs((scenarios[0]["cost_usd"] as! Double) - once) < 1e-6)
        let cohorts = try #require(scenarios[0]["cohorts"] as? [Object])
        #expect(cohorts.count == 1 && cohorts[0]["strategy"] as? String == "current" && cohorts[0]["until"] as? String == "2027-03")
    }

    @Test("A cohort that ends mid-run: its months are mixed, the later ones are the scenario's own bill")
    func endsMidRun() throws {
        let directory = TemporaryDirectory()
        let measured = try CohortTests.measured(directory)
        let scenarios = try CohortTests.scenarios(directory, """
            {"schema": "placescost.scenarios/1", "scenarios": [
              {"name": "fixed", "searches": 20000, "growth_pct": 10, "months": 4, "start": "2027-03", "mistakes_fixed": true},
              {"name": "a third stays two months", "searches": 20000, "growth_pct": 10, "months": 4, "start": "2027-03", "mistakes_fixed": true,
               "cohorts": [{"share": 0.3333, "months": 2, "delay": 2}]}
            ]}
            """, report: measured.report)
        let plain = scenarios[0]["months"] as! [Object]
        let mixed = scenarios[1]["months"] as! [Object]
        #expect(mixed.count == 4)
        let table = try SimulateFromTests.Table("legacy-2025")
        let old = SimulateFromTests.perSearch(measured.legacy["current@2"]!, searches: measured.searches)
        let fixed = SimulateFromTests.perSearch(measured.legacy["session_details@0"]!, searches: measured.searches)
        for index in 0..<4 {
            let volume = 20_000 * pow(1.1, Double(index))
            if index < 2 {
                var total: [String: Double] = [:]
                for (sku, rate) in old { total[sku, default: 0] += rate * volume * 0.3333 }
                for (sku, rate) in fixed { total[sku, default: 0] += rate * volume * (1 - 0.3333) }
                #expect(abs(CohortTests.cost(mixed[index]) - table.bill(total)) < 1e-6, "month \(index)")
                #expect(CohortTests.cost(mixed[index]) != CohortTests.cost(plain[index]))
            } else {
                // The cohort has moved to the scenario's settings: exactly its own bill.
                #expect(CohortTests.cost(mixed[index]) == CohortTests.cost(plain[index]), "month \(index)")
            }
        }
        let sum = mixed.reduce(0.0) { $0 + CohortTests.cost($1) }
        #expect(abs((scenarios[1]["cost_usd"] as! Double) - sum) < 4e-6)
    }

    @Test("A cohort on another API generation: its share is billed by the New table's rules, the rest by the legacy table, in one month")
    func cohortOnOtherGeneration() throws {
        let directory = TemporaryDirectory()
        let measured = try CohortTests.measured(directory)
        let volume = 40_000.0
        let scenarios = try CohortTests.scenarios(directory, """
            {"schema": "placescost.scenarios/1", "scenarios": [
              {"name": "a quarter tries Places API (New)", "searches": \(volume), "months": 1, "start": "2027-03",
               "cohorts": [{"share": 0.25, "months": 6, "pricing": "places-new-2025", "mistakes_fixed": true}]}
            ]}
            """, report: measured.report)
        let legacy = try SimulateFromTests.Table("legacy-2025")
        let new = try SimulateFromTests.Table("places-new-2025")
        let rest = SimulateFromTests.perSearch(measured.legacy["current@0"]!, searches: measured.searches).mapValues { $0 * volume * 0.75 }
        let moved = SimulateFromTests.perSearch(measured.new["session_details@0"]!, searches: measured.searches).mapValues { $0 * volume * 0.25 }
        let month = (scenarios[0]["months"] as! [Object])[0]
        #expect(month["tables"] as? [String] == ["legacy-2025", "places-new-2025"])
        let expected = legacy.bill(rest) + new.bill(moved)
        #expect(abs(CohortTests.cost(month) - expected) < 1e-6, "\(CohortTests.cost(month)) against \(expected)")
    }

    @Test("Bad cohorts are a data error naming the member", arguments: [
        (#"[{"share": 0.6, "months": 2}, {"share": 0.5, "months": 1}]"#, "`scenarios[0].cohorts` shares sum to 1.1; they must sum to at most 1"),
        (#"[{"share": 0, "months": 2}]"#, "`scenarios[0].cohorts[0].share` must be a number above 0 and at most 1"),
        (#"[{"share": 0.5, "months": 0}]"#, "`scenarios[0].cohorts[0].months` must be a whole number from 1 to 120"),
        (#"[{"share": 0.5}]"#, "`scenarios[0].cohorts[0].months` is missing"),
        (#"[{"share": 0.5, "months": 1, "users": 3}]"#, "`scenarios[0].cohorts[0].users` is not a key of a cohort"),
        (#"[{"share": 0.5, "months": 1, "fields": "address_only"}]"#, "`scenarios[0].cohorts[0]` asks for address-only fields with the mistakes kept"),
        (#"[{"share": 0.5, "months": 1, "delay": 40}]"#, "asks for delay 40, which the report did not price"),
        (#"{"share": 0.5}"#, "`scenarios[0].cohorts` is not an array"),
    ])
    func badCohorts(cohorts: String, message: String) throws {
        let directory = TemporaryDirectory()
        let log = SimulateFromTests.log(directory, start: "2026-10-01", days: 5, searches: 200)
        let (report, _) = try SimulateFromTests.report(log, directory)
        let file = directory.path + "/bad.json"
        try #"{"schema": "placescost.scenarios/1", "scenarios": [{"name": "a", "cohorts": \#(cohorts)}]}"#.write(toFile: file, atomically: true, encoding: .utf8)
        let result = runCLI(["simulate", "--from", report, "--scenario", file])
        #expect(result.code == .dataError, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty && !result.stderr.contains("Fatal"))
    }
}
