/// What the strategies need to know about a search's input lengths, in a few bytes.
///
/// A delay of k drops the calls whose input has k or fewer characters, so for delays up to
/// `clip` a call's length matters only as "at most 1", 2, ..., `clip`, or "longer or not
/// recorded". The last call's length is kept exactly: it is the characters typed at selection.
/// Two searches with equal profiles cost the same under every strategy at every priced delay.
package struct LengthProfile: Hashable, Sendable {
    /// The profile while every class count fits in a byte and `clip` is at most 8 (almost every
    /// search): no storage to count references of. Searches being walked hold this form
    /// (`SessionStream.Draft`): keep it free of references, or copying and releasing the walk's
    /// open searches pays reference counting.
    struct Compact: Hashable {
        var requests: Int32 = 0
        var last: Int32 = -1
        /// Calls before the last, by length class 1...`clip` (8 bits each).
        var packed: UInt64 = 0

        /// Adds the next call's input length (-1 when not recorded), or returns `false`, changing
        /// nothing, when a count would not fit.
        @inline(__always)
        mutating func add(_ length: Int32, clip: Int) -> Bool {
            if requests > 0, last >= 0, last <= clip, clip > 0 {
                guard clip <= 8 else { return false }
                let shift = UInt64((Int(max(last, 1)) - 1) * 8)
                guard (packed >> shift) & 0xFF < 0xFF else { return false }
                packed += 1 << shift
            }
            requests += 1
            last = length
            return true
        }
    }

    private var compact = Compact()
    /// The counts by class (index `class - 1`) once they do not fit in `compact.packed`, which
    /// is then 0.
    private var spilled: [Int32]?

    package init() {}

    init(_ compact: Compact) {
        self.compact = compact
    }

    /// Autocomplete calls in the search.
    package var requests: Int32 { compact.requests }
    /// The last call's input length; -1 when not recorded.
    package var last: Int32 { compact.last }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(UInt64(UInt32(bitPattern: requests)) << 32 | UInt64(UInt32(bitPattern: last)))
        hasher.combine(compact.packed)
        if let spilled { hasher.combine(spilled) }
    }

    /// A 64-bit digest for `SearchTally`'s table of shapes: equal profiles have equal digests.
    var digest: UInt64 {
        var digest = Fingerprint.mum(
            UInt64(UInt32(bitPattern: requests)) << 32 | UInt64(UInt32(bitPattern: last)) ^ 0xA076_1D64_78BD_642F,
            compact.packed ^ 0xE703_7ED1_A0B4_28DB
        )
        if let spilled {
            for (index, count) in spilled.enumerated() {
                digest = Fingerprint.mum(digest ^ UInt64(index), UInt64(UInt32(bitPattern: count)) ^ 0x8EBC_6AF0_9C88_C6E3)
            }
        }
        return digest
    }

    /// Adds the next call's input length (`nil` when not recorded).
    package mutating func add(_ length: Int?, clip: Int) {
        let length = length.map { Int32(clamping: $0) } ?? -1
        if spilled == nil, compact.add(length, clip: clip) { return }
        if compact.requests > 0 { spill(compact.last, clip: clip) }
        compact.requests += 1
        compact.last = length
    }

    /// Counts a call before the last in `spilled`, moving the counts there first.
    private mutating func spill(_ length: Int32, clip: Int) {
        guard length >= 0, length <= clip, clip > 0 else { return }
        if spilled == nil {
            spilled = (0..<clip).map { Int32(truncatingIfNeeded: (compact.packed >> UInt64($0 * 8)) & 0xFF) }
            compact.packed = 0
        }
        spilled![Int(max(length, 1)) - 1] += 1
    }

    /// How many calls before the last fall in length class `lengthClass` (1...clip).
    private func classCount(_ lengthClass: Int) -> Int {
        if let spilled { return lengthClass - 1 < spilled.count ? Int(spilled[lengthClass - 1]) : 0 }
        guard lengthClass <= 8 else { return 0 }
        return Int((compact.packed >> UInt64((lengthClass - 1) * 8)) & 0xFF)
    }

    /// Input lengths that price and count exactly like the search's own: each class's calls at
    /// the class's length, the other calls unrecorded, then the last call's length.
    package func representativeLengths(clip: Int) -> [Int?] {
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
