import Foundation

/// Turns an `HTTPRequest` from an access log or a HAR capture into a `Call`, when it is one.
///
/// Recognised by path (`docs/formats.md` sections 2 and 3), whatever the method, under Google's
/// hosts, with no host (an access log's origin-form target), or under any other host, which is
/// then taken as a proxy of Google's APIs and named in a note:
/// - legacy web service, `/maps/api/...` (`json` or `xml` output): `place/autocomplete`,
///   `place/queryautocomplete`, `place/details` (`placeid` or `place_id`), `geocode`
///   (`place_id`, `address`, `latlng` or `components`), `place/findplacefromtext`,
///   `place/textsearch`;
/// - Places API (New): `/v1/places:autocomplete` (token and input in the JSON body),
///   `/v1/places/{id}` (details), `/v1/places:searchText`, `/v1/places:searchNearby`;
/// - Address Validation: `/v1:validateAddress`;
/// - a web page's Maps JavaScript API, both Places libraries
///   (`PlacesRequestDecoder+MapsJavaScript.swift`);
/// - the user's own proxy paths (`RequestRoutes`), read with the parameter names of both
///   generations.
///
/// Secrets: the `key` parameter and the `X-Goog-Api-Key` header are never read, and no reason
/// quotes the URL, a header or the body, so a key cannot leak through a `Decoded` value.
package enum PlacesRequestDecoder {
    package enum Decoded: Sendable, Equatable {
        /// A Places call. `bodyUnknown`: the call's token and input travel in a request body the
        /// source did not show (an access log line of a New-API autocomplete call). `proxyHost`:
        /// the host the request went to, when it is not one of Google's.
        case call(Call, bodyUnknown: Bool, proxyHost: String?)
        /// A request to something other than a Places endpoint this version prices, with its host.
        case notPlaces(host: String?)
        /// A Places request that never reached the API as a call (`NotBilled`): counted, not priced.
        case notBilled(NotBilled)
        /// A Places request that cannot be read; the reason is a sentence fragment without the
        /// request's text.
        case malformed(String)
    }

    /// Requests to a Places endpoint that are not API calls, so Google bills none of them.
    package enum NotBilled: Sendable, Equatable {
        /// A browser's CORS preflight (`OPTIONS`): it asks whether the call may be made; the
        /// call follows as a request of its own. Every browser call to the Places API (New), and
        /// the Maps JavaScript API's Places library (New), is preflighted.
        case preflight
        /// Answered with a redirect (301, 302, 303, 307, 308), as a browser's `307 Internal
        /// Redirect` to HTTPS: the request that follows it is the call.
        case redirect

        /// Whether `request` is one, from its method and status.
        static func of(_ request: HTTPRequest) -> NotBilled? {
            if request.method.uppercased() == "OPTIONS" { return .preflight }
            if let status = request.status, redirectStatuses.contains(status) { return .redirect }
            return nil
        }

        /// The statuses of a redirect.
        static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]
    }

    /// Google's hosts of the Places, Geocoding and Address Validation APIs.
    package static let googleHosts: Set<String> = ["maps.googleapis.com", "places.googleapis.com", "addressvalidation.googleapis.com"]

    package static func decode(_ request: HTTPRequest, routes: RequestRoutes = RequestRoutes()) -> Decoded {
        let target = RequestTarget(request.target)
        var call = Call(time: request.time, api: .other(""), userID: request.userID, status: request.status.map(String.init))
        let host = target.host
        let proxyHost = host.flatMap { googleHosts.contains($0) ? nil : $0 }
        let decoded: Decoded
        if let route = routes.route(for: target.path) {
            decoded = decodeRouted(route, target: target, request: request, into: &call)
        } else {
            decoded = decodeGoogle(path: routes.stripping(target.path), target: target, request: request, into: &call)
        }
        switch decoded {
        case .call(let call, let bodyUnknown, _):
            if let notBilled = NotBilled.of(request) { return .notBilled(notBilled) }
            return .call(call, bodyUnknown: bodyUnknown, proxyHost: proxyHost)
        case .notPlaces: return .notPlaces(host: host)
        case .notBilled, .malformed: return decoded
        }
    }

    /// Google's own paths.
    private static func decodeGoogle(path: String, target: RequestTarget, request: HTTPRequest, into call: inout Call) -> Decoded {
        if let method = mapsJavaScriptLegacyMethod(path) {
            return decodeMapsJavaScriptLegacy(method, target: target, into: &call)
        }
        if path.hasPrefix(rpcPrefix) {
            return decodeMapsJavaScriptNew(method: String(path.dropFirst(rpcPrefix.count)), target: target, request: request, into: &call)
        }
        if path.hasPrefix(grpcPrefix) {
            return decodeMapsJavaScriptNew(method: String(path.dropFirst(grpcPrefix.count)), target: target, request: request, grpc: true, into: &call)
        }
        if path.hasPrefix("/maps/api/") {
            return decodeLegacy(path: path, target: target, into: &call)
        }
        if path.hasPrefix("/v1/places") {
            return decodeNew(path: path, target: target, request: request, into: &call)
        }
        if path == "/v1:validateAddress" {
            call.api = .addressValidation
            call.generation = .new
            return withBody(request, describedAs: "an Address Validation request", into: &call)
        }
        return .notPlaces(host: nil)
    }

    // MARK: Legacy web service

    private static func decodeLegacy(path: String, target: RequestTarget, into call: inout Call) -> Decoded {
        var endpoint = Substring(path.dropFirst("/maps/api/".count))
        if endpoint.hasSuffix("/json") {
            endpoint = endpoint.dropLast("/json".count)
        } else if endpoint.hasSuffix("/xml") {
            endpoint = endpoint.dropLast("/xml".count)
        } else {
            return .notPlaces(host: nil)
        }
        call.generation = .legacy
        switch endpoint {
        case "place/autocomplete": call.api = .autocomplete
        case "place/queryautocomplete": call.api = .queryAutocomplete
        case "place/findplacefromtext": call.api = .findPlace
        case "place/textsearch": call.api = .textSearch
        case "place/details":
            call.api = .placeDetails
            guard target.firstNonEmpty("placeid", "place_id") != nil else {
                return .malformed("a legacy Place Details request without a placeid or place_id parameter")
            }
        case "geocode":
            call.api = .geocoding
            // The Geocoding API is one product for both generations: its SKU does not depend on it.
            call.generation = nil
            guard target.firstNonEmpty("place_id", "address", "latlng", "components") != nil else {
                return .malformed("a Geocoding request without a place_id, address, latlng or components parameter")
            }
        default:
            return .notPlaces(host: nil)
        }
        call.sessionToken = target.firstNonEmpty("sessiontoken", "sessionToken")
        call.inputLength = target.parameter("input").map { $0.unicodeScalars.count }
        call.fields = fieldList(target.parameter("fields"))
        return .call(call, bodyUnknown: false, proxyHost: nil)
    }

    // MARK: Places API (New)

    private static func decodeNew(path: String, target: RequestTarget, request: HTTPRequest, into call: inout Call) -> Decoded {
        call.generation = .new
        switch path {
        case "/v1/places:autocomplete":
            call.api = .autocomplete
            return withBody(request, describedAs: "a Places autocomplete request", into: &call)
        case "/v1/places:searchText":
            call.api = .textSearch
            call.fields = fieldMask(target, request)
            return .call(call, bodyUnknown: false, proxyHost: nil)
        case "/v1/places:searchNearby":
            call.api = .other("search_nearby")
            call.fields = fieldMask(target, request)
            return .call(call, bodyUnknown: false, proxyHost: nil)
        default:
            let placeID = path.dropFirst("/v1/places/".count)
            guard path.hasPrefix("/v1/places/"), !placeID.isEmpty, !placeID.contains("/") else { return .notPlaces(host: nil) }
            call.api = .placeDetails
            call.sessionToken = target.firstNonEmpty("sessionToken", "sessiontoken")
            call.fields = fieldMask(target, request)
            return .call(call, bodyUnknown: false, proxyHost: nil)
        }
    }

    /// Reads `input` and `sessionToken` from a JSON body; without a body, says it is unknown.
    private static func withBody(_ request: HTTPRequest, describedAs what: String, into call: inout Call) -> Decoded {
        guard let body = request.body else { return .call(call, bodyUnknown: true, proxyHost: nil) }
        guard let data = body.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return .malformed("\(what) without a parsable JSON body") }
        if let token = object["sessionToken"] as? String, !token.isEmpty {
            call.sessionToken = token
        }
        if let input = object["input"] as? String {
            call.inputLength = input.unicodeScalars.count
        }
        return .call(call, bodyUnknown: false, proxyHost: nil)
    }

    // MARK: The user's routes

    /// A request at one of the user's own paths: its API from the route, its token, input and
    /// fields under the names either generation uses, from the query, the JSON body or the
    /// `X-Goog-FieldMask` header.
    private static func decodeRouted(_ route: RequestRoutes.Route, target: RequestTarget, request: HTTPRequest, into call: inout Call) -> Decoded {
        call.api = route.api
        call.generation = route.generation
        var body: [String: Any] = [:]
        if let text = request.body, let data = text.data(using: .utf8),
           let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            body = object
        }
        call.sessionToken = target.firstNonEmpty("sessiontoken", "sessionToken", "session_token")
            ?? (body["sessionToken"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        call.inputLength = (target.parameter("input") ?? body["input"] as? String).map { $0.unicodeScalars.count }
        call.fields = fieldMask(target, request)
        return .call(call, bodyUnknown: false, proxyHost: nil)
    }

    // MARK: Shared

    /// The field mask of a New-API call: the `fields` (or `$fields`) parameter, else the
    /// `X-Goog-FieldMask` header. Kept as written (`places.` prefixes included): the field
    /// catalogue strips them when pricing.
    static func fieldMask(_ target: RequestTarget, _ request: HTTPRequest) -> [String]? {
        if let mask = target.parameter("fields") ?? target.parameter("$fields") {
            return fieldList(mask)
        }
        let header = request.headers.first { $0.name.caseInsensitiveCompare("X-Goog-FieldMask") == .orderedSame }
        return fieldList(header?.value)
    }

    /// Splits a comma-separated field list; an empty list means no mask, like `CallDecoder`.
    static func fieldList(_ text: String?) -> [String]? {
        guard let text else { return nil }
        let names = text.split(separator: ",").map { String($0).trimmingSpaces() }.filter { !$0.isEmpty }
        return names.isEmpty ? nil : names
    }
}
