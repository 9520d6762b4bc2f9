/// Counts of the token and field-mask mistakes that cost users money (`docs/sessions.md`).
package struct Anomalies: Sendable, Equatable {
    /// Calls made after their token was spent (by completion, a details call on a fresh token,
    /// or expiry; the call that revealed the expiry counts too).
    package var tokenReused = 0
    /// Sessions closed by the timeout.
    package var expired = 0
    /// Details calls on a token no autocomplete call opened.
    package var detailsWithoutAutocomplete = 0
    /// Autocomplete calls with no token.
    package var noTokenRequests = 0
    /// Place Details calls with no field mask (every field billed).
    package var fieldsUnspecified = 0
    /// Sessions (completed, abandoned or expired) holding exactly one autocomplete call.
    package var oneRequestSessions = 0

    package init() {}

    /// The counts under their `report.json` names, in the order reports list them.
    package var named: [(name: String, count: Int)] {
        [
            ("token_reused", tokenReused),
            ("expired", expired),
            ("details_without_autocomplete", detailsWithoutAutocomplete),
            ("no_token_requests", noTokenRequests),
            ("fields_unspecified", fieldsUnspecified),
            ("one_request_sessions", oneRequestSessions),
        ]
    }

    package static func + (lhs: Anomalies, rhs: Anomalies) -> Anomalies {
        var sum = lhs
        sum.tokenReused += rhs.tokenReused
        sum.expired += rhs.expired
        sum.detailsWithoutAutocomplete += rhs.detailsWithoutAutocomplete
        sum.noTokenRequests += rhs.noTokenRequests
        sum.fieldsUnspecified += rhs.fieldsUnspecified
        sum.oneRequestSessions += rhs.oneRequestSessions
        return sum
    }
}
