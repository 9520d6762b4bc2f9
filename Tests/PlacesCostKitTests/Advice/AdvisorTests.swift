import Testing
@testable import PlacesCostKit

@Suite("Advisor")
struct AdvisorTests {
    func analyze(_ records: [TestRecord], pricing: String = "legacy-list", needsDetails: Bool? = nil, scale: Double = 1) throws -> Analysis {
        let directory = TemporaryDirectory()
        let file = directory.write("log.jsonl", records.map(\.jsonLine).joined(separator: "\n") + "\n")
        var options = Analyzer.Options()
        options.pricing = pricing
        options.needsDetails = needsDetails
        options.costs.scale = scale
        return try Analyzer(options: options).analyze(paths: [file]).0
    }

    /// A completed search typing `text` one character per call, address-only details.
    func search(_ token: String, _ text: String, at start: Double, fields: [String]? = ["formatted_address", "geometry"]) -> [TestRecord] {
        var records = (1...text.count).map { ac(start + Double($0), token, String(text.prefix($0))) }
        records.append(details(start + Double(text.count) + 1, token, fields: fields))
        return records
    }

    @Test("short typing, address only: per request, and the ranking's cheapest agrees")
    func shortTyping() throws {
        let records = (0..<10).flatMap { search("t\($0)", "abc", at: Double($0) * 100) }
        let advice = try analyze(records).recommendation
        #expect(advice.strategy == .perRequestGeocoding && advice.delay == 0)
        #expect(advice.cheaperBecause.isEmpty || advice.cheapest.strategy == .perRequestGeocoding)
        // Legacy list: 3 x 2.83 + 5 = 13.49 against 17 per search as sessions.
        let current = try #require(advice.ranking.first { $0.strategy == .current && $0.delay == 0 })
        #expect(abs(current.listCostUSD - 0.17) < 1e-9)
        #expect(abs(advice.recommended.listCostUSD - 0.1349) < 1e-9)
        #expect(abs(advice.recommended.savingsUSDPerMonth - 0.0351) < 1e-9)
        #expect(abs(advice.recommended.savingsPercent - 20.647058823529) < 1e-6)
    }

    @Test("seven characters: delay 3 brings 7 requests to 4 (the seeds' example)")
    func delayWins() throws {
        let records = (0..<10).flatMap { search("t\($0)", "1600 Am", at: Double($0) * 100) }
        let advice = try analyze(records).recommendation
        #expect(advice.strategy == .perRequestGeocoding && advice.delay == 3)
        #expect(advice.evidence.meanRequests[3] == 4)
        #expect(advice.latencyWarning)
        // A longer delay is cheaper still; the advice says why the tree stops at 3.
        #expect(advice.cheapest.strategy == .perRequestGeocoding && advice.cheapest.delay == 4)
        #expect(advice.cheaperBecause.first?.contains("smallest delay") == true)
    }

    @Test("legacy abandonment: sessions by the tree, per request cheaper, and the reason names abandonment")
    func abandonment() throws {
        // Inputs are unrecorded, so no delay drops a call. Ten completed searches of 7 calls and
        // ten abandoned ones of 2: mean 4.5 > 4.24, so the tree says sessions (17 per search,
        // $0.34 in all); per request costs 10 x (7 x 2.83 + 5) + 10 x 2 x 2.83 = $0.3047.
        var records: [TestRecord] = []
        for index in 0..<10 {
            records += (0..<7).map { ac(Double(index) * 100 + Double($0), "c\(index)") }
            records.append(details(Double(index) * 100 + 8, "c\(index)", fields: ["formatted_address"]))
            records += (0..<2).map { ac(5000 + Double(index) * 100 + Double($0), "a\(index)") }
        }
        let advice = try analyze(records).recommendation
        #expect(advice.strategy == .sessionDetailsBasic)
        #expect(advice.cheapest.strategy == .perRequestGeocoding)
        #expect(advice.cheaperBecause.count == 1)
        #expect(advice.cheaperBecause[0].contains("50% of searches (10) end without a selection"))
        #expect(abs(advice.cheapest.listCostUSD - 0.3047) < 1e-9 && abs(advice.recommended.listCostUSD - 0.34) < 1e-9)
    }

    @Test("a tie on the bill keeps the tree's answer")
    func tie() throws {
        // Places API (New): 12-character address searches. The tree (break-even 12) says per
        // request; both cost the same at list prices, so nothing differs.
        let records = (0..<20).flatMap { search("n\($0)", "1600 Amphith", at: Double($0) * 100, fields: ["formattedAddress", "location"]) }
            .map { record -> TestRecord in var record = record; record.version = "new"; return record }
        let advice = try analyze(records, pricing: "places-new-2025").recommendation
        #expect(advice.strategy == .perRequestGeocoding && advice.delay == 0)
        #expect(advice.evidence.breakEvenRequests == 12)
        // Within the free caps every bill is $0: a tie keeps the tree's answer.
        #expect(advice.cheapest == advice.recommended)
        #expect(advice.cheaperBecause.isEmpty)
    }

    @Test("free caps: at list prices the tree wins, the bill reverses the order, and the reason says so")
    func freeCaps() throws {
        // 4,000 searches a month (10 x --scale 400) of 4 unrecorded requests, address only, on
        // legacy-2025. List: per request 4 x 2.83 + 5 = 16.32 < 17 per session, so the tree says
        // per request. Bill: 16,000 requests less 10,000 free = $16.98, while 4,000 Places Details
        // stay under the 5,000 free: sessions bill $0.
        var records: [TestRecord] = []
        for index in 0..<10 {
            records += (0..<4).map { ac(Double(index) * 100 + Double($0), "c\(index)") }
            records.append(details(Double(index) * 100 + 5, "c\(index)", fields: ["formatted_address", "geometry"]))
        }
        let advice = try analyze(records, pricing: "legacy-2025", scale: 400).recommendation
        #expect(advice.strategy == .perRequestGeocoding && advice.delay == 0)
        #expect(abs(advice.recommended.costUSD - 16.98) < 1e-9)
        #expect(advice.cheapest.strategy == .sessionDetails && advice.cheapest.costUSD == 0)
        #expect(advice.cheaperBecause.count == 1)
        #expect(advice.cheaperBecause[0].contains("the monthly free caps per SKU change the order"))
    }

    @Test("ranking orders by bill, then list cost; savings are per month")
    func ranking() throws {
        var records = search("t1", "abcdef", at: 0)
        records += search("t2", "abcdef", at: 40 * 86_400)  // the next month
        let advice = try analyze(records, pricing: "legacy-list").recommendation
        #expect(advice.months == 2)
        let keys = advice.ranking.map { (Advisor.cents($0.costUSD), Advisor.cents($0.listCostUSD)) }
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 <= $1 })
        let recommended = advice.recommended
        #expect(abs(recommended.savingsUSDPerMonth - (advice.current.costUSD - recommended.costUSD) / 2) < 1e-12)
    }

    @Test("next steps name the platform's own API, and the delay step appears with a delay")
    func nextSteps() {
        let ios = PlatformUse(platform: .ios, generation: .legacy, calls: 1)
        let new = PlatformUse(platform: .webService, generation: .new, calls: 1)
        let sessions = PlatformGuide.nextSteps(strategy: .sessionDetailsBasic, delay: 0, platforms: [ios, new])
        #expect(sessions[0].contains("GMSAutocompleteSessionToken") && sessions[0].contains("[.formattedAddress, .coordinate]"))
        #expect(sessions[1].contains("X-Goog-FieldMask: formattedAddress,location"))
        #expect(!sessions.contains { $0.contains("characters") && $0.contains("unicodeScalars") })
        let perRequest = PlatformGuide.nextSteps(strategy: .perRequestGeocoding, delay: 3, platforms: [PlatformUse(platform: .webService, generation: .legacy, calls: 1)])
        #expect(perRequest[0].contains("drop `sessiontoken`") && perRequest[0].contains("geocode/json?place_id="))
        #expect(perRequest[1].contains("more than 3 characters"))
        #expect(ClientPlatform(logValue: "iOS") == .ios && ClientPlatform(logValue: nil) == .webService && ClientPlatform(logValue: "web") == .javascript)
    }

    @Test("every anomaly has a fix")
    func fixes() {
        for (name, _) in Anomalies().named {
            #expect(!PlatformGuide.fix(for: name).isEmpty, "\(name)")
        }
    }
}
