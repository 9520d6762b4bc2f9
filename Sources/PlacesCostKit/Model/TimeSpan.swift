/// The earliest and latest of a set of times; empty until a time is included.
public struct TimeSpan: Sendable, Equatable {
    public private(set) var first: Timestamp?
    public private(set) var last: Timestamp?

    public init() {}

    public mutating func include(_ time: Timestamp) {
        first = Swift.min(first ?? time, time)
        last = Swift.max(last ?? time, time)
    }

    public mutating func merge(_ other: TimeSpan) {
        if let first = other.first { include(first) }
        if let last = other.last { include(last) }
    }
}
