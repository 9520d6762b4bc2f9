/// A length of time in microseconds, for comparisons against `Timestamp` differences.
package struct Duration64: Sendable, Hashable, Comparable {
    package var microseconds: Int64

    /// The lengths a user may give, in seconds: one microsecond up to the span of the years
    /// 1 to 9999 that timestamps cover. Any timestamp plus or minus a length in this range is an
    /// exact `Int64` of microseconds (at most about 5.7e17 of the 9.2e18 available), so session
    /// and reorder arithmetic never overflows; options are checked against this range first.
    package static let secondsRange: ClosedRange<Double> = 0.000_001...315_537_897_600

    /// A length of `seconds`, its magnitude clamped to `secondsRange.upperBound` (NaN gives 0).
    ///
    /// Clamping rather than trapping keeps this total; the command line rejects values outside
    /// the range with a usage error before they get here (`OptionValues.seconds`).
    package init(seconds: Double) {
        let bounded = seconds.isNaN ? 0 : min(max(seconds, -Duration64.secondsRange.upperBound), Duration64.secondsRange.upperBound)
        self.microseconds = Int64(roundingChecked: bounded * 1_000_000) ?? 0
    }

    /// A span of time as a message says it: `45 s`, `14 min`, `3 h 12 min`, `2 days` (rounded up).
    package static func spoken(seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        switch whole {
        case ..<60: return "\(whole) s"
        case ..<3600: return "\(whole / 60) min"
        case ..<86_400: return whole % 3600 / 60 == 0 ? "\(whole / 3600) h" : "\(whole / 3600) h \(whole % 3600 / 60) min"
        default: return Money.count(whole / 86_400, "day", "days")
        }
    }

    package static func < (lhs: Duration64, rhs: Duration64) -> Bool {
        lhs.microseconds < rhs.microseconds
    }
}
