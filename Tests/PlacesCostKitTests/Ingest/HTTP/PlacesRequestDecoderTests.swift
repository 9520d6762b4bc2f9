import Testing
@testable import PlacesCostKit

/// URLs of `docs/formats.md` section 2 (shapes from Google's client-library tests) and Places API
/// (New) requests as HAR captures show them, decoded into calls.
@Suite("PlacesRequestDecoder")
struct PlacesRequestDecoderTests {
    /// 2026-10-01T09:00:03Z.
    static let time = Timestamp(microseconds: 1_790_845_203 * 1_000_000)
    static let plantedKey = "AIzaSyPLANTEDKEY123"

    private func decode(_ target: String, method: String = "GET", headers: [(name: String, value: String)] = [],
                        body: String? = nil) -> PlacesRequestDecoder.Decoded {
        PlacesRequestDecoder.decode(HTTPRequest(time: Self.time, method: method, target: target, headers: headers, body: body))
    }

    private func call(_ target: String, method: String = "GET", headers: [(name: String, value: String)] = [],
                      body: String? = nil) throws -> Call {
        guard case .call(let call, _, _) = decode(target, method: method, headers: headers, body: body) else {
            Issue.record("not a call: \(decode(target, method: method, headers: headers, body: body))")
            throw CancellationError()
        }
        return call
    }

    @Test("The docs/formats.md example line: autocomplete, 9 typed characters, the token, legacy")
    func formatsExample() throws {
        let line = #"203.0.113.7 - - [01/Oct/2026:09:00:03 +0000] "GET /maps/api/place/autocomplete/json?input=1600+Amph&sessiontoken=6513270e269e0d37f2a74de452e6b438&key=AIzaSyEXAMPLE HTTP/1.1" 200 1432 "-" "MyApp/3.2 CFNetwork/1410.0.3 Darwin/22.4.0""#
        guard case .request(let request) = AccessLogParser(format: .combined).parse(line) else {
            Issue.record("the line did not parse")
            return
        }
        let decoded = PlacesRequestDecoder.decode(request)
        let expected = Call(time: Self.time, api: .autocomplete, sessionToken: "6513270e269e0d37f2a74de452e6b438",
                            inputLength: 9, generation: .legacy, status: "200")
        #expect(decoded == .call(expected, bodyUnknown: false, proxyHost: nil))
    }

    @Test("A CORS preflight (OPTIONS) and a request answered with a redirect are not calls; an error status is", arguments: [
        "/maps/api/place/autocomplete/json?input=ab&sessiontoken=T", "https://places.googleapis.com/v1/places/ChIJ1?sessionToken=T&fields=id",
        "/maps/api/place/js/AutocompletionService.GetPredictionsJson?1sab&4sen&15e3&21m1&2e1&callback=f&token=1", "/maps/api/geocode/json?address=x",
    ])
    func notBilled(_ target: String) {
        func decoded(_ method: String, status: Int?) -> PlacesRequestDecoder.Decoded {
            PlacesRequestDecoder.decode(HTTPRequest(time: Self.time, method: method, target: target, status: status))
        }
        #expect(decoded("OPTIONS", status: 204) == .notBilled(.preflight))
        #expect(decoded("options", status: 200) == .notBilled(.preflight))
        for status in [301, 302, 303, 307, 308] {
            #expect(decoded("GET", status: status) == .notBilled(.redirect), "\(status)")
        }
        for status in [nil, 200, 204, 304, 400, 403, 404, 429, 500] {
            guard case .call = decoded("GET", status: status) else {
                Issue.record("\(String(describing: status)): \(decoded("GET", status: status))")
                continue
            }
        }
        // Not a Places path: skipped as any other request, whatever the method.
        #expect(PlacesRequestDecoder.decode(HTTPRequest(time: Self.time, method: "OPTIONS", target: "/tiles/1.png")) == .notPlaces(host: nil))
    }

    @Test("Every legacy endpoint, in JSON and XML output")
    func legacyPaths() throws {
        let cases: [(String, API, APIGeneration?)] = [
            ("/maps/api/place/autocomplete/json?input=Google&language=en-AU&types=geocode", .autocomplete, .legacy),
            ("/maps/api/place/queryautocomplete/json?input=pizza+near+New+York", .queryAutocomplete, .legacy),
            ("/maps/api/place/details/json?placeid=ChIJN1t_tDeuEmsRUsoyG83frY4", .placeDetails, .legacy),
            ("/maps/api/place/details/json?place_id=ChIJN1t_tDeuEmsRUsoyG83frY4", .placeDetails, .legacy),
            ("/maps/api/geocode/json?place_id=ChIJN1t_tDeuEmsRUsoyG83frY4", .geocoding, nil),
            ("/maps/api/geocode/json?address=1600+Amphitheatre", .geocoding, nil),
            ("/maps/api/geocode/json?latlng=40.714224,-73.961452", .geocoding, nil),
            ("/maps/api/place/findplacefromtext/json?input=Museum&inputtype=textquery", .findPlace, .legacy),
            ("/maps/api/place/textsearch/json?query=pizza", .textSearch, .legacy),
            ("/maps/api/place/autocomplete/xml?input=Go", .autocomplete, .legacy),
            ("https://maps.googleapis.com/maps/api/place/details/json?place_id=X", .placeDetails, .legacy),
            ("https://MAPS.googleapis.com:443/maps/api/place/autocomplete/json?input=a#fragment", .autocomplete, .legacy),
        ]
        for (target, api, generation) in cases {
            let call = try call(target)
            #expect(call.api == api, "\(target)")
            #expect(call.generation == generation, "\(target)")
            #expect(call.time == Self.time)
        }
    }

    @Test("A details call without a place ID, or a geocoding call without a query, is malformed")
    func missingPlaceID() {
        #expect(decode("/maps/api/place/details/json?fields=name") == .malformed("a legacy Place Details request without a placeid or place_id parameter"))
        #expect(decode("/maps/api/place/details/json?placeid=") == .malformed("a legacy Place Details request without a placeid or place_id parameter"))
        #expect(decode("/maps/api/geocode/json?language=en") == .malformed("a Geocoding request without a place_id, address, latlng or components parameter"))
    }

    @Test("URL decoding: + is a space, %2C a comma, %XX UTF-8 bytes, bad escapes kept")
    func urlDecoding() throws {
        #expect(try call("/maps/api/place/autocomplete/json?input=M%C3%BCn").inputLength == 3)
        #expect(try call("/maps/api/place/queryautocomplete/json?input=pizza+near+New+York").inputLength == 19)
        #expect(try call("/maps/api/place/autocomplete/json?input=100%25").inputLength == 4)
        #expect(try call("/maps/api/place/autocomplete/json?input=100%").inputLength == 4)
        #expect(try call("/maps/api/place/autocomplete/json?input=a%zzb").inputLength == 5)
        #expect(try call("/maps/api/place/autocomplete/json?input=%F0%9F%8D%95").inputLength == 1)
        #expect(try call("/maps/api/place/autocomplete/json?input=").inputLength == 0)
        #expect(try call("/maps/api/place/autocomplete/json?language=en").inputLength == nil)
        #expect(try call("/maps/api/place/details/json?place_id=X&fields=name%2Cgeometry").fields == ["name", "geometry"])
    }

    @Test("Fields: split on commas, trimmed, empties dropped; an empty list is no mask")
    func fields() throws {
        #expect(try call("/maps/api/place/details/json?placeid=X&fields=business_status,geometry/location,place_id").fields
            == ["business_status", "geometry/location", "place_id"])
        #expect(try call("/maps/api/place/details/json?placeid=X&fields=name,+formatted_address,,").fields == ["name", "formatted_address"])
        #expect(try call("/maps/api/place/details/json?placeid=X&fields=").fields == nil)
        #expect(try call("/maps/api/place/details/json?placeid=X&fields=,+,").fields == nil)
        #expect(try call("/maps/api/place/details/json?placeid=X").fields == nil)
    }

    @Test("The session token; an empty one is no token")
    func sessionToken() throws {
        let details = try call("/maps/api/place/details/json?place_id=ChIJ&fields=formatted_address&sessiontoken=abc-123&key=k")
        #expect(details.sessionToken == "abc-123")
        #expect(details.fields == ["formatted_address"])
        #expect(try call("/maps/api/place/autocomplete/json?input=a&sessiontoken=").sessionToken == nil)
        #expect(try call("/maps/api/place/autocomplete/json?input=a").sessionToken == nil)
    }

    @Test("Status, user and time come from the request")
    func requestMetadata() {
        let request = HTTPRequest(time: Self.time, method: "GET", target: "/maps/api/place/autocomplete/json?input=a",
                                  userID: "alice", status: 403)
        guard case .call(let call, _, _) = PlacesRequestDecoder.decode(request) else {
            Issue.record("not a call")
            return
        }
        #expect(call.status == "403")
        #expect(call.userID == "alice")
        #expect(call.time == Self.time)
    }

    @Test("New details: fields from the parameter, else the X-Goog-FieldMask header; token from sessionToken")
    func newDetails() throws {
        let byParameter = try call("https://places.googleapis.com/v1/places/ChIJN1t_tDeuEmsRUsoyG83frY4?fields=id,displayName&sessionToken=tok")
        #expect(byParameter == Call(time: Self.time, api: .placeDetails, sessionToken: "tok", fields: ["id", "displayName"], generation: .new))
        let byHeader = try call("/v1/places/ChIJN1t_tDeuEmsRUsoyG83frY4",
                                headers: [("x-goog-fieldmask", "formattedAddress, location"), ("X-Goog-Api-Key", Self.plantedKey)])
        #expect(byHeader.fields == ["formattedAddress", "location"])
        #expect(byHeader.sessionToken == nil)
        #expect(byHeader.generation == .new)
        #expect(try call("/v1/places/ChIJ").fields == nil)
    }

    @Test("New autocomplete: input and token from the JSON body")
    func newAutocompleteWithBody() {
        let decoded = decode("https://places.googleapis.com/v1/places:autocomplete", method: "POST",
                             body: #"{"input":"Münch","sessionToken":"6513270e-269e","includedRegionCodes":["de"]}"#)
        #expect(decoded == .call(Call(time: Self.time, api: .autocomplete, sessionToken: "6513270e-269e", inputLength: 5, generation: .new),
                                 bodyUnknown: false, proxyHost: nil))
        let noToken = decode("/v1/places:autocomplete", method: "POST", body: #"{"input":"ab","sessionToken":""}"#)
        #expect(noToken == .call(Call(time: Self.time, api: .autocomplete, inputLength: 2, generation: .new), bodyUnknown: false, proxyHost: nil))
    }

    @Test("New autocomplete without a body (an access log): a call whose token and input are unknown")
    func newAutocompleteWithoutBody() {
        #expect(decode("/v1/places:autocomplete", method: "POST")
            == .call(Call(time: Self.time, api: .autocomplete, generation: .new), bodyUnknown: true, proxyHost: nil))
    }

    @Test("New autocomplete with a body that is not a JSON object is malformed")
    func newAutocompleteBadBody() {
        let reason = PlacesRequestDecoder.Decoded.malformed("a Places autocomplete request without a parsable JSON body")
        #expect(decode("/v1/places:autocomplete", method: "POST", body: "input=pizza") == reason)
        #expect(decode("/v1/places:autocomplete", method: "POST", body: "[1,2]") == reason)
        #expect(decode("/v1/places:autocomplete", method: "POST", body: "") == reason)
    }

    @Test("New text and nearby search, and Address Validation")
    func otherNewEndpoints() throws {
        let text = try call("https://places.googleapis.com/v1/places:searchText", method: "POST",
                            headers: [("X-Goog-FieldMask", "places.displayName,places.formattedAddress")], body: #"{"textQuery":"pizza"}"#)
        #expect(text == Call(time: Self.time, api: .textSearch, fields: ["places.displayName", "places.formattedAddress"], generation: .new))
        #expect(try call("/v1/places:searchNearby", method: "POST").api == .other("search_nearby"))
        #expect(decode("https://addressvalidation.googleapis.com/v1:validateAddress", method: "POST",
                       body: #"{"address":{"addressLines":["1600 Amphitheatre Pkwy"]},"sessionToken":"tok"}"#)
            == .call(Call(time: Self.time, api: .addressValidation, sessionToken: "tok", generation: .new), bodyUnknown: false, proxyHost: nil))
        #expect(decode("https://addressvalidation.googleapis.com/v1:validateAddress", method: "POST")
            == .call(Call(time: Self.time, api: .addressValidation, generation: .new), bodyUnknown: true, proxyHost: nil))
    }

    @Test("Requests to anything else are not Places calls")
    func notPlaces() {
        for target in [
            "/", "/index.html", "/healthz?check=1", "/api/v2/orders",
            "https://maps.googleapis.com/maps/api/directions/json?origin=a&destination=b",
            "/maps/api/staticmap?center=0,0", "/maps/api/place/autocomplete", "/maps/api/place/photo?photoreference=x",
            "/v1/places/ChIJ/photos/abc/media", "/v1/places/", "/v1/placesfoo",
            "https://places.googleapis.com/v1/other",
        ] {
            #expect(decode(target) == .notPlaces(host: RequestTarget(target).host), "\(target)")
        }
    }

    @Test("A planted API key never appears in a decoded value or a reason")
    func secretsStayOut() {
        let key = Self.plantedKey
        let apiKeyHeader = [(name: "X-Goog-Api-Key", value: key)]
        let decodedValues: [PlacesRequestDecoder.Decoded] = [
            decode("/maps/api/place/autocomplete/json?input=1600+Amph&key=\(key)&sessiontoken=t"),
            decode("/maps/api/place/details/json?key=\(key)"),
            decode("/maps/api/geocode/json?key=\(key)"),
            decode("https://maps.googleapis.com/maps/api/place/details/json?placeid=X&fields=name&key=\(key)"),
            decode("/maps/api/directions/json?key=\(key)"),
            decode("/v1/places/ChIJ?key=\(key)", headers: apiKeyHeader),
            decode("/v1/places:autocomplete", method: "POST", headers: apiKeyHeader),
            decode("/v1/places:autocomplete?key=\(key)", method: "POST", headers: apiKeyHeader, body: "not json \(key)"),
            decode("/v1/places:searchText", method: "POST", headers: apiKeyHeader + [(name: "X-Goog-FieldMask", value: "*")]),
        ]
        for value in decodedValues {
            #expect(!String(describing: value).contains(key))
            #expect(!String(reflecting: value).contains(key))
        }
        let request = HTTPRequest(time: Self.time, method: "GET", target: "/maps/api/place/autocomplete/json?input=a&key=\(key)",
                                  headers: apiKeyHeader, body: key)
        #expect(!String(describing: request).contains(key))
        #expect(!String(reflecting: request).contains(key))
        var dumped = ""
        dump(request, to: &dumped)
        #expect(!dumped.contains(key))
    }

    @Test("Query parsing keeps the first value of a repeated parameter and reads names without values")
    func queryParsing() {
        let target = RequestTarget("/p?a=1&a=2&flag&b=x%3Dy&=v#c=3")
        #expect(target.host == nil)
        #expect(target.path == "/p")
        #expect(target.parameter("a") == "1")
        #expect(target.parameter("flag") == "")
        #expect(target.parameter("b") == "x=y")
        #expect(target.parameter("c") == nil)
        let absolute = RequestTarget("http://user@Places.GoogleAPIs.com.:8080/v1/places%3Aautocomplete")
        #expect(absolute.host == "places.googleapis.com")
        #expect(absolute.path == "/v1/places:autocomplete")
        #expect(RequestTarget("https://maps.googleapis.com").path == "/")
    }
}
