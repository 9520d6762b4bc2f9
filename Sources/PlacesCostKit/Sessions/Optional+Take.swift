/// Moving a value out of an optional in one step, leaving `nil` behind.
extension Optional {
    /// The value, leaving `nil` in its place.
    mutating func take() -> Wrapped? {
        defer { self = nil }
        return self
    }
}
