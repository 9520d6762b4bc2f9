/// The period an analysis covers (`--since`, `--until`); open-ended by default.
public struct TimeWindow: Sendable, Equatable {
    /// Inclusive lower bound.
    public var start: Timestamp?
    /// Exclusive upper bound.
    public var end: Timestamp?

    public init(start: Timestamp? = nil, end: Timestamp? = nil) {
        self.start = start
        self.end = end
    }

    public func contains(_ time: Timestamp) -> Bool {
        if let start, time < start { return false }
        if let end, time >= end { return false }
        return true
    }
}
