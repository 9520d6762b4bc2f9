/// The requests a web page's Maps JavaScript API makes for its Places library
/// (`docs/formats.md` section 3a).
///
/// - The legacy library (`AutocompleteService`, the `Autocomplete` and `SearchBox` widgets,
///   `PlacesService`, `Geocoder`) sends JSONP `GET`s to `/maps/api/place/js/Service.Method` (older
///   builds: `/maps/api/js/Service.Method`) with the request as protobuf fields in the query
///   (`ProtobufURLFields`). `token=` there is a signature of the URL, never a session token.
/// - The Places library (New) (`AutocompleteSuggestion`, `PlaceAutocompleteElement`,
///   `Place.fetchFields`) posts JSON+protobuf bodies (`JSPBMessage`) to
///   `/$rpc/google.maps.places.v1.Places/Method`, the field mask in `X-Goog-FieldMask`.
///
/// Every call is the `javascript` platform's.
extension PlacesRequestDecoder {
    static let rpcPrefix = "/$rpc/google.maps.places.v1.Places/"
    /// The same service called over gRPC (`decodeMapsJavaScriptNew(grpc:)`).
    static let grpcPrefix = "/google.maps.places.v1.Places/"
    private static let javaScriptPlatform = "javascript"

    /// `Service.Method` of a legacy library path, or `nil`.
    static func mapsJavaScriptLegacyMethod(_ path: String) -> Substring? {
        for prefix in ["/maps/api/place/js/", "/maps/api/js/"] where path.hasPrefix(prefix) {
            let method = path.dropFirst(prefix.count)
            return method.contains("/") ? nil : method
        }
        return nil
    }

    /// The client id Google My Maps embeds send their requests as.
    static let myMapsClient = "google-maps-pro"

    /// A legacy library request. Fields, by method (numbers from the library's own requests):
    /// predictions `1s` input, `20s` session token; details `14m1&1s` place id (`8s` in older
    /// builds), `15s` session token, `16m1&1s` the comma-joined fields; find place `1s` input,
    /// `5m2&3m1&1s` fields; text search `4s` query.
    static func decodeMapsJavaScriptLegacy(_ method: Substring, target: RequestTarget, into call: inout Call) -> Decoded {
        // An embedded Google My Maps map makes its own lookups, as Google's client
        // (`client=google-maps-pro`, no key of the site's): billed to no one on the page.
        if target.parameter("client") == myMapsClient { return .notPlaces(host: nil) }
        let fields = ProtobufURLFields(target.query)
        call.generation = .legacy
        call.platform = javaScriptPlatform
        func text(_ value: Substring?) -> String? {
            value.flatMap { $0.isEmpty ? nil : String($0) }
        }
        switch method {
        case "AutocompletionService.GetPredictions", "AutocompletionService.GetPredictionsJson":
            call.api = .autocomplete
            call.inputLength = fields.value(1).map { $0.unicodeScalars.count }
            call.sessionToken = text(fields.value(20))
        case "AutocompletionService.GetQueryPredictions", "AutocompletionService.GetQueryPredictionsJson":
            call.api = .queryAutocomplete
            call.inputLength = fields.value(1).map { $0.unicodeScalars.count }
        case "PlaceService.GetPlaceDetails":
            // The base map's own lookup of a clicked point of interest names it by `100s`/`101s`:
            // not a Places library call.
            if fields.has(100) || fields.has(101) { return .notPlaces(host: nil) }
            call.api = .placeDetails
            guard text(fields.value(14, 1)) ?? text(fields.value(8)) ?? text(fields.value(1)) != nil else {
                return .malformed("a Maps JavaScript API details request without a place id")
            }
            call.sessionToken = text(fields.value(15))
            call.fields = fieldList(fields.value(16, 1).map(String.init))
        case "PlaceService.FindPlaceFromText":
            call.api = .findPlace
            call.inputLength = fields.value(1).map { $0.unicodeScalars.count }
            call.fields = fieldList(fields.value(5, 3, 1).map(String.init))
        case "PlaceService.QueryPlaces":
            call.api = .textSearch
            call.inputLength = fields.value(4).map { $0.unicodeScalars.count }
        case "PlaceService.FindPlaces":
            call.api = .other("search_nearby")
        case "GeocodeService.Search":
            call.api = .geocoding
            call.generation = nil
        default:
            // Map tiles, photos, authentication, viewport and quota services: not billed as Places.
            return .notPlaces(host: nil)
        }
        return .call(call, bodyUnknown: false, proxyHost: nil)
    }

    /// A Places library (New) request; without a body, its token and input are unknown.
    ///
    /// - Parameter grpc: a gRPC call of the same service (`/google.maps.places.v1.Places/Method`,
    ///   as the Places SDKs (New) send it): its body is binary protobuf, read as far as its text
    ///   shows it (`GRPCMessage`), else its token and input are unknown; its platform is the
    ///   SDK's its headers name (`X-Android-Package`, `X-Ios-Bundle-Identifier`).
    static func decodeMapsJavaScriptNew(method: String, target: RequestTarget, request: HTTPRequest, grpc: Bool = false, into call: inout Call) -> Decoded {
        call.generation = .new
        call.platform = grpc ? sdkPlatform(request) : javaScriptPlatform
        let tokenField: Int?
        switch method {
        case "AutocompletePlaces":
            call.api = .autocomplete
            tokenField = 11
        case "GetPlace":
            call.api = .placeDetails
            call.fields = fieldMask(target, request)
            tokenField = 4
        case "SearchText":
            call.api = .textSearch
            call.fields = fieldMask(target, request)
            tokenField = nil
        case "SearchNearby":
            call.api = .other("search_nearby")
            call.fields = fieldMask(target, request)
            tokenField = nil
        default:
            return .notPlaces(host: nil)
        }
        guard let body = request.body else { return .call(call, bodyUnknown: tokenField != nil, proxyHost: nil) }
        /// Field `number` of the body, as either encoding writes it.
        let field: (Int, String) -> String?
        if grpc {
            guard let message = GRPCMessage(body) else { return .call(call, bodyUnknown: tokenField != nil, proxyHost: nil) }
            field = { number, _ in message.string(number) }
        } else {
            guard let message = JSPBMessage(body) else {
                return .malformed("a Maps JavaScript API \(method) request without a parsable JSON+protobuf body")
            }
            field = { number, jsonName in message.string(number, jsonName: jsonName) }
        }
        if let tokenField, let token = field(tokenField, "sessionToken"), !token.isEmpty {
            call.sessionToken = token
        }
        switch call.api {
        case .autocomplete:
            call.inputLength = field(1, "input").map { $0.unicodeScalars.count }
        case .textSearch:
            call.inputLength = field(1, "textQuery").map { $0.unicodeScalars.count }
        case .placeDetails:
            guard let name = field(1, "name"), name.count > "places/".count else {
                // A binary body read only in part is unknown, as one not read at all.
                guard !grpc else {
                    call.sessionToken = nil
                    return .call(call, bodyUnknown: true, proxyHost: nil)
                }
                return .malformed("a Maps JavaScript API GetPlace request without a place name")
            }
        default:
            break
        }
        return .call(call, bodyUnknown: false, proxyHost: nil)
    }

    /// The platform of a Places SDK's gRPC call, from the headers its key restriction reads.
    private static func sdkPlatform(_ request: HTTPRequest) -> String? {
        func has(_ name: String) -> Bool { request.headers.contains { $0.name.caseInsensitiveCompare(name) == .orderedSame } }
        if has("X-Android-Package") { return "android" }
        if has("X-Ios-Bundle-Identifier") { return "ios" }
        return nil
    }
}
