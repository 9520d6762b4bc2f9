/// A point in time, as microseconds since the Unix epoch (UTC).
///
/// Microseconds keep RFC 3339 fractional seconds exact to the precision exporters write, and an
/// `Int64` of them spans every year from 1 to 9999, so ordering and timeout arithmetic are exact
/// integer operations.
package struct Timestamp: Sendable, Hashable, Comparable {
    package var microseconds: Int64

    package init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    package init(epochMilliseconds: Int64) {
        self.microseconds = epochMilliseconds * 1_000
    }

    package static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.microseconds < rhs.microseconds
    }
}

extension Timestamp {
    /// The time elapsed from `earlier` to `self`.
    package func duration(since earlier: Timestamp) -> Duration64 {
        var duration = Duration64(seconds: 0)
        duration.microseconds = microseconds - earlier.microseconds
        return duration
    }
}
