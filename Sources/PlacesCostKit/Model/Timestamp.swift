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

    public init(seconds: Double) {
        self.microseconds = Int64((seconds * 1_000_000).rounded())
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
