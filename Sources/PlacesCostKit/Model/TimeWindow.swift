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

    /// The period for people: `from 2027-01-01T00:00:00Z until 2027-02-01T00:00:00Z` (the end
    /// excluded), with either side left out when open.
    public var described: String {
        switch (start, end) {
        case (let start?, let end?): "from \(start.rfc3339) until \(end.rfc3339)"
        case (let start?, nil): "from \(start.rfc3339) on"
        case (nil, let end?): "before \(end.rfc3339)"
        case (nil, nil): "all of it"
        }
    }
}
