import Foundation
import Testing
@testable import PlacesCostKit
import PlacesCostReference

/// Issue 20, class 2: report JSON never holds a non-finite number, and no `Double` makes the
/// number writers trap.
@Suite("JSON and report numbers")
struct JSONNumberTests {
    static let extremes: [Double] = [1e308, -1e308, .greatestFiniteMagnitude, 9.3e12 + 0.5, 1e15, 1e16 + 2, 9.2e18, 1e19, .leastNonzeroMagnitude, -1e-7, 0, -0.0, 123.4567891]

    @Test("Every finite Double is written as a JSON number that reads back within rounding")
    func finite() throws {
        for value in JSONNumberTests.extremes {
            let text = JSONValue.number(value).rendered()
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) as? NSNumber, "\(value): \(text)")
            #expect(parsed.doubleValue.isFinite)
            #expect(abs(parsed.doubleValue - value) <= max(1e-6, abs(value) * 1e-15), "\(value) written as \(text)")
        }
    }

    @Test("NaN and the infinities cannot be held: they are written as null")
    func nonFinite() {
        for value in [Double.nan, .infinity, -.infinity] {
            #expect(JSONNumber(value) == nil)
            #expect(JSONValue.number(value).rendered() == "null\n")
            #expect(JSONValue.format(value) == "null")
        }
        let document = JSONValue.object([("a", .number(.infinity)), ("b", .number(1e308))]).rendered()
        #expect(nonFiniteJSONProblem(document) == nil)
    }

    @Test("Money and counts for people never trap and never print inf")
    func money() {
        for value in JSONNumberTests.extremes + [.nan, .infinity, -.infinity] {
            for text in [Money.usd(value), Money.usd(value, digits: 6), Money.plain(value), Money.plain(value, digits: 4), Money.count(value)] {
                #expect(!text.contains("inf") || text.contains("infinity"), "\(value): \(text)")
            }
        }
        #expect(Money.plain(1e20) == "100,000,000,000,000,000,000")
        #expect(Money.count(1.2e19) == "12,000,000,000,000,000,000")
        #expect(Money.usd(1234.5) == "$1,234.50")
    }

    @Test("Int64(roundingChecked:) refuses what Int64(_:) would trap on")
    func checkedConversion() {
        #expect(Int64(roundingChecked: 9.2e18) == 9_200_000_000_000_000_000)
        #expect(Int64(roundingChecked: 9.3e18) == nil)
        #expect(Int64(roundingChecked: -9.3e18) == nil)
        #expect(Int64(roundingChecked: .nan) == nil)
        #expect(Int64(roundingChecked: .infinity) == nil)
        #expect(Int64(roundingChecked: 2.5) == 3)
        #expect(Duration64(seconds: 1e20).microseconds == Int64(Duration64.secondsRange.upperBound * 1_000_000))
        #expect(Duration64(seconds: .nan).microseconds == 0)
    }
}
