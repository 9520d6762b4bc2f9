/// Generated calls as a browser's HAR capture of web pages on the Maps JavaScript API, in the
/// shapes `docs/formats.md` section 3a describes: users of even index on the legacy Places
/// library (JSONP `GET`s with protobuf fields in the query, `token=` the URL's signature), users
/// of odd index on the Places library (New) (`POST`s of JSON+protobuf bodies to `$rpc`, the
/// field mask in `X-Goog-FieldMask`). Geocoding goes through the `Geocoder`'s `GeocodeService`;
/// each selection shows the place on a map, whose tile request is skipped by `analyze`. A
/// browser sends no user id, so none is written.
extension GeneratedLogWriter {
    /// `creator.version` is the generated format's, not `CLI.version`: the same seed writes the
    /// same bytes in every release (`SampleLogs/har/maps-javascript-page.har` is compared with
    /// `generate`'s output byte for byte).
    static let harHeader: StaticString = "{\"log\":{\"version\":\"1.2\",\"creator\":{\"name\":\"PlacesCost generate\",\"version\":\"1\"},\"pages\":[],\"entries\":[\n"
    static let harFooter: StaticString = "\n]}}\n"

    /// Places API (New) names of `TrafficCatalog.masks`, in their order.
    static let newMaskNames: [[String]] = [
        ["formattedAddress", "location"],
        ["id", "formattedAddress", "addressComponents", "location"],
        ["displayName", "formattedAddress", "location", "regularOpeningHours", "nationalPhoneNumber"],
        ["displayName", "rating", "photos"],
        ["displayName", "formattedAddress", "location"],
    ]

    mutating func writeBrowserHAR(_ call: GeneratedCall) {
        let legacyLibrary = call.user & 1 == 0
        switch (call.kind, legacyLibrary) {
        case (.autocomplete, true):
            beginEntry(call.time, method: "GET")
            append("https://maps.googleapis.com/maps/api/place/js/AutocompletionService.")
            // The widget always has a token; `AutocompleteService` sends one only when given.
            append(call.token == nil ? "GetPredictionsJson?1s" : "GetPredictions?1s")
            appendInput(call) { writer, bytes in writer.appendURLEncoded(bytes, spaceAsPlus: false) }
            append("&4sen-US&15e3")
            if let token = call.token {
                append("&20s")
                appendJavaScriptToken(token)
            }
            append("&21m1&2e1")
            appendJSONPTail(call)
            endRequest(body: nil)
        case (.placeDetails, true):
            beginEntry(call.time, method: "GET")
            append("https://maps.googleapis.com/maps/api/place/js/PlaceService.GetPlaceDetails?2sen-US&10e3&14m1&1s")
            buffer.append(contentsOf: catalog.queries[Int(call.query)].placeID)
            if let token = call.token {
                append("&15s")
                appendJavaScriptToken(token)
            }
            if call.mask >= 0 {
                append("&16m1&1s")
                appendURLEncoded(masks[Int(call.mask)][...], spaceAsPlus: false)
            }
            append("&17m1&2e1")
            appendJSONPTail(call)
            endRequest(body: nil)
        case (.autocomplete, false):
            beginEntry(call.time, method: "POST")
            append("https://places.googleapis.com/$rpc/google.maps.places.v1.Places/AutocompletePlaces")
            var body: [UInt8] = [UInt8(ascii: "[")]
            body.append(UInt8(ascii: "\""))
            let utf8 = catalog.queries[Int(call.query)].utf8
            GeneratedLogWriter.escapeJSON(utf8[0..<Int(call.inputBytes)], into: &body)
            if call.typo != 0 { GeneratedLogWriter.escapeJSON([call.typo][...], into: &body) }
            body.append(UInt8(ascii: "\""))
            body += Array(",null,null,null,null,\"en-US\"".utf8)
            if let token = call.token {
                body += Array(",null,null,null,null,\"".utf8)
                body += javaScriptToken(token)
                body.append(UInt8(ascii: "\""))
            }
            body.append(UInt8(ascii: "]"))
            endRequest(body: body)
        case (.placeDetails, false):
            beginEntry(call.time, method: "POST")
            append("https://places.googleapis.com/$rpc/google.maps.places.v1.Places/GetPlace")
            var body = Array("[\"places/".utf8) + catalog.queries[Int(call.query)].placeID + Array("\",\"en-US\"".utf8)
            if let token = call.token {
                body += Array(",null,\"".utf8) + javaScriptToken(token) + [UInt8(ascii: "\"")]
            }
            body.append(UInt8(ascii: "]"))
            let mask = call.mask >= 0 ? GeneratedLogWriter.newMaskNames[Int(call.mask)].joined(separator: ",") : nil
            endRequest(body: body, fieldMask: mask)
        case (.geocoding, _):
            beginEntry(call.time, method: "GET")
            append("https://maps.googleapis.com/maps/api/js/GeocodeService.Search?5m2&1s")
            buffer.append(contentsOf: catalog.queries[Int(call.query)].placeID)
            append("&2e1&9sen-US")
            appendJSONPTail(call)
            endRequest(body: nil)
        }
        if call.kind != .autocomplete {
            // The chosen place shown on a map: a tile the analysis skips.
            beginEntry(call.time + 120, method: "GET")
            append("https://maps.googleapis.com/maps/vt?pb=!1m5!1m4!1i15!2i")
            appendNumber(Int(call.query) * 7 % 32768, width: 1)
            append("!3i")
            appendNumber(Int(call.query) * 13 % 32768, width: 1)
            append("!4i256!2m3!1e0!2sm!3i706000000!3m2!2sen-US!3sUS")
            endRequest(body: nil)
        }
    }

    /// The entry's start up to its request URL, which the caller writes.
    private mutating func beginEntry(_ time: Int64, method: StaticString) {
        if entries > 0 { append(",\n") }
        entries += 1
        append(#"{"startedDateTime":""#)
        appendRFC3339(time)
        append(#"","time":84,"request":{"method":""#)
        append(method)
        append(#"","httpVersion":"HTTP/2","url":""#)
    }

    /// The rest of the entry after its URL: headers (the key the page sends, the field mask),
    /// the body, and an empty response.
    private mutating func endRequest(body: [UInt8]?, fieldMask: String? = nil) {
        append(#"","headers":[{"name":"Referer","value":"https://shop.example.com/checkout"}"#)
        if body != nil {
            append(#",{"name":"Content-Type","value":"application/json+protobuf"},{"name":"X-Goog-Api-Key","value":""#)
            append(GeneratedLogWriter.apiKey)
            append(#""}"#)
        }
        if let fieldMask {
            append(#",{"name":"X-Goog-FieldMask","value":""#)
            append(fieldMask)
            append(#""}"#)
        }
        append(#"],"queryString":[],"cookies":[],"headersSize":-1,"bodySize":"#)
        appendNumber(body?.count ?? 0, width: 1)
        if let body {
            append(#","postData":{"mimeType":"application/json+protobuf","text":""#)
            appendJSONEscaped(body[...])
            append(#""}"#)
        }
        append(#"},"response":{"status":200,"statusText":"","httpVersion":"HTTP/2","headers":[],"cookies":[],"content":{"size":0,"mimeType":"text/javascript"},"redirectURL":"","headersSize":-1,"bodySize":-1},"cache":{},"timings":{"send":0,"wait":80,"receive":4}}"#)
    }

    /// `&callback=_xdc_._xxxxxx&key=...&token=N`: JSONP's callback, the page's key, and the
    /// signature of the URL (a number below 131071, never a session token).
    private mutating func appendJSONPTail(_ call: GeneratedCall) {
        append("&callback=_xdc_._")
        let mixed = UInt64(bitPattern: call.time) &* 0x9E37_79B9_7F4A_7C15
        appendBase36(mixed, digits: 6)
        append("&key=")
        append(GeneratedLogWriter.apiKey)
        append("&token=")
        appendNumber(Int(mixed >> 40) % 131_071, width: 1)
    }

    private mutating func appendJavaScriptToken(_ token: (UInt64, UInt64)) {
        buffer.append(contentsOf: javaScriptToken(token))
    }

    /// A session token as the JavaScript API writes one: 32 uppercase hex digits and a short
    /// base-36 suffix (`3BFA0C1E50CC4DEE89C383C9A5BC35A17x86`).
    private func javaScriptToken(_ token: (UInt64, UInt64)) -> [UInt8] {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for word in [token.0, token.1] {
            for index in 0..<16 { bytes.append(hex[Int(word >> UInt64(60 - 4 * index) & 15)]) }
        }
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)
        var rest = (token.0 ^ token.1) % 46_656
        for _ in 0..<3 {
            bytes.append(alphabet[Int(rest % 36)])
            rest /= 36
        }
        return bytes
    }

    private mutating func appendBase36(_ value: UInt64, digits: Int) {
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)
        var rest = value
        for _ in 0..<digits {
            buffer.append(alphabet[Int(rest % 36)])
            rest /= 36
        }
    }
}
