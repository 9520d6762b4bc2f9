import Foundation
import Testing
@testable import PlacesCostKit

/// `reconcile` with a log and a bill of different days: the estimate keeps the bill's days, and
/// says which of the log's it left out; a bill of months without log data is said so.
@Suite("Reconcile periods")
struct ReconcilePeriodTests {
    /// 10 searches (an autocomplete and a Place Details call) on each of `days`, days after
    /// 2026-10-01 (negative: before it), from 09:00 UTC.
    static func log(_ directory: TemporaryDirectory, days: [Int]) -> String {
        let records = days.flatMap { day in
            (0..<10).flatMap { index -> [TestRecord] in
                let token = "token-\(day)-\(index)"
                let at = Double(day) * 86_400 + Double(index) * 300
                return [ac(at, token, "ab"), details(at + 5, token)]
            }
        }
        return directory.write("log.jsonl", records.map(\.jsonLine).joined(separator: "\n") + "\n")
    }

    /// A console cost-table export of `counts` (SKU -> usage), each row from `first` to `last`.
    static func bill(_ counts: [String: Int], first: String, last: String, invoice: String) -> String {
        let header = "Billing account name,Billing account ID,Project name,Project ID,Project hierarchy,Service description,Service ID,SKU description,SKU ID,Consumption model description,Credit type,Cost type,Usage start date,Usage end date,Usage amount,Usage unit,Unrounded Cost ($),Cost ($)"
        let rows = counts.keys.sorted().map { sku in
            "Example,01AB,Ex,ex-prod,,Places API,X,\(sku),S,Default,,Usage,\(first),\(last),\"\(counts[sku]!)\",count,0.000000,0.00"
        }
        return (["Invoice month,\(invoice)", "Currency,USD", "", header] + rows).joined(separator: "\n") + "\n"
    }

    /// The `current` delay-0 SKU counts `analyze` gives with `options`: the bill a perfect log would match.
    static func estimate(_ log: String, _ options: [String]) throws -> [String: Int] {
        let run = runCLI(["analyze", log, "--json", "--quiet"] + options)
        #expect(run.code == .success, "\(run.stderr)")
        let strategies = try #require((try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])?["strategies"] as? [[String: Any]])
        let current = try #require(strategies.first { $0["id"] as? String == "current" && $0["delay"] as? Int == 0 })
        return try #require(current["skus"] as? [String: Int]).filter { $0.value > 0 }
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func flagged(_ json: [String: Any]) -> [String] {
        (json["skus"] as? [[String: Any]] ?? []).filter { $0["flagged"] as? Bool == true }.compactMap { $0["sku"] as? String }
    }

    @Test("A log that runs past the bill's month: its last days are left out, every SKU matches, and it is said on the screen, in the Markdown and in the JSON")
    func partialOverlapAtEnd() throws {
        let directory = TemporaryDirectory()
        let log = ReconcilePeriodTests.log(directory, days: [28, 29, 30, 31, 32])  // 2026-10-29 to 2026-11-02
        let october = try ReconcilePeriodTests.estimate(log, ["--since", "2026-10-01", "--until", "2026-10-31"])
        let bill = directory.write("bill.csv", ReconcilePeriodTests.bill(october, first: "2026-10-01", last: "2026-10-31", invoice: "2026-10"))
        let sentence = "The log's calls from 2026-11-01 to 2026-11-02 (UTC) are outside the bill's period, 2026-10-01 to 2026-10-31, and were left out of the estimate (40 calls), so both sides count the same days; pass --since and --until to choose the period yourself."

        let markdown = runCLI(["reconcile", log, "--billing", bill])
        #expect(markdown.code == .success, "\(markdown.stderr)")
        #expect(markdown.stderr.contains("placescost: note: " + sentence), "\(markdown.stderr)")
        #expect(markdown.stdout.contains("**" + sentence + "**"), "\(markdown.stdout)")
        #expect(markdown.stdout.contains("Every SKU's count is within 2% of the bill."))
        #expect(markdown.stdout.contains("over 2026-10."))

        let run = runCLI(["reconcile", log, "--billing", bill, "--json", "--quiet"])
        let json = try ReconcilePeriodTests.object(run.stdout)
        #expect(ReconcilePeriodTests.flagged(json).isEmpty)
        #expect(json["estimate_months"] as? [String] == ["2026-10"])
        #expect(json["period_notes"] as? [String] == [sentence])
        #expect(json["bill_months_without_log"] as? [String] == [])
        let period = try #require(json["estimate_period"] as? [String: Any])
        #expect(period["source"] as? String == "bill")
        #expect(period["since"] as? String == "2026-10-01T00:00:00.000Z" && period["until"] as? String == "2026-11-01T00:00:00.000Z")
        #expect(period["time_zone"] as? String == "UTC" && period["matches_bill"] as? Bool == true)
        #expect(period["calls_left_out"] as? Int == 40)
        #expect(period["days_left_out"] as? [[String: String]] == [["first": "2026-11-01", "last": "2026-11-02"]])
        _ = try JSONSchemaTests.expectValid(run.stdout, against: "reconciliation.schema.json")
    }

    @Test("A log that starts before the bill's month: its first days are left out, named in --timezone, whose midnights bound the bill's days")
    func partialOverlapAtStart() throws {
        let directory = TemporaryDirectory()
        let log = ReconcilePeriodTests.log(directory, days: [-2, -1, 0, 1])  // 2026-09-29 to 2026-10-02
        let october = try ReconcilePeriodTests.estimate(log, ["--since", "2026-10-01", "--until", "2026-10-31"])
        let bill = directory.write("bill.csv", ReconcilePeriodTests.bill(october, first: "2026-10-01", last: "2026-10-31", invoice: "2026-10"))
        let run = runCLI(["reconcile", log, "--billing", bill, "--json"])
        #expect(run.code == .success, "\(run.stderr)")
        let json = try ReconcilePeriodTests.object(run.stdout)
        #expect(ReconcilePeriodTests.flagged(json).isEmpty)
        let sentence = "The log's calls from 2026-09-29 to 2026-09-30 (UTC) are outside the bill's period, 2026-10-01 to 2026-10-31, and were left out of the estimate (40 calls), so both sides count the same days; pass --since and --until to choose the period yourself."
        #expect(json["period_notes"] as? [String] == [sentence])
        #expect(run.stderr.contains("placescost: note: " + sentence), "\(run.stderr)")
        #expect((json["estimate_period"] as? [String: Any])?["days_left_out"] as? [[String: String]] == [["first": "2026-09-29", "last": "2026-09-30"]])

        // In Pacific time the bill's days start at 07:00 UTC; the calls from 09:00 UTC fall on the same days.
        let pacific = try ReconcilePeriodTests.object(runCLI(["reconcile", log, "--billing", bill, "--json", "--quiet", "--timezone", "America/Los_Angeles"]).stdout)
        let period = try #require(pacific["estimate_period"] as? [String: Any])
        #expect(period["since"] as? String == "2026-10-01T07:00:00.000Z" && period["until"] as? String == "2026-11-01T07:00:00.000Z")
        #expect(period["time_zone"] as? String == "America/Los_Angeles" && period["calls_left_out"] as? Int == 40)
        #expect(ReconcilePeriodTests.flagged(pacific).isEmpty)
    }

    @Test("A bill of months the log has no call in: the months are named, and no --scale is suggested for their gap")
    func billMonthsWithoutLog() throws {
        let directory = TemporaryDirectory()
        let log = ReconcilePeriodTests.log(directory, days: [0, 1])  // October only
        let october = try ReconcilePeriodTests.estimate(log, [])
        // September's usage as large as October's: every count doubles, as sampling would.
        let bill = directory.write("bill.csv", ReconcilePeriodTests.bill(october.mapValues { $0 * 2 }, first: "2026-09-01", last: "2026-10-31", invoice: "2026-10"))
        let sentence = "The bill also covers 2026-09, a month in which the log has no call: the usage billed there cannot be in the estimate, so the SKUs differ by it as expected. Export the bill of 2026-10 alone to compare like with like."
        let run = runCLI(["reconcile", log, "--billing", bill, "--json"])
        #expect(run.code == .success, "\(run.stderr)")
        let json = try ReconcilePeriodTests.object(run.stdout)
        #expect(json["bill_months_without_log"] as? [String] == ["2026-09"])
        #expect(json["period_notes"] as? [String] == [sentence])
        #expect(json["suggested_scale"] is NSNull)
        #expect(run.stderr.contains("placescost: note: " + sentence), "\(run.stderr)")
        #expect(runCLI(["reconcile", log, "--billing", bill, "--quiet"]).stdout.contains("**" + sentence + "**"))
        _ = try JSONSchemaTests.expectValid(run.stdout, against: "reconciliation.schema.json")
        // A reports page by month writes each month's first day: its last row covers the whole month.
        #expect(BilledUsage.Period(firstUsageDate: "2026-09-01", lastUsageDate: "2026-10-01", monthlyRows: true).coveredMonths == ["2026-09", "2026-10"])
        #expect(BilledUsage.Period(firstUsageDate: "2026-09-01", lastUsageDate: "2026-10-01", monthlyRows: true).coveredDays?.upperBound.dayText == "2026-10-31")
        #expect(BilledUsage.Period(invoiceMonths: ["2026-10"]).coveredDays.map { "\($0.lowerBound.dayText) \($0.upperBound.dayText)" } == "2026-10-01 2026-10-31")
    }

    @Test("--since and --until given are kept, with a sentence when they are not the bill's days")
    func explicitPeriodRespected() throws {
        let directory = TemporaryDirectory()
        let log = ReconcilePeriodTests.log(directory, days: [29, 30, 31, 32])  // 2026-10-30 to 2026-11-02
        let asked = ["--since", "2026-10-31", "--until", "2026-11-01"]
        let estimate = try ReconcilePeriodTests.estimate(log, asked)
        let bill = directory.write("bill.csv", ReconcilePeriodTests.bill(estimate, first: "2026-10-01", last: "2026-10-31", invoice: "2026-10"))
        let run = runCLI(["reconcile", log, "--billing", bill, "--json"] + asked)
        #expect(run.code == .success, "\(run.stderr)")
        let json = try ReconcilePeriodTests.object(run.stdout)
        let period = try #require(json["estimate_period"] as? [String: Any])
        #expect(period["source"] as? String == "options" && period["matches_bill"] as? Bool == false)
        #expect(period["since"] as? String == "2026-10-31T00:00:00.000Z" && period["until"] as? String == "2026-11-02T00:00:00.000Z")
        #expect(period["calls_left_out"] as? Int == 40)  // October 30 and November 2
        // The estimate is of the days asked for, November 1 included.
        let counts = Dictionary(uniqueKeysWithValues: (json["skus"] as? [[String: Any]] ?? []).map { ($0["sku"] as! String, $0["estimated_count"] as! Int) })
        #expect(counts.filter { $0.value > 0 } == estimate)
        #expect(counts["Places Details"] == 20)
        let sentence = "--since and --until set the estimate's period, from 2026-10-31T00:00:00.000Z until 2026-11-02T00:00:00.000Z, which is not the bill's, 2026-10-01 to 2026-10-31 (UTC): calls of days in only one of the two make the counts differ. Leave out --since and --until to compare the bill's days."
        #expect(json["period_notes"] as? [String] == [sentence])
        #expect(run.stderr.contains("placescost: note: " + sentence), "\(run.stderr)")

        // The bill's own days given as options: nothing to say.
        let same = try ReconcilePeriodTests.object(runCLI(["reconcile", log, "--billing", bill, "--json", "--quiet", "--since", "2026-10-01", "--until", "2026-10-31"]).stdout)
        #expect(same["period_notes"] as? [String] == [])
        #expect((same["estimate_period"] as? [String: Any])?["matches_bill"] as? Bool == true)
    }

    @Test("A log inside the bill's days, or of no day of it, is priced whole as before")
    func noRestrictionNeeded() throws {
        let directory = TemporaryDirectory()
        let log = ReconcilePeriodTests.log(directory, days: [0, 1])
        let estimate = try ReconcilePeriodTests.estimate(log, [])
        let inside = directory.write("inside.csv", ReconcilePeriodTests.bill(estimate, first: "2026-10-01", last: "2026-10-31", invoice: "2026-10"))
        let json = try ReconcilePeriodTests.object(runCLI(["reconcile", log, "--billing", inside, "--json", "--quiet"]).stdout)
        #expect(json["period_notes"] as? [String] == [] && ReconcilePeriodTests.flagged(json).isEmpty)
        #expect((json["estimate_period"] as? [String: Any])?["calls_left_out"] as? Int == 0)
        let december = directory.write("december.csv", ReconcilePeriodTests.bill(estimate, first: "2026-12-01", last: "2026-12-31", invoice: "2026-12"))
        let disjoint = runCLI(["reconcile", log, "--billing", december, "--json", "--quiet"])
        #expect(disjoint.code == .success, "\(disjoint.stderr)")
        let other = try ReconcilePeriodTests.object(disjoint.stdout)
        #expect(other["periods_overlap"] as? Bool == false && other["estimate_months"] as? [String] == ["2026-10"])
        #expect((other["estimate_period"] as? [String: Any])?["source"] as? String == "log")
    }
}
