import Foundation

/// The Sessions stage's result as the later stages read it: one representative per distinct
/// search shape and per distinct call outside every search, each with how many it stands for.
///
/// A representative prices, counts and advises exactly like each search it stands for (see
/// `LengthProfile` and `SearchTally`), so a log of millions of searches is priced in time
/// proportional to its few thousand shapes. The lists are sorted by content, so the result does
/// not depend on the order calls were read in or on how many threads read them.
package struct SearchSummary: Sendable {
    package struct WeightedSearch: Sendable, Equatable {
        package var search: Search
        package var count: Int
    }

    package struct WeightedCall: Sendable, Equatable {
        package var call: Call
        package var count: Int
        /// Whether the calls carried a session token (a representative keeps none).
        package var hasToken: Bool
        /// Details calls on a fresh token (`details_without_autocomplete`).
        package var orphan: Bool
    }

    /// What makes two base calls one representative.
    private struct BaseCallShape: Hashable {
        var call: Call
        var hasToken: Bool
        var orphan: Bool
    }

    /// Compared timeouts (`docs/sessions.md`): sessions expired and searches had the timeout been this.
    package struct Alternative: Sendable, Equatable {
        package var timeout: Duration64
        package var expired: Int
        package var searches: Int
    }

    package var searches: [WeightedSearch]
    /// Calls that belong to no search, priced the same in every strategy; unknown APIs beyond
    /// `unknownAPIs.kept` under its one folded name.
    package var baseCalls: [WeightedCall]
    /// The unknown API names shown on their own.
    package var unknownAPIs: UnknownAPIList
    package var anomalies: Anomalies
    package var alternatives: [Alternative]
    /// Every search in start order (ties by first call), when the analysis kept them for
    /// `searches.csv`; empty otherwise.
    package var keptSearches: [Search]

    /// Details calls on a fresh token.
    package var detailsWithoutAutocomplete: [WeightedCall] { baseCalls.filter(\.orphan) }

    /// Turns a tally's ids back into values and sorts the representatives by content.
    package init(tally: SearchTally, catalogs: CallCatalogs, clip: Int, alternativeTimeouts: [Duration64]) {
        var searches: [WeightedSearch] = []
        for (index, key) in tally.shapes.enumerated() where tally.shapeCounts[index] > 0 {
            let time = Timestamp(microseconds: tally.periodTimes[key.period]!)
            let search = SearchSummary.representative(of: key, at: time, catalogs: catalogs, clip: clip)
            searches.append(WeightedSearch(search: search, count: tally.shapeCounts[index]))
        }
        var callsByUnknownName: [String: Int] = [:]
        for (key, count) in tally.baseCalls where count > 0 && key.api == .other {
            callsByUnknownName[catalogs.labels.value(key.otherAPI) ?? "", default: 0] += count
        }
        let unknownAPIs = UnknownAPIList(callsByName: callsByUnknownName)
        // Folded names become one call shape: merged, so the pricing work is bounded too.
        var calls: [WeightedCall] = []
        var callIndex: [BaseCallShape: Int] = [:]
        for (key, count) in tally.baseCalls where count > 0 {
            let call = Call(
                time: Timestamp(microseconds: tally.periodTimes[key.period]!),
                api: API(code: key.api, otherName: unknownAPIs.shownName(catalogs.labels.value(key.otherAPI) ?? "")),
                fields: catalogs.fieldMasks.value(key.fields), generation: key.generation
            )
            let shape = BaseCallShape(call: call, hasToken: key.hasToken, orphan: key.orphan)
            if let index = callIndex[shape] {
                calls[index].count += count
            } else {
                callIndex[shape] = calls.count
                calls.append(WeightedCall(call: call, count: count, hasToken: key.hasToken, orphan: key.orphan))
            }
        }
        self.unknownAPIs = unknownAPIs
        self.searches = SearchSummary.sorted(searches, by: SearchSummary.sortKey)
        self.baseCalls = SearchSummary.sorted(calls, by: SearchSummary.sortKey)
        self.anomalies = tally.anomalies
        let userSearches = searches.reduce(0) { $0 + $1.count } - tally.tokenSearches
        self.alternatives = zip(alternativeTimeouts, tally.alternatives).map {
            Alternative(timeout: $0, expired: $1.expired, searches: $1.tokenSearches + userSearches)
        }
        self.keptSearches = tally.kept.sorted { ($0.search.startedAt, $0.sequence) < ($1.search.startedAt, $1.sequence) }.map(\.search)
    }

    /// A search of shape `key`, started at `time` (any time of the shape's billing period):
    /// it prices, counts and reads in `searches.csv` as every search of that shape does.
    static func representative(of key: SearchTally.ShapeKey, at time: Timestamp, catalogs: CallCatalogs, clip: Int) -> Search {
        let selection = key.selectionAPI.map {
            Selection(
                api: API(code: $0, otherName: "other"), time: time,
                fields: catalogs.fieldMasks.value(key.selectionFields), generation: key.selectionGeneration
            )
        }
        return Search(
            kind: key.kind, outcome: key.outcome, requestInputLengths: key.lengths.representativeLengths(clip: clip),
            selection: selection, startedAt: time, endedAt: time, generation: key.generation
        )
    }

    /// `entries` in the order of their keys' bytes: for keys of ASCII text, the order of the
    /// keys as strings. Keep the keys bytes: never build a `String` by interpolation (a search's
    /// lengths joined) per shape.
    private static func sorted<Entry>(_ entries: [Entry], by key: (Entry, inout SortKey) -> Void) -> [Entry] {
        // Every key's bytes in one arena, `ends[index]` after entry `index`'s.
        var keys = SortKey()
        var ends: [Int] = []
        ends.reserveCapacity(entries.count)
        for entry in entries {
            key(entry, &keys)
            ends.append(keys.bytes.count)
        }
        // Indices are sorted, not the entries, which are large to move.
        let order = keys.bytes.withUnsafeBytes { arena in
            ends.withUnsafeBufferPointer { ends in
                func key(_ index: Int) -> UnsafeRawBufferPointer {
                    UnsafeRawBufferPointer(rebasing: arena[(index == 0 ? 0 : ends[index - 1]) ..< ends[index]])
                }
                return entries.indices.sorted { SortKey.precedes(key($0), key($1)) }
            }
        }
        return order.map { entries[$0] }
    }

    /// A sort key's bytes, appended field by field.
    struct SortKey {
        var bytes: [UInt8] = []

        mutating func append(_ text: String) {
            var text = text
            text.withUTF8 { bytes.append(contentsOf: $0) }
        }

        mutating func append(_ number: Int64) {
            if number < 0 { bytes.append(UInt8(ascii: "-")) }
            var magnitude = number.magnitude
            let start = bytes.count
            repeat {
                bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
                magnitude /= 10
            } while magnitude != 0
            bytes[start...].reverse()
        }

        mutating func separate() {
            bytes.append(UInt8(ascii: "|"))
        }

        /// Byte order, a prefix first.
        static func precedes(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
            let common = min(lhs.count, rhs.count)
            let order = common == 0 ? 0 : memcmp(lhs.baseAddress!, rhs.baseAddress!, common)
            return order != 0 ? order < 0 : lhs.count < rhs.count
        }
    }

    /// `startedAt|kind|outcome|generation|lengths|selection`, lengths joined by `,` with `-` for
    /// one not recorded, the selection as `api|fields|generation` (`*` for no field list).
    static func sortKey(_ weighted: WeightedSearch, into key: inout SortKey) {
        let search = weighted.search
        key.append(search.startedAt.microseconds)
        key.separate()
        key.append(search.kind.rawValue)
        key.separate()
        key.append(search.outcome.rawValue)
        key.separate()
        key.append(search.generation?.rawValue ?? "")
        key.separate()
        for (index, length) in search.requestInputLengths.enumerated() {
            if index > 0 { key.bytes.append(UInt8(ascii: ",")) }
            if let length { key.append(Int64(length)) } else { key.bytes.append(UInt8(ascii: "-")) }
        }
        key.separate()
        if let selection = search.selection {
            key.append(selection.api.name)
            key.separate()
            appendFields(selection.fields, to: &key)
            key.separate()
            key.append(selection.generation?.rawValue ?? "")
        }
    }

    /// `time|api|generation|fields|hasToken|orphan`.
    static func sortKey(_ weighted: WeightedCall, into key: inout SortKey) {
        let call = weighted.call
        key.append(call.time.microseconds)
        key.separate()
        key.append(call.api.name)
        key.separate()
        key.append(call.generation?.rawValue ?? "")
        key.separate()
        appendFields(call.fields, to: &key)
        key.separate()
        key.append(weighted.hasToken ? "true" : "false")
        key.separate()
        key.append(weighted.orphan ? "true" : "false")
    }

    private static func appendFields(_ fields: [String]?, to key: inout SortKey) {
        guard let fields else {
            key.bytes.append(UInt8(ascii: "*"))
            return
        }
        for (index, field) in fields.enumerated() {
            if index > 0 { key.bytes.append(UInt8(ascii: ",")) }
            key.append(field)
        }
    }
}
