extension Int64 {
    /// `value` rounded to the nearest whole number, or nil when that is not an `Int64` (NaN,
    /// an infinity, or a magnitude of 2^63 or more).
    ///
    /// The one conversion of a user's number (an option, a price, a billed amount, a time) to an
    /// integer: `Int64(_: Double)` traps on exactly the values this returns nil for, so every
    /// conversion that cannot be proved in range by a check just before it goes through here.
    init?(roundingChecked value: Double) {
        self.init(exactly: value.rounded())
    }
}
