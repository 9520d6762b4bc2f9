/// Searches and calls outside every search, counted by shape: what the later stages need of
/// millions of them, in memory proportional to the distinct shapes.
///
/// A shape is everything pricing, statistics and advice read from a search: kind, outcome,
/// generation, the `LengthProfile`, the selection's API, fields and generation, and the billing
/// period it starts in. Tallies merge by adding counts, so partitions walked on different
/// threads merge to the same result in any order.
package struct SearchTally {
    package struct ShapeKey: Hashable {
        var period: BillingCalendar.Period
        var lengths: LengthProfile
        /// `FieldMask` id from `CallCatalogs.fieldMasks`; 0 for no mask.
        var selectionFields: UInt32
        var kind: Search.Kind
        var outcome: Search.Outcome
        var generation: APIGeneration?
        /// `nil` when the search has no selection.
        var selectionAPI: APICode?
        var selectionGeneration: APIGeneration?
        /// The search's `--by` group as the walk records it (`SessionStream.searchGroup`); 0 without `--by`.
        var group: UInt32

        package init(period: BillingCalendar.Period, lengths: LengthProfile, selectionFields: UInt32, kind: Search.Kind, outcome: Search.Outcome, generation: APIGeneration?, selectionAPI: APICode?, selectionGeneration: APIGeneration?, group: UInt32 = 0) {
            self.group = group
            self.period = period
            self.lengths = lengths
            self.selectionFields = selectionFields
            self.kind = kind
            self.outcome = outcome
            self.generation = generation
            self.selectionAPI = selectionAPI
            self.selectionGeneration = selectionGeneration
        }

        /// Hashes packed words: the synthesized version hashes `Kind` and `Outcome` through their
        /// `String` raw values, once per search.
        package func hash(into hasher: inout Hasher) {
            hasher.combine(digest)
        }

        /// The key's packed words mixed by two multiplies (`ShapeTable`'s hash): it runs once
        /// per search and compared walk, so not `Hasher`'s SipHash.
        var digest: UInt64 {
            var small = UInt64(selectionFields) << 32
            small |= UInt64(kind.code) << 24 | UInt64(outcome.code) << 16
            small |= UInt64(APIGeneration.code(generation)) << 12 | UInt64(selectionAPI?.rawValue ?? 0) << 4
            small |= UInt64(APIGeneration.code(selectionGeneration))
            let period = UInt64(UInt32(bitPattern: period.month)) << 32 | UInt64(UInt32(bitPattern: period.ruleEpoch))
            // Without `--by` the group is 0 and the digest is the period's and the shape's alone.
            let grouped = UInt64(group) &* 0x9E37_79B9_7F4A_7C15
            return Fingerprint.mum(period ^ grouped ^ 0x5899_65CC_7537_4CC3, small ^ lengths.digest)
        }
    }

    /// Shape indices by key: open addressing with linear probing on `ShapeKey.digest`. Each slot
    /// holds the digest's high half and the index plus one (0: empty), so a probe compares keys
    /// only when the halves agree.
    struct ShapeTable {
        private var slots = [UInt64](repeating: 0, count: 64)

        /// The index of `key` among `shapes`, or where to insert it.
        @inline(__always)
        func find(_ key: ShapeKey, digest: UInt64, in shapes: [ShapeKey]) -> (index: Int?, slot: Int) {
            let mask = slots.count - 1
            let tag = digest & 0xFFFF_FFFF_0000_0000
            var slot = Int(truncatingIfNeeded: digest) & mask
            while true {
                let entry = slots[slot]
                if entry == 0 { return (nil, slot) }
                if entry & 0xFFFF_FFFF_0000_0000 == tag {
                    let index = Int(entry & 0xFFFF_FFFF) - 1
                    if shapes[index] == key { return (index, slot) }
                }
                slot = (slot + 1) & mask
            }
        }

        /// Records `index` for a key not in the table, at the slot `find` gave; `shapes` already
        /// holds the key, so its count is the table's.
        mutating func insert(_ index: Int, digest: UInt64, at slot: Int, shapes: [ShapeKey]) {
            slots[slot] = digest & 0xFFFF_FFFF_0000_0000 | UInt64(index + 1)
            if shapes.count * 2 > slots.count { grow(shapes) }
        }

        private mutating func grow(_ shapes: [ShapeKey]) {
            slots = [UInt64](repeating: 0, count: slots.count * 2)
            let mask = slots.count - 1
            for (index, key) in shapes.enumerated() {
                let digest = key.digest
                var slot = Int(truncatingIfNeeded: digest) & mask
                while slots[slot] != 0 { slot = (slot + 1) & mask }
                slots[slot] = digest & 0xFFFF_FFFF_0000_0000 | UInt64(index + 1)
            }
        }
    }

    /// A call outside every search, reduced to what prices and counts it.
    package struct BaseCallKey: Hashable {
        var period: BillingCalendar.Period
        var fields: UInt32
        /// The name's id in `CallCatalogs.labels` for `other` APIs; 0 otherwise.
        var otherAPI: UInt32
        var api: APICode
        var generation: APIGeneration?
        var hasToken: Bool
        /// A details call on a fresh token (`details_without_autocomplete`).
        var orphan: Bool
        /// The call's `--by` group, by its own attributes (`SessionStream.callGroup`); 0 without `--by`.
        var group: UInt32

        package init(period: BillingCalendar.Period, fields: UInt32, otherAPI: UInt32, api: APICode, generation: APIGeneration?, hasToken: Bool, orphan: Bool, group: UInt32 = 0) {
            self.group = group
            self.period = period
            self.fields = fields
            self.otherAPI = otherAPI
            self.api = api
            self.generation = generation
            self.hasToken = hasToken
            self.orphan = orphan
        }
    }

    private var shapeIDs = ShapeTable()
    private(set) var shapes: [ShapeKey] = []
    private(set) var shapeCounts: [Int] = []
    var baseCalls: [BaseCallKey: Int] = [:]
    /// The earliest time seen in each period: the time given to the period's representatives.
    private(set) var periodTimes: [BillingCalendar.Period: Int64] = [:]
    package var anomalies = Anomalies()
    /// Per compared timeout: sessions it would expire, and searches it would make of the tokens.
    var alternatives: [(expired: Int, tokenSearches: Int)] = []
    /// Token searches (sessions and spent-token runs) under the main timeout.
    var tokenSearches = 0
    /// Every search with its first call's position, when asked to keep them (`searches.csv`).
    package var kept: [(search: Search, sequence: Int64)] = []
    /// Records that repeat an earlier record exactly, and how many of them `--dedupe` dropped.
    var duplicates = 0
    var duplicatesDropped = 0
    /// Every call kept, counted once by the walk that kept it.
    var calls = CallCounts()
    /// With `--by`: calls and anomalies per raw group id (a call's by its own attributes, a
    /// session's by its search's); empty otherwise.
    var groupCounts: [UInt32: GroupCounts] = [:]

    /// The counts of one `--by` group.
    struct GroupCounts: Equatable {
        var calls = 0
        var anomalies = Anomalies()
    }

    package init(alternatives: Int = 0) {
        self.alternatives = Array(repeating: (0, 0), count: alternatives)
    }

    /// Counts one search of `key`; returns the shape's index.
    @discardableResult
    package mutating func add(_ key: ShapeKey, time: Int64, count: Int = 1) -> Int {
        notePeriod(key.period, time: time)
        let digest = key.digest
        let (found, slot) = shapeIDs.find(key, digest: digest, in: shapes)
        if let index = found {
            shapeCounts[index] += count
            return index
        }
        let index = shapes.count
        shapes.append(key)
        shapeCounts.append(count)
        shapeIDs.insert(index, digest: digest, at: slot, shapes: shapes)
        return index
    }

    /// The index of shape `key` if a search of it was counted, counting nothing.
    func index(of key: ShapeKey) -> Int? {
        shapeIDs.find(key, digest: key.digest, in: shapes).index
    }

    /// Moves one search from shape `index` to the same shape with `outcome`; returns the new index.
    mutating func reclassify(_ index: Int, as outcome: Search.Outcome) -> Int {
        var key = shapes[index]
        shapeCounts[index] -= 1
        key.outcome = outcome
        return add(key, time: periodTimes[key.period] ?? 0)
    }

    package mutating func addBaseCall(_ key: BaseCallKey, time: Int64, count: Int = 1) {
        notePeriod(key.period, time: time)
        baseCalls[key, default: 0] += count
    }

    mutating func notePeriod(_ period: BillingCalendar.Period, time: Int64) {
        // Searches end mostly in time order: the last period noted, with its earliest time, saves
        // a lookup per search.
        if let (last, earliest) = lastPeriod, last == period, earliest <= time { return }
        if let known = periodTimes[period], known <= time {
            lastPeriod = (period, known)
            return
        }
        periodTimes[period] = time
        lastPeriod = (period, time)
    }

    /// The last period `notePeriod` saw, with its time in `periodTimes`.
    private var lastPeriod: (BillingCalendar.Period, Int64)?

    /// The same tally with no search, base call or group count: `separatingGroups` adds them back.
    func withoutShapes() -> SearchTally {
        var copy = self
        copy.shapeIDs = ShapeTable()
        copy.shapes = []
        copy.shapeCounts = []
        copy.baseCalls = [:]
        copy.groupCounts = [:]
        return copy
    }

    /// Adds another tally's counts to this one.
    mutating func merge(_ other: SearchTally) {
        for (index, key) in other.shapes.enumerated() where other.shapeCounts[index] != 0 {
            add(key, time: other.periodTimes[key.period]!, count: other.shapeCounts[index])
        }
        for (key, count) in other.baseCalls {
            addBaseCall(key, time: other.periodTimes[key.period]!, count: count)
        }
        for (period, time) in other.periodTimes { notePeriod(period, time: time) }
        anomalies = anomalies + other.anomalies
        for index in alternatives.indices where index < other.alternatives.count {
            alternatives[index].expired += other.alternatives[index].expired
            alternatives[index].tokenSearches += other.alternatives[index].tokenSearches
        }
        tokenSearches += other.tokenSearches
        kept += other.kept
        duplicates += other.duplicates
        duplicatesDropped += other.duplicatesDropped
        calls.merge(other.calls)
        for (group, counts) in other.groupCounts {
            groupCounts[group, default: GroupCounts()].calls += counts.calls
            groupCounts[group, default: GroupCounts()].anomalies = groupCounts[group]!.anomalies + counts.anomalies
        }
    }
}
