import Foundation
import Testing
@testable import PlacesCostKit

/// Web pages on the Maps JavaScript API (`docs/formats.md` section 3a): the legacy Places
/// library's JSONP requests with protobuf URL fields, and the Places library (New)'s `$rpc`
/// requests with JSON+protobuf bodies. URL shapes follow public browser recordings; tokens, ids
/// and keys here are made up.
@Suite("Maps JavaScript API requests")
struct MapsJavaScriptRequestTests {
    static let time = Timestamp(microseconds: 1_790_845_203 * 1_000_000)
    static let key = "AIzaSyPLANTEDJSKEY0000"
    static let token = "3BFA0C1E50CC4DEE89C383C9A5BC35A17x86"
    static let legacy = "https://maps.googleapis.com/maps/api/place/js/"
    static let rpc = "https://places.googleapis.com/$rpc/google.maps.places.v1.Places/"
    static let jsonp = "&callback=_xdc_._k2v9qa&key=\(key)&token=50713"

    private func decode(_ target: String, method: String = "GET", headers: [(name: String, value: String)] = [],
                        body: String? = nil) -> PlacesRequestDecoder.Decoded {
        PlacesRequestDecoder.decode(HTTPRequest(time: Self.time, method: method, target: target, headers: headers, body: body))
    }

    private func call(_ target: String, method: String = "GET", headers: [(name: String, value: String)] = [],
                      body: String? = nil) throws -> Call {
        guard case .call(let call, let bodyUnknown, let proxy) = decode(target, method: method, headers: headers, body: body) else {
            Issue.record("not a call: \(decode(target, method: method, headers: headers, body: body))")
            throw CancellationError()
        }
        #expect(!bodyUnknown && proxy == nil)
        #expect(call.platform == "javascript")
        return call
    }

    // MARK: Legacy library

    @Test("Predictions: 1s the input (percent-decoded), 20s the session token, token= never a token")
    func predictions() throws {
        let widget = try call(Self.legacy + "AutocompletionService.GetPredictions?1s1600%20Amph&4sen-US&15e3&20s\(Self.token)&21m1&2e1" + Self.jsonp)
        #expect(widget == Call(time: Self.time, api: .autocomplete, sessionToken: Self.token, inputLength: 9,
                               generation: .legacy, platform: "javascript"))
        // AutocompleteService without a token; bounds and types before the fields read.
        let service = try call(Self.legacy + "AutocompletionService.GetPredictionsJson?1sM%C3%BCnchen&4sde&6m6&1m2&1d44.96&2d7.43&2m2&1d45.18&2d7.91&9sgeocode&9sestablishment&15e3&21m1&2e1" + Self.jsonp)
        #expect(service.api == .autocomplete && service.sessionToken == nil && service.inputLength == 7)
        // Older builds: /maps/api/js/, no client-info message.
        let older = try call("https://maps.googleapis.com/maps/api/js/AutocompletionService.GetPredictions?1shg&4sen&9s(cities)&15e3&20sE17EE510-4399-43DF-8E3B-7AB27B8EBE92nf5zgtvl0z9p&key=k&callback=c&token=18913")
        #expect(older.sessionToken == "E17EE510-4399-43DF-8E3B-7AB27B8EBE92nf5zgtvl0z9p" && older.inputLength == 2)
        // A message that holds a `20s` of its own does not give the top-level token.
        let nested = try call(Self.legacy + "AutocompletionService.GetPredictions?1sab&25m2&20sNOTMINE&2d1.5&15e3&21m1&2e1" + Self.jsonp)
        #expect(nested.sessionToken == nil)
        #expect(try call(Self.legacy + "AutocompletionService.GetPredictions?1s&20s&15e3").sessionToken == nil)
    }

    @Test("Query predictions (SearchBox, getQueryPredictions) are query autocomplete")
    func queryPredictions() throws {
        for method in ["GetQueryPredictions", "GetQueryPredictionsJson"] {
            let query = try call(Self.legacy + "AutocompletionService.\(method)?1sZE2&4sru-RU&15e3&21m1&2e1&callback=c&client=gme-example&token=115306")
            #expect(query.api == .queryAutocomplete && query.inputLength == 3 && query.generation == .legacy)
        }
    }

    @Test("Details: 14m1&1s the place id, 15s the token, 16m1&1s the comma-joined fields (absent: every field)")
    func details() throws {
        let unmasked = try call(Self.legacy + "PlaceService.GetPlaceDetails?2sen-US&10e3&14m1&1sChIJE_scyY5tVQ0R9adVnrHiyDY&15s\(Self.token)&17m1&2e1&r_url=https%3A%2F%2Fshop.example.com%2F" + Self.jsonp)
        #expect(unmasked == Call(time: Self.time, api: .placeDetails, sessionToken: Self.token, generation: .legacy, platform: "javascript"))
        let masked = try call(Self.legacy + "PlaceService.GetPlaceDetails?2sen-US&10e3&14m1&1sChIJ&15s\(Self.token)&16m1&1saddress_components%2Cgeometry%2Cname&17m1&2e1" + Self.jsonp)
        #expect(masked.fields == ["address_components", "geometry", "name"])
        // The place id inside 14 is not the top-level field 1, nor field 1 inside 16.
        #expect(try call(Self.legacy + "PlaceService.GetPlaceDetails?2sen&8sChIJpTvG15DL1IkRd8S0KlBVNTI&10e3&key=k").api == .placeDetails)
        #expect(decode(Self.legacy + "PlaceService.GetPlaceDetails?2sen-US&10e3&16m1&1sname&17m1&2e1" + Self.jsonp)
            == .malformed("a Maps JavaScript API details request without a place id"))
        // The base map's lookup of a clicked point of interest is not a Places library call.
        #expect(decode("https://maps.googleapis.com/maps/api/js/PlaceService.GetPlaceDetails?2sen&100sCafe&101s0x0:0x1" + Self.jsonp)
            == .notPlaces(host: "maps.googleapis.com"))
        // An embedded Google My Maps map's own lookups, sent as Google's client with no key of the
        // site's (as a public scraper of one records them), are billed to no one on the page.
        let myMaps = "https://maps.googleapis.com/maps/api/place/js/PlaceService.GetPlaceDetails?2sen&6e13&10e3&12sTR&14m1&1sChIJz-aftGgcOBMRT57kFIWVQ3U&17m1&2e1&r_url=https%3A%2F%2Fwww.google.com%2Fmaps%2Fd%2Fembed&callback=_xdc_._abc&client=google-maps-pro&token=58636"
        #expect(decode(myMaps) == .notPlaces(host: "maps.googleapis.com"))
        #expect(try call(myMaps.replacingOccurrences(of: "client=google-maps-pro", with: "client=gme-example")).api == .placeDetails)
    }

    @Test("Find place, text search, nearby search and the Geocoder")
    func otherMethods() throws {
        let find = try call(Self.legacy + "PlaceService.FindPlaceFromText?1sMuseum%20of%20Modern%20Art&2e2&5m2&3m1&1sname%2Cgeometry&6m2&1sen&2e1" + Self.jsonp)
        #expect(find.api == .findPlace && find.inputLength == 20 && find.fields == ["name", "geometry"])
        let text = try call(Self.legacy + "PlaceService.QueryPlaces?1m6&1m2&1d-3.32&2d114.85&2m2&1d-3.23&2d114.94&2szh-CN&4sindomaret&29e3&36m1&2e1&1032e0" + Self.jsonp)
        #expect(text.api == .textSearch && text.inputLength == 9)
        #expect(try call(Self.legacy + "PlaceService.FindPlaces?1m6&1m2&1d1&2d2&2m2&1d3&2d4&2sen&3sbar" + Self.jsonp).api == .other("search_nearby"))
        let geocode = try call("https://maps.googleapis.com/maps/api/js/GeocodeService.Search?4s1600%20Amphitheatre&7sUS&9sen-US" + Self.jsonp)
        #expect(geocode.api == .geocoding && geocode.generation == nil)
    }

    @Test("Map tiles, photos, the script load, authentication and quota pings are not Places calls")
    func notPlaces() {
        for target in [
            "https://maps.googleapis.com/maps/api/js?key=\(Self.key)&libraries=places&callback=initMap",
            "https://maps.googleapis.com/maps/api/js/AuthenticationService.Authenticate?1shttps%3A%2F%2Fshop.example.com%2F&4s\(Self.key)&8b0&callback=c&token=1",
            "https://maps.googleapis.com/maps/api/js/QuotaService.RecordEvent?1shttps%3A%2F%2Fshop.example.com%2F&3sx&7sq&10e1&callback=c&token=2",
            "https://maps.googleapis.com/maps/api/place/js/PhotoService.GetPhoto?1sAfLeUg&3u400&5m1&2e1&callback=none&token=3",
            "https://maps.googleapis.com/maps/vt?pb=!1m5!1m4!1i15!2i392!3i728!4i256!2m3!1e0!2sm!3i706000000",
            "https://maps.googleapis.com/maps/api/mapsjs/gen_204?csp_test=true",
            Self.rpc + "GetPhotoMedia",
            "https://maps.googleapis.com/$rpc/google.internal.maps.mapsjs.v1.MapsJsInternalService/GetViewportInfo",
        ] {
            #expect(decode(target) == .notPlaces(host: RequestTarget(target).host), "\(target)")
        }
    }

    @Test("Protobuf URL fields: a message counts every component nested in it, at any depth")
    func protobufNesting() {
        let target = RequestTarget("/p?6m6&1m2&1d44.96&2d7.43&2m2&1d45.18&2d7.91&1sabc&14m1&1sinner&7m3&1m1&2sdeep&3e1&20stop&callback=x")
        let fields = ProtobufURLFields(target.query)
        #expect(fields.value(6, 1, 1) == "44.96" && fields.value(6, 2, 2) == "7.91")
        #expect(fields.value(1) == "abc" && fields.value(14, 1) == "inner")
        #expect(fields.value(7, 1, 2) == "deep" && fields.value(7, 3) == "1")
        #expect(fields.value(20) == "top")
        #expect(fields.has(14) && !fields.has(15))
        #expect(fields.fields.allSatisfy { $0.path.first != nil })
        // `callback=x` has a value: a parameter, never a field.
        #expect(!fields.fields.contains { $0.value == "x" })
    }

    // MARK: Places library (New)

    @Test("AutocompletePlaces: field 1 the input, field 11 the token, as an array, a trailing object, or JSON names")
    func autocompletePlaces() throws {
        let headers = [(name: "Content-Type", value: "application/json+protobuf"), (name: "X-Goog-Api-Key", value: Self.key)]
        let array = try call(Self.rpc + "AutocompletePlaces", method: "POST", headers: headers,
                             body: #"["pizza",null,null,null,null,"en-US",null,null,null,null,"\#(Self.token)"]"#)
        #expect(array == Call(time: Self.time, api: .autocomplete, sessionToken: Self.token, inputLength: 5, generation: .new, platform: "javascript"))
        let trailing = try call(Self.rpc + "AutocompletePlaces", method: "POST", body: #"["Münch",null,null,null,null,"de",{"11":"tok-2"}]"#)
        #expect(trailing.sessionToken == "tok-2" && trailing.inputLength == 5)
        let named = try call(Self.rpc + "AutocompletePlaces", method: "POST", body: #"{"input":"ab","sessionToken":"tok-3"}"#)
        #expect(named.sessionToken == "tok-3" && named.inputLength == 2)
        let tokenless = try call(Self.rpc + "AutocompletePlaces", method: "POST", body: #"["ab",null,null,null,null,"en"]"#)
        #expect(tokenless.sessionToken == nil)
        // Percent-encoded `$` in a tool's URL.
        #expect(try call("https://places.googleapis.com/%24rpc/google.maps.places.v1.Places/AutocompletePlaces", method: "POST", body: #"["a"]"#).api == .autocomplete)
        #expect(decode(Self.rpc + "AutocompletePlaces", method: "POST")
            == .call(Call(time: Self.time, api: .autocomplete, generation: .new, platform: "javascript"), bodyUnknown: true, proxyHost: nil))
        #expect(decode(Self.rpc + "AutocompletePlaces", method: "POST", body: "input=pizza")
            == .malformed("a Maps JavaScript API AutocompletePlaces request without a parsable JSON+protobuf body"))
    }

    @Test("GetPlace: field 4 the token, the field mask from X-Goog-FieldMask; SearchText and SearchNearby")
    func getPlace() throws {
        let masked = try call(Self.rpc + "GetPlace", method: "POST",
                              headers: [(name: "X-Goog-FieldMask", value: "displayName,formattedAddress,location")],
                              body: #"["places/ChIJj61dQgK6j4AR4GeTYWZsKWw","en-US",null,"\#(Self.token)"]"#)
        #expect(masked == Call(time: Self.time, api: .placeDetails, sessionToken: Self.token,
                               fields: ["displayName", "formattedAddress", "location"], generation: .new, platform: "javascript"))
        let unmasked = try call(Self.rpc + "GetPlace", method: "POST", body: #"["places/ChIJ"]"#)
        #expect(unmasked.fields == nil && unmasked.sessionToken == nil)
        #expect(decode(Self.rpc + "GetPlace", method: "POST", body: #"[null,"en"]"#)
            == .malformed("a Maps JavaScript API GetPlace request without a place name"))
        let text = try call(Self.rpc + "SearchText", method: "POST", headers: [(name: "X-Goog-FieldMask", value: "places.displayName")],
                            body: #"["pizza near me","en"]"#)
        #expect(text.api == .textSearch && text.inputLength == 13 && text.fields == ["places.displayName"])
        #expect(try call(Self.rpc + "SearchNearby", method: "POST", body: #"["en"]"#).api == .other("search_nearby"))
    }

    @Test("No key, URL signature, input or session token reaches a decoded value or its reason")
    func secretsStayOut() {
        let values = [
            decode(Self.legacy + "AutocompletionService.GetPredictions?1sSECRETINPUT&20sSECRETTOKEN" + Self.jsonp),
            decode(Self.legacy + "PlaceService.GetPlaceDetails?2sen&15sSECRETTOKEN" + Self.jsonp),
            decode(Self.rpc + "AutocompletePlaces", method: "POST", headers: [(name: "X-Goog-Api-Key", value: Self.key)], body: "SECRETINPUT \(Self.key)"),
            decode(Self.rpc + "GetPlace", method: "POST", body: #"[null,"SECRETTOKEN"]"#),
        ]
        for value in values {
            let text = String(describing: value)
            #expect(!text.contains(Self.key) && !text.contains("50713"))
            if case .malformed(let reason) = value { #expect(!reason.contains("SECRET")) }
        }
    }

    /// A gRPC body as a capture writes it: the 5-byte frame, then the fields, each a tag, a
    /// one-byte length and the text.
    static func grpcBody(_ fields: [(number: Int, text: String)]) -> String {
        let message = fields.map { String(UnicodeScalar(UInt8($0.number << 3 | 2))) + String(UnicodeScalar(UInt8($0.text.utf8.count))) + $0.text }.joined()
        return "\u{0}\u{0}\u{0}\u{0}" + String(UnicodeScalar(UInt8(min(message.utf8.count, 127)))) + message
    }

    @Test("A Places SDK's gRPC body, as a capture writes it, gives the token and input; one it cannot follow leaves them unknown")
    func grpcBodies() throws {
        let grpc = "https://places.googleapis.com/google.maps.places.v1.Places/"
        let android = [(name: "content-type", value: "application/grpc"), (name: "x-android-package", value: "com.example"), (name: "x-goog-fieldmask", value: "formattedAddress")]
        let token = "0f9e8d7c-6b5a-4938-8271-605f4e3d2c1b"
        guard case .call(let autocomplete, let unknown, _) = decode(grpc + "AutocompletePlaces", method: "POST", headers: android,
                                                                    body: Self.grpcBody([(1, "Zürich Bahn"), (6, "de"), (11, token)])) else {
            Issue.record("not read")
            return
        }
        #expect(!unknown && autocomplete.sessionToken == token && autocomplete.inputLength == 11 && autocomplete.platform == "android", "\(autocomplete)")
        let ios = [(name: "X-Ios-Bundle-Identifier", value: "com.example")]
        guard case .call(let details, let detailsUnknown, _) = decode(grpc + "GetPlace", method: "POST", headers: ios,
                                                                      body: Self.grpcBody([(1, "places/ChIJN1t_tDeuEmsRUsoyG83frY4"), (4, token)])) else {
            Issue.record("not read")
            return
        }
        #expect(!detailsUnknown && details.sessionToken == token && details.platform == "ios" && details.api == .placeDetails)
        // A GetPlace body without a place name is unknown, as one not read.
        guard case .call(let nameless, true, _) = decode(grpc + "GetPlace", method: "POST", body: Self.grpcBody([(4, token)])), nameless.sessionToken == nil else {
            Issue.record("a nameless GetPlace body is not an unknown one")
            return
        }
        // A location bias: a sub-message of doubles, whose bytes that are no UTF-8 arrive as
        // U+FFFD, one each (a `\\udcXX` escape in mitmproxy's HAR): skipped by its length.
        let double = "\t\u{FFFD}\u{FFFD}(\\\u{FFFD}BJ@"  // 0x09, then 8 bytes of 52.52
        let circle = "\n" + String(UnicodeScalar(UInt8(double.unicodeScalars.count + 2))) + "\n" + String(UnicodeScalar(UInt8(double.unicodeScalars.count))) + double
        let biased = "\u{0}\u{0}\u{0}\u{0}\u{40}" + "\n\u{3}Ber" + "\u{12}" + String(UnicodeScalar(UInt8(circle.unicodeScalars.count))) + circle
            + "\u{11}\u{0}\u{0}\u{0}\u{0}\u{0}\u{FFFD}\u{FFFD}@" + "Z\u{24}" + token
        guard case .call(let withBias, let biasUnknown, _) = decode(grpc + "AutocompletePlaces", method: "POST", headers: android, body: biased) else {
            Issue.record("not read")
            return
        }
        #expect(!biasUnknown && withBias.sessionToken == token && withBias.inputLength == 3, "\(withBias)")
        // Bodies it cannot follow: cut short, a length of 128 or more (not text), a compressed
        // frame, an empty body.
        let long = String(repeating: "a", count: 130)
        for body in [String(Self.grpcBody([(1, "Ber"), (11, token)]).dropLast(3)), "\u{0}\u{0}\u{0}\u{0}\u{FFFD}\n\u{FFFD}\u{1}" + long,
                     Self.grpcBody([(1, "Ber")]) + "\u{11}\u{0}\u{0}\u{0}", "\u{1}" + Self.grpcBody([(1, "Ber")]).dropFirst(), ""] {
            guard case .call(let call, let bodyUnknown, _) = decode(grpc + "AutocompletePlaces", method: "POST", headers: android, body: body) else {
                Issue.record("not a call: \(body.debugDescription)")
                continue
            }
            #expect(bodyUnknown && call.sessionToken == nil, "\(body.debugDescription)")
        }
    }

    @Test("A mitmproxy HAR of an SDK's gRPC calls, its bytes that are no UTF-8 escaped as \\udcXX: one session, read whole; a log's record with such an escape stays malformed")
    func grpcCapture() throws {
        let token = "0f9e8d7c-6b5a-4938-8271-605f4e3d2c1b"
        // As Python's json.dumps writes text decoded with surrogateescape: 0xC3 is \udcc3.
        let bias = #"\u0012\u0014\n\u0012\t\udcc3\udcf5(\\\udc8fBJ@\u0011\udccd\udccc\udccc\udccc\udccc\udccc*@"#
        let autocomplete = #"\u0000\u0000\u0000\u0000P\n\u0003Ber"# + bias + #"Z$"# + token
        let details = #"\u0000\u0000\u0000\u0000J\n\"places/ChIJN1t_tDeuEmsRUsoyG83frY4\"$"# + token
        func entry(_ method: String, _ second: Int, _ text: String) -> String {
            #"{"startedDateTime":"2026-10-01T10:00:0\#(second).000+00:00","request":{"method":"POST","url":"https://places.googleapis.com/google.maps.places.v1.Places/\#(method)","headers":[{"name":"content-type","value":"application/grpc"},{"name":"x-android-package","value":"com.example"},{"name":"x-goog-fieldmask","value":"formattedAddress"}],"postData":{"mimeType":"application/grpc","text":"\#(text)"}},"response":{"status":200,"content":{}}}"#
        }
        let har = #"{"log":{"version":"1.2","creator":{"name":"mitmproxy exporthar","version":"0.1"},"entries":["# + entry("AutocompletePlaces", 0, autocomplete) + "," + entry("GetPlace", 1, details) + "]}}"
        let directory = TemporaryDirectory()
        let run = runCLI(["analyze", directory.write("sdk.har", har), "--json"])
        #expect(run.code == .success, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let input = try #require(report["input"] as? [String: Any]), searches = try #require(report["searches"] as? [String: Any])
        #expect(input["records"] as? Int == 2 && input["rejected"] as? Int == 0 && input["bodies_unknown"] as? Int == 0, "\(input)")
        #expect(searches["completed"] as? Int == 1, "\(searches)")
        #expect(!run.stderr.contains("warning"), "\(run.stderr)")
        // A log's record: the escape is still no character.
        let log = directory.write("log.jsonl", #"{"timestamp":"2026-10-01T10:00:00Z","api":"autocomplete","input":"a\udcc3"}"# + "\n")
        #expect(runCLI(["analyze", log, "--json"]).stderr.contains("a lone surrogate in a \\u escape"))
    }

    @Test("The same service over gRPC (generated clients): its methods read, their binary bodies not, the mask from the metadata")
    func grpc() throws {
        let grpc = "https://places.googleapis.com/google.maps.places.v1.Places/"
        let headers = [(name: "content-type", value: "application/grpc"), (name: "x-goog-fieldmask", value: "formattedAddress,location")]
        for (method, api) in [("AutocompletePlaces", API.autocomplete), ("GetPlace", .placeDetails)] {
            guard case .call(let call, let bodyUnknown, _) = decode(grpc + method, method: "POST", headers: headers, body: "\u{0}\u{0}\u{0}\u{0}\u{12}\n\u{10}places/ChIJ") else {
                Issue.record("\(method) not read")
                continue
            }
            #expect(call.api == api && call.generation == .new && call.platform == nil, "\(call)")
            // The token and input are in the binary body: unknown, and said so.
            #expect(bodyUnknown)
            #expect(call.sessionToken == nil && call.inputLength == nil)
            #expect(call.fields == (api == .placeDetails ? ["formattedAddress", "location"] : nil))
        }
        #expect(decode(grpc + "GetPhotoMedia", method: "POST", headers: headers) == .notPlaces(host: "places.googleapis.com"))
    }
}
