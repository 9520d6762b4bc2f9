import Foundation
import Testing
@testable import PlacesCostKit

/// `placescost reconcile` end to end: a canonical log, a billing CSV, the JSON and Markdown out.
@Suite("Reconcile command")
struct ReconcileCommandTests {
    /// 100 searches, each one autocomplete call and one Place Details call in its session.
    static func log(_ directory: TemporaryDirectory) -> String {
        let records = (0..<100).flatMap { index -> [TestRecord] in
            let token = "token-\(index)"
            return [ac(Double(index) * 300, token, "ab"), details(Double(index) * 300 + 5, token)]
        }
        return directory.write("log.jsonl", records.map(\.jsonLine).joined(separator: "\n") + "\n")
    }

    /// A reports-page CSV: Places Details 3% above the log, a Geocoding SKU the log never made.
    static let bill = """
    Date,Service description,Service ID,SKU description,SKU ID,Usage amount,Usage unit,List cost ($),Negotiated savings ($),Savings programs ($),Other savings ($),Unrounded subtotal ($),Subtotal ($)
    2026-10-01,Places API,AAAA,Places Details,1,103,count,1.751,0,0,-1.751,0,0
    2026-10-01,Places API,AAAA,Autocomplete (included with Places Details) - Per Session,2,100,count,0,0,0,0,0,0
    2026-10-01,Places API,AAAA,Basic Data,3,101,count,0,0,0,0,0,0
    2026-10-02,Geocoding API,CCCC,Geocoding,4,"5",count,0.025,0,0,0,0.025,0.025
    Tax,,,,,,,,,,,0.01,0.01
    """

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("A SKU 3% above the log is flagged, one within 2% is not, one only in the bill is listed")
    func endToEnd() throws {
        let directory = TemporaryDirectory()
        let log = ReconcileCommandTests.log(directory)
        let bill = directory.write("bill.csv", ReconcileCommandTests.bill)
        let result = runCLI(["reconcile", log, "--billing", bill, "--pricing", "legacy-list", "--report", "json", "--quiet"])
        #expect(result.code == .success, "\(result.stderr)")
        let json = try object(result.stdout)
        let skus = try #require(json["skus"] as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: skus.map { ($0["sku"] as! String, $0) })
        #expect(Set(skus.flatMap(\.keys)) == ["sku", "estimated_count", "billed_count", "estimated_cost_usd", "billed_cost_usd", "flagged"])

        let details = try #require(byName["Places Details"])
        #expect(details["estimated_count"] as? Int == 100)
        #expect(details["billed_count"] as? Int == 103)
        #expect(details["estimated_cost_usd"] as? Double == 1.7)
        #expect(details["billed_cost_usd"] as? Double == 1.751)
        #expect(details["flagged"] as? Bool == true)

        #expect(byName["Autocomplete (included with Places Details) - Per Session"]?["flagged"] as? Bool == false)
        #expect(byName["Basic Data"]?["flagged"] as? Bool == false)  // 1% apart

        let geocoding = try #require(byName["Geocoding"])
        #expect(geocoding["estimated_count"] as? Int == 0)
        #expect(geocoding["billed_count"] as? Int == 5)
        #expect(geocoding["flagged"] as? Bool == true)

        #expect(json["total_estimated_usd"] as? Double == 1.7)
        #expect(json["total_billed_usd"] as? Double == 0.025)
        #expect(json["billed_credits_usd"] as? Double == -1.751)
        let period = try #require(json["billing_period"] as? [String: Any])
        #expect(period["first_usage_date"] as? String == "2026-10-01")
        #expect(period["last_usage_date"] as? String == "2026-10-02")
        #expect((json["causes"] as? [String])?.contains { $0.contains("--scale") } == true)
        // Cloud Billing's days are Pacific time's: a gap at the month's edges has its cause and its option.
        #expect((json["causes"] as? [String])?.contains { $0.contains("Pacific time") && $0.contains("--timezone America/Los_Angeles") } == true)
    }

    @Test("A bill of months the log does not cover is said to share no day with it, on the screen, in the Markdown and in the JSON")
    func disjointPeriods() throws {
        let directory = TemporaryDirectory()
        let log = ReconcileCommandTests.log(directory)
        #expect(try object(runCLI(["reconcile", log, "--billing", directory.write("bill.csv", ReconcileCommandTests.bill), "--json", "--quiet"]).stdout)["periods_overlap"] as? Bool == true)
        let march = directory.write("march.csv", ReconcileCommandTests.bill.replacingOccurrences(of: "2026-10-0", with: "2025-03-0"))
        let sentence = "The bill and the log share no day: the bill has usage from 2025-03-01 to 2025-03-02, the estimate covers 2026-10, so their counts are of different periods."
        let markdown = runCLI(["reconcile", log, "--billing", march])
        #expect(markdown.code == .success)
        #expect(markdown.stderr.contains("placescost: note: " + sentence) && markdown.stdout.contains("**" + sentence))
        let json = runCLI(["reconcile", log, "--billing", march, "--json", "--quiet"])
        #expect(try object(json.stdout)["periods_overlap"] as? Bool == false && json.stderr.isEmpty)
        _ = try JSONSchemaTests.expectValid(json.stdout, against: "reconciliation.schema.json")
        // The test itself, on the edges: a month shares a day with a range that touches it.
        let october = ["2026-10"]
        #expect(BillReconciler.periodsOverlap(bill: .init(firstUsageDate: "2026-09-01", lastUsageDate: "2026-10-01", invoiceMonths: []), months: october) == true)
        #expect(BillReconciler.periodsOverlap(bill: .init(firstUsageDate: "2026-10-31", lastUsageDate: "2026-11-30", invoiceMonths: []), months: october) == true)
        #expect(BillReconciler.periodsOverlap(bill: .init(firstUsageDate: "2026-09-01", lastUsageDate: "2026-09-30", invoiceMonths: ["2026-10"]), months: october) == false)
        #expect(BillReconciler.periodsOverlap(bill: .init(firstUsageDate: nil, lastUsageDate: nil, invoiceMonths: ["2026-10"]), months: october) == true)
        #expect(BillReconciler.periodsOverlap(bill: .init(firstUsageDate: nil, lastUsageDate: nil, invoiceMonths: []), months: october) == nil)
        // A day no calendar has is no usage date.
        #expect(BillingExportReader.isoDate("2026-11-31") == nil && BillingExportReader.isoDate("2028-02-29T00:00:00Z") == "2028-02-29")
        #expect(BillingExportReader.isoDate("2026-02-29") == nil && BillingExportReader.isoDate("2026-13-01") == nil)
    }

    @Test("The Markdown marks flagged rows and lists the causes; --out writes both files")
    func markdownAndOut() throws {
        let directory = TemporaryDirectory()
        let log = ReconcileCommandTests.log(directory)
        let bill = directory.write("bill.csv", ReconcileCommandTests.bill)
        let result = runCLI(["reconcile", log, "--billing", bill, "--pricing", "legacy-list", "--quiet"])
        #expect(result.code == .success)
        #expect(result.stdout.contains("| `Places Details` | 100 | 103 | -2.9% | $1.70 | $1.75 | **flagged** |"))
        #expect(result.stdout.contains("| `Geocoding` | 0 | 5 |  | $0.00 | $0.03 | **flagged**: not in the estimate |"))
        #expect(result.stdout.contains("- Sampling:"))

        let out = directory.path + "/out"
        let written = runCLI(["reconcile", log, "--billing", bill, "--pricing", "legacy-list", "--out", out, "--quiet"])
        #expect(written.code == .success)
        #expect(written.stdout.isEmpty)
        let markdown = try String(contentsOfFile: out + "/reconciliation.md", encoding: .utf8)
        let json = try String(contentsOfFile: out + "/reconciliation.json", encoding: .utf8)
        #expect(markdown == result.stdout)
        let again = runCLI(["reconcile", log, "--billing", bill, "--pricing", "legacy-list", "--json", "--quiet"])
        #expect(json == again.stdout)
    }

    @Test("Exit codes: no --billing 64, a missing bill 66, an unreadable bill 65 naming the file")
    func exitCodes() {
        let directory = TemporaryDirectory()
        let log = ReconcileCommandTests.log(directory)
        let noBilling = runCLI(["reconcile", log])
        #expect(noBilling.code == .usage)
        #expect(noBilling.stderr.hasPrefix("placescost: error: reconcile needs the billing export"))

        let missing = runCLI(["reconcile", log, "--billing", directory.path + "/none.csv"])
        #expect(missing.code == .noInput)

        let bad = directory.write("bad.csv", "a,b,c,d,e,f\n1,2,3,4,5,6\n")
        let unparsable = runCLI(["reconcile", log, "--billing", bad])
        #expect(unparsable.code == .dataError)
        #expect(unparsable.stderr.hasPrefix("placescost: error: \(bad): this is not a Cloud Billing export"))

        let help = runCLI(["reconcile", "--help"])
        #expect(help.code == .success)
        #expect(help.stdout.contains("--billing FILE"))
        #expect(runCLI(["--help"]).stdout.contains("placescost reconcile [PATH]... --billing FILE"))
    }

    @Test("A row of the bill left out is warned at its line and noted; under --strict it is the error, exit 65")
    func strictBill() throws {
        let sample = try String(contentsOfFile: packageRoot + "/SampleLogs/billing/cost-table-2026-10.csv", encoding: .utf8)
        let directory = TemporaryDirectory()
        let bill = directory.write("bill.csv", sample.replacingOccurrences(of: ",\"356\",", with: ",\"356,"))
        let warned = runCLI(["reconcile", "--billing", bill, "--json"], workingDirectory: packageRoot)
        #expect(warned.code == .success, "\(warned.stderr)")
        #expect(warned.stderr.contains("\(bill):8: warning: unbalanced quote"), "\(warned.stderr)")
        #expect(warned.stderr.contains("1 row of \(bill) was left out of the bill"), "\(warned.stderr)")
        let strict = runCLI(["reconcile", "--billing", bill, "--json", "--strict"], workingDirectory: packageRoot)
        #expect(strict.code == .dataError)
        #expect(strict.stderr.contains("\(bill):8: "), "\(strict.stderr)")
    }

    @Test("--session-timeout and --user-gap give the estimate of analyze run with the same rules")
    func sessionRules() throws {
        func reconciled(_ options: [String]) throws -> [String: Int] {
            let run = runCLI(["reconcile", "SampleLogs/ios-app.jsonl", "--billing", "SampleLogs/billing/cost-table-2026-10.csv", "--json", "--quiet"] + options, workingDirectory: packageRoot)
            #expect(run.code == .success, "\(run.stderr)")
            let skus = try #require((try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])?["skus"] as? [[String: Any]])
            return Dictionary(uniqueKeysWithValues: skus.compactMap { sku in (sku["estimated_count"] as? Int).map { (sku["sku"] as! String, $0) } })
        }
        func analyzed(_ options: [String]) throws -> [String: Int] {
            let run = runCLI(["analyze", "SampleLogs/ios-app.jsonl", "--json", "--quiet"] + options, workingDirectory: packageRoot)
            let strategies = try #require((try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])?["strategies"] as? [[String: Any]])
            let current = try #require(strategies.first { $0["id"] as? String == "current" && $0["delay"] as? Int == 0 })
            return try #require(current["skus"] as? [String: Int])
        }
        let rules = ["--session-timeout", "30", "--user-gap", "20"]
        #expect(try reconciled(rules) == analyzed(rules))
        #expect(try reconciled(rules) != reconciled([]), "the rules change this log's estimate")
    }

    @Test("The sample bill against the sample logs: only Places Details, billed 3% above the log, is flagged")
    func sample() throws {
        let result = runCLI(["reconcile", "--billing", "SampleLogs/billing/cost-table-2026-10.csv", "--json", "--quiet"], workingDirectory: packageRoot)
        #expect(result.code == .success, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let skus = try #require(json["skus"] as? [[String: Any]])
        let flagged = skus.filter { $0["flagged"] as? Bool == true }.compactMap { $0["sku"] as? String }
        #expect(flagged == ["Places Details"])
        let details = try #require(skus.first { $0["sku"] as? String == "Places Details" })
        #expect(details["estimated_count"] as? Int == 393 && details["billed_count"] as? Int == 405)
    }

    @Test("A bill in euros: counts compared, costs shown in euros and never as dollars, the JSON's billed dollars null")
    func otherCurrency() throws {
        let directory = TemporaryDirectory()
        let sample = try String(contentsOfFile: packageRoot + "/SampleLogs/billing/cost-table-2026-10.csv", encoding: .utf8)
        let bill = directory.write("eur.csv", sample.replacingOccurrences(of: "Currency,USD", with: "Currency,EUR"))
        let dollars = runCLI(["reconcile", "SampleLogs/ios-app.jsonl", "--billing", "SampleLogs/billing/cost-table-2026-10.csv", "--json", "--quiet"], workingDirectory: packageRoot)
        let euros = runCLI(["reconcile", "SampleLogs/ios-app.jsonl", "--billing", bill, "--json", "--quiet"], workingDirectory: packageRoot)
        #expect(euros.code == .success, "\(euros.stderr)")
        let usd = try MalformedCorpusTests.object(dollars.stdout)
        let eur = try MalformedCorpusTests.object(euros.stdout)
        #expect((usd["billing_file"] as? [String: Any])?["currency"] as? String == "USD")
        #expect((eur["billing_file"] as? [String: Any])?["currency"] as? String == "EUR")
        #expect(eur["total_billed_usd"] is NSNull && eur["billed_credits_usd"] is NSNull && usd["total_billed_usd"] is NSNumber)
        let rows = try #require(eur["skus"] as? [[String: Any]])
        #expect(rows.allSatisfy { $0["billed_cost_usd"] is NSNull })
        // The counts, and what is flagged, do not depend on the currency.
        let counts = { (report: [String: Any]) in (report["skus"] as? [[String: Any]] ?? []).map { "\($0["sku"]!) \($0["billed_count"]!) \($0["flagged"]!)" } }
        #expect(counts(eur) == counts(usd) && eur["flagged"] as? Int == usd["flagged"] as? Int)
        let markdown = runCLI(["reconcile", "SampleLogs/ios-app.jsonl", "--billing", bill, "--quiet"], workingDirectory: packageRoot).stdout
        #expect(markdown.contains("**The bill is in EUR**") && markdown.contains("| billed cost (EUR) |"))
        let table = markdown.split(separator: "\n").filter { $0.hasPrefix("| `") }
        #expect(!table.isEmpty && table.allSatisfy { $0.split(separator: "|")[5].contains("EUR") && !$0.split(separator: "|")[5].contains("$") })

        // The currency is text from the file: it cannot add a cell, a tag or a line to the report.
        let hostile = directory.write("hostile.csv", sample.replacingOccurrences(of: "Currency,USD", with: "Currency,<b>x|y</b>"))
        let escaped = runCLI(["reconcile", "SampleLogs/ios-app.jsonl", "--billing", hostile, "--quiet"], workingDirectory: packageRoot).stdout
        #expect(!escaped.contains("<B>") && escaped.contains("&lt;B&gt;X\\|Y&lt;\\/B&gt;"), "\(escaped)")
        let escapedRows = escaped.split(separator: "\n").filter { $0.hasPrefix("|") }
        #expect(Set(escapedRows.map { $0.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count }).count == 1)
    }
}
