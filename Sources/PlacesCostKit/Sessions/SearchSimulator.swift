/// Makes the searches of a what-if scenario (`placescost simulate`) without any log.
///
/// Searches are built as a few weighted prototypes (completed / abandoned, and the two whole
/// request counts around a fractional mean), so a simulation of millions of searches prices as
/// fast as one of ten.
struct SearchSimulator: Sendable {
    enum Typing: Sendable, Equatable {
        /// Characters typed before selecting (or giving up); one request per character past the delay.
        case characters(Int)
        /// Mean autocomplete calls per search made now, with the app's current delay: the searches
        /// also typed the delay's characters, which a shorter delay sends.
        case requests(Double)
    }

    var searchesPerMonth: Int
    var typing: Typing
    /// The delay the app uses now (`--delay`).
    var currentDelay: Int
    /// Share of searches that end with a selection.
    var completionRate: Double
    /// Field mask of each selection's Place Details call.
    var fields: [String]

    init(searchesPerMonth: Int, typing: Typing, currentDelay: Int, completionRate: Double, fields: [String]) {
        self.searchesPerMonth = searchesPerMonth
        self.typing = typing
        self.currentDelay = currentDelay
        self.completionRate = completionRate
        self.fields = fields
    }

    /// One month's searches as (search, weight) pairs, every search starting at `start`.
    func prototypes(start: Timestamp) -> [(search: Search, weight: Int)] {
        let completed = Int((Double(searchesPerMonth) * completionRate).rounded())
        let groups: [(count: Int, completed: Bool)] = [(completed, true), (searchesPerMonth - completed, false)]
        var result: [(Search, Int)] = []
        for group in groups where group.count > 0 {
            for (lengths, weight) in typedLengths(searches: group.count) where weight > 0 {
                let selection = group.completed ? Selection(api: .placeDetails, time: start, fields: fields, generation: nil) : nil
                result.append((Search(
                    kind: .session, outcome: group.completed ? .completed : .abandoned, requestInputLengths: lengths,
                    selection: selection, startedAt: start, endedAt: start
                ), weight))
            }
        }
        return result
    }

    /// Input lengths of each request, and how many searches type that way.
    ///
    /// `characters(C)`: lengths 1...C. `requests(R)` with delay K: lengths 1...K+n, with n the two
    /// whole numbers around R weighted so the searches make round(searches x R) requests in all
    /// past the delay. The lengths start at 1 whatever K: R requests sent after the delay are
    /// K+R characters typed, and every delay under K sends some of those K (`docs/cli.md`,
    /// `simulate`), so `requests(R)` with delay K is `characters(K+R)` when R is whole.
    private func typedLengths(searches: Int) -> [([Int?], Int)] {
        switch typing {
        case .characters(let count):
            return [((1...max(count, 1)).map { $0 }, searches)]
        case .requests(let mean):
            let total = Int((Double(searches) * mean).rounded())
            let low = total / searches
            let high = total - low * searches  // searches making one more request
            func lengths(_ n: Int) -> [Int?] { (1...(currentDelay + max(n, 1))).map { $0 } }
            return [(lengths(low), searches - high), (lengths(low + 1), high)]
        }
    }

    /// Mean autocomplete calls per search at `delay`.
    func meanRequests(delay: Int, start: Timestamp = Timestamp(microseconds: 0)) -> Double {
        let prototypes = prototypes(start: start)
        let total = prototypes.reduce(0) { $0 + $1.search.keptRequests(delay: delay) * $1.weight }
        let searches = prototypes.reduce(0) { $0 + $1.weight }
        return searches == 0 ? 0 : Double(total) / Double(searches)
    }
}
