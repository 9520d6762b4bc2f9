import Foundation
import Testing
@testable import PlacesCostKit

@Suite("Advisor")
struct AdvisorTests {
    func analyze(_ records: [TestRecord], pricing: String? = "legacy-list", needsDetails: Bool? = nil, scale: Double = 1) throws -> Analysis {
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

    @Test("short typing, address only: the cheapest delay, with the saving without a delay beside it")
    func shortTyping() throws {
        let records = (0..<10).flatMap { search("t\($0)", "abc", at: Double($0) * 100) }
        let advice = try analyze(records).recommendation
        // The tree: 3 requests <= 4.24, per request without delay. Delay 2 keeps one request
        // (7.83 per 1,000 searches' worth: 2.83 + 5) and delay 3 keeps the same one: the tie
        // goes to the smaller delay.
        #expect(advice.tree.strategy == .perRequestGeocoding && advice.tree.delay == 0)
        #expect(advice.strategy == .perRequestGeocoding && advice.delay == 2)
        #expect(abs(advice.recommended.costUSD - 0.0783) < 1e-9)
        #expect(abs(advice.current.listCostUSD - 0.17) < 1e-9)
        let plain = try #require(advice.bestWithoutDelay)
        #expect(plain.strategy == .perRequestGeocoding && plain.delay == 0)
        #expect(abs(plain.listCostUSD - 0.1349) < 1e-9)
        #expect(abs(plain.savingsUSDPerMonth - 0.0351) < 1e-9)
        #expect(abs(plain.savingsPercent - 20.647058823529) < 1e-6)
        #expect(advice.differsFromTree?.contains("Waiting for the 3rd character rather than sending a request from the first character cuts autocomplete requests per search from 3 to 1") == true)
        #expect(advice.nextSteps.contains { $0.contains("more than 2 characters") || $0.contains("> 2`") })
    }

    @Test("seven characters: the tree stops at delay 3 (the seeds' example), the money goes on to delay 4")
    func longerDelay() throws {
        let records = (0..<10).flatMap { search("t\($0)", "1600 Am", at: Double($0) * 100) }
        let advice = try analyze(records).recommendation
        #expect(advice.tree.strategy == .perRequestGeocoding && advice.tree.delay == 3)
        #expect(advice.evidence.meanRequests[3] == 4)
        #expect(abs(advice.treeOption.costUSD - 0.1632) < 1e-9)
        #expect(advice.strategy == .perRequestGeocoding && advice.delay == 4)
        #expect(abs(advice.recommended.costUSD - 0.1349) < 1e-9)
        #expect(advice.latencyWarning)
        #expect(advice.differsFromTree?.contains("the tree stops at the first delay that reaches the break-even") == true)
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
        #expect(advice.tree.strategy == .sessionDetailsBasic)
        // Every delay bills the same: the smallest wins.
        #expect(advice.strategy == .perRequestGeocoding && advice.delay == 0)
        #expect(abs(advice.recommended.listCostUSD - 0.3047) < 1e-9 && abs(advice.treeOption.listCostUSD - 0.34) < 1e-9)
        #expect(advice.differsFromTree?.contains("50% of searches (10) end without a selection") == true)
        #expect(advice.bestWithoutDelay == nil)
    }

    @Test("free caps that make the tree's answer cost more than the calls as made: keep, and say when that changes")
    func freeCapsKeep() throws {
        // 4,000 searches a month (10 x --scale 400) of 4 unrecorded requests, address only, on
        // legacy-2025. List: per request 4 x 2.83 + 5 = 16.32 < 17 per session, so the tree says
        // per request. Bill: 16,000 requests less 10,000 free = $16.98, while the log's own
        // sessions (4,000 Places Details, under the 5,000 free) bill $0: keep them.
        var records: [TestRecord] = []
        for index in 0..<10 {
            records += (0..<4).map { ac(Double(index) * 100 + Double($0), "c\(index)") }
            records.append(details(Double(index) * 100 + 5, "c\(index)", fields: ["formatted_address", "geometry"]))
        }
        let advice = try analyze(records, pricing: "legacy-2025", scale: 400).recommendation
        #expect(advice.tree.strategy == .perRequestGeocoding && advice.tree.delay == 0)
        #expect(abs(advice.treeOption.costUSD - 16.98) < 1e-9)
        #expect(advice.keepsCurrent && advice.strategy == .current && advice.delay == 0)
        #expect(advice.recommended.savingsUSDPerMonth == 0)
        #expect(advice.differsFromTree?.contains("the monthly free caps per SKU") == true)
        // Sessions bill $0 like the calls as made: no saving, so the alternative is named.
        let alternative = try #require(advice.cheapestAlternative)
        #expect(alternative.valid && alternative.strategy != .current)
        #expect(advice.nextSteps.first?.hasPrefix("Keep the integration as it is") == true)
    }

    @Test("keeping while a fix bills less at list prices: the integration is kept, and the first step says the fixes count past the free caps")
    func keepWithFixes() throws {
        // `freeCapsKeep`'s log with one selection's field mask left out: that call bills every
        // field at list prices, but inside the free caps no option bills less.
        func log(maskless: Int?) -> [TestRecord] {
            var records: [TestRecord] = []
            for index in 0..<10 {
                records += (0..<4).map { ac(Double(index) * 100 + Double($0), "c\(index)") }
                records.append(details(Double(index) * 100 + 5, "c\(index)", fields: index == maskless ? nil : ["formatted_address", "geometry"]))
            }
            return records
        }
        let analysis = try analyze(log(maskless: 0), pricing: "legacy-2025", scale: 400)
        let advice = analysis.recommendation
        #expect(advice.keepsCurrent)
        #expect(advice.anomalies.filter(\.fixSavesMoney).map(\.cost.name) == ["fields_unspecified"])
        #expect(advice.nextSteps.first?.hasPrefix("Keep the integration as it is: ") == true)
        #expect(advice.nextSteps.first?.hasSuffix("The fixes below bill less at list prices (the anomaly table), which is what counts once past the free caps; at this volume they need not lower the bill.") == true)
        #expect(advice.nextSteps.dropFirst().first?.hasPrefix("Fix `fields_unspecified` (1 seen): ") == true)
        let headline = AdviceSentences.rows(advice, pricing: analysis.pricing).first { $0.0 == "Recommended" }?.1
        #expect(headline?.hasPrefix("**Keep the integration as it is** (`current`, delay 0): ") == true)
        // Without the mistake, there is no fix to list.
        let clean = try analyze(log(maskless: nil), pricing: "legacy-2025", scale: 400).recommendation
        #expect(clean.keepsCurrent && !clean.anomalies.contains(where: \.fixSavesMoney))
        #expect(clean.nextSteps.first == "Keep the integration as it is: at this volume no option that serves the app bills less than the calls as made.")
    }

    @Test("a recommendation dearer than the tree's answer at list prices says that the free caps and tiers change the order")
    func volumeChangesTheOrder() {
        // 100,000 searches a month of 10 requests, a tenth completed, address only, legacy-2025.
        // At first-tier list prices sessions cost 100,000 x $0.017 = $1,700 and per request from
        // the 5th character 6 x 100,000 x $0.00283 + 10,000 x $0.005 = $1,748; billed, per request
        // gets more of the free caps and the lower tiers.
        let run = runCLI(["simulate", "--pricing", "legacy-2025", "--searches", "100000", "--requests", "10",
                          "--completion-rate", "0.1", "--needs-details", "no", "--report", "md"])
        #expect(run.code == .success, "\(run.stderr)")
        #expect(run.stdout.contains(
            "`per_request_geocoding` with delay 4 bills $1,332.70 against $1,530.00 for `session_details_basic` (waiting for the 5th character cuts requests per search from 10 to 6), although at first-tier list prices `session_details_basic` costs $1,700.00 and `per_request_geocoding` with delay 4 $1,748.00: the monthly free caps per SKU and the volume tiers change the order at this volume."
        ), "\(run.stdout)")
    }

    @Test("simulate --delay K: the tree's answer keeps the app's delay and never bills more than the same strategy at it; the footnote tells `current` from `session_details`",
          arguments: [0, 1, 3, 5])
    func simulatedDelay(_ delay: Int) throws {
        for (typing, pricing) in [(["--chars", "8"], "places-new-2025"), (["--requests", "4"], "legacy-list"), (["--chars", "20"], "legacy-2025")] {
            let run = runCLI(["simulate", "--pricing", pricing, "--searches", "200000", "--delay", "\(delay)", "--completion-rate", "0.8", "--json"] + typing)
            #expect(run.code == .success, "\(run.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            let strategies = try #require(json["strategies"] as? [[String: Any]])
            let bill = { (id: String, delay: Int) in strategies.first { $0["id"] as? String == id && $0["delay"] as? Int == delay }?["cost_usd"] as? Double }
            let recommendation = try #require(json["recommendation"] as? [String: Any])
            let tree = try #require(recommendation["tree_answer"] as? [String: Any])
            let treeDelay = try #require(tree["delay"] as? Int)
            let treeStrategy = try #require(tree["strategy"] as? String)
            #expect(treeDelay >= delay, "\(typing) \(pricing): the tree dropped the app's delay")
            // The mean the tree cites is the app's: what it sends now.
            let path = try #require(recommendation["path"] as? [String])
            let requestsNow = try #require(strategies.first { $0["delay"] as? Int == delay }?["requests_per_search"] as? Double)
            #expect(path.count > 1 && path[1].contains(" \(Money.plain(requestsNow)) request"), "\(path)")
            // Priced where the tree answers, and never dearer than the same strategy at the app's delay.
            let answered = try #require(bill(treeStrategy, treeDelay))
            #expect(tree["cost_usd"] as? Double == answered)
            #expect(answered <= (try #require(bill(treeStrategy, delay))) + 1e-9)
        }
        let markdown = runCLI(["simulate", "--chars", "8", "--delay", "\(delay)", "--report", "md"]).stdout
        #expect(markdown.contains("so it equals `session_details`.") == (delay == 0))
        #expect(markdown.contains("it keeps the app's delay of \(delay), so its delays 0 to \(delay) all bill what the app bills now") == (delay > 0))
    }

    @Test("keeping names the volume at which the advice changes, and at that volume it does change")
    func adviceChangesAtTheVolumeItNames() throws {
        // Places API (New), 20 twelve-character address searches, inside the free caps: every
        // option bills $0, so keep; past the caps a delay makes per-request cheaper.
        let records = (0..<20).flatMap { search("n\($0)", "1600 Amphith", at: Double($0) * 100, fields: ["formattedAddress", "location"]) }
            .map { record -> TestRecord in var record = record; record.version = "new"; return record }
        let advice = try analyze(records, pricing: "places-new-2025").recommendation
        #expect(advice.evidence.breakEvenRequests == 12)
        #expect(advice.keepsCurrent && advice.allBillsZero)
        let cheapest = try #require(advice.cheapestAtListPrices)
        // 8 requests at delay 4 and one Essentials call, 20 searches: 20 x (8 x 2.83 + 5) / 1000.
        #expect(cheapest.delay == 4 && abs(cheapest.listCostUSD - 0.5528) < 1e-9)
        let change = try #require(advice.adviceChanges)
        #expect(change.growing && change.scale > 1)
        let at = try analyze(records, pricing: "places-new-2025", scale: change.scale).recommendation
        #expect(!at.keepsCurrent)
        #expect(at.recommended.costUSD < at.current.costUSD)
        #expect(at.strategy == change.strategy && at.delay == change.delay)
    }

    @Test("the --scale a report suggests runs as printed, and at it the advice changes as the report says")
    func suggestedScaleRuns() throws {
        // One search inside legacy-2025's free caps: the advice changes past a thousandfold volume,
        // whose --scale would print with a thousands separator.
        let directory = TemporaryDirectory()
        let path = directory.write("log.jsonl", [
            ac(0, "a").jsonLine, details(2, "a", fields: ["formatted_address"]).jsonLine,
        ].joined(separator: "\n"))
        let report = runCLI(["analyze", path, "--needs-details", "no", "--pricing", "legacy-2025"])
        #expect(report.code == .success, "\(report.stderr)")
        let suggested = try #require(report.stdout.firstMatch(of: /`--scale ([^`]+)`/)?.1, "\(report.stdout)")
        #expect(!suggested.contains(","))
        let strategy = try #require(report.stdout.firstMatch(of: /a month \(`--scale [^`]+`\), `([a-z_]+)` with delay (\d+) bills less/), "\(report.stdout)")
        let run = runCLI(["analyze", path, "--needs-details", "no", "--pricing", "legacy-2025", "--scale", String(suggested), "--json"])
        #expect(run.code == .success, "\(run.stderr)")
        #expect(run.stdout.contains("\"recommended_strategy\": \"\(strategy.1)\""), "\(run.stdout)")
        #expect(run.stdout.contains("\"recommended_delay\": \(strategy.2)"), "\(run.stdout)")
    }

    @Test("ranking: options that serve the app first, each part by the bill then list price; savings are per month")
    func ranking() throws {
        var records = search("t1", "abcdef", at: 0, fields: ["formatted_address", "rating"])
        records += search("t2", "abcdef", at: 40 * 86_400, fields: ["formatted_address", "rating"])  // the next month
        let advice = try analyze(records, pricing: "legacy-list").recommendation
        #expect(advice.months == 2)
        let validCount = advice.ranking.filter(\.valid).count
        #expect(validCount > 0 && validCount < advice.ranking.count)
        #expect(advice.ranking.prefix(validCount).allSatisfy { $0.valid })
        for part in [advice.ranking.prefix(validCount), advice.ranking.dropFirst(validCount)] {
            let keys = part.map { (Money.micros($0.costUSD), Money.micros($0.listCostUSD)) }
            let ordered = zip(keys, keys.dropFirst()).allSatisfy { pair in pair.0 <= pair.1 }
            #expect(ordered)
        }
        let recommended = advice.recommended
        #expect(abs(recommended.savingsUSDPerMonth - (advice.current.costUSD - recommended.costUSD) / 2) < 1e-12)
    }

    @Test("next steps name the platform's own API, and the delay in each platform's terms")
    func nextSteps() {
        let ios = PlatformUse(platform: .ios, generation: .legacy, calls: 1)
        let new = PlatformUse(platform: .webService, generation: .new, calls: 1)
        let sessions = PlatformGuide.nextSteps(strategy: .sessionDetailsBasic, delay: 0, platforms: [ios, new])
        #expect(sessions[0].contains("GMSAutocompleteSessionToken") && sessions[0].contains("[.formattedAddress, .coordinate]"))
        #expect(sessions[1].contains("X-Goog-FieldMask: formattedAddress,location"))
        #expect(!sessions.contains { $0.contains("unicodeScalars") })
        let perRequest = PlatformGuide.nextSteps(strategy: .perRequestGeocoding, delay: 3, platforms: [PlatformUse(platform: .webService, generation: .legacy, calls: 1)])
        #expect(perRequest[0].contains("calls without `sessiontoken`") && perRequest[0].contains("geocode/json?place_id="))
        #expect(perRequest[1].contains("3 or fewer characters"))
        let delayed = PlatformGuide.nextSteps(
            strategy: .sessionDetails, delay: 4,
            platforms: [ios, PlatformUse(platform: .android, generation: .new, calls: 1), PlatformUse(platform: .javascript, generation: .legacy, calls: 1)]
        )
        #expect(delayed.contains { $0.hasPrefix("iOS:") && $0.contains("query.unicodeScalars.count > 4") && $0.contains("5th character") })
        #expect(delayed.contains { $0.hasPrefix("Android:") && $0.contains("codePointCount(0, query.length) > 4") })
        #expect(delayed.contains { $0.hasPrefix("Web (Maps JavaScript API):") && $0.contains("[...input.value].length > 4") })
        #expect(ClientPlatform(logValue: "iOS") == .ios && ClientPlatform(logValue: nil) == .webService && ClientPlatform(logValue: "web") == .javascript)
    }

    @Test("a web page on both Places libraries gets a step for each, and no step twice", arguments: StrategyID.allCases)
    func bothJavaScriptLibraries(strategy: StrategyID) {
        let web = [APIGeneration.legacy, .new].map { PlatformUse(platform: .javascript, generation: $0, calls: 1) }
        let steps = PlatformGuide.nextSteps(strategy: strategy, delay: 3, platforms: web + [PlatformUse(platform: .ios, generation: .legacy, calls: 1)])
        #expect(Set(steps).count == steps.count, "\(steps)")
        // The delay is one step per platform; the change to the calls one per library.
        #expect(steps.filter { $0.contains("[...input.value].length > 3") }.count == 1)
        switch strategy {
        case .current:
            #expect(!steps.contains { $0.contains("AutocompleteSessionToken") || $0.contains("Geocoder") })
        case .sessionDetails, .sessionDetailsBasic:
            #expect(steps.contains { $0.contains("`getPlacePredictions`") && $0.contains("`PlacesService.getDetails`") })
            #expect(steps.contains { $0.contains("`AutocompleteSuggestion.fetchAutocompleteSuggestions`") && $0.contains("place.fetchFields") })
        case .perRequestGeocoding:
            #expect(steps.contains { $0.contains("send `getPlacePredictions` requests without `sessionToken`") })
            #expect(steps.contains { $0.contains("send `AutocompleteSuggestion.fetchAutocompleteSuggestions` requests without `sessionToken`") && $0.contains("placePrediction.placeId") })
        }
    }

    @Test("why the calls as made with a delay beat the tree's answer: the delay is a reason only where the tree's answer waits less")
    func currentWithDelayReason() throws {
        var records: [TestRecord] = []
        for index in 0..<6 { records += search("s\(index)", "Main Street", at: Double(index) * 300) }
        let analysis = try analyze(records, pricing: "legacy-list")
        let advice = analysis.recommendation
        func option(_ strategy: StrategyID, _ delay: Int, cost: Double, list: Double) -> Recommendation.Option {
            Recommendation.Option(strategy: strategy, delay: delay, costUSD: cost, listCostUSD: list, valid: true,
                                  savingsUSDPerMonth: 0, savingsPercent: 0, listSavingsUSD: 0, listSavingsPercent: 0)
        }
        let winner = option(.current, 3, cost: 1, list: 1)
        let sooner = Advisor().reason(winner: winner, loser: option(.perRequestGeocoding, 0, cost: 2, list: 2), tree: advice.tree, evidence: advice.evidence, pricing: analysis.pricing, months: 1)
        #expect(sooner.hasPrefix("Keeping the calls as made and waiting for the 4th character bills $1.00 against $2.00 for the tree's answer, `per_request_geocoding`"))
        #expect(sooner.contains("the delay cuts autocomplete requests per search from "))
        let same = Advisor().reason(winner: winner, loser: option(.perRequestGeocoding, 3, cost: 2, list: 2), tree: advice.tree, evidence: advice.evidence, pricing: analysis.pricing, months: 1)
        #expect(!same.contains("the delay cuts"), "\(same)")
        #expect(same.hasSuffix("less at list prices too ($1.00 against $2.00): runs without a token or on a spent token that end without a selection are billed only their requests."))
    }

    @Test("the headline's caution on unseen tokens starts at 5% of the calls")
    func unseenTokensCaution() {
        func input(records: Int, unknown: Int) -> Analysis.Input {
            var input = Analysis.Input(files: [], records: records, rejected: 0, outsideWindow: 0, byAPI: [], usedSampleLogs: false, platforms: [])
            input.bodiesUnknown = unknown
            return input
        }
        #expect(AdviceSentences.unseenTokens(input(records: 100, unknown: 4)) == nil)
        #expect(AdviceSentences.unseenTokens(input(records: 100, unknown: 0)) == nil)
        #expect(AdviceSentences.unseenTokens(input(records: 0, unknown: 0)) == nil)
        #expect(AdviceSentences.unseenTokens(input(records: 100, unknown: 5))?.hasPrefix("**5 of 100 calls (5%) are Places API (New) calls whose body this log does not show**") == true)
    }

    @Test("every anomaly has a fix")
    func fixes() {
        for name in Anomalies().named.map(\.name) + ["fields_wildcard"] {
            #expect(!PlatformGuide.fix(for: name).isEmpty, "\(name)")
        }
    }

    @Test("details calls with the `*` mask are priced as `fields_wildcard`, as calls without a mask are as `fields_unspecified`", arguments: ["legacy", "new"])
    func wildcardMask(version: String) throws {
        // `*` in every place a details call can stand: a selection, a second details call on
        // the spent token, a details call on a fresh token, one without a token; the same log
        // with no mask there instead is the oracle.
        func log(_ every: [String]?) -> [TestRecord] {
            let records = search("a", "10 Downing", at: 0, fields: every) + search("b", "Pier 39", at: 400, fields: ["formatted_address"])
                + search("c", "Ferry Bldg", at: 800, fields: ["name", "rating"])
                + [details(30, "a", fields: every), details(1200, "fresh", fields: every), details(1300, nil, fields: every)]
            return records.map { record in var record = record; record.version = version; return record }
        }
        let pricing = version == "new" ? "places-new-2025" : "legacy-list"
        let wildcard = try analyze(log(["*"]), pricing: pricing, scale: 1000)
        let unmasked = try analyze(log(nil), pricing: pricing, scale: 1000)
        func cost(_ analysis: Analysis, _ name: String) -> AnomalyCost? {
            analysis.recommendation.anomalies.first { $0.cost.name == name }?.cost
        }
        let starred = try #require(cost(wildcard, "fields_wildcard"))
        let bare = try #require(cost(unmasked, "fields_unspecified"))
        #expect(starred.count == 4 && bare.count == 4)
        #expect(abs(starred.billedListUSD - bare.billedListUSD) < 1e-9 && starred.billedListUSD > 0)
        #expect(starred.alternativeListUSD.map { abs($0 - bare.alternativeListUSD!) < 1e-9 } == true)
        #expect(starred.alternativeCostsMoreBecause == bare.alternativeCostsMoreBecause)
        // `*` is a mask: no `fields_unspecified` call, no `anomalies` count, the same bill.
        #expect(wildcard.sessions.anomalies.fieldsUnspecified == 0 && cost(wildcard, "fields_unspecified")?.count == 0)
        #expect(!wildcard.sessions.anomalies.named.contains { $0.name == "fields_wildcard" })
        #expect(cost(unmasked, "fields_wildcard") == nil)
        #expect(wildcard.recommendation.current.costUSD == unmasked.recommendation.current.costUSD)
        #expect(wildcard.recommendation.anomalies.map(\.cost.name) == Anomalies().named.map(\.name) + ["fields_wildcard"])
        let markdown = MarkdownReportRenderer().render(wildcard)
        #expect(markdown.contains("| `fields_wildcard` | 4 | 4,000 | \(Money.usd(starred.billedListUSD)) |"))
        _ = try JSONSchemaTests.expectValid(JSONReportRenderer().render(wildcard), against: "report.schema.json")
        // Both selections of `a` and of `c` carried masks; `a`'s is `*`, which the tree names.
        #expect(wildcard.detailsNeed.selectionsWithMask == 3 && wildcard.detailsNeed.selectionsWithWildcard == 1)
        #expect(unmasked.detailsNeed.selectionsWithMask == 2 && unmasked.detailsNeed.selectionsWithWildcard == 0)
        #expect(wildcard.recommendation.tree.path[0].hasSuffix("Yes: 2 of 3 selections with a field mask (66.67%) ask for other fields; 1 of them with `*`, which asks for every field and tells nothing of the fields the app reads."))
        #expect(markdown.contains("; 1 of them with `*`, which asks for every field"))
        #expect(!MarkdownReportRenderer().render(unmasked).contains("with `*`"))
        // Where `*` is the only mask that asks for more, the answer is an assumption, as with no mask.
        let onlyStar = try analyze(log(["*"]).filter { $0.token != "c" }, pricing: pricing, scale: 1000)
        #expect(onlyStar.detailsNeed.needsDetails && onlyStar.detailsNeed.selectionsNeedingDetails == onlyStar.detailsNeed.selectionsWithWildcard)
        #expect(onlyStar.recommendation.tree.path[0].hasSuffix("Yes, assumed: 1 of 2 selections with a field mask (50%) asks for every field with `*`, which tells nothing of the fields the app reads; the others ask only for address and location (pass `--needs-details no` if it uses only the address and location)."))
        #expect(MarkdownReportRenderer().render(onlyStar).contains("**Yes** is assumed: 1 of 2 selections with a field mask (50%) asks for every field with `*`"))
    }

    @Test("the summary's details calls without a mask are the walk's `fields_unspecified` calls")
    func maskCostCountsEveryDetailsCall() throws {
        // Generated traffic: details calls in searches, on spent tokens, on fresh tokens and
        // without tokens, some without a mask.
        let directory = TemporaryDirectory()
        let log = directory.path + "/log.jsonl"
        #expect(runCLI(["generate", "--searches", "3000", "--seed", "11", "--format", "jsonl", "--out", log]).code == .success)
        let analysis = try Analyzer(options: Analyzer.Options()).analyze(paths: [log]).0
        let pricer = AnomalyPricer(calculator: CostCalculator(plan: try PricingPlan.load(nil)))
        let unmasked = pricer.maskCost(analysis.sessions, name: "fields_unspecified") { $0 == nil }
        #expect(analysis.sessions.anomalies.fieldsUnspecified > 0)
        #expect(unmasked.count == analysis.sessions.anomalies.fieldsUnspecified)
    }

    @Test("a field mask that bills more than none says why in its row")
    func maskThatCostsMore() throws {
        // Places API (New): ten requests, then details with no mask. Without a mask the session
        // ends at Enterprise + Atmosphere ($25) and its requests are free; an address mask ends it
        // with Essentials ($5) and bills the 10 requests (10 x 2.83): $33.30 per 1,000.
        let records = search("m", "1600 Amphi", at: 0, fields: nil).map { record -> TestRecord in var record = record; record.version = "new"; return record }
        let analysis = try analyze(records, pricing: "places-new-2025", scale: 1000)
        let fields = try #require(analysis.recommendation.anomalies.first { $0.cost.name == "fields_unspecified" })
        #expect(abs(fields.cost.billedListUSD - 25) < 1e-9 && abs((fields.cost.alternativeListUSD ?? 0) - 33.3) < 1e-9)
        #expect(fields.cost.alternativeCostsMoreBecause?.contains("Essentials") == true)
        #expect(!fields.fixSavesMoney)
        let markdown = MarkdownReportRenderer().render(analysis)
        #expect(markdown.contains("**costs more:** With an address-and-location mask"))
        // A difference under a cent, which the table's cents hide, is explained too: at --scale
        // 0.02 the mistake bills $0.0005 and the mask $0.000666, both $0.00 in the table.
        let small = try analyze(records, pricing: "places-new-2025", scale: 0.02)
        let smallFields = try #require(small.recommendation.anomalies.first { $0.cost.name == "fields_unspecified" })
        #expect(Money.usd(smallFields.cost.billedListUSD) == Money.usd(smallFields.cost.alternativeListUSD ?? 0))
        #expect((smallFields.cost.excessListUSD ?? 0) < 0)
        #expect(smallFields.cost.alternativeCostsMoreBecause?.contains("Essentials") == true)
    }

    @Test("one-request sessions are priced per request with Geocoding as their right way only for an app that needs no Place Details")
    func oneRequestRightWay() throws {
        // A token per keystroke: three one-request sessions, the last ending in a details call.
        let records = [ac(0, "k1", "a"), ac(1, "k2", "ab"), ac(2, "k3", "abc"), details(3, "k3", fields: ["formatted_address"])]
        for needs in [false, true] {
            let analysis = try analyze(records, needsDetails: needs)
            let single = try #require(analysis.recommendation.anomalies.first { $0.cost.name == "one_request_sessions" })
            #expect(single.cost.count == 3)
            // Without details: 3 requests and one Geocoding call, 3 x $0.00283 + $0.005.
            #expect(single.cost.alternativeListUSD.map { abs($0 - 0.01349) < 1e-9 } ?? needs, "needs details: \(needs)")
            #expect((single.cost.alternative == nil) == needs)
        }
    }
}
