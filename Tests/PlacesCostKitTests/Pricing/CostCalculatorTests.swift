import Testing
@testable import PlacesCostKit

/// Pricing many items counts them in two halves on two threads (`CostCalculator.price`).
@Suite("Cost calculator")
struct CostCalculatorTests {
    /// Searches and base calls over two months and both API generations, with every kind of
    /// selection, unpriced APIs among them.
    static func items(_ calculator: CostCalculator, count: Int) -> [CostCalculator.Item] {
        var random = SeededRandom(seed: 11)
        let masks: [[String]?] = [nil, ["formattedAddress"], ["displayName", "rating"], ["place_id"], ["*"]]
        let selectionAPIs: [API] = [.placeDetails, .placeDetails, .geocoding, .addressValidation]
        let generations: [APIGeneration?] = [nil, .legacy, .new]
        return (0..<count).map { index in
            // 2026-10-01 and 2026-11-10, spread over a day.
            let day: Int64 = index % 2 == 0 ? 20_362 : 20_402
            let time = Timestamp(microseconds: (day * 86_400 + Int64(random.below(86_400))) * 1_000_000)
            let generation = generations[random.below(generations.count)]
            if index % 10 == 0 {
                let api: API = [.autocomplete, .placeDetails, .textSearch, .geocoding][random.below(4)]
                let call = Call(time: time, api: api, fields: masks[random.below(masks.count)], generation: generation)
                return CostCalculator.Item(search: nil, baseCall: call, weight: 1 + random.below(5), month: calculator.month(of: time))
            }
            let outcome: Search.Outcome = [.completed, .abandoned, .expired][random.below(3)]
            let selection = outcome == .completed
                ? Selection(api: selectionAPIs[random.below(selectionAPIs.count)], time: time, fields: masks[random.below(masks.count)], generation: generation)
                : nil
            let lengths = (0..<(1 + random.below(12))).map { _ in random.chance(0.1) ? nil : Optional(random.below(15)) }
            let kind: Search.Kind = [.session, .session, .spentToken, .inferred][random.below(4)]
            let search = Search(kind: kind, outcome: outcome, requestInputLengths: lengths, selection: selection, startedAt: time, endedAt: time, generation: generation)
            return CostCalculator.Item(search: search, baseCall: nil, weight: 1 + random.below(5), month: calculator.month(of: time))
        }
    }

    @Test("Items counted in two halves on two threads add up to what one thread counts")
    func halvesAddUp() throws {
        let calculator = CostCalculator(plan: try PricingPlan.load(nil))
        // Fewer than two threads' worth: counted on one thread. Twice the list: each half is it.
        let items = CostCalculatorTests.items(calculator, count: 3_000)
        let once = calculator.price(items)
        let twice = calculator.price(items + items)
        #expect(twice.tablesUsed.map(\.tableID) == once.tablesUsed.map(\.tableID))
        #expect(twice.tablesUsed.map(\.month) == once.tablesUsed.map(\.month))
        #expect(twice.unconfirmedPrices == once.unconfirmedPrices)
        #expect(twice.strategies.count == once.strategies.count)
        for (doubled, single) in zip(twice.strategies, once.strategies) {
            #expect(doubled.skus.map(\.sku) == single.skus.map(\.sku), "\(single.strategy) at \(single.delay)")
            #expect(doubled.skus.map(\.count) == single.skus.map { $0.count * 2 }, "\(single.strategy) at \(single.delay)")
            #expect(doubled.skus.map(\.unpriced) == single.skus.map(\.unpriced))
            let doubledLines = doubled.months.flatMap(\.lines)
            let singleLines = single.months.flatMap(\.lines)
            #expect(doubledLines.map { "\($0.sku) \($0.tableID) \($0.unpriced)" } == singleLines.map { "\($0.sku) \($0.tableID) \($0.unpriced)" })
            #expect(doubledLines.map(\.count) == singleLines.map { $0.count * 2 })
        }
        #expect(once.strategies.contains { $0.skus.contains(where: \.unpriced) })
        #expect(Set(once.tablesUsed.map(\.tableID)).count >= 2)
    }
}
