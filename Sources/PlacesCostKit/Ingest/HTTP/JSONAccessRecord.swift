import Foundation

/// A web server's JSON access-log record read as the request it logs, as an access log's line is
/// (`AccessLogParser`): nginx with a JSON `log_format` (`escape=json`), Caddy's access logs,
/// Traefik's JSON access logs. Such a line is JSON Lines with no `api`; `RawRecord` flags it by
/// its keys (`isWebServerRecord`), and it becomes an `HTTPRequest` for `PlacesRequestDecoder`.
///
/// The keys are the servers' own (`docs/formats.md` section 2):
/// - time: `msec` (nginx, seconds with milliseconds), `ts` (Caddy, seconds), `StartUTC`,
///   `time_iso8601`, `@timestamp`, `time`, `timestamp` (RFC 3339), `time_local` (nginx's
///   `01/Oct/2026:09:00:03 +0000`); the first present is read;
/// - request: `request` as a request line (nginx `$request`) or as an object with `method`,
///   `uri` and `headers` (Caddy); else `request_method` or `method` or `RequestMethod`, with
///   `request_uri` or `RequestPath`, or `uri` and `args`;
/// - headers: `http_NAME` (nginx `$http_x_goog_fieldmask`), `request_Name` (Traefik's
///   `request_X-Goog-Fieldmask`: a capital or a hyphen tells it from nginx's `request_time`),
///   Caddy's `request.headers`; the user header (`--user-header`) is the user, else `remote_user` or
///   `user_id`;
/// - `status` or `DownstreamStatus`; `request_body`.
///
/// A value `-` or empty is absent, as nginx writes it. No reason quotes a value: the target may
/// hold an API key.
enum JSONAccessRecord {
    enum Result {
        case request(HTTPRequest)
        case malformed(String)
    }

    /// Keys a time may be under, in the order they are read: the finest first.
    static let timeKeys = ["msec", "ts", "StartUTC", "time_iso8601", "@timestamp", "time", "timestamp", "time_local"]

    static func parse(_ line: UnsafeBufferPointer<UInt8>, userHeader: String) -> Result {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any] else {
            return .malformed("not a JSON object")
        }
        let nested = object["request"] as? [String: Any]
        /// A value as text: a string that is not `-` or empty, or a number as written.
        func text(_ value: Any?) -> String? {
            switch value {
            case let string as String: string.isEmpty || string == "-" ? nil : string
            case let number as NSNumber where !(value is Bool): number.stringValue
            default: nil
            }
        }

        guard let (time, wholeSeconds) = readTime(object) else {
            let found = timeKeys.first { object[$0] != nil }
            return .malformed(found.map { "its time (`\($0)`) is not a time this reader knows (\(timeKeys.joined(separator: ", ")))" }
                ?? "a web server's JSON access log record with no time under a key this reader knows (\(timeKeys.joined(separator: ", ")))")
        }

        let method: String
        var target: String
        if let line = object["request"] as? String {
            let parts = line.utf8.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true).map { Substring($0) }
            guard parts.count == 2 || parts.count == 3, parts[0].allSatisfy({ $0.isLetter }) else {
                return .malformed(line == "-" || line.isEmpty
                    ? "the request line is empty (nginx writes - for a connection closed before a request)"
                    : "`request` is not an HTTP request line (method, target, protocol)")
            }
            method = String(parts[0])
            target = String(parts[1])
        } else if let requestMethod = text(nested?["method"] ?? object["request_method"] ?? object["method"] ?? object["RequestMethod"]),
                  let uri = text(nested?["uri"] ?? object["request_uri"] ?? object["RequestPath"] ?? object["uri"]) {
            guard requestMethod.allSatisfy({ $0.isLetter }) else { return .malformed("the request's method is not an HTTP method") }
            method = requestMethod
            target = uri
            // nginx's `$uri` leaves the query in `$args`.
            if object["request_uri"] == nil, nested == nil, !target.contains("?"), let args = text(object["args"] ?? object["query_string"]) {
                target += "?" + args
            }
        } else {
            return .malformed("a web server's JSON access log record with no request (`request`, or a method and `request_uri`, `uri` or `RequestPath`)")
        }

        var status: Int?
        if let statusText = text(object["status"] ?? object["DownstreamStatus"]) {
            guard let code = Int(statusText), (100...999).contains(code) else { return .malformed("its status is not an HTTP status code") }
            status = code
        }

        var headers: [(name: String, value: String)] = []
        for (key, value) in object {
            guard let value = text(value) else { continue }
            if key.hasPrefix("http_") {
                headers.append((key.dropFirst(5).lowercased().replacingOccurrences(of: "_", with: "-"), value))
            } else if key.hasPrefix("request_"), key.dropFirst(8).contains(where: { $0 == "-" || $0.isUppercase }) {
                headers.append((key.dropFirst(8).lowercased(), value))
            }
        }
        for (name, values) in (nested?["headers"] as? [String: Any]) ?? [:] {
            let value = (values as? [Any])?.compactMap(text).joined(separator: ", ") ?? text(values)
            if let value, !value.isEmpty { headers.append((name.lowercased(), value)) }
        }
        // Dictionary order is not the line's: sorted, the request (and its fingerprint) is the same in every run.
        headers.sort { $0.name < $1.name }
        let userFromHeader = headers.first { $0.name == userHeader }?.value
        headers.removeAll { $0.name == userHeader }
        let user = userFromHeader ?? text(object["remote_user"]) ?? text(object["user_id"])

        var request = HTTPRequest(time: time, method: method, target: target, headers: headers, body: text(object["request_body"]), userID: user, status: status)
        request.wholeSecondTime = wholeSeconds
        return .request(request)
    }

    /// The record's time, and whether it has whole seconds only; `nil` when the first time key
    /// present does not hold a time.
    private static func readTime(_ object: [String: Any]) -> (Timestamp, wholeSeconds: Bool)? {
        guard let key = timeKeys.first(where: { object[$0] != nil }), let value = object[key] else { return nil }
        if let number = value as? NSNumber, !(value is Bool) {
            // Seconds since 1970 (Caddy's `ts`, nginx's `$msec` unquoted).
            let seconds = number.doubleValue
            guard seconds.isFinite, (0..<1e11).contains(seconds) else { return nil }
            let microseconds = Int64((seconds * 1_000_000).rounded())
            return (Timestamp(microseconds: microseconds), microseconds % 1_000_000 == 0 && !(number.stringValue.contains(".")))
        }
        guard let string = value as? String else { return nil }
        var bytes = Array(string.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            let field = UnsafeBufferPointer(buffer)
            if key == "msec" || key == "ts" {
                return AccessLogParser.parseMsec(field).map { ($0, !string.contains(".")) }
            }
            if key == "time_local" {
                return AccessLogParser.parseTimeLocal(field).map { ($0, true) }
            }
            guard string.contains("-"), case .success(let time) = TimestampParser.parse(bytes: field) else { return nil }
            // A fraction of a second follows the seconds: `09:00:03.123Z`.
            return (time, !string.contains("."))
        }
    }
}
