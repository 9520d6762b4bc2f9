extension Timestamp {
    /// The second and microsecond within its minute that a clock reading stands for, where the
    /// second may be 60: a leap second (`23:59:60Z`, which RFC 3339 allows in any minute once
    /// its UTC offset is applied).
    ///
    /// A leap second is taken as the last microsecond of its minute (`hh:mm:59.999999`),
    /// whatever its fraction. Unix time, and so `Timestamp`, has no 61st second; of the two
    /// instants it could be, this one keeps the log's order (after every `:59.x` of the minute,
    /// before the next minute), which session timeouts and the reorder buffer rely on, and keeps
    /// the call on its calendar day and month, where Google bills it; the next second
    /// (`00:00:00` of the next day at a 23:59:60 leap second) would move it into the next month
    /// on 31 December. Every timestamp reader, fast and slow, calls this one rule.
    ///
    /// - Parameters:
    ///   - second: 0...60, already checked by the caller.
    ///   - microseconds: the fraction read with it (0 when the form has none).
    @inline(__always)
    static func clock(second: Int, microseconds: Int) -> (second: Int, microseconds: Int) {
        second == 60 ? (59, 999_999) : (second, microseconds)
    }
}
