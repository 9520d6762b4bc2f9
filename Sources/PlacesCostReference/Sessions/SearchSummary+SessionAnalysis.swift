import PlacesCostKit

extension SearchSummary {
    /// The slow twin's route: every search and base call of a `SessionBuilder` analysis, tallied.
    init(_ analysis: SessionAnalysis, calendar: BillingCalendar, clip: Int, keepSearches: Bool = false) {
        var calendar = calendar
        let catalogs = CallCatalogs()
        var tally = SearchTally()
        for (index, search) in analysis.searches.enumerated() {
            var lengths = LengthProfile()
            for length in search.requestInputLengths { lengths.add(length, clip: clip) }
            let key = SearchTally.ShapeKey(
                period: calendar.period(of: search.startedAt), lengths: lengths,
                selectionFields: catalogs.fieldMasks.id(for: search.selection?.fields),
                kind: search.kind, outcome: search.outcome, generation: search.generation,
                selectionAPI: search.selection?.api.code,
                selectionGeneration: search.selection?.generation
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
                otherAPI: call.api.isOther ? catalogs.labels.id(for: call.api.name) : 0, api: call.api.code,
                generation: call.generation, hasToken: call.sessionToken != nil, orphan: orphan
            )
            tally.addBaseCall(key, time: call.time.microseconds)
        }
        tally.anomalies = analysis.anomalies
        self.init(tally: tally, catalogs: catalogs, clip: clip, alternativeTimeouts: [])
    }
}
