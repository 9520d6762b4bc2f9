/// What the strategies need to know about a search's input lengths, in a few bytes.
///
/// A delay of k drops the calls whose input has k or fewer characters, so for delays up to
/// `clip` a call's length matters only as "at most 1", 2, ..., `clip`, or "longer or not
/// recorded". The last call's length is kept exactly: it is the characters typed at selection.
/// Two searches with equal profiles cost the same under every strategy at every priced delay.
public struct LengthProfile: Hashable, Sendable {
    /// Autocomplete calls in the search.
    public private(set) var requests: Int32 = 0
    /// The last call's input length; -1 when not recorded.
    public private(set) var last: Int32 = -1
    /// Calls before the last, by length class 1...`clip` (8 bits each), while every count fits.
    private var packed: UInt64 = 0
    /// The same counts when they do not fit in `packed`: index `class - 1`.
    private var spilled: [Int32]?

    public init() {}

    public func hash(into hasher: inout Hasher) {
        hasher.combine(UInt64(UInt32(bitPattern: requests)) << 32 | UInt64(UInt32(bitPattern: last)))
        hasher.combine(packed)
        if let spilled { hasher.combine(spilled) }
    }

    /// A 64-bit digest for `SearchTally`'s table of shapes: equal profiles have equal digests.
    var digest: UInt64 {
        var digest = Fingerprint.mum(
            UInt64(UInt32(bitPattern: requests)) << 32 | UInt64(UInt32(bitPattern: last)) ^ 0xA076_1D64_78BD_642F,
            packed ^ 0xE703_7ED1_A0B4_28DB
        )
        if let spilled {
            for (index, count) in spilled.enumerated() {
                digest = Fingerprint.mum(digest ^ UInt64(index), UInt64(UInt32(bitPattern: count)) ^ 0x8EBC_6AF0_9C88_C6E3)
            }
        }
        return digest
    }

    /// Adds the next call's input length (`nil` when not recorded).
    public mutating func add(_ length: Int?, clip: Int) {
        if requests > 0 { count(last, clip: clip) }
        requests += 1
        last = length.map { Int32(clamping: $0) } ?? -1
    }

    private mutating func count(_ length: Int32, clip: Int) {
        guard length >= 0, length <= clip, clip > 0 else { return }
        let lengthClass = Int(max(length, 1))
        if spilled == nil, clip <= 8 {
            let shift = UInt64((lengthClass - 1) * 8)
            if (packed >> shift) & 0xFF < 0xFF {
                packed += 1 << shift
                return
            }
        }
        if spilled == nil {
            spilled = (0..<clip).map { Int32(truncatingIfNeeded: (packed >> UInt64($0 * 8)) & 0xFF) }
            packed = 0
        }
        spilled![lengthClass - 1] += 1
    }

    /// How many calls before the last fall in length class `lengthClass` (1...clip).
    private func classCount(_ lengthClass: Int) -> Int {
        if let spilled { return lengthClass - 1 < spilled.count ? Int(spilled[lengthClass - 1]) : 0 }
        guard lengthClass <= 8 else { return 0 }
        return Int((packed >> UInt64((lengthClass - 1) * 8)) & 0xFF)
    }

    /// Input lengths that price and count exactly like the search's own: each class's calls at
    /// the class's length, the other calls unrecorded, then the last call's length.
    public func representativeLengths(clip: Int) -> [Int?] {
        guard requests > 0 else { return [] }
        var lengths: [Int?] = []
        lengths.reserveCapacity(Int(requests))
        if clip > 0 {
            for lengthClass in 1...clip {
                for _ in 0..<classCount(lengthClass) { lengths.append(lengthClass) }
            }
        }
        while lengths.count < Int(requests) - 1 { lengths.append(nil) }
        lengths.append(last >= 0 ? Int(last) : nil)
        return lengths
    }
}
