import Testing
@testable import PlacesCostKit

/// The counts of kept calls, made once by the walks after the duplicate check.
@Suite("Call counts")
struct CallCountsTests {
    @Test("Per API and per platform, past the inline platform slots, and merged in any split to the same sums")
    func countsAndMerges() {
        var random = SystemRandomNumberGenerator()
        let apis = APICode.allCases
        let generations: [APIGeneration?] = [nil, .legacy, .new]
        var calls: [(api: APICode, other: UInt32, platform: UInt32, generation: APIGeneration?)] = []
        for _ in 0..<5_000 {
            let api = apis.randomElement(using: &random)!
            // Platform label ids up to 40: slots 0...122, most past the 32 inline ones.
            calls.append((api, api == .other ? UInt32.random(in: 1...5, using: &random) : 0,
                          UInt32.random(in: 0...40, using: &random), generations.randomElement(using: &random)!))
        }
        var whole = CallCounts()
        var halves = (CallCounts(), CallCounts())
        for (index, call) in calls.enumerated() {
            whole.add(api: call.api, otherAPI: call.other, platform: call.platform, generation: call.generation)
            if index.isMultiple(of: 3) {
                halves.0.add(api: call.api, otherAPI: call.other, platform: call.platform, generation: call.generation)
            } else {
                halves.1.add(api: call.api, otherAPI: call.other, platform: call.platform, generation: call.generation)
            }
        }
        var merged = CallCounts()
        merged.merge(halves.1)
        merged.merge(halves.0)
        let labels = LabelCatalog<String>()
        for name in ["zero", "one", "two", "three", "four", "five"] { _ = labels.id(for: name) }

        var expectedAPI: [String: Int] = [:]
        var expectedPlatform: [CallCounts.Platform: Int] = [:]
        for call in calls {
            expectedAPI[API(code: call.api, otherName: labels.value(call.other) ?? "").name, default: 0] += 1
            expectedPlatform[CallCounts.Platform(platform: call.platform, generation: call.generation), default: 0] += 1
        }
        #expect(whole.records == calls.count)
        #expect(whole.byAPI(labels: labels) == expectedAPI)
        #expect(whole.byPlatform == expectedPlatform)
        #expect(merged.records == calls.count)
        #expect(merged.byAPI(labels: labels) == expectedAPI)
        #expect(merged.byPlatform == expectedPlatform)
    }

    @Test("The walked call values keep the sizes their layout comments promise")
    func layouts() {
        #expect(MemoryLayout<GroupCall>.stride == 72)
        #expect(MemoryLayout<SessionStream.Event>.stride == 56)
    }
}
