import Foundation

/// Which of the log's calls the estimate prices, set against the bill's period, and the sentence
/// that says so (`placescost reconcile`).
///
/// A bill and a log rarely cover the same days: a log of 2026-10-15 to 2026-11-24 against the
/// bill of October. Priced whole, the log's November would show as every SKU billed too little.
/// So, unless `--since` or `--until` is given, the estimate keeps the calls of the bill's days
/// (`BilledUsage.Period.coveredDays`), each day from midnight to midnight in `--timezone`, the
/// zone the estimate's months are taken in; the same filter as `--since`/`--until` (a
/// `TimeWindow`), so it is exactly the estimate of `analyze --since --until` on those days.
/// `--since`/`--until` given are kept as given, with a sentence when they differ from the bill's.
struct EstimatePeriod: Sendable, Equatable {
    /// What chose the calls priced.
    enum Source: String, Sendable, Equatable {
        /// The bill's days (no `--since`/`--until`).
        case bill
        /// `--since`/`--until`.
        case options
        /// Nothing: the whole log (a bill without dates, or one that shares no day with the log).
        case log
    }

    var source: Source
    /// The calls priced; open when `source` is `log`.
    var window: TimeWindow
    /// The bill's days, first and last included, and the zone they were taken in.
    var billDays: ClosedRange<CivilDate>?
    var timeZone: TimeZone
    /// The log's calls the window left out, and the days they fall on (in `timeZone`), before and
    /// after the window.
    var callsLeftOut: Int = 0
    var daysLeftOut: [ClosedRange<CivilDate>] = []

    /// The whole log priced, the bill's period not used.
    static func wholeLog(billDays: ClosedRange<CivilDate>? = nil, timeZone: TimeZone = TimeZone(identifier: "UTC")!) -> EstimatePeriod {
        EstimatePeriod(source: .log, window: TimeWindow(), billDays: billDays, timeZone: timeZone)
    }

    /// The bill's days as a window of calls: from the first day's midnight to the midnight after
    /// the last, in `zone`.
    static func window(_ days: ClosedRange<CivilDate>, in zone: TimeZone) -> TimeWindow {
        let end = CivilDate(daysSinceEpoch: days.upperBound.daysSinceEpoch + 1)
        return TimeWindow(start: midnight(days.lowerBound, in: zone), end: midnight(end, in: zone))
    }

    /// The moment a day starts in `zone`. The offset is looked up at the UTC midnight, then again
    /// at the moment found, so that a day whose offset differs from the previous day's starts
    /// at its own.
    static func midnight(_ date: CivilDate, in zone: TimeZone) -> Timestamp {
        let local = Int64(date.daysSinceEpoch) * 86_400
        let guess = local - Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(local))))
        let utc = local - Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(guess))))
        return Timestamp(microseconds: utc * 1_000_000)
    }

    /// Records what the window left out: `count` calls from `span.first` to `span.last`, which
    /// lie before its start, after its end, or both.
    mutating func leftOut(_ count: Int, span: TimeSpan) {
        callsLeftOut = count
        daysLeftOut = []
        guard count > 0, let first = span.first, let last = span.last else { return }
        var calendar = BillingCalendar(timeZone: timeZone)
        let day = { (time: Timestamp) in Int(calendar.day(of: time)) }
        if let start = window.start, first < start {
            let lastBefore = min(day(last), day(Timestamp(microseconds: start.microseconds - 1)))
            daysLeftOut.append(CivilDate(daysSinceEpoch: day(first))...CivilDate(daysSinceEpoch: lastBefore))
        }
        if let end = window.end, last >= end {
            daysLeftOut.append(CivilDate(daysSinceEpoch: max(day(first), day(end)))...CivilDate(daysSinceEpoch: day(last)))
        }
    }

    /// Whether the estimate's calls are the bill's days: the bill's window, or `--since`/`--until`
    /// that say the same.
    var matchesBill: Bool {
        switch source {
        case .bill: true
        case .log: false
        case .options: billDays.map { EstimatePeriod.window($0, in: timeZone) == window } ?? false
        }
    }

    /// The bill's days for people: `2026-10-01 to 2026-10-31`.
    var billDaysText: String? {
        billDays.map { EstimatePeriod.days($0) }
    }

    /// The sentence for calls left out for the bill's days, or for `--since`/`--until` that
    /// differ from them; `nil` when there is nothing to say.
    var sentence: String? {
        guard let billDaysText else { return nil }
        switch source {
        case .bill:
            guard callsLeftOut > 0, !daysLeftOut.isEmpty else { return nil }
            let days = daysLeftOut.map { $0.lowerBound == $0.upperBound ? "on \($0.lowerBound.dayText)" : "from \(EstimatePeriod.days($0))" }
            return "The log's calls \(days.joined(separator: " and ")) (\(zoneName)) are outside the bill's period, \(billDaysText), and were left out of the estimate (\(Money.count(callsLeftOut, "call", "calls"))), so both sides count the same days; pass --since and --until to choose the period yourself."
        case .options:
            guard !matchesBill else { return nil }
            return "--since and --until set the estimate's period, \(window.described), which is not the bill's, \(billDaysText) (\(zoneName)): calls of days in only one of the two make the counts differ. Leave out --since and --until to compare the bill's days."
        case .log:
            return nil
        }
    }

    /// The zone as people write it: Foundation calls UTC `GMT`.
    var zoneName: String {
        timeZone.identifier == "GMT" ? "UTC" : timeZone.identifier
    }

    private static func days(_ range: ClosedRange<CivilDate>) -> String {
        "\(range.lowerBound.dayText) to \(range.upperBound.dayText)"
    }
}
