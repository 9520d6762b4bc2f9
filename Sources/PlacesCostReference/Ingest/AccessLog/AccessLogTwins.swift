import PlacesCostKit

/// The two ways an access-log line (or a web server's JSON record) becomes a `Call`, side by side,
/// for the tests and the fuzzer that hold the fast path to the slow one.
///
/// `slow` is the obviously-correct path (`AccessLogParser` into an `HTTPRequest`, then
/// `PlacesRequestDecoder`, and `HTTPRequest.fingerprint`); `fast` is `FastAccessLogLineDecoder`'s
/// spans turned into a `Call` by the rules `CallBlockBuilder` files them with.
enum AccessLogTwins {
    /// What a line is, as either path sees it.
    enum Outcome: Equatable, CustomStringConvertible {
        /// `proxyHost`: an absolute target's host when it is not Google's.
        case call(Call, bodyUnknown: Bool, fingerprint: UInt64, proxyHost: String?)
        /// `host`: an absolute target's.
        case notPlaces(host: String?)
        /// A Places request that is not a call; only the slow path decides these.
        case notBilled(PlacesRequestDecoder.NotBilled)
        /// Only the slow path words a reason.
        case malformed(String)

        var description: String {
            switch self {
            case .call(let call, let bodyUnknown, let fingerprint, let proxyHost):
                "call(\(String(reflecting: call)), bodyUnknown: \(bodyUnknown), fingerprint: \(fingerprint), proxyHost: \(proxyHost ?? "-"))"
            case .notPlaces(let host): "notPlaces(host: \(host ?? "-"))"
            case .notBilled(let kind): "notBilled(\(kind))"
            case .malformed(let reason): "malformed(\(reason))"
            }
        }
    }

    static func slow(_ line: UnsafeBufferPointer<UInt8>, parser: AccessLogParser, routes: RequestRoutes = RequestRoutes()) -> Outcome {
        switch parser.parse(line) {
        case .malformed(let reason): return .malformed(reason)
        case .request(let request): return outcome(of: request, routes: routes)
        }
    }

    /// The fast path's outcome, or `nil` when it declines the line.
    static func fast(_ line: UnsafeBufferPointer<UInt8>, decoder: FastAccessLogLineDecoder) -> Outcome? {
        guard let record = decoder.decode(line) else { return nil }
        return outcome(of: record, fingerprint: record.fingerprint(in: line), in: line)
    }

    /// What the JSON Lines block parser makes of a line as a web server's record
    /// (`JSONAccessRecord` + `PlacesRequestDecoder`); `nil` when the line is not one.
    static func slowJSON(_ line: UnsafeBufferPointer<UInt8>, userHeader: String = LogReader.defaultUserHeader,
                         routes: RequestRoutes = RequestRoutes()) -> Outcome? {
        guard case .success(let object) = JSONLineParser.parseTree(line), JSONAccessRecord.isWebServerRecord(object) else { return nil }
        switch JSONAccessRecord.request(object, userHeader: userHeader) {
        case .malformed(let reason): return .malformed(reason)
        case .request(let request): return outcome(of: request, routes: routes)
        }
    }

    /// The fast JSON access record decoder's outcome, or `nil` when it declines the line.
    static func fastJSON(_ line: UnsafeBufferPointer<UInt8>, decoder: FastJSONAccessRecordDecoder) -> Outcome? {
        guard let decoded = decoder.decode(line) else { return nil }
        return outcome(of: decoded.record, fingerprint: decoded.fingerprint, in: line)
    }

    private static func outcome(of request: HTTPRequest, routes: RequestRoutes) -> Outcome {
        switch PlacesRequestDecoder.decode(request, routes: routes) {
        case .call(let call, let bodyUnknown, let proxyHost): .call(call, bodyUnknown: bodyUnknown, fingerprint: request.fingerprint, proxyHost: proxyHost)
        case .notPlaces(let host): .notPlaces(host: host)
        case .notBilled(let kind): .notBilled(kind)
        case .malformed(let reason): .malformed(reason)
        }
    }

    /// A fast record as the `Call` the slow path would make.
    private static func outcome(of record: FastAccessLogRecord, fingerprint: UInt64, in line: UnsafeBufferPointer<UInt8>) -> Outcome {
        let host = record.host.map { String(decoding: UnsafeBufferPointer(rebasing: line[Int($0.start) ..< Int($0.start + $0.count)]), as: UTF8.self).lowercased() }
        guard let places = record.call else { return .notPlaces(host: host) }
        func bytes(_ span: ByteSpan) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: line[Int(span.start) ..< Int(span.start + span.count)])
        }
        func text(_ span: ByteSpan) -> String { String(decoding: bytes(span), as: UTF8.self) }
        let call = Call(
            time: record.time,
            api: API(code: places.api, otherName: "<the fast path made an `other` API>"),
            sessionToken: places.sessionToken.map(text),
            inputLength: places.inputLength.map(Int.init),
            fields: places.fields.flatMap { FastAccessLogLineDecoder.fieldNames(UnsafeRawBufferPointer(bytes($0))) },
            generation: places.generation,
            userID: record.user.map(text),
            status: record.status.map(text)
        )
        return .call(call, bodyUnknown: places.bodyUnknown, fingerprint: fingerprint,
                     proxyHost: host.flatMap { PlacesRequestDecoder.googleHosts.contains($0) ? nil : $0 })
    }

    /// Where the fast path answers, how it differs from the slow path; `nil` when they agree or
    /// the fast path declines.
    static func disagreement(
        _ line: UnsafeBufferPointer<UInt8>, format: AccessLogFormat, userHeader: String = LogReader.defaultUserHeader,
        routes: RequestRoutes = RequestRoutes()
    ) -> String? {
        let decoder = FastAccessLogLineDecoder(format: format, userHeader: userHeader, leaving: routes.prefixes)
        guard let fast = fast(line, decoder: decoder) else { return nil }
        let slow = slow(line, parser: AccessLogParser(format: format, userHeader: userHeader), routes: routes)
        if case .malformed(let reason) = slow {
            return "the fast path answers \(fast) for a line the slow path rejects (\(reason))"
        }
        // `==` on `String` equates canonically equivalent text; the bytes must match too.
        if fast != slow || Array(fast.description.utf8) != Array(slow.description.utf8) {
            return "fast \(fast) != slow \(slow)"
        }
        return nil
    }

    /// Where the fast JSON access record decoder answers, how it differs from the slow path;
    /// `nil` when they agree or the fast path declines.
    static func jsonDisagreement(
        _ line: UnsafeBufferPointer<UInt8>, userHeader: String = LogReader.defaultUserHeader, routes: RequestRoutes = RequestRoutes()
    ) -> String? {
        let decoder = FastJSONAccessRecordDecoder(userHeader: userHeader, leaving: routes.prefixes)
        guard let fast = fastJSON(line, decoder: decoder) else { return nil }
        guard let slow = slowJSON(line, userHeader: userHeader, routes: routes) else {
            return "the fast path answers \(fast) for a line that is no web server's record"
        }
        if case .malformed(let reason) = slow {
            return "the fast path answers \(fast) for a line the slow path rejects (\(reason))"
        }
        if fast != slow || Array(fast.description.utf8) != Array(slow.description.utf8) {
            return "fast \(fast) != slow \(slow)"
        }
        return nil
    }
}
