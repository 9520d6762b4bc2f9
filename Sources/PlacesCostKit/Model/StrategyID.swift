/// The ways the same searches can be billed (`docs/sessions.md`, "Strategies").
enum StrategyID: String, Sendable, CaseIterable, Hashable, Comparable {
    /// The calls as made, with every rule applied: the bill estimate.
    case current
    /// Every search as a proper session, details with the fields observed.
    case sessionDetails = "session_details"
    /// Sessions with every details field mask cut to address and location.
    case sessionDetailsBasic = "session_details_basic"
    /// Autocomplete per request without tokens, Geocoding for each selection.
    case perRequestGeocoding = "per_request_geocoding"

    static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The strategy's name for people.
    var title: String {
        switch self {
        case .current: "As the log shows it"
        case .sessionDetails: "Sessions + Place Details"
        case .sessionDetailsBasic: "Sessions + Place Details, address and location only"
        case .perRequestGeocoding: "Per-request autocomplete + Geocoding"
        }
    }

    /// A short description for people.
    var summary: String {
        switch self {
        case .current: "as the log shows it (every token mistake included)"
        case .sessionDetails: "a session per search, Place Details with the fields observed"
        case .sessionDetailsBasic: "a session per search, Place Details cut to address and location"
        case .perRequestGeocoding: "no session tokens, one Geocoding call per selection"
        }
    }
}
