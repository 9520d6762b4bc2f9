/// The calls a walk keeps, counted once, after the duplicate check: `--dedupe` never leaves a
/// count to undo. Per API (an `other` API by its name's label id) and per (platform, generation).
///
/// Counts merge by addition, so partitions walked on any number of threads give the same sums.
struct CallCounts: Sendable {
    /// One platform label id with one generation.
    struct Platform: Hashable, Sendable {
        var platform: UInt32
        var generation: APIGeneration?
    }

    /// Known APIs' calls at `APICode.rawValue - 1`, inline: in an array each call would pay two
    /// uniqueness checks.
    private var byCode = SIMD8<Int>()
    /// `other` APIs' calls by their name's label id.
    private var byOtherAPI: [UInt32: Int] = [:]
    /// Calls per platform at `platform * 3 + generation code`: the first slots inline (a log
    /// names a handful of platforms), the rest in `morePlatformSlots`.
    private var platformSlots = SIMD32<Int>()
    private var morePlatformSlots: [Int] = []
    private static let generations = 3

    /// Counts one call.
    @inline(__always)
    mutating func add(api: APICode, otherAPI: UInt32, platform: UInt32, generation: APIGeneration?) {
        if api == .other {
            byOtherAPI[otherAPI, default: 0] += 1
        } else {
            byCode[Int(api.rawValue) &- 1] &+= 1
        }
        let slot = Int(platform) &* CallCounts.generations &+ Int(APIGeneration.code(generation))
        if slot < platformSlots.scalarCount {
            platformSlots[slot] &+= 1
        } else {
            let index = slot - platformSlots.scalarCount
            if index >= morePlatformSlots.count {
                morePlatformSlots += Array(repeating: 0, count: index + 1 - morePlatformSlots.count)
            }
            morePlatformSlots[index] += 1
        }
    }

    mutating func merge(_ other: CallCounts) {
        byCode &+= other.byCode
        byOtherAPI.merge(other.byOtherAPI, uniquingKeysWith: +)
        platformSlots &+= other.platformSlots
        if other.morePlatformSlots.count > morePlatformSlots.count {
            morePlatformSlots += Array(repeating: 0, count: other.morePlatformSlots.count - morePlatformSlots.count)
        }
        for (index, count) in other.morePlatformSlots.enumerated() { morePlatformSlots[index] += count }
    }

    /// Every call counted.
    var records: Int {
        byCode.wrappedSum() + byOtherAPI.values.reduce(0, +)
    }

    /// Calls per API name (`Analysis.Input.byAPI`); an `other` API under the name `labels` holds.
    func byAPI(labels: LabelCatalog<String>) -> [String: Int] {
        var named: [String: Int] = [:]
        for code in APICode.allCases where code != .other && byCode[Int(code.rawValue) - 1] > 0 {
            named[API(code: code, otherName: "").name, default: 0] += byCode[Int(code.rawValue) - 1]
        }
        for (label, count) in byOtherAPI {
            named[API(code: .other, otherName: labels.value(label) ?? "").name, default: 0] += count
        }
        return named
    }

    /// Calls per platform label id and generation.
    var byPlatform: [Platform: Int] {
        let slots = (0..<platformSlots.scalarCount).map { platformSlots[$0] } + morePlatformSlots
        var counts: [Platform: Int] = [:]
        for (slot, count) in slots.enumerated() where count > 0 {
            let generation: APIGeneration? = switch slot % CallCounts.generations {
            case 1: .legacy
            case 2: .new
            default: nil
            }
            counts[Platform(platform: UInt32(slot / CallCounts.generations), generation: generation)] = count
        }
        return counts
    }
}
