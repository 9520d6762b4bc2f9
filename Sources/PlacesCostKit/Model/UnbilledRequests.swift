/// Requests to a Places endpoint that were not API calls, so no bill holds them
/// (`PlacesRequestDecoder.NotBilled`): counted apart, for the report to say why they are left out.
package struct UnbilledRequests: Sendable, Equatable {
    /// CORS preflights (`OPTIONS`) a browser sent before a call.
    package var preflights = 0
    /// Requests answered with a redirect, whose next request was the call.
    package var redirects = 0

    package init() {}

    package var total: Int { preflights + redirects }

    mutating func count(_ kind: PlacesRequestDecoder.NotBilled) {
        switch kind {
        case .preflight: preflights += 1
        case .redirect: redirects += 1
        }
    }

    static func += (lhs: inout UnbilledRequests, rhs: UnbilledRequests) {
        lhs.preflights += rhs.preflights
        lhs.redirects += rhs.redirects
    }
}
