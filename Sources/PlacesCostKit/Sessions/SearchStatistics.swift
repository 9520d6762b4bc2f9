/// Counts and distributions over searches, as the report gives them (`sessions.md`, last paragraph).
public struct SearchStatistics: Sendable, Equatable {
    public var total = 0
    public var completed = 0
    /// Abandoned at the end of the log plus expired by the timeout.
    public var abandoned = 0
    public var expired = 0
    public var byKind: [Search.Kind: Int] = [:]
    /// Mean autocomplete calls per search, over all searches.
    public var meanRequests = 0.0
    public var meanRequestsCompleted = 0.0
    public var medianRequests = 0.0
    public var p90Requests = 0.0
    /// Searches by number of autocomplete calls.
    public var requestsHistogram: [Int: Int] = [:]
    /// Completed searches by characters typed at selection (where recorded).
    public var charactersAtSelectionHistogram: [Int: Int] = [:]
    public var meanCharactersAtSelection = 0.0

    public init(_ searches: [Search]) {
        total = searches.count
        var requestCounts: [Int] = []
        requestCounts.reserveCapacity(searches.count)
        var completedRequests = 0
        var characters: [Int] = []
        for search in searches {
            byKind[search.kind, default: 0] += 1
            requestCounts.append(search.requests)
            requestsHistogram[search.requests, default: 0] += 1
            switch search.outcome {
            case .completed:
                completed += 1
                completedRequests += search.requests
            case .abandoned:
                abandoned += 1
            case .expired:
                abandoned += 1
                expired += 1
            }
            if let typed = search.charactersAtSelection {
                characters.append(typed)
                charactersAtSelectionHistogram[typed, default: 0] += 1
            }
        }
        guard total > 0 else { return }
        meanRequests = Double(requestCounts.reduce(0, +)) / Double(total)
        meanRequestsCompleted = completed == 0 ? 0 : Double(completedRequests) / Double(completed)
        requestCounts.sort()
        medianRequests = SearchStatistics.percentile(requestCounts, 0.5)
        p90Requests = SearchStatistics.percentile(requestCounts, 0.9)
        meanCharactersAtSelection = characters.isEmpty ? 0 : Double(characters.reduce(0, +)) / Double(characters.count)
    }

    /// Mean autocomplete calls per search, over all searches, when the app waits for more than
    /// `delay` characters (`Search.keptRequests(delay:)`); 0 without searches.
    public static func meanRequests(_ searches: [Search], delay: Int) -> Double {
        guard !searches.isEmpty else { return 0 }
        return Double(searches.reduce(0) { $0 + $1.keptRequests(delay: delay) }) / Double(searches.count)
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
