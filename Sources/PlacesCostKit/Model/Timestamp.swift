/// A point in time, as microseconds since the Unix epoch (UTC).
///
/// Microseconds keep RFC 3339 fractional seconds exact to the precision exporters write, and an
/// `Int64` of them spans every year from 1 to 9999, so ordering and timeout arithmetic are exact
/// integer operations.
public struct Timestamp: Sendable, Hashable, Comparable {
    public var microseconds: Int64

    public init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    public init(epochMilliseconds: Int64) {
        self.microseconds = epochMilliseconds * 1_000
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.microseconds < rhs.microseconds
    }
}

/// A length of time in microseconds, for comparisons against `Timestamp` differences.
public struct Duration64: Sendable, Hashable, Comparable {
    public var microseconds: Int64

    /// The lengths a user may give, in seconds: one microsecond up to the span of the years
    /// 1 to 9999 that timestamps cover. Any timestamp plus or minus a length in this range is an
    /// exact `Int64` of microseconds (at most about 5.7e17 of the 9.2e18 available), so session
    /// and reorder arithmetic never overflows; options are checked against this range first.
    public static let secondsRange: ClosedRange<Double> = 0.000_001...315_537_897_600

    /// A length of `seconds`, its magnitude clamped to `secondsRange.upperBound` (NaN gives 0).
    ///
    /// Clamping rather than trapping keeps this total; the command line rejects values outside
    /// the range with a usage error before they get here (`OptionValues.seconds`).
    public init(seconds: Double) {
        let bounded = seconds.isNaN ? 0 : min(max(seconds, -Duration64.secondsRange.upperBound), Duration64.secondsRange.upperBound)
        self.microseconds = Int64(roundingChecked: bounded * 1_000_000) ?? 0
    }

    public static func < (lhs: Duration64, rhs: Duration64) -> Bool {
        lhs.microseconds < rhs.microseconds
    }
}

extension Timestamp {
    /// The time elapsed from `earlier` to `self`.
    public func duration(since earlier: Timestamp) -> Duration64 {
        var duration = Duration64(seconds: 0)
        duration.microseconds = microseconds - earlier.microseconds
        return duration
    }
}
