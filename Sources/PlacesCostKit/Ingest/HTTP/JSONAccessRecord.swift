/// A web server's JSON access-log record read as the request it logs, as an access log's line is
/// (`AccessLogParser`): nginx with a JSON `log_format` (`escape=json`), Caddy's access logs,
/// Traefik's JSON access logs, Envoy's and Istio's JSON access logs, and Google Cloud Logging's
/// request entries (a `LogEntry` with an `httpRequest`: Cloud Run, App Engine, load balancers),
/// exported by a log sink. Such a line is JSON Lines with no `api`; `RawRecord` flags it by
/// its keys (`isWebServerRecord`), and it becomes an `HTTPRequest` for `PlacesRequestDecoder`.
///
/// The keys are the servers' own (`docs/formats.md` section 2):
/// - time: `msec` (nginx, seconds with milliseconds), `ts` (Caddy, seconds), `StartUTC`,
///   `time_iso8601`, `@timestamp`, `time`, `timestamp` (RFC 3339), `time_local` (nginx's
///   `01/Oct/2026:09:00:03 +0000`), `start_time` (Envoy's); the first present is read;
/// - request: `request` as a request line (nginx `$request`) or as an object with `method`,
///   `uri` and `headers` (Caddy); else `httpRequest.requestMethod` with `httpRequest.requestUrl`
///   (Cloud Logging); else `request_method` or `method` or `RequestMethod`, with `request_uri` or
///   `RequestPath`, or `uri` and `args`, or `path` (Envoy's);
/// - headers: `http_NAME` (nginx `$http_x_goog_fieldmask`), `request_Name` (Traefik's
///   `request_X-Goog-Fieldmask`: a capital or a hyphen tells it from nginx's `request_time`),
///   Caddy's `request.headers`, Cloud Logging's `httpRequest.userAgent` and `referer`; the user
///   header (`--user-header`) is the user, else `remote_user` or `user_id`;
/// - `status` or `DownstreamStatus` or `httpRequest.status` or `response_code` (Envoy's);
///   `request_body`.
///
/// A value `-` or empty is absent, as nginx writes it. No reason quotes a value: the target may
/// hold an API key.
package enum JSONAccessRecord {
    package enum Result {
        case request(HTTPRequest)
        case malformed(String)
    }

    /// Keys a time may be under, in the order they are read: the finest first.
    static let timeKeys = ["msec", "ts", "StartUTC", "time_iso8601", "@timestamp", "time", "timestamp", "time_local", "start_time"]

    package static func parse(_ line: UnsafeBufferPointer<UInt8>, userHeader: String) -> Result {
        switch JSONLineParser.parseTree(line) {
        case .success(let object): request(object, userHeader: userHeader)
        case .failure(let failure): .malformed(failure.reason)
        }
    }

    /// Whether a parsed line's object is a web server's record, as `RawRecord.isWebServerRecord`
    /// tells it from the same line: a web server's key, and no `timestamp` or no `api`.
    package static func isWebServerRecord(_ object: [String: AnyJSON]) -> Bool {
        (object["timestamp"] == nil || object["api"] == nil) && RawRecord.webServerKeys.contains { object[$0] != nil }
    }

    /// The request a web server's record logs.
    package static func request(_ object: [String: AnyJSON], userHeader: String) -> Result {
        let nested = object["request"]
        // Cloud Logging's `LogEntry.httpRequest`.
        let logged = object["httpRequest"]

        guard let (time, wholeSeconds) = readTime(object) else {
            let found = timeKeys.first { object[$0] != nil }
            return .malformed(found.map { "its time (`\($0)`) is not a time this reader knows (\(timeKeys.joined(separator: ", ")))" }
                ?? "a web server's JSON access log record with no time under a key this reader knows (\(timeKeys.joined(separator: ", ")))")
        }

        let method: String
        var target: String
        if case .string(let line) = nested {
            switch AccessLogParser.requestLine(line, field: "`request`") {
            case .success(let parts): (method, target) = parts
            case .failure(let failure): return .malformed(failure.reason)
            }
        } else if let requestMethod = (nested?["method"] ?? logged?["requestMethod"] ?? object["request_method"] ?? object["method"] ?? object["RequestMethod"])?.text,
                  let uri = (nested?["uri"] ?? logged?["requestUrl"] ?? object["request_uri"] ?? object["RequestPath"] ?? object["uri"] ?? object["path"])?.text {
            guard requestMethod.allSatisfy({ $0.isLetter }) else { return .malformed("the request's method is not an HTTP method") }
            method = requestMethod
            target = uri
            // nginx's `$uri` leaves the query in `$args`.
            if object["request_uri"] == nil, nested == nil, logged == nil, !target.contains("?"),
               let args = (object["args"] ?? object["query_string"])?.text {
                target += "?" + args
            }
        } else {
            return .malformed("a web server's JSON access log record with no request (`request`, `httpRequest.requestUrl`, or a method and `request_uri`, `uri` or `RequestPath`)")
        }

        var status: Int?
        // 0: no response (Traefik's for a connection that ended first), as nginx's `-`.
        if let statusText = (object["status"] ?? object["DownstreamStatus"] ?? logged?["status"] ?? object["response_code"])?.text, statusText != "0" {
            guard let code = Int(statusText), (100...999).contains(code) else { return .malformed("its status is not an HTTP status code") }
            status = code
        }

        var headers: [(name: String, value: String)] = []
        for (key, value) in object {
            guard let value = value.text else { continue }
            if key.hasPrefix("http_") {
                // nginx's `$http_x_goog_fieldmask` is the header `x-goog-fieldmask`.
                headers.append((String(key.dropFirst(5).lowercased().map { $0 == "_" ? "-" : $0 }), value))
            } else if key.hasPrefix("request_"), key.dropFirst(8).contains(where: { $0 == "-" || $0.isUppercase }) {
                headers.append((key.dropFirst(8).lowercased(), value))
            }
        }
        if case .object(let sent) = nested?["headers"] {
            for (name, values) in sent {
                let value = if case .array(let each) = values { each.compactMap(\.text).joined(separator: ", ") } else { values.text ?? "" }
                if !value.isEmpty { headers.append((name.lowercased(), value)) }
            }
        }
        for (key, name) in [("userAgent", "user-agent"), ("referer", "referer")] {
            if let value = logged?[key]?.text { headers.append((name, value)) }
        }
        // Dictionary order is not the line's: sorted, the request (and its fingerprint) is the same in every run.
        headers.sort { $0.name < $1.name }
        let userFromHeader = headers.first { $0.name == userHeader }?.value
        headers.removeAll { $0.name == userHeader }
        let user = userFromHeader ?? object["remote_user"]?.text ?? object["user_id"]?.text

        var request = HTTPRequest(time: time, method: method, target: target, headers: headers, body: object["request_body"]?.text, userID: user, status: status)
        request.wholeSecondTime = wholeSeconds
        return .request(request)
    }

    /// The record's time, and whether it has whole seconds only; `nil` when the first time key
    /// present does not hold a time.
    private static func readTime(_ object: [String: AnyJSON]) -> (Timestamp, wholeSeconds: Bool)? {
        guard let key = timeKeys.first(where: { object[$0] != nil }), let value = object[key] else { return nil }
        let text: String
        switch value {
        case .string(let string): text = string
        // Seconds since 1970 (Caddy's `ts`, nginx's `$msec` unquoted).
        case .number(let literal) where key == "msec" || key == "ts": text = literal
        default: return nil
        }
        var bytes = Array(text.utf8)
        let fraction = text.contains(".")
        return bytes.withUnsafeMutableBufferPointer { buffer in
            let field = UnsafeBufferPointer(buffer)
            switch key {
            case "msec", "ts": return AccessLogParser.parseMsec(field).map { ($0, !fraction) }
            case "time_local": return AccessLogParser.parseTimeLocal(field).map { ($0, true) }
            default:
                guard text.contains("-"), case .success(let time) = TimestampParser.parse(bytes: field) else { return nil }
                // A fraction of a second follows the seconds: `09:00:03.123Z`.
                return (time, !fraction)
            }
        }
    }
}
