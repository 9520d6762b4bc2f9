import Foundation

/// A log's searches and calls outside every search, by shape, with no price table's SKUs in
/// them: what `report.json` keeps (`traffic`) so that `simulate --from` can bill the measured
/// traffic with a table of either API generation, by the same rules `analyze --pricing` bills it.
///
/// A shape is what pricing reads of a search: the billing period it started in, its kind and
/// outcome, its API generation, its input lengths as delays need them (`LengthProfile`), and
/// its selection's API, generation and field mask. Two searches of one shape cost the same
/// under every strategy, delay and table, so a shape and its count stand for every search of
/// it. No typed text, token, user id or key is kept; field masks are field names, listed once.
struct MeasuredTraffic: Sendable, Equatable {
    /// A billing period: a calendar month in the report's time zone and the earliest call in it
    /// on one side of every dated session rule (its UTC day decides the rule).
    struct Period: Sendable, Equatable {
        /// `YYYY-MM`.
        var month: String
        var firstCall: Timestamp
    }

    struct SearchShape: Sendable, Equatable {
        var period: Int
        var kind: Search.Kind
        var outcome: Search.Outcome
        var generation: APIGeneration?
        var requests: Int
        /// The last call's input length (characters at selection); nil when not recorded.
        var lastLength: Int?
        /// Calls before the last by input length: index `k - 1` holds those of length `k` (at
        /// most 1 for index 0); longer and unrecorded ones are the rest of `requests - 1`.
        var shortLengths: [Int]
        var selectionAPI: API?
        var selectionGeneration: APIGeneration?
        /// Index into `fieldMasks`; nil for no mask (every field) or no selection.
        var fields: Int?
        var count: Int
    }

    struct CallShape: Sendable, Equatable {
        var period: Int
        var api: API
        var generation: APIGeneration?
        var fields: Int?
        var count: Int
    }

    /// Length classes kept (the largest delay priced): delays above it cannot be priced from it.
    var lengthClasses: Int
    /// Days (since the epoch, UTC) at which the periods of a month were split, the start days of
    /// the dated session rules of the tables the log was priced with: a table whose rule starts
    /// on another day inside the log's months cannot tell its searches' sides from the periods.
    var ruleDays: [Int]
    var fieldMasks: [[String]]
    var periods: [Period]
    var searches: [SearchShape]
    var calls: [CallShape]

    /// The member names of a search row and of a call row, in row order.
    static let searchColumns = [
        "period", "kind", "outcome", "api_version", "requests", "last_length", "short_lengths",
        "selection", "selection_api_version", "fields", "count",
    ]
    static let callColumns = ["period", "api", "api_version", "fields", "count"]

    /// The shapes of an analysis' representatives; `month` gives a time's billing month label,
    /// as the pricing took it.
    init(_ summary: SearchSummary, lengthClasses: Int, ruleDays: [Int], month: (Timestamp) -> String) {
        self.lengthClasses = lengthClasses
        self.ruleDays = ruleDays
        var masks: [[String]] = []
        var maskIndex: [[String]: Int] = [:]
        func mask(_ fields: [String]?) -> Int? {
            guard let fields else { return nil }
            if let known = maskIndex[fields] { return known }
            maskIndex[fields] = masks.count
            masks.append(fields)
            return masks.count - 1
        }
        // Representatives of one period share its earliest time.
        let times = Set(summary.searches.map(\.search.startedAt) + summary.baseCalls.map(\.call.time)).sorted()
        let periodIndex = Dictionary(uniqueKeysWithValues: times.enumerated().map { ($1, $0) })
        periods = times.map { Period(month: month($0), firstCall: $0) }
        searches = summary.searches.map { weighted in
            let search = weighted.search
            let lengths = search.requestInputLengths
            var short = Array(repeating: 0, count: lengthClasses)
            for length in lengths.dropLast() {
                if let length, length <= lengthClasses, lengthClasses > 0 { short[max(length, 1) - 1] += 1 }
            }
            while short.last == 0 { short.removeLast() }
            let selection = search.selection
            return SearchShape(
                period: periodIndex[search.startedAt]!, kind: search.kind, outcome: search.outcome, generation: search.generation,
                requests: lengths.count, lastLength: lengths.last ?? nil, shortLengths: short,
                selectionAPI: selection?.api, selectionGeneration: selection?.generation,
                fields: selection.flatMap { mask($0.fields) }, count: weighted.count
            )
        }
        // Whether a call carried a token changes no price: such shapes are one.
        var calls: [CallShape] = []
        var callIndex: [String: Int] = [:]
        for weighted in summary.baseCalls {
            let call = weighted.call
            let shape = CallShape(
                period: periodIndex[call.time]!, api: call.api, generation: call.generation, fields: mask(call.fields), count: weighted.count
            )
            let key = "\(shape.period)|\(call.api.name)|\(call.generation?.rawValue ?? "")|\(shape.fields.map(String.init) ?? "*")"
            if let index = callIndex[key] {
                calls[index].count += weighted.count
            } else {
                callIndex[key] = calls.count
                calls.append(shape)
            }
        }
        self.calls = calls
        fieldMasks = masks
    }

    init(lengthClasses: Int, ruleDays: [Int], fieldMasks: [[String]], periods: [Period], searches: [SearchShape], calls: [CallShape]) {
        self.lengthClasses = lengthClasses
        self.ruleDays = ruleDays
        self.fieldMasks = fieldMasks
        self.periods = periods
        self.searches = searches
        self.calls = calls
    }

    /// Searches of every shape.
    var searchCount: Int { searches.reduce(0) { $0 + $1.count } }

    /// The day a dated rule starting on `day` would cut one of the periods in two: inside the
    /// months of the periods, after the first call, and not a day the periods were split on.
    func splitsAPeriod(_ day: Int) -> Bool {
        guard !ruleDays.contains(day), let first = periods.map(\.firstCall.daysSinceEpoch).min(),
              let lastMonth = periods.compactMap({ Forecast.monthIndex($0.month) }).max() else { return false }
        // The day after the last month, a day late for a time zone east of UTC.
        let end = CivilDate.daysSinceEpoch(year: (lastMonth + 1) / 12, month: (lastMonth + 1) % 12 + 1, day: 1) + 1
        return day > first && day <= end
    }

    /// The searches and calls as the cost engine prices them: each shape's representative, with
    /// its count, billed in its period's month. They price as the log's own searches do.
    func items() -> [CostCalculator.Item] {
        var items: [CostCalculator.Item] = []
        items.reserveCapacity(searches.count + calls.count)
        let months = periods.map { CostCalculator.Month(index: Forecast.monthIndex($0.month) ?? 0, label: $0.month) }
        for shape in searches {
            let period = periods[shape.period]
            var lengths: [Int?] = []
            for (index, count) in shape.shortLengths.enumerated() {
                lengths += Array(repeating: index + 1, count: count)
            }
            if shape.requests > 0 {
                lengths += Array(repeating: nil, count: max(shape.requests - 1 - lengths.count, 0))
                lengths.append(shape.lastLength)
            }
            let selection = shape.selectionAPI.map {
                Selection(api: $0, time: period.firstCall, fields: shape.fields.map { fieldMasks[$0] }, generation: shape.selectionGeneration)
            }
            let search = Search(
                kind: shape.kind, outcome: shape.outcome, requestInputLengths: lengths, selection: selection,
                startedAt: period.firstCall, endedAt: period.firstCall, generation: shape.generation
            )
            items.append(CostCalculator.Item(search: search, baseCall: nil, weight: shape.count, month: months[shape.period]))
        }
        for shape in calls {
            let period = periods[shape.period]
            let call = Call(time: period.firstCall, api: shape.api, fields: shape.fields.map { fieldMasks[$0] }, generation: shape.generation)
            items.append(CostCalculator.Item(search: nil, baseCall: call, weight: shape.count, month: months[shape.period]))
        }
        return items
    }
}
