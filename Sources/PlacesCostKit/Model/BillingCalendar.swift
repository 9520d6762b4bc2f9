import Foundation

/// Which billing period a moment falls in: the calendar month in the report's time zone, and
/// which side of each price table's dated session rule the day is on.
///
/// Searches and calls are counted per period, so the Sessions stage can reduce millions of them
/// to a few thousand distinct shapes without changing any bill. `TimeZone.secondsFromGMT(for:)`
/// costs about a microsecond, so answers are cached per UTC minute: time-zone transitions fall
/// on whole minutes, so every second of a minute has the same offset.
package struct BillingCalendar: Sendable {
    /// A billing period: `month = year * 12 + month - 1`, and the number of rule start days on or
    /// before the day.
    package struct Period: Hashable, Sendable, Comparable {
        package var month: Int32
        package var ruleEpoch: Int32

        package static func < (lhs: Period, rhs: Period) -> Bool {
            (lhs.month, lhs.ruleEpoch) < (rhs.month, rhs.ruleEpoch)
        }
    }

    package let timeZone: TimeZone
    /// Days since the epoch from which a price table's session rule changes, sorted.
    package let ruleStartDays: [Int]
    private var cachedMinute: Int64 = .min
    private var cachedMonth: Int32 = 0
    private var cachedDayMinute: Int64 = .min
    private var cachedOffset: Int64 = 0

    package init(timeZone: TimeZone = TimeZone(identifier: "UTC")!, ruleStartDays: [Int] = []) {
        self.timeZone = timeZone
        self.ruleStartDays = Array(Set(ruleStartDays)).sorted()
    }

    /// The period of `time`.
    package mutating func period(of time: Timestamp) -> Period {
        Period(month: monthIndex(of: time), ruleEpoch: ruleEpoch(of: time))
    }

    /// The month index in the time zone: `year * 12 + month - 1`.
    package mutating func monthIndex(of time: Timestamp) -> Int32 {
        let seconds = time.microseconds / 1_000_000 - (time.microseconds % 1_000_000 < 0 ? 1 : 0)
        let minute = seconds >= 0 ? seconds / 60 : (seconds - 59) / 60
        if minute == cachedMinute { return cachedMonth }
        let month = Int32(BillingCalendar.month(ofSecond: seconds, in: timeZone).index)
        cachedMinute = minute
        cachedMonth = month
        return month
    }

    /// The calendar day of `time` in the time zone, as days since 1970-01-01 (`--by day`).
    package mutating func day(of time: Timestamp) -> Int32 {
        let seconds = time.microseconds / 1_000_000 - (time.microseconds % 1_000_000 < 0 ? 1 : 0)
        let minute = seconds >= 0 ? seconds / 60 : (seconds - 59) / 60
        if minute != cachedDayMinute {
            cachedOffset = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))))
            cachedDayMinute = minute
        }
        let local = seconds + cachedOffset
        return Int32(local >= 0 ? local / 86_400 : (local - 86_399) / 86_400)
    }

    /// The day rule applies per search by its UTC day (`SearchPricer`), as days since the epoch.
    package func ruleEpoch(of time: Timestamp) -> Int32 {
        guard !ruleStartDays.isEmpty else { return 0 }
        let day = Int(time.microseconds / 86_400_000_000)
        var epoch: Int32 = 0
        for start in ruleStartDays where day >= start { epoch += 1 }
        return epoch
    }

    /// The calendar month of a second since the epoch, in `timeZone`.
    static func month(ofSecond seconds: Int64, in timeZone: TimeZone) -> (index: Int, year: Int, month: Int) {
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
        let local = seconds + Int64(offset)
        let days = Int(local >= 0 ? local / 86_400 : (local - 86_399) / 86_400)
        let date = CivilDate(daysSinceEpoch: days)
        return (date.year * 12 + date.month - 1, date.year, date.month)
    }
}
