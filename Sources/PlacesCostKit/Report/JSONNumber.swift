/// A number a JSON document can hold: finite by construction.
///
/// JSON has no spelling for NaN or the infinities, so `JSONValue` keeps its non-integer numbers
/// in this type and a report can never print `inf` or `nan`. The stages make sure such values
/// never reach a report (options, price tables and billing exports are range-checked when read).
struct JSONNumber: Sendable, Equatable {
    let value: Double

    /// `value`, or nil when it is NaN or infinite.
    init?(_ value: Double) {
        guard value.isFinite else { return nil }
        self.value = value
    }
}
