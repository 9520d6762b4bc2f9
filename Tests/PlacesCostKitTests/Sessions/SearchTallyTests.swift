import Testing
@testable import PlacesCostKit

@Suite("SearchTally")
struct SearchTallyTests {
    @Test("Shapes are counted as a dictionary counts them, through the table's growth, spilled profiles and digest collisions")
    func countsLikeADictionary() {
        var random = SeededRandom(seed: 0x7A11)
        var tally = SearchTally()
        var reference: [SearchTally.ShapeKey: Int] = [:]
        var keys: [SearchTally.ShapeKey] = []
        for _ in 0..<3_000 {
            var lengths = LengthProfile()
            // Up to 300 calls of one class: more than 255 spills the packed counts.
            let calls = random.below(6) == 0 ? 200 + random.below(100) : random.below(12)
            for _ in 0..<calls { lengths.add(random.below(3) == 0 ? nil : 1 + random.below(6), clip: 4) }
            let key = SearchTally.ShapeKey(
                period: BillingCalendar.Period(month: Int32(24_300 + random.below(3)), ruleEpoch: Int32(random.below(2))),
                lengths: lengths, selectionFields: UInt32(random.below(3)),
                kind: [.session, .spentToken, .inferred][random.below(3)],
                outcome: [.completed, .abandoned, .expired][random.below(3)],
                generation: [nil, .legacy, .new][random.below(3)], selectionAPI: [nil, .autocomplete, .queryAutocomplete, .placeDetails][random.below(4)],
                selectionGeneration: [nil, .legacy, .new][random.below(3)]
            )
            keys.append(key)
        }
        // Each key several times, in a scrambled order, with counts.
        for round in 0..<3 {
            for (position, key) in keys.enumerated() where (position + round) % 3 != 0 {
                let count = 1 + position % 4
                let index = tally.add(key, time: Int64(position), count: count)
                #expect(tally.shapes[index] == key)
                reference[key, default: 0] += count
            }
        }
        var counted: [SearchTally.ShapeKey: Int] = [:]
        for (index, key) in tally.shapes.enumerated() {
            #expect(counted[key] == nil, "a shape appears twice")
            counted[key] = tally.shapeCounts[index]
        }
        #expect(counted == reference)
        #expect(tally.shapes.count == reference.count)
        #expect(reference.count > 1_000, "the table grew several times")
    }

    @Test("A period's time is its earliest, whatever order searches come in")
    func earliestPeriodTime() {
        var tally = SearchTally()
        let january = BillingCalendar.Period(month: 24_312, ruleEpoch: 0)
        let february = BillingCalendar.Period(month: 24_313, ruleEpoch: 0)
        for (period, time) in [(january, 50), (january, 70), (february, 90), (january, 40), (january, 60), (february, 80), (february, 85)] {
            tally.notePeriod(period, time: Int64(time))
        }
        #expect(tally.periodTimes == [january: 40, february: 80])
    }
}
