import Foundation
import Testing
@testable import PlacesCostKit

@Suite("Decision tree")
struct DecisionTreeTests {
    /// Evidence with address-only selections (unless `needs`), legacy list break-even 4.240283.
    func evidence(_ means: [Double], needs: DetailsNeed? = nil, breakEven: Double = 12.0 / 2.83, maxDelay: Int = 4) -> Recommendation.Evidence {
        Recommendation.Evidence(
            needsDetails: needs ?? DetailsNeed(searches: [], override: false),
            meanRequests: Dictionary(uniqueKeysWithValues: means.enumerated().map { ($0, $1) }),
            breakEvenRequests: breakEven, tableID: "legacy-list", maxDelay: maxDelay,
            searches: 100, completed: 90, abandoned: 10
        )
    }

    @Test("needs details: sessions with Place Details, whatever the means")
    func needsDetails() {
        let answer = DecisionTree.walk(evidence([1, 1, 1, 1, 1], needs: DetailsNeed(searches: [], override: true)))
        #expect(answer.strategy == .sessionDetails && answer.delay == 0)
        #expect(answer.path.count == 2)
        #expect(answer.path[0].contains("as set with `--needs-details`"))
    }

    @Test("no selection with a mask: details assumed, and the step says so")
    func assumed() {
        let answer = DecisionTree.walk(evidence([1, 1, 1, 1, 1], needs: DetailsNeed(searches: [])))
        #expect(answer.strategy == .sessionDetails)
        #expect(answer.path[0].contains("assumed"))
    }

    @Test("a mean at or under the break-even: per request without delay, citing the mean")
    func shortTyping() {
        let answer = DecisionTree.walk(evidence([3.5, 3, 2, 1, 1]))
        #expect(answer.strategy == .perRequestGeocoding && answer.delay == 0)
        #expect(answer.path[1].contains("3.5 requests per search"))
        #expect(answer.path[1].contains("4.24"))
    }

    @Test("a mean exactly at the break-even takes the per-request branch")
    func boundary() {
        let answer = DecisionTree.walk(evidence([12, 11, 10, 9, 8], breakEven: 12))
        #expect(answer.strategy == .perRequestGeocoding && answer.delay == 0)
    }

    @Test("the smallest delay whose mean reaches the break-even wins, with a latency warning")
    func delayWins() {
        let answer = DecisionTree.walk(evidence([7, 6, 5, 4.2, 3.1]))
        #expect(answer.strategy == .perRequestGeocoding && answer.delay == 3)
        #expect(answer.path[2].contains("delay 1: 6; delay 2: 5; delay 3: 4.2 <= 4.24"))
        #expect(answer.path[3].contains("latency"))
        #expect(answer.path[3].contains("4th character"))
    }

    @Test("a mean just over the break-even prints with enough decimals to differ from it")
    func closeMeans() {
        let answer = DecisionTree.walk(evidence([4.2404, 4.2404, 4.2404, 4.2404, 4.2404]))
        #expect(answer.strategy == .sessionDetailsBasic)
        #expect(answer.path[1].contains("4.2404 requests"))
    }

    @Test("no delay up to --max-delay is enough: sessions cut to address and location")
    func longTyping() {
        let answer = DecisionTree.walk(evidence([9, 8, 7, 6, 5, 4]))
        #expect(answer.strategy == .sessionDetailsBasic && answer.delay == 0)
        #expect(answer.path[2].contains("No delay up to 4 does"))
        // Delay 5 would reach it, but --max-delay 4 forbids it.
    }

    @Test("--max-delay bounds the delays tried")
    func maxDelay() {
        #expect(DecisionTree.walk(evidence([9, 8, 7, 6, 5, 4], maxDelay: 5)).delay == 5)
        let none = DecisionTree.walk(evidence([9], maxDelay: 0))
        #expect(none.strategy == .sessionDetailsBasic)
        #expect(none.path[2].contains("`--max-delay` is 0"))
    }

    @Test("a log of both API generations: the step names the other generation's break-even and share, and walks with the primary's")
    func otherGeneration() throws {
        var mixed = evidence([6, 5, 4, 3, 2])
        mixed.otherGeneration = Recommendation.OtherGeneration(tableID: "places-new-2025", breakEvenRequests: 12, share: 0.4919)
        let answer = DecisionTree.walk(mixed)
        #expect(answer.strategy == .perRequestGeocoding && answer.delay == 2)
        #expect(answer.path[1].hasSuffix("No: 6 requests per search over 100 searches. The log's other API generation, 49.19% of what was priced, breaks even at 12 by `places-new-2025`: its calls are billed by that table, and `--by api_version` shows each generation's bill."), "\(answer.path[1])")
        #expect(!DecisionTree.walk(evidence([6, 5, 4, 3, 2])).path[1].contains("other API generation"))
        // From a capture of both libraries (generate's HAR makes half its calls on each), as analyze measures it.
        let directory = TemporaryDirectory()
        let har = directory.path + "/page.har"
        #expect(runCLI(["generate", "--searches", "300", "--seed", "2", "--days", "1", "--format", "har", "--out", har]).code == .success)
        let run = runCLI(["analyze", har, "--needs-details", "no", "--json", "--quiet"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let path = try #require((json["recommendation"] as? [String: Any])?["path"] as? [String])
        #expect(path.count > 1 && path[1].contains("The log's other API generation"), "\(path)")
    }

    @Test("an app with a delay now: the tree reads its mean at that delay, tries only longer ones, and never answers with less")
    func currentDelay() {
        // simulate --chars 8 --delay 3: 8 requests typed, 5 sent now, 4 at delay 4.
        var delayed = evidence([8, 7, 6, 5, 4], breakEven: 12)
        delayed.currentDelay = 3
        let short = DecisionTree.walk(delayed)
        #expect(short.strategy == .perRequestGeocoding && short.delay == 3)
        #expect(short.path[1].hasSuffix("Yes: 5 requests per search (the app's, waiting for the 4th character) over 100 searches."), "\(short.path[1])")
        #expect(short.path[2].contains("(`per_request_geocoding`, delay 3, as now)"))
        // Over the break-even at the app's delay: only delay 4 is tried.
        let long = DecisionTree.walk(delayed.with(breakEven: 4.5))
        #expect(long.strategy == .perRequestGeocoding && long.delay == 4)
        #expect(long.path[2] == "3. Does waiting for more characters bring the mean to the break-even? Yes: delay 4: 4 <= 4.5.")
        let none = DecisionTree.walk(delayed.with(breakEven: 3))
        #expect(none.strategy == .sessionDetailsBasic && none.delay == 3)
        #expect(none.path[2].contains("(delay 4: 4)"))
        // Past --max-delay already: nothing to try, and the answer keeps the app's delay.
        var beyond = evidence([8, 7, 6, 5, 4, 3], breakEven: 2)
        beyond.currentDelay = 5
        let kept = DecisionTree.walk(beyond)
        #expect(kept.strategy == .sessionDetailsBasic && kept.delay == 5)
        #expect(kept.path[2].contains("Not tried: the app waits for the 6th character already, and `--max-delay` is 4."))
        var details = evidence([8, 7, 6, 5, 4], needs: DetailsNeed(searches: [], override: true))
        details.currentDelay = 2
        #expect(DecisionTree.walk(details).delay == 2)
    }

    @Test("ordinals")
    func ordinals() {
        #expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(DecisionTree.ordinal) == ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"])
    }
}

extension Recommendation.Evidence {
    /// The same evidence with another break-even.
    func with(breakEven: Double) -> Self {
        var copy = self
        copy.breakEvenRequests = breakEven
        return copy
    }
}
