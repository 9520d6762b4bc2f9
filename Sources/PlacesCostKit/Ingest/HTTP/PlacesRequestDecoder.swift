import Foundation

/// Turns an `HTTPRequest` from an access log or a HAR capture into a `Call`, when it is one.
///
/// Recognised (`docs/formats.md` section 2), by host and path, whatever the method:
/// - legacy web service, host `maps.googleapis.com` or none, `/maps/api/...` (`json` or `xml`
///   output): `place/autocomplete`, `place/queryautocomplete`, `place/details` (`placeid` or
///   `place_id`), `geocode` (`place_id`, `address`, `latlng` or `components`),
///   `place/findplacefromtext`, `place/textsearch`;
/// - Places API (New), host `places.googleapis.com` or none: `/v1/places:autocomplete` (token and
///   input in the JSON body), `/v1/places/{id}` (details), `/v1/places:searchText`,
///   `/v1/places:searchNearby`;
/// - Address Validation, host `addressvalidation.googleapis.com` or none: `/v1:validateAddress`.
///
/// Secrets: the `key` parameter and the `X-Goog-Api-Key` header are never read, and no reason
/// quotes the URL, a header or the body, so a key cannot leak through a `Decoded` value.
package enum PlacesRequestDecoder {
    package enum Decoded: Sendable, Equatable {
        /// A Places call. `bodyUnknown`: the call's token and input travel in a request body the
        /// source did not show (an access log line of a New-API autocomplete call).
        case call(Call, bodyUnknown: Bool)
        /// A request to something other than a Places endpoint this version prices.
        case notPlaces
        /// A Places request that cannot be read; the reason is a sentence fragment without the
        /// request's text.
        case malformed(String)
    }

    private static let legacyHost = "maps.googleapis.com"
    private static let newHost = "places.googleapis.com"
    private static let addressValidationHost = "addressvalidation.googleapis.com"

    package static func decode(_ request: HTTPRequest) -> Decoded {
        let target = RequestTarget(request.target)
        var call = Call(time: request.time, api: .other(""), userID: request.userID, status: request.status.map(String.init))
        let host = target.host
        let path = target.path

        if host == nil || host == legacyHost, path.hasPrefix("/maps/api/") {
            return decodeLegacy(path: path, target: target, into: &call)
        }
        if host == nil || host == newHost, path.hasPrefix("/v1/places") {
            return decodeNew(path: path, target: target, request: request, into: &call)
        }
        if host == nil || host == addressValidationHost, path == "/v1:validateAddress" {
            call.api = .addressValidation
            call.generation = .new
            return withBody(request, describedAs: "an Address Validation request", into: &call)
        }
        return .notPlaces
    }

    // MARK: Legacy web service

    private static func decodeLegacy(path: String, target: RequestTarget, into call: inout Call) -> Decoded {
        var endpoint = Substring(path.dropFirst("/maps/api/".count))
        if endpoint.hasSuffix("/json") {
            endpoint = endpoint.dropLast("/json".count)
        } else if endpoint.hasSuffix("/xml") {
            endpoint = endpoint.dropLast("/xml".count)
        } else {
            return .notPlaces
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
            return .notPlaces
        }
        call.sessionToken = target.firstNonEmpty("sessiontoken", "sessionToken")
        call.inputLength = target.parameter("input").map { $0.unicodeScalars.count }
        call.fields = fieldList(target.parameter("fields"))
        return .call(call, bodyUnknown: false)
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
            return .call(call, bodyUnknown: false)
        case "/v1/places:searchNearby":
            call.api = .other("search_nearby")
            call.fields = fieldMask(target, request)
            return .call(call, bodyUnknown: false)
        default:
            let placeID = path.dropFirst("/v1/places/".count)
            guard path.hasPrefix("/v1/places/"), !placeID.isEmpty, !placeID.contains("/") else { return .notPlaces }
            call.api = .placeDetails
            call.sessionToken = target.firstNonEmpty("sessionToken", "sessiontoken")
            call.fields = fieldMask(target, request)
            return .call(call, bodyUnknown: false)
        }
    }

    /// Reads `input` and `sessionToken` from a JSON body; without a body, says it is unknown.
    private static func withBody(_ request: HTTPRequest, describedAs what: String, into call: inout Call) -> Decoded {
        guard let body = request.body else { return .call(call, bodyUnknown: true) }
        guard let data = body.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return .malformed("\(what) without a parsable JSON body") }
        if let token = object["sessionToken"] as? String, !token.isEmpty {
            call.sessionToken = token
        }
        if let input = object["input"] as? String {
            call.inputLength = input.unicodeScalars.count
        }
        return .call(call, bodyUnknown: false)
    }

    /// The field mask of a New-API call: the `fields` (or `$fields`) parameter, else the
    /// `X-Goog-FieldMask` header. Kept as written (`places.` prefixes included): the field
    /// catalogue strips them when pricing.
    private static func fieldMask(_ target: RequestTarget, _ request: HTTPRequest) -> [String]? {
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
