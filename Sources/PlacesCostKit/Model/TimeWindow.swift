/// The period an analysis covers (`--since`, `--until`); open-ended by default.
package struct TimeWindow: Sendable, Equatable {
    /// Inclusive lower bound.
    package var start: Timestamp?
    /// Exclusive upper bound.
    package var end: Timestamp?

    package init(start: Timestamp? = nil, end: Timestamp? = nil) {
        self.start = start
        self.end = end
    }

    package func contains(_ time: Timestamp) -> Bool {
        if let start, time < start { return false }
        if let end, time >= end { return false }
        return true
    }

    /// The period for people: `from 2027-01-01T00:00:00Z until 2027-02-01T00:00:00Z` (the end
    /// excluded), with either side left out when open.
    package var described: String {
        switch (start, end) {
        case (let start?, let end?): "from \(start.rfc3339) until \(end.rfc3339)"
        case (let start?, nil): "from \(start.rfc3339) on"
        case (nil, let end?): "before \(end.rfc3339)"
        case (nil, nil): "all of it"
        }
    }
}
