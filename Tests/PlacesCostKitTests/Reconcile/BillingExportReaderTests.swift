import Foundation
import Testing
@testable import PlacesCostKit

/// The billing export layouts of `docs/formats.md` section 4, from small hand-written files.
@Suite("Billing export reader")
struct BillingExportReaderTests {
    static let consoleHeader = "Billing account name,Billing account ID,Project name,Project ID,Project hierarchy,Service description,Service ID,SKU description,SKU ID,Consumption model description,Credit type,Cost type,Usage start date,Usage end date,Usage amount,Usage unit,Unrounded Cost ($),Cost ($)"

    static let console = """
    Invoice number,1234567
    Billing account ID,0000-AAAA-1111
    Invoice month,202610
    Currency,USD

    \(consoleHeader)
    Acme,0000-AAAA-1111,App,app-1,/o/app-1,Places API,AAAA,Places Details,1111,Default,,Usage,2026-10-01,2026-10-15,"622,403",count,"10,580.851",$10580.85
    Acme,0000-AAAA-1111,App,app-1,/o/app-1,Places API,AAAA,Places Details,1111,Default,,Usage,2026-10-16,2026-10-31,1000,count,17.00,17.00
    Acme,0000-AAAA-1111,App,app-1,/o/app-1,Places API,AAAA,Places Details,1111,Default,Google Maps Platform credit,Credit,2026-10-01,2026-10-31,0,count,-200.00,-200.00
    Acme,0000-AAAA-1111,App,app-1,/o/app-1,Geocoding API,CCCC,Geocoding,5555,Default,,Usage,2026-10-02,2026-10-30,40,count,0.20,0.20
    Acme,0000-AAAA-1111,App,app-1,/o/app-1,Maps JavaScript API,BBBB,Dynamic Maps,3333,Default,,Usage,2026-10-01,2026-10-31,100,count,0.70,0.70
    ,,,,,,,,,,,Tax,,,,,1.20,1.20
    ,,,,,,,,,,,Rounding error,,,,,0.01,0.01
    Total,,,,,,,,,,,,,,,,"10,400.00","10,400.00"

    """

    func read(_ text: String, file: String = "bill.csv") throws -> BilledUsage {
        try BillingExportReader().parse(text, file: file)
    }

    func sku(_ usage: BilledUsage, _ name: String) -> BilledUsage.SKU? {
        usage.skus.first { $0.sku == name }
    }

    @Test("Console cost table: preamble, thousands separators, credits apart, tax and total rows skipped")
    func console() throws {
        let usage = try read(BillingExportReaderTests.console)
        #expect(usage.layout == .consoleCostTable)
        #expect(!usage.matchedByPosition)
        #expect(usage.skus.map(\.sku) == ["Geocoding", "Places Details"])
        let details = try #require(sku(usage, "Places Details"))
        #expect(details.usageAmount == 623_403)
        #expect(abs(details.costUSD - 10_597.851) < 1e-9)
        #expect(details.creditsUSD == -200)
        #expect(usage.creditsUSD == -200)
        #expect(usage.otherServiceRows == 1)
        #expect(usage.ignoredRows == 3)
        #expect(usage.period == .init(firstUsageDate: "2026-10-01", lastUsageDate: "2026-10-31", invoiceMonths: ["2026-10"]))
    }

    @Test("A stray quote costs its own row, warned at its line: the rows after it are read, as the log CSV reader does")
    func strayQuote() throws {
        let lines = BillingExportReaderTests.console.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.firstIndex(of: BillingExportReaderTests.consoleHeader))
        for index in (header + 1)..<lines.count where !lines[index].isEmpty {
            var without = lines
            without.remove(at: index)
            let expected = try read(without.joined(separator: "\n"))
            // A quote opened and never closed on its line (the next quotes, lines below, close
            // it), and text after a closing quote.
            for broken in ["\"" + lines[index], lines[index].replacingOccurrences(of: ",Usage,", with: ",\"Usage\"x,")] where broken != lines[index] {
                var damaged = lines
                damaged[index] = broken
                let usage = try read(damaged.joined(separator: "\n"))
                #expect(usage.skus == expected.skus, "line \(index + 1): \(broken)")
                #expect(usage.creditsUSD == expected.creditsUSD && usage.otherServiceRows == expected.otherServiceRows, "line \(index + 1)")
                #expect(usage.warnings.map(\.location.line) == [index + 1], "line \(index + 1): \(usage.warnings)")
                #expect(usage.skippedRows == 1)
            }
        }
    }

    @Test("An export saved as UTF-16, with a byte order mark or without, reads as the UTF-8 one")
    func utf16() throws {
        let directory = TemporaryDirectory()
        let utf8 = directory.write("bill.csv", BillingExportReaderTests.console)
        let expected = try BillingExportReader().read(path: utf8, shownAs: "bill.csv")
        let units = Array(BillingExportReaderTests.console.utf16)
        let little = units.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] }
        let big = units.flatMap { [UInt8($0 >> 8), UInt8(truncatingIfNeeded: $0)] }
        for (name, bytes) in [("le-bom", [0xFF, 0xFE] + little), ("be-bom", [0xFE, 0xFF] + big), ("le", little), ("be", big)] {
            let path = directory.path + "/\(name).csv"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let usage = try BillingExportReader().read(path: path, shownAs: "bill.csv")
            #expect(usage == expected, "\(name)")
        }
    }

    @Test("Reports-page CSV: list cost is the SKU cost, the savings columns are credits")
    func reportsPage() throws {
        let text = """
        Date,Service description,Service ID,SKU description,SKU ID,Usage amount,Usage unit,List cost ($),Negotiated savings ($),Savings programs ($),Other savings ($),Unrounded subtotal ($),Subtotal ($)
        2026-10-01,Places API (New),AAAA,Autocomplete Requests,1,"200,000",count,566.00,0,0,-84.30,481.70,481.70
        2026-10-02,Places API (New),AAAA,Place Details Essentials,2,"1,500",count,$7.50,0,0,0,7.50,7.50
        2026-10-03,Routes API,DDDD,Compute Routes,3,10,count,0.05,0,0,0,0.05,0.05
        Total,,,,,,,,,,,"489.25","489.25"
        """
        let usage = try read(text)
        #expect(usage.layout == .reportsPage)
        #expect(usage.skus.map(\.sku) == ["Autocomplete Requests", "Place Details Essentials"])
        #expect(sku(usage, "Autocomplete Requests")?.usageAmount == 200_000)
        #expect(sku(usage, "Autocomplete Requests")?.costUSD == 566)
        #expect(abs(usage.creditsUSD - -84.3) < 1e-9)
        #expect(usage.otherServiceRows == 1)
        #expect(usage.ignoredRows == 1)
        #expect(usage.period.firstUsageDate == "2026-10-01" && usage.period.lastUsageDate == "2026-10-03")
    }

    @Test("BigQuery export as CSV with dotted columns in any order, credits as JSON text")
    func bigQueryCSV() throws {
        let text = """
        project.id,invoice.month,service.description,sku.description,usage_start_time,usage.amount,usage.unit,cost,credits
        app-1,202610,Places API,Autocomplete - Per Request,2026-10-01 07:00:00 UTC,"1,000",count,2.83,"[{""name"":""FreeTrial"",""amount"":-2.83}]"
        app-1,202610,Places API,Autocomplete - Per Request,2026-10-02 07:00:00 UTC,500,count,1.415,[]
        app-1,202610,Cloud Storage,Standard Storage,2026-10-02 07:00:00 UTC,5,gibibyte month,0.10,
        """
        let usage = try read(text)
        #expect(usage.layout == .bigQueryCSV)
        let row = try #require(sku(usage, "Autocomplete - Per Request"))
        #expect(row.usageAmount == 1_500)
        #expect(abs(row.costUSD - 4.245) < 1e-9)
        #expect(row.creditsUSD == -2.83)
        #expect(usage.period.invoiceMonths == ["2026-10"])
        #expect(usage.period.firstUsageDate == "2026-10-01")
        #expect(usage.otherServiceRows == 1)
    }

    @Test("BigQuery export as JSON Lines: nested objects and flat dotted keys")
    func bigQueryJSONLines() throws {
        let text = """
        {"service":{"description":"Places API"},"sku":{"description":"Places Details"},"usage_start_time":"2026-10-03T00:00:00Z","usage":{"amount":100,"unit":"count"},"cost":1.7,"credits":[{"name":"Maps credit","amount":-1.7}],"invoice":{"month":"202610"},"project":{"id":"app-1"}}
        {"service.description":"Places API","sku.description":"Places Details","usage_start_time":"2026-10-05T00:00:00Z","usage.amount":"50","cost":"0.85","credits":[],"invoice.month":"202610"}

        {"service":{"description":"Compute Engine"},"sku":{"description":"N1 Core"},"usage":{"amount":3},"cost":0.3}
        """
        let usage = try read(text, file: "bill.jsonl")
        #expect(usage.layout == .bigQueryJSONLines)
        let details = try #require(sku(usage, "Places Details"))
        #expect(details.usageAmount == 150)
        #expect(abs(details.costUSD - 2.55) < 1e-9)
        #expect(details.creditsUSD == -1.7)
        #expect(usage.period == .init(firstUsageDate: "2026-10-03", lastUsageDate: "2026-10-05", invoiceMonths: ["2026-10"]))
        #expect(usage.otherServiceRows == 1)
    }

    @Test("BigQuery JSON Lines: a damaged line (cut off, not an object, no SKU, a cost that is no number) is skipped and warned at its line; the rows after it are read")
    func bigQueryJSONLinesDamaged() throws {
        let good = #"{"service":{"description":"Places API"},"sku":{"description":"Places Details"},"usage":{"amount":2},"cost":0.034}"#
        let damaged = [
            #"{"service":{"description":"Places API"},"sku":{"description":"Places Det"#,
            "garbage from a download page",
            #"{"service":{"description":"Places API"},"usage":{"amount":2},"cost":0.034}"#,
            #"{"service":{"description":"Places API"},"sku":{"description":"Places Details"},"usage":{"amount":2},"cost":null}"#,
            #"{"service":{"description":"Places API"},"sku":{"description":"Places Details"},"usage":{"amount":2},"cost":"abc"}"#,
        ]
        for bad in damaged {
            for position in 0...2 {
                var lines = [good, good]
                lines.insert(bad, at: position)
                let usage = try read(lines.joined(separator: "\n") + (position == 2 ? "" : "\n"), file: "bill.jsonl")
                #expect(usage.layout == .bigQueryJSONLines, "\(bad) at \(position)")
                #expect(usage.skippedRows == 1 && usage.warnings.map(\.location.line) == [position + 1], "\(bad) at \(position)")
                #expect(sku(usage, "Places Details")?.usageAmount == 4, "\(bad) at \(position)")
                #expect(usage.warnings.allSatisfy { !$0.reason.contains("Det") && !$0.reason.contains("garbage") && !$0.reason.contains("abc") })
            }
        }
        // A file without one readable row is no export: the error names the first line's problem.
        #expect(throws: IngestError.invalidBillingExport(path: "bill.jsonl", reason: "no line is a BigQuery billing export row (line 1: the line is not a JSON object (a 1-character text of punctuation)); expected one JSON object per line with `sku.description`, `usage.amount` and `cost`.")) {
            try read("{\n" + damaged[1] + "\n", file: "bill.jsonl")
        }
    }

    @Test("An export saved with the classic Mac's line ends (a carriage return alone) reads as the same export with line feeds")
    func carriageReturnsAlone() throws {
        let lineFeeds = try read(BillingExportReaderTests.console)
        #expect(!lineFeeds.skus.isEmpty)
        let returns = try read(BillingExportReaderTests.console.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r"))
        #expect(returns.skus == lineFeeds.skus && returns.period == lineFeeds.period && returns.skippedRows == lineFeeds.skippedRows)
    }

    @Test("A bill in another currency is told from the preamble, BigQuery's currency or the cost column's sign; US dollars are none")
    func currency() throws {
        #expect(try read(BillingExportReaderTests.console).currency == nil)
        #expect(try read(BillingExportReaderTests.console.replacingOccurrences(of: "Currency,USD", with: "Currency,eur")).currency == "EUR")
        // A localized console export, read by position, names its currency in the cost header.
        let yen = BillingExportReaderTests.console.replacingOccurrences(of: "Currency,USD\n", with: "")
            .replacingOccurrences(of: "Unrounded Cost ($),Cost ($)", with: "Kosten ungerundet (¥),Kosten (¥)")
        let byPosition = try read(yen)
        #expect(byPosition.matchedByPosition && byPosition.currency == "¥")
        let jsonLines = """
        {"service":{"description":"Places API"},"sku":{"description":"Places Details"},"usage":{"amount":100},"cost":255,"currency":"JPY"}
        """
        #expect(try read(jsonLines, file: "bill.jsonl").currency == "JPY")
        let csv = "service.description,sku.description,usage.amount,cost,currency\nPlaces API,Places Details,100,1.7,USD\nPlaces API,Places Details,50,0.85,USD\n"
        #expect(try read(csv).currency == nil)
        #expect(try read(csv.replacingOccurrences(of: ",USD\n", with: ",GBP\n")).currency == "GBP")
        // A cost written in euros in a file whose preamble says USD is never read as dollars;
        // dollar signs and codes are dollars.
        #expect(try read(BillingExportReaderTests.console.replacingOccurrences(of: "17.00,17.00", with: "17.00,€17.00")).currency == "€")
        #expect(try read(BillingExportReaderTests.console.replacingOccurrences(of: "17.00,17.00", with: "17.00,\"17,00 EUR\"")).currency == "EUR")
        #expect(try read(BillingExportReaderTests.console.replacingOccurrences(of: "17.00,17.00", with: "17.00,US$17.00")).currency == nil)
    }

    @Test("A German console export is read by column position")
    func localizedHeader() throws {
        let text = """
        Rechnungsnummer,1234567
        Rechnungskonto-ID,0000-AAAA-1111
        Währung,USD

        Name des Rechnungskontos,Rechnungskonto-ID,Projektname,Projekt-ID,Projekthierarchie,Dienstbeschreibung,Dienst-ID,SKU-Beschreibung,SKU-ID,Beschreibung des Nutzungsmodells,Gutschriftstyp,Kostentyp,Startdatum der Nutzung,Enddatum der Nutzung,Nutzungsmenge,Nutzungseinheit,Nicht gerundete Kosten ($),Kosten ($)
        Acme,0000-AAAA-1111,App,app-1,/o/app-1,Places API,AAAA,Places Details,1111,Standard,,Nutzung,2026-10-01,2026-10-31,"1.234",Anzahl,"20,98","20,98"
        Summe,,,,,,,,,,,,,,,,"20,98","20,98"
        """
        let usage = try read(text)
        #expect(usage.layout == .consoleCostTable)
        #expect(usage.matchedByPosition)
        let details = try #require(sku(usage, "Places Details"))
        #expect(details.costUSD == 20.98)
        // Its amounts use a decimal comma (20,98), so 1.234 is a count of 1234.
        #expect(details.usageAmount == 1_234)
        #expect(usage.period.firstUsageDate == "2026-10-01")
    }

    @Test("A German reports-page export is read by column position, as the English one by name")
    func localizedReportsPage() throws {
        let text = """
        Datum,Dienstbeschreibung,Dienst-ID,SKU-Beschreibung,SKU-ID,Nutzungsmenge,Nutzungseinheit,Listenkosten ($),Ausgehandelte Einsparungen ($),Sparprogramme ($),Sonstige Einsparungen ($),Nicht gerundete Zwischensumme ($),Zwischensumme ($)
        2026-10-01,Places API (New),AAAA,Autocomplete Requests,1,"200.000",Anzahl,"566,00",0,0,"-84,30","481,70","481,70"
        2026-10-02,Places API (New),AAAA,Place Details Essentials,2,"1.500",Anzahl,"7,50",0,0,0,"7,50","7,50"
        2026-10-03,Routes API,DDDD,Compute Routes,3,10,Anzahl,"0,05",0,0,0,"0,05","0,05"
        Summe,,,,,,,,,,,"489,25","489,25"
        """
        let usage = try read(text)
        #expect(usage.layout == .reportsPage)
        #expect(usage.matchedByPosition)
        #expect(usage.skus.map(\.sku) == ["Autocomplete Requests", "Place Details Essentials"])
        #expect(sku(usage, "Autocomplete Requests")?.usageAmount == 200_000)
        #expect(sku(usage, "Autocomplete Requests")?.costUSD == 566)
        #expect(sku(usage, "Place Details Essentials")?.usageAmount == 1_500)
        #expect(abs(usage.creditsUSD - -84.3) < 1e-9)
        #expect(usage.otherServiceRows == 1)
        #expect(usage.ignoredRows == 1)
        #expect(usage.period.firstUsageDate == "2026-10-01" && usage.period.lastUsageDate == "2026-10-03")
    }

    @Test("SKU descriptions match the price tables' names, with or without a service prefix")
    func skuMatching() {
        let matcher = BillingExportReader.SKUMatcher(names: BillingExportReader.bundledSKUNames)
        #expect(matcher.match("Places Details") == "Places Details")
        #expect(matcher.match("  places   details ") == "Places Details")
        #expect(matcher.match("Places API (New) Autocomplete Requests") == "Autocomplete Requests")
        #expect(matcher.match("Dynamic Maps") == nil)
    }

    @Test("Amounts: quoted thousands, currency signs, decimal commas, parentheses")
    func numbers() {
        #expect(BillingExportReader.number("622,403") == 622_403)
        #expect(BillingExportReader.number("$1,234.50") == 1_234.5)
        #expect(BillingExportReader.number("1.234,50 €") == 1_234.5)
        #expect(BillingExportReader.number("20,98") == 20.98)
        #expect(BillingExportReader.number("(12.00)") == -12)
        #expect(BillingExportReader.number("US$ 3") == 3)
        #expect(BillingExportReader.number("") == nil)
        #expect(BillingExportReader.number("n/a") == nil)
    }

    @Test("The file's unambiguous amounts decide what an amount with one kind of separator in groups of three means")
    func decimalMark() {
        #expect(DecimalMark.of(["7.50", "1,500", "622,403"]) == .point)
        #expect(DecimalMark.of(["20,98", "1.500"]) == .comma)
        #expect(DecimalMark.of(["1.234,50 €", "200.000"]) == .comma)
        #expect(DecimalMark.of(["$1,234.50"]) == .point)
        #expect(DecimalMark.of(["0,123"]) == .comma, "no thousands separator follows a leading zero")
        #expect(DecimalMark.of(["1.500", "622,403", "12", ""]) == nil, "nothing unambiguous")
        #expect(DecimalMark.of(["7.50", "20,98"]) == nil, "a file that disagrees with itself")
        #expect(BillingExportReader.number("1.500", mark: .comma) == 1_500)
        #expect(BillingExportReader.number("12.345.678", mark: .comma) == 12_345_678)
        #expect(BillingExportReader.number("622,403", mark: .comma) == 622.403)
        #expect(BillingExportReader.number("1.500", mark: .point) == 1.5)
        #expect(BillingExportReader.number("622,403", mark: .point) == 622_403)
        #expect(BillingExportReader.number("1.234,50", mark: .point) == 1_234.5, "both kinds: the last is the decimal mark")
        #expect(BillingExportReader.number("-84,30", mark: .comma) == -84.3)
        // Without a mark, as before: a lone comma before groups of three is a thousands separator.
        #expect(BillingExportReader.number("1.500") == 1.5)
        #expect(BillingExportReader.number("12.345.678") == nil)
        #expect(BillingExportReader.number("0,500") == 0.5)
        #expect(BillingExportReader.number("1234,567") == 1_234.567)
    }

    @Test("An unknown layout fails with a sentence naming the file and what was expected")
    func unknownLayout() {
        #expect(throws: IngestError.self) { try read("Month,Product,Amount\n2026-10,Places,12\n", file: "costs.csv") }
        do {
            _ = try read("Month,Product,Amount,Currency,Region\n2026-10,Places,12,USD,EU\n", file: "costs.csv")
            Issue.record("expected an error")
        } catch let error as IngestError {
            guard case .invalidBillingExport(let path, let reason) = error else { Issue.record("\(error)"); return }
            #expect(path == "costs.csv")
            #expect(reason.contains("console cost-table CSV"))
            #expect(reason.contains("reports-page CSV"))
            #expect(reason.contains("BigQuery"))
            #expect(reason.hasSuffix("its header row has 5 columns."))
            #expect(error.description.hasPrefix("costs.csv: this is not a Cloud Billing export"))
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test("A usage end time ends the period: at midnight, or at its start's time of day (Pacific days in UTC), the last day is the one before")
    func usageEndTimes() {
        let cases: [(end: String, start: String, last: String)] = [
            ("2026-10-31", "2026-10-01", "2026-10-31"),  // a console export's inclusive end date
            ("2026-11-01 00:00:00 UTC", "2026-10-31 23:00:00 UTC", "2026-10-31"),
            ("2026-11-01T00:00:00.000Z", "2026-10-31T00:00:00Z", "2026-10-31"),
            ("2026-11-01T07:00:00Z", "2026-10-31T07:00:00Z", "2026-10-31"),  // one Pacific day
            ("2026-11-01 08:00:00 UTC", "2026-10-01 08:00:00 UTC", "2026-10-31"),
            ("2026-10-31T07:00:00Z", "2026-10-31T06:00:00Z", "2026-10-31"),  // an hour's row
            ("2026-11-01T01:00:00Z", "2026-11-01T00:00:00Z", "2026-11-01"),
            ("2026-10-31T00:00:00Z", "2026-10-31T00:00:00Z", "2026-10-31"),  // never before its first day
        ]
        for (end, start, last) in cases {
            #expect(BillingExportReader.lastUsageDay(end, startText: start) == last, "\(start) to \(end)")
        }
        #expect(BillingExportReader.lastUsageDay("not a date", startText: "2026-10-01") == nil)
    }

    @Test("A BigQuery export of October in Pacific days, written in UTC, reconciles October only")
    func bigQueryPacificDays() throws {
        let directory = TemporaryDirectory()
        let generated = runCLI(["generate", "--searches", "600", "--seed", "4", "--start", "2026-10-20", "--days", "20", "--format", "jsonl"])
        let log = directory.write("log.jsonl", generated.stdout)
        let rows = (1...31).map { day -> String in
            let start = String(format: "2026-10-%02dT07:00:00Z", day)
            let end = day == 31 ? "2026-11-01T07:00:00Z" : String(format: "2026-10-%02dT07:00:00Z", day + 1)
            return #"{"service":{"description":"Places API"},"sku":{"description":"Autocomplete - Per Request"},"usage_start_time":"\#(start)","usage_end_time":"\#(end)","cost":0.1,"currency":"USD","usage":{"amount":10,"unit":"count"},"credits":[],"invoice":{"month":"202610"}}"#
        }
        let bill = directory.write("bill.jsonl", rows.joined(separator: "\n") + "\n")
        let run = runCLI(["reconcile", log, "--billing", bill, "--json", "--quiet"])
        #expect(run.code == .success, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let period = try #require(report["billing_period"] as? [String: Any])
        #expect(period["last_usage_date"] as? String == "2026-10-31", "\(period)")
        #expect(report["estimate_months"] as? [String] == ["2026-10"], "\(String(describing: report["estimate_months"]))")
    }
}
