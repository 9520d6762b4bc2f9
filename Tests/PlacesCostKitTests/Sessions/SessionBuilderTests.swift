import Testing
@testable import PlacesCostKit
@testable import PlacesCostReference

/// Each rule of `docs/sessions.md`, with a hand-made log and its answer worked out by hand.
@Suite("Session rules")
struct SessionBuilderTests {
    @Test("A session: autocomplete calls then a details call with the same token")
    func completedSession() throws {
        let result = try analyze([ac(0, "t", "1"), ac(1, "t", "16"), ac(2, "t", "160"), details(4, "t")])
        #expect(result.statistics.total == 1)
        #expect(result.statistics.completed == 1)
        #expect(result.statistics.meanRequests == 3)
        #expect(result.sessions.keptSearches[0].charactersAtSelection == 3)
        #expect(result.sessions.anomalies == Anomalies())
    }

    @Test("Rule 5: a session with no details call is abandoned")
    func abandonedSession() throws {
        let result = try analyze([ac(0, "t", "a"), ac(1, "t", "ab")])
        #expect(result.statistics.abandoned == 1)
        #expect(result.statistics.completed == 0)
        #expect(result.sessions.anomalies.expired == 0)
    }

    @Test("Rule 2: a call more than the timeout after the session's start expires it; later calls are expired-token calls")
    func expiry() throws {
        let result = try analyze([ac(0, "t"), ac(100, "t"), ac(181, "t"), details(185, "t")])
        let anomalies = result.sessions.anomalies
        #expect(anomalies.expired == 1)
        #expect(anomalies.tokenReused == 2)  // the call that revealed the expiry, and the details call
        #expect(result.statistics.total == 2)
        #expect(result.statistics.abandoned == 1)  // the expired session
        #expect(result.statistics.completed == 1)  // the expired-token run, billed without a token
        #expect(result.sessions.keptSearches.map(\.kind) == [.session, .spentToken])
        #expect(result.sessions.keptSearches.map(\.outcome) == [.expired, .completed])
        #expect(result.statistics.meanRequests == 1.5)
    }

    @Test("Exactly the timeout after the start is still within the session")
    func timeoutBoundary() throws {
        let result = try analyze([ac(0, "t"), details(180, "t")])
        #expect(result.statistics.completed == 1)
        #expect(result.sessions.anomalies.expired == 0)
    }

    @Test("Rule 3: a details call past the timeout expires the session and is a plain details call")
    func detailsPastTimeout() throws {
        let result = try analyze([ac(0, "t"), details(200, "t")])
        #expect(result.sessions.anomalies.expired == 1)
        #expect(result.sessions.anomalies.tokenReused == 1)
        #expect(result.sessions.anomalies.oneRequestSessions == 1)
        #expect(result.statistics.total == 1)
        #expect(result.statistics.abandoned == 1)
        #expect(result.sessions.expandedBaseCalls.map(\.api) == [.placeDetails])
    }

    @Test("A custom timeout applies")
    func customTimeout() throws {
        let result = try analyze([ac(0, "t"), ac(61, "t"), details(62, "t")], timeout: 60)
        #expect(result.sessions.anomalies.expired == 1)
        #expect(result.statistics.total == 2)
    }

    @Test("Rule 1: a token reused after completion forms a search billed as without a token")
    func reusedAfterCompletion() throws {
        let result = try analyze([ac(0, "t"), details(2, "t"), ac(10, "t"), ac(11, "t"), details(12, "t")])
        #expect(result.sessions.anomalies.tokenReused == 3)
        #expect(result.statistics.total == 2)
        #expect(result.statistics.completed == 2)
        #expect(result.sessions.keptSearches.map(\.kind) == [.session, .spentToken])
        #expect(result.sessions.anomalies.oneRequestSessions == 1)  // the session; spent-token runs never count
    }

    @Test("Autocomplete after the details call: an abandoned spent-token search")
    func autocompleteAfterDetails() throws {
        let result = try analyze([ac(0, "t"), ac(1, "t"), details(2, "t"), ac(3, "t")])
        #expect(result.sessions.anomalies.tokenReused == 1)
        #expect(result.statistics.total == 2)
        #expect(result.statistics.completed == 1)
        #expect(result.statistics.abandoned == 1)
    }

    @Test("Rule 4: a details call on a fresh token is an anomaly and spends the token")
    func detailsOnFreshToken() throws {
        let result = try analyze([details(0, "t"), ac(1, "t"), details(2, "t")])
        #expect(result.sessions.anomalies.detailsWithoutAutocomplete == 1)
        #expect(result.sessions.anomalies.tokenReused == 2)
        #expect(result.statistics.total == 1)
        #expect(result.sessions.keptSearches[0].kind == .spentToken)
        #expect(result.sessions.expandedBaseCalls.count == 1)
    }

    @Test("A second details call on a spent token is a standalone details call, not a search")
    func secondDetails() throws {
        let result = try analyze([ac(0, "t"), details(1, "t"), details(2, "t")])
        #expect(result.sessions.anomalies.tokenReused == 1)
        #expect(result.statistics.total == 1)
        #expect(result.sessions.expandedBaseCalls.count == 1)
    }

    @Test("Input out of time order is sorted per token")
    func disorder() throws {
        let ordered = try analyze([ac(0, "a"), ac(1, "b"), ac(2, "a"), details(3, "a"), details(4, "b")])
        let shuffled = try analyze([details(4, "b"), details(3, "a"), ac(2, "a"), ac(1, "b"), ac(0, "a")])
        #expect(JSONReportRenderer().document(ordered).removingFiles() == JSONReportRenderer().document(shuffled).removingFiles())
        #expect(shuffled.statistics.completed == 2)
        #expect(shuffled.statistics.meanRequests == 1.5)
    }

    @Test("Equal times keep input order")
    func ties() throws {
        let acFirst = try analyze([ac(0, "t"), details(0, "t")])
        #expect(acFirst.statistics.completed == 1)
        let detailsFirst = try analyze([details(0, "t"), ac(0, "t")])
        #expect(detailsFirst.sessions.anomalies.detailsWithoutAutocomplete == 1)
        #expect(detailsFirst.sessions.anomalies.tokenReused == 1)
    }

    @Test("The same token in two projects is two sessions")
    func projects() throws {
        let result = try analyze([ac(0, "t", project: "p1"), ac(1, "t", project: "p2"), details(2, "t", project: "p1"), details(3, "t", project: "p2")])
        #expect(result.statistics.completed == 2)
        #expect(result.sessions.anomalies.tokenReused == 0)
    }

    @Test("Token-less autocomplete calls without a user id form no search")
    func noTokenNoUser() throws {
        let result = try analyze([ac(0, nil), ac(1, nil), geocode(2)])
        #expect(result.sessions.anomalies.noTokenRequests == 2)
        #expect(result.statistics.total == 0)
        #expect(result.sessions.expandedBaseCalls.count == 3)
    }

    @Test("Token-less calls of one user within the gap form inferred searches")
    func inferredSearches() throws {
        let result = try analyze([
            ac(0, nil, "a", user: "u"), ac(30, nil, "ab", user: "u"), ac(90, nil, "abc", user: "u"),  // 60 s gap: joins
            geocode(100, user: "u"),  // completes it
            ac(200, nil, user: "u"), ac(261, nil, user: "u"),  // 61 s gap: a new search
            geocode(400, user: "u"),  // too late: a base call
            ac(0, nil, user: "v"),  // another user
        ])
        #expect(result.statistics.total == 4)
        #expect(result.statistics.completed == 1)
        #expect(result.statistics.abandoned == 3)
        #expect(result.sessions.keptSearches.map(\.requests) == [3, 1, 1, 1])
        #expect(result.sessions.keptSearches.allSatisfy { $0.kind == .inferred })
        #expect(result.sessions.anomalies.noTokenRequests == 6)
        #expect(result.sessions.anomalies.oneRequestSessions == 0)
        #expect(result.sessions.expandedBaseCalls.count == 1)
    }

    @Test("A details call ends an inferred search too")
    func inferredWithDetails() throws {
        let result = try analyze([ac(0, nil, user: "u"), details(10, nil, fields: ["name"], user: "u")])
        #expect(result.statistics.completed == 1)
        #expect(result.detailsNeed.needsDetails)
    }

    @Test("A geocoding call with a token changes no session state")
    func geocodingWithToken() throws {
        let result = try analyze([ac(0, "t"), geocode(1, "t"), details(2, "t"), geocode(3, "t")])
        #expect(result.statistics.completed == 1)
        #expect(result.sessions.anomalies.tokenReused == 0)
        #expect(result.sessions.expandedBaseCalls.map(\.api) == [.geocoding, .geocoding])
    }

    @Test("Details calls without a field mask are counted wherever they are")
    func fieldsUnspecified() throws {
        let result = try analyze([ac(0, "t"), details(1, "t", fields: nil), details(5, nil, fields: nil), details(6, "x", fields: [])])
        #expect(result.sessions.anomalies.fieldsUnspecified == 3)
    }

    @Test("One-request sessions count completed, abandoned and expired sessions")
    func oneRequestSessions() throws {
        let result = try analyze([
            ac(0, "a"), details(1, "a"),  // completed, 1 request
            ac(0, "b"),  // abandoned, 1 request
            ac(0, "c"), ac(200, "c"),  // expired with 1 request; the spent run does not count
            ac(0, "d"), ac(1, "d"),  // 2 requests
        ])
        #expect(result.sessions.anomalies.oneRequestSessions == 3)
    }

    @Test("An unknown api is counted under its own name and takes no part in sessions")
    func unknownAPI() throws {
        let result = try analyze([TestRecord(at: 0, api: "nearby_search", token: "t"), ac(1, "t"), details(2, "t")])
        #expect(result.input.byAPI.map(\.api) == ["autocomplete", "nearby_search", "place_details"])
        #expect(result.statistics.completed == 1)
        #expect(result.sessions.anomalies.tokenReused == 0)
    }

    @Test("query_autocomplete takes no part in sessions and is not a token-less autocomplete call")
    func queryAutocomplete() throws {
        let result = try analyze([TestRecord(at: 0, api: "query_autocomplete"), TestRecord(at: 1, api: "query_autocomplete", token: "t")])
        #expect(result.statistics.total == 0)
        #expect(result.sessions.anomalies == Anomalies())
    }

    @Test("An address validation call ends an open session")
    func addressValidation() throws {
        let result = try analyze([ac(0, "t"), TestRecord(at: 1, api: "address_validation", token: "t")])
        #expect(result.statistics.completed == 1)
        #expect(result.sessions.anomalies.fieldsUnspecified == 0)
    }

    @Test("Needs details: measured from masked selections, assumed when none has a mask")
    func needsDetails() throws {
        let addressOnly = try analyze([ac(0, "a"), details(1, "a", fields: ["place_id", "geometry/location", "formatted_address"])])
        #expect(addressOnly.detailsNeed.needsDetails == false)
        #expect(addressOnly.detailsNeed.source == .measured)
        let mixed = try analyze([ac(0, "a"), details(1, "a", fields: ["formattedAddress"]), ac(0, "b"), details(1, "b", fields: ["displayName"]), ac(0, "c"), details(1, "c", fields: nil)])
        #expect(mixed.detailsNeed.needsDetails)
        #expect(mixed.detailsNeed.selectionsWithMask == 2)
        #expect(mixed.detailsNeed.share == 0.5)
        let unmasked = try analyze([ac(0, "a"), details(1, "a", fields: nil)])
        #expect(unmasked.detailsNeed.needsDetails)
        #expect(unmasked.detailsNeed.source == .assumed)
    }

    @Test("The same calls as JSON Lines and as CSV give identical results")
    func jsonlAndCSVAgree() throws {
        let records = [
            ac(0, "t", "Café de Flore"), ac(1, "t", "東京タワー, \"quoted\""), details(2, "t", fields: ["name", "formattedAddress"]),
            ac(3, nil, "x", user: "u"), geocode(5, user: "u"), ac(10, "s"), ac(400, "s"), details(401, "r", fields: nil),
            TestRecord(at: 7, api: "fetchPlace", token: "q", fields: ["coordinate"]),
        ]
        let jsonl = try analyze(records)
        let csv = try analyze(records, asCSV: true)
        var jsonlReport = JSONReportRenderer().document(jsonl)
        var csvReport = JSONReportRenderer().document(csv)
        // The file names differ by extension; everything else must match.
        jsonlReport = jsonlReport.removingFiles()
        csvReport = csvReport.removingFiles()
        #expect(jsonlReport.rendered() == csvReport.rendered())
        // Lengths are Unicode scalars: "Café de Flore" is 13, "東京タワー, \"quoted\"" is 15.
        #expect(csv.sessions.keptSearches.first?.requestInputLengths == [13, 15])
        #expect(csv.statistics.total == 4)
    }
}

extension JSONValue {
    func removingFiles() -> JSONValue {
        guard case .object(let members) = self else { return self }
        return .object(members.map { key, value in
            guard key == "input", case .object(let inner) = value else { return (key, value) }
            return (key, .object(inner.filter { $0.0 != "files" }))
        })
    }
}
