import Foundation
import Testing
@testable import PlacesCostKit

/// Every figure the seeds or Google publish, reproduced by the engine (`docs/billing.md` sections 1, 2, 5).
@Suite("Published figures")
struct PublishedFiguresTests {
    func simulate(_ table: String, searches: Int = 1, typing: SearchSimulator.Typing, delay: Int = 0, completion: Double, months: Int = 1) throws -> Simulation.Result {
        let simulator = SearchSimulator(searchesPerMonth: searches, typing: typing, currentDelay: delay, completionRate: completion, fields: FieldCatalog.basicMask)
        return Simulation(simulator: simulator, months: months, plan: try PricingPlan.load(table), delays: Array(0...6)).run()
    }

    @Test("4 per-request autocomplete calls cost $0.01132 at legacy list prices")
    func fourRequests() throws {
        let result = try simulate("legacy-list", typing: .characters(4), completion: 0)
        #expect(JSONValue.rounded(result.pricing.cost(.perRequestGeocoding, delay: 0)!.listCostUSD) == 0.01132)
    }

    @Test("4 requests + 1 Geocoding = $0.01632, less than a $0.017 session; 7 characters with delay 3 send 4 requests")
    func seedsExample() throws {
        let result = try simulate("legacy-list", typing: .characters(7), delay: 3, completion: 1)
        #expect(result.meanRequests[3] == 4)
        let perRequest = try #require(result.pricing.cost(.perRequestGeocoding, delay: 3))
        #expect(JSONValue.rounded(perRequest.listCostUSD) == 0.01632)
        #expect(JSONValue.rounded(perRequest.costUSD) == 0.01632)
        #expect(perRequest.skus == [SKUCount(sku: "Autocomplete - Per Request", count: 4), SKUCount(sku: "Geocoding", count: 1)])
        let session = try #require(result.pricing.cost(.sessionDetails, delay: 3))
        #expect(JSONValue.rounded(session.listCostUSD) == 0.017)
        #expect(perRequest.listCostUSD < session.listCostUSD)
    }

    @Test("A month past Google's last published band is billed at the last price and said to be an estimate, from the first event past it")
    func contactSales() throws {
        // legacy-2018 publishes 0-100,000 and 100,001-500,000; per request, 5 characters a search.
        let under = try simulate("legacy-2018", searches: 100_000, typing: .characters(5), completion: 1)
        #expect(under.pricing.estimatedPrices.isEmpty, "500,000 requests: inside the published bands")
        let over = try simulate("legacy-2018", searches: 100_001, typing: .characters(5), completion: 1)
        #expect(over.pricing.estimatedPrices == ["legacy-2018: Autocomplete - Per Request, above 500,000 a month"])
        // The same price past the band: 100,000 x 2.83 + 400,005 x 2.27 per 1,000, and the Geocoding.
        let perRequest = try #require(over.pricing.cost(.perRequestGeocoding, delay: 0))
        #expect(JSONValue.rounded(perRequest.months[0].lines.first { $0.sku == "Autocomplete - Per Request" }!.costUSD) == JSONValue.rounded(283 + 400_005 * 2.27 / 1000))
        let new = try simulate("places-new-2025", searches: 1_250_001, typing: .characters(8), completion: 1)
        #expect(new.pricing.estimatedPrices == ["places-new-2025: Autocomplete Requests, above 10,000,000 a month"])
        #expect(try simulate("places-new-2025", searches: 1_250_000, typing: .characters(8), completion: 1).pricing.estimatedPrices.isEmpty)
        // Every report says it: simulate on standard error and in its Markdown, analyze under Assumptions and in report.json.
        let run = runCLI(["simulate", "--pricing", "legacy-2018", "--searches", "300000", "--chars", "5", "--report", "md"])
        #expect(run.stderr.contains("placescost: note: estimated price used (Google quotes this volume by contact with sales): legacy-2018: Autocomplete - Per Request, above 500,000 a month"))
        #expect(run.stdout.contains("Estimated prices: Google publishes no price past its last band and quotes these volumes by contact with sales; the last published price is used, so the bill there is an estimate (legacy-2018: Autocomplete - Per Request, above 500,000 a month)."))
        let directory = TemporaryDirectory()
        let log = directory.write("log.jsonl", (0..<3).map { #"{"timestamp":"2024-10-0\#($0 + 1)T10:00:00Z","api":"autocomplete","input_length":\#($0 + 1)}"# }.joined(separator: "\n") + "\n")
        let report = runCLI(["analyze", log, "--pricing", "legacy-2018", "--scale", "200000", "--out", directory.path + "/out", "--quiet"])
        #expect(report.code == .success, "\(report.stderr)")
        let markdown = try String(contentsOfFile: directory.path + "/out/report.md", encoding: .utf8)
        #expect(markdown.contains("- Estimated prices: Google publishes no price past its last band"), "\(markdown)")
        let json = try String(contentsOfFile: directory.path + "/out/report.json", encoding: .utf8)
        #expect(json.contains(#""estimated_prices": [\#n      "legacy-2018: Autocomplete - Per Request, above 500,000 a month"\#n    ]"#), "\(json.prefix(1500))")
        #expect(try String(contentsOfFile: directory.path + "/out/report.html", encoding: .utf8).contains("Estimated prices: Google publishes no price"))
    }

    @Test("The break-even is (17 - 5) / 2.83 = 4.240283 at legacy list prices")
    func breakEven() throws {
        let table = try PriceTableLoader().load("legacy-list")
        #expect(JSONValue.rounded(BreakEven.requests(table)) == 4.240283)
        #expect(JSONValue.format(BreakEven.requests(table)) == "4.240283")
        // New pricing: an address-only session ends in Essentials and bills its first 12 calls.
        #expect(BreakEven.requests(try PriceTableLoader().load("places-new-2025")) == 12)
    }

    @Test("200,000 Autocomplete Requests in a month cost $481.70 on places-new-2025 (10,000 free)")
    func googleExample() throws {
        let result = try simulate("places-new-2025", searches: 200_000, typing: .requests(1), completion: 0)
        let cost = try #require(result.pricing.cost(.perRequestGeocoding, delay: 0))
        #expect(cost.skus == [SKUCount(sku: "Autocomplete Requests", count: 200_000)])
        #expect(JSONValue.rounded(cost.costUSD) == 481.70)
    }

    @Test("legacy-2018: a month crossing 100,000 requests bills the excess at the second tier, less the $200 credit")
    func legacyTiersAndCredit() throws {
        let result = try simulate("legacy-2018", searches: 120_000, typing: .requests(1), completion: 0)
        let cost = try #require(result.pricing.cost(.perRequestGeocoding, delay: 0))
        // 100,000 x $2.83 + 20,000 x $2.27 per 1,000 = $328.40; minus the $200 credit = $128.40.
        #expect(JSONValue.rounded(cost.months[0].lines.reduce(0) { $0 + $1.costUSD }) == 328.4)
        #expect(JSONValue.rounded(cost.months[0].creditUSD) == 200)
        #expect(JSONValue.rounded(cost.costUSD) == 128.4)
        #expect(JSONValue.rounded(cost.listCostUSD) == 339.6)  // every request at $2.83
        let small = try simulate("legacy-2018", searches: 50_000, typing: .requests(1), completion: 0)
        #expect(small.pricing.cost(.perRequestGeocoding, delay: 0)!.costUSD == 0)  // $141.50 is covered by the credit
    }

    @Test("Each simulated month has its own free caps: two months of 200,000 requests cost 2 x $481.70")
    func months() throws {
        let result = try simulate("places-new-2025", searches: 200_000, typing: .requests(1), completion: 0, months: 2)
        #expect(JSONValue.rounded(result.pricing.cost(.perRequestGeocoding, delay: 0)!.costUSD) == 963.4)
    }
}
