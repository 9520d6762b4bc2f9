import Testing
@testable import PlacesCostKit

/// The deadline queues of the walks: what goes in comes out in order, across the compactions of
/// its storage (each 4,096 removals at least) and rewrites.
@Suite("FIFO")
struct FIFOTests {
    @Test("Elements come out in the order they went in, across compactions and rewrites")
    func order() {
        var queue = FIFO<Int>()
        var model: [Int] = []
        var modelHead = 0
        var random = SeededRandom(seed: 3)
        var next = 0
        var mismatches = 0
        var removed = 0
        for _ in 0..<60_000 {
            switch random.below(20) {
            case 0..<10:
                queue.append(next)
                model.append(next)
                next += 1
            case 10..<19:
                guard modelHead < model.count else { continue }
                queue.removeFirst()
                modelHead += 1
                removed += 1
            default:
                guard random.below(400) == 0 else { continue }
                queue.rewrite { $0 % 3 == 0 ? nil : $0 }
                model = model[modelHead...].filter { $0 % 3 != 0 }
                modelHead = 0
            }
            if queue.first != (modelHead < model.count ? model[modelHead] : nil) { mismatches += 1 }
        }
        #expect(removed > 3 * 4096, "enough removals to compact the storage several times")
        #expect(mismatches == 0)
        while modelHead < model.count {
            if queue.first != model[modelHead] { mismatches += 1 }
            queue.removeFirst()
            modelHead += 1
        }
        #expect(mismatches == 0)
        #expect(queue.first == nil)
    }
}
