/// Counts and distributions over searches, as the report gives them (`docs/sessions.md`, "What the report counts").
struct SearchStatistics: Sendable, Equatable {
    var total = 0
    var completed = 0
    /// Abandoned at the end of the log plus expired by the timeout.
    var abandoned = 0
    var expired = 0
    var byKind: [Search.Kind: Int] = [:]
    /// Mean autocomplete calls per search, over all searches.
    var meanRequests = 0.0
    var meanRequestsCompleted = 0.0
    var medianRequests = 0.0
    var p90Requests = 0.0
    /// Searches by number of autocomplete calls.
    var requestsHistogram: [Int: Int] = [:]
    /// Completed searches by characters typed at selection (where recorded).
    var charactersAtSelectionHistogram: [Int: Int] = [:]
    var meanCharactersAtSelection = 0.0

    init(_ searches: [Search]) {
        self.init(weighted: searches.map { SearchSummary.WeightedSearch(search: $0, count: 1) })
    }

    /// The statistics of searches given as representatives with counts (`SearchSummary`).
    init(weighted searches: [SearchSummary.WeightedSearch]) {
        var requestCounts: [Int: Int] = [:]
        var totalRequests = 0
        var completedRequests = 0
        var characterSum = 0
        var characterCount = 0
        for entry in searches {
            let search = entry.search
            let count = entry.count
            total += count
            byKind[search.kind, default: 0] += count
            requestCounts[search.requests, default: 0] += count
            totalRequests += search.requests * count
            switch search.outcome {
            case .completed:
                completed += count
                completedRequests += search.requests * count
            case .abandoned:
                abandoned += count
            case .expired:
                abandoned += count
                expired += count
            }
            if let typed = search.charactersAtSelection {
                characterSum += typed * count
                characterCount += count
                charactersAtSelectionHistogram[typed, default: 0] += count
            }
        }
        requestsHistogram = requestCounts
        guard total > 0 else { return }
        meanRequests = Double(totalRequests) / Double(total)
        meanRequestsCompleted = completed == 0 ? 0 : Double(completedRequests) / Double(completed)
        let sorted = requestCounts.keys.sorted().map { (value: $0, count: requestCounts[$0]!) }
        medianRequests = SearchStatistics.percentile(sorted, total: total, 0.5)
        p90Requests = SearchStatistics.percentile(sorted, total: total, 0.9)
        meanCharactersAtSelection = characterCount == 0 ? 0 : Double(characterSum) / Double(characterCount)
    }

    /// Mean autocomplete calls per search, over all searches, when the app waits for more than
    /// `delay` characters (`Search.keptRequests(delay:)`); 0 without searches.
    static func meanRequests(_ searches: [Search], delay: Int) -> Double {
        meanRequests(weighted: searches.map { SearchSummary.WeightedSearch(search: $0, count: 1) }, delay: delay)
    }

    static func meanRequests(weighted searches: [SearchSummary.WeightedSearch], delay: Int) -> Double {
        let total = searches.reduce(0) { $0 + $1.count }
        guard total > 0 else { return 0 }
        return Double(searches.reduce(0) { $0 + $1.search.keptRequests(delay: delay) * $1.count }) / Double(total)
    }

    /// The percentile of values given as a sorted histogram (`value`, `count`), the same as
    /// `percentile(_:_:)` over the values listed out.
    static func percentile(_ sorted: [(value: Int, count: Int)], total: Int, _ fraction: Double) -> Double {
        guard total > 0 else { return 0 }
        let position = fraction * Double(total - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, total - 1)
        let weight = position - Double(lower)
        func value(at rank: Int) -> Int {
            var seen = 0
            for entry in sorted {
                seen += entry.count
                if rank < seen { return entry.value }
            }
            return sorted.last!.value
        }
        return Double(value(at: lower)) * (1 - weight) + Double(value(at: upper)) * weight
    }

    /// Linear-interpolated percentile of sorted values (the common "type 7" definition).
    static func percentile(_ sorted: [Int], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let position = fraction * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        let weight = position - Double(lower)
        return Double(sorted[lower]) * (1 - weight) + Double(sorted[upper]) * weight
    }
}
