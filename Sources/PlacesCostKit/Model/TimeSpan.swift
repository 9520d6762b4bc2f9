/// The earliest and latest of a set of times; empty until a time is included.
package struct TimeSpan: Sendable, Equatable {
    package private(set) var first: Timestamp?
    package private(set) var last: Timestamp?

    package init() {}

    package mutating func include(_ time: Timestamp) {
        first = Swift.min(first ?? time, time)
        last = Swift.max(last ?? time, time)
    }

    package mutating func merge(_ other: TimeSpan) {
        if let first = other.first { include(first) }
        if let last = other.last { include(last) }
    }
}
