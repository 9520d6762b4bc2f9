import Foundation
import Testing
@testable import PlacesCostKit

/// `simulate`'s scenario: `--requests R --delay K` is the traffic of `--chars R+K --delay K`
/// (`docs/cli.md`, `simulate`): R requests are sent after the delay, so each search typed the K
/// characters the delay holds back, which every shorter delay sends.
@Suite("SearchSimulator")
struct SearchSimulatorTests {
    func simulator(_ typing: SearchSimulator.Typing, delay: Int, completion: Double = 1) -> SearchSimulator {
        SearchSimulator(searchesPerMonth: 1000, typing: typing, currentDelay: delay, completionRate: completion, fields: FieldCatalog.basicMask)
    }

    @Test("--requests R --delay K sends R requests at delay K and K more at delay 0, as --chars R+K does")
    func requestsCountTheDelayedCharacters() {
        let requests = simulator(.requests(4), delay: 2)
        let characters = simulator(.characters(6), delay: 2)
        for delay in 0...8 {
            #expect(requests.meanRequests(delay: delay) == characters.meanRequests(delay: delay), "delay \(delay)")
        }
        #expect(requests.meanRequests(delay: 2) == 4, "R is what the app sends now, with its delay")
        #expect(requests.meanRequests(delay: 0) == 6)
    }

    @Test("A fractional mean keeps its fraction at every delay it does not cut into; no delay keeps R")
    func fractionalMean() {
        let delayed = simulator(.requests(3.5), delay: 2, completion: 0.8)
        #expect(delayed.meanRequests(delay: 2) == 3.5)
        #expect(delayed.meanRequests(delay: 1) == 4.5)
        #expect(delayed.meanRequests(delay: 0) == 5.5)
        #expect(delayed.meanRequests(delay: 3) == 2.5)
        let undelayed = simulator(.requests(3.5), delay: 0, completion: 0.8)
        #expect(undelayed.meanRequests(delay: 0) == 3.5)
        #expect(undelayed.meanRequests(delay: 1) == 2.5)
    }

    /// Every line of `simulate`'s output but the one that restates the options.
    func report(_ arguments: [String]) -> [Substring] {
        let result = runCLI(["simulate", "--report", "md"] + arguments)
        #expect(result.code == .success, "\(result.stderr)")
        return result.stdout.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("Assumed: ") }
    }

    static let scenarios: [[String]] = [
        ["--pricing", "legacy-list"],
        ["--pricing", "legacy-2018", "--searches", "40000", "--completion-rate", "0.7"],
        ["--pricing", "places-new-2025", "--searches", "250000", "--months", "2", "--needs-details", "yes"],
        ["--pricing", "legacy-2025", "--searches", "60000", "--completion-rate", "0.5", "--max-delay", "6"],
    ]

    @Test("simulate --requests 4 --delay 2 prices, advises and explains as --chars 6 --delay 2", arguments: scenarios)
    func sameReportAsCharacters(_ scenario: [String]) throws {
        let requests = report(scenario + ["--requests", "4", "--delay", "2"])
        let characters = report(scenario + ["--chars", "6", "--delay", "2"])
        #expect(requests == characters)
    }

    @Test("simulate --json --requests 4 --delay 2: 6 requests a search at delay 0, priced as 6")
    func jsonAtNoDelay() throws {
        let json = runCLI(["simulate", "--json", "--pricing", "legacy-list", "--requests", "4", "--delay", "2"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let strategies = try #require(document["strategies"] as? [[String: Any]])
        let noDelay = try #require(strategies.first { $0["id"] as? String == "per_request_geocoding" && $0["delay"] as? Int == 0 })
        #expect(noDelay["requests_per_search"] as? Double == 6)
        #expect(noDelay["list_cost_per_search_usd"] as? Double == 0.02198, "6 requests x $0.00283 + $0.005")
    }

    @Test("Without --delay, --requests R is R requests from the first character, as before")
    func requestsWithoutDelay() throws {
        let requests = report(["--pricing", "legacy-list", "--requests", "4"])
        let characters = report(["--pricing", "legacy-list", "--chars", "4"])
        #expect(requests == characters)
        #expect(requests.contains("| requests per search | 4 | 3 | 2 | 1 | 1 | 1 | 1 |"))
    }

    @Test("With --delay K the bill now is the calls as made at delay K: current below K bills as at K, and the saving is against it")
    func nowIsTheAppsDelay() throws {
        let json = runCLI(["simulate", "--json", "--pricing", "places-new-2025", "--chars", "6", "--delay", "2", "--searches", "250000", "--completion-rate", "0.6"])
        #expect(json.code == .success, "\(json.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let strategies = try #require(document["strategies"] as? [[String: Any]])
        func cost(_ id: String, _ delay: Int) -> Double? {
            strategies.first { $0["id"] as? String == id && $0["delay"] as? Int == delay }?["cost_usd"] as? Double
        }
        // The app cannot send the calls its delay holds back: current at delays 0 and 1 is the app now.
        let now = try #require(cost("current", 2))
        #expect(cost("current", 0) == now && cost("current", 1) == now)
        #expect(now == 2_662.7)
        // Dropping the delay is an option, and costs more than now.
        #expect(try #require(cost("session_details", 0)) > now)
        let recommendation = try #require(document["recommendation"] as? [String: Any])
        let recommended = try #require(cost(recommendation["strategy"] as? String ?? "", recommendation["delay"] as? Int ?? -1))
        #expect(abs((recommendation["savings_usd"] as? Double ?? 0) - (now - recommended)) < 1e-6)
        #expect(recommendation["savings_usd"] as? Double == 850)
    }
}
