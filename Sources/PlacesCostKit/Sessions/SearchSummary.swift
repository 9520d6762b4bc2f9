/// The Sessions stage's result as the later stages read it: one representative per distinct
/// search shape and per distinct call outside every search, each with how many it stands for.
///
/// A representative prices, counts and advises exactly like each search it stands for (see
/// `LengthProfile` and `SearchTally`), so a log of millions of searches is priced in time
/// proportional to its few thousand shapes. The lists are sorted by content, so the result does
/// not depend on the order calls were read in or on how many threads read them.
public struct SearchSummary: Sendable {
    public struct WeightedSearch: Sendable, Equatable {
        public var search: Search
        public var count: Int
    }

    public struct WeightedCall: Sendable, Equatable {
        public var call: Call
        public var count: Int
        /// Whether the calls carried a session token (a representative keeps none).
        public var hasToken: Bool
        /// Details calls on a fresh token (`details_without_autocomplete`).
        public var orphan: Bool
    }

    /// Compared timeouts (`sessions.md`): sessions expired and searches had the timeout been this.
    public struct Alternative: Sendable, Equatable {
        public var timeout: Duration64
        public var expired: Int
        public var searches: Int
    }

    public var searches: [WeightedSearch]
    /// Calls that belong to no search, priced the same in every strategy.
    public var baseCalls: [WeightedCall]
    public var anomalies: Anomalies
    public var alternatives: [Alternative]
    /// Every search in start order (ties by first call), when the analysis kept them for
    /// `searches.csv`; empty otherwise.
    public var keptSearches: [Search]

    /// Details calls on a fresh token.
    public var detailsWithoutAutocomplete: [WeightedCall] { baseCalls.filter(\.orphan) }

    /// Turns a tally's ids back into values and sorts the representatives by content.
    init(tally: SearchTally, catalogs: CallCatalogs, clip: Int, alternativeTimeouts: [Duration64]) {
        var searches: [WeightedSearch] = []
        for (index, key) in tally.shapes.enumerated() where tally.shapeCounts[index] > 0 {
            let time = Timestamp(microseconds: tally.periodTimes[key.period]!)
            let selection: Selection? = key.selectionAPI == 0 ? nil : Selection(
                api: API(code: key.selectionAPI, otherName: "other"), time: time,
                fields: catalogs.fieldMasks.value(key.selectionFields),
                generation: APIGeneration(code: key.selectionGeneration)
            )
            let search = Search(
                kind: key.kind, outcome: key.outcome, requestInputLengths: key.lengths.representativeLengths(clip: clip),
                selection: selection, startedAt: time, endedAt: time, generation: APIGeneration(code: key.generation)
            )
            searches.append(WeightedSearch(search: search, count: tally.shapeCounts[index]))
        }
        var calls: [WeightedCall] = []
        for (key, count) in tally.baseCalls where count > 0 {
            let call = Call(
                time: Timestamp(microseconds: tally.periodTimes[key.period]!),
                api: API(code: key.api, otherName: catalogs.labels.value(key.otherAPI) ?? ""),
                fields: catalogs.fieldMasks.value(key.fields), generation: APIGeneration(code: key.generation)
            )
            calls.append(WeightedCall(call: call, count: count, hasToken: key.hasToken, orphan: key.orphan))
        }
        self.searches = searches.map { (SearchSummary.sortKey($0.search), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
        self.baseCalls = calls.map { (SearchSummary.sortKey($0), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
        self.anomalies = tally.anomalies
        let userSearches = searches.reduce(0) { $0 + $1.count } - tally.tokenSearches
        self.alternatives = zip(alternativeTimeouts, tally.alternatives).map {
            Alternative(timeout: $0, expired: $1.expired, searches: $1.tokenSearches + userSearches)
        }
        self.keptSearches = tally.kept.sorted { ($0.search.startedAt, $0.sequence) < ($1.search.startedAt, $1.sequence) }.map(\.search)
    }

    /// The slow twin's route: every search and base call of a `SessionBuilder` analysis, tallied.
    public init(_ analysis: SessionAnalysis, calendar: BillingCalendar, clip: Int, keepSearches: Bool = false) {
        var calendar = calendar
        let catalogs = CallCatalogs()
        var tally = SearchTally()
        for (index, search) in analysis.searches.enumerated() {
            var lengths = LengthProfile()
            for length in search.requestInputLengths { lengths.add(length, clip: clip) }
            let key = SearchTally.ShapeKey(
                period: calendar.period(of: search.startedAt), lengths: lengths,
                selectionFields: catalogs.fieldMasks.id(for: search.selection?.fields),
                kind: search.kind, outcome: search.outcome, generation: APIGeneration.code(search.generation),
                selectionAPI: search.selection?.api.code ?? 0,
                selectionGeneration: APIGeneration.code(search.selection?.generation)
            )
            tally.add(key, time: search.startedAt.microseconds)
            if keepSearches { tally.kept.append((search, Int64(index))) }
        }
        let orphans = analysis.detailsWithoutAutocomplete
        var orphanCounts: [Call: Int] = [:]
        for call in orphans { orphanCounts[call, default: 0] += 1 }
        for call in analysis.baseCalls {
            var orphan = false
            if let left = orphanCounts[call], left > 0 {
                orphanCounts[call] = left - 1
                orphan = true
            }
            let key = SearchTally.BaseCallKey(
                period: calendar.period(of: call.time), fields: catalogs.fieldMasks.id(for: call.fields),
                otherAPI: call.api.code == 8 ? catalogs.labels.id(for: call.api.name) : 0, api: call.api.code,
                generation: APIGeneration.code(call.generation), hasToken: call.sessionToken != nil, orphan: orphan
            )
            tally.addBaseCall(key, time: call.time.microseconds)
        }
        tally.anomalies = analysis.anomalies
        self.init(tally: tally, catalogs: catalogs, clip: clip, alternativeTimeouts: [])
    }

    private static func sortKey(_ search: Search) -> String {
        let lengths = search.requestInputLengths.map { $0.map(String.init) ?? "-" }.joined(separator: ",")
        let selection = search.selection.map { "\($0.api.name)|\($0.fields?.joined(separator: ",") ?? "*")|\($0.generation?.rawValue ?? "")" } ?? ""
        return "\(search.startedAt.microseconds)|\(search.kind.rawValue)|\(search.outcome.rawValue)|\(search.generation?.rawValue ?? "")|\(lengths)|\(selection)"
    }

    private static func sortKey(_ weighted: WeightedCall) -> String {
        let call = weighted.call
        return "\(call.time.microseconds)|\(call.api.name)|\(call.generation?.rawValue ?? "")|\(call.fields?.joined(separator: ",") ?? "*")|\(weighted.hasToken)|\(weighted.orphan)"
    }
}
