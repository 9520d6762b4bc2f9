import Testing
@testable import PlacesCostKit

/// The session billing rules of each API generation (`docs/billing.md` sections 3-5).
@Suite("Search pricing")
struct SearchPricerTests {
    static let day = PriceTableLoader.parseDay("2026-10-01")!

    func session(requests: Int, fields: [String]?, outcome: Search.Outcome = .completed, kind: Search.Kind = .session, lengths: [Int?]? = nil) -> Search {
        let time = Timestamp(microseconds: Int64(SearchPricerTests.day) * 86_400_000_000)
        let selection = outcome == .completed ? Selection(api: .placeDetails, time: time, fields: fields, generation: nil) : nil
        return Search(kind: kind, outcome: outcome, requestInputLengths: lengths ?? (1...requests).map { $0 }, selection: selection, startedAt: time, endedAt: time)
    }

    func events(_ search: Search, _ table: String, _ strategy: StrategyID = .current, delay: Int = 0) throws -> RoleCounts {
        try SearchPricer(table: PriceTableLoader().load(table)).events(search, strategy: strategy, delay: delay, day: SearchPricerTests.day).0
    }

    @Test("New: a 15-request session ending in Place Details Essentials bills 12 requests")
    func essentialsCap() throws {
        let counts = try events(session(requests: 15, fields: ["formattedAddress", "location"]), "places-new-2025")
        #expect(counts[.autocompleteRequest] == 12)
        #expect(counts[.sessionUsage] == 3)
        #expect(counts[.detailsEssentials] == 1)
    }

    @Test("New: a session ending in Pro bills no request; its details call as Enterprise + Atmosphere under the current rule")
    func proTerminator() throws {
        let counts = try events(session(requests: 15, fields: ["displayName", "formattedAddress"]), "places-new-2025")
        #expect(counts[.autocompleteRequest] == 0)
        #expect(counts[.sessionUsage] == 15)
        #expect(counts[.detailsEnterpriseAtmosphere] == 1)
        #expect(counts[.detailsPro] == 0)
    }

    @Test("New: before the rule's date, the terminating call is billed at the SKU of its fields")
    func terminatingRuleDate() throws {
        var table = try PriceTableLoader().load("places-new-2025")
        table.sessionRules!.terminatingDetails.effectiveFrom = "2026-11-01"
        let counts = SearchPricer(table: table).events(session(requests: 5, fields: ["displayName"]), strategy: .current, delay: 0, day: SearchPricerTests.day).0
        #expect(counts[.detailsPro] == 1)
        #expect(counts[.detailsEnterpriseAtmosphere] == 0)
    }

    @Test("New: an IDs Only terminator bills every request; an abandoned session bills each request")
    func idsOnlyAndAbandoned() throws {
        let idsOnly = try events(session(requests: 4, fields: ["id"]), "places-new-2025")
        #expect(idsOnly[.autocompleteRequest] == 4)
        #expect(idsOnly[.detailsIDsOnly] == 1)
        let abandoned = try events(session(requests: 4, fields: nil, outcome: .abandoned), "places-new-2025")
        #expect(abandoned[.autocompleteRequest] == 4)
    }

    @Test("Legacy: a completed session is free autocomplete + Places Details + data SKUs; no mask bills every data SKU")
    func legacySession() throws {
        let masked = try events(session(requests: 6, fields: ["name", "phoneNumber"]), "legacy-list")
        #expect(masked[.sessionWithDetails] == 1)
        #expect(masked[.placeDetails] == 1)
        #expect(masked[.dataBasic] == 1)
        #expect(masked[.dataContact] == 1)
        #expect(masked[.dataAtmosphere] == 0)
        #expect(masked[.autocompleteRequest] == 0)
        let unmasked = try events(session(requests: 6, fields: nil), "legacy-list")
        #expect(unmasked[.dataBasic] == 1 && unmasked[.dataContact] == 1 && unmasked[.dataAtmosphere] == 1)
    }

    @Test("Legacy: an abandoned session is one per-session charge, or nothing when a delay drops all its calls")
    func legacyAbandoned() throws {
        let search = session(requests: 0, fields: nil, outcome: .abandoned, lengths: [1, 2])
        #expect(try events(search, "legacy-list")[.sessionWithoutDetails] == 1)
        #expect(try events(search, "legacy-list", delay: 2).isEmpty)
    }

    @Test("Delays drop calls of k or fewer characters; unrecorded inputs are kept; a completed search keeps one")
    func delays() {
        let lengths: [Int?] = [1, 2, nil, 4]
        let completed = session(requests: 0, fields: nil, lengths: lengths)
        #expect(completed.keptRequests(delay: 0) == 4)
        #expect(completed.keptRequests(delay: 2) == 2)
        #expect(completed.keptRequests(delay: 4) == 1)
        let short = session(requests: 0, fields: nil, lengths: [1, 2])
        #expect(short.keptRequests(delay: 3) == 1)
        let abandoned = session(requests: 0, fields: nil, outcome: .abandoned, lengths: [1, 2])
        #expect(abandoned.keptRequests(delay: 3) == 0)
    }

    @Test("Strategies: per-request + Geocoding, session with basic fields, spent-token runs billed per request")
    func strategies() throws {
        let search = session(requests: 5, fields: ["rating"])
        let perRequest = try events(search, "legacy-list", .perRequestGeocoding)
        #expect(perRequest[.autocompleteRequest] == 5 && perRequest[.geocoding] == 1 && perRequest[.placeDetails] == 0)
        let basic = try events(search, "legacy-list", .sessionDetailsBasic)
        #expect(basic[.dataAtmosphere] == 0 && basic[.dataBasic] == 1)
        let observed = try events(search, "legacy-list", .sessionDetails)
        #expect(observed[.dataAtmosphere] == 1)
        let spent = try events(session(requests: 3, fields: ["formatted_address"], kind: .spentToken), "legacy-list")
        #expect(spent[.autocompleteRequest] == 3 && spent[.placeDetails] == 1 && spent[.sessionWithDetails] == 0)
    }
}

@Suite("BillingRole")
struct BillingRoleTests {
    @Test("ordinal is the position in allCases")
    func ordinal() {
        #expect(BillingRole.allCases.map(\.ordinal) == Array(0..<BillingRole.allCases.count))
    }
}
