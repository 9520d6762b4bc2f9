import Foundation
import Testing
@testable import PlacesCostKit
@testable import PlacesCostReference

/// Web servers' JSON access logs (nginx with a JSON `log_format`, Caddy, Traefik) are read as the
/// requests they log (`JSONAccessRecord`), as the same requests in nginx's combined format are:
/// the same report, on the block pipeline and on the line reader, and their malformed records
/// skipped and counted at their lines, never quoting a value.
@Suite("JSON access logs")
struct JSONAccessLogTests {
    enum Server: String, CaseIterable {
        case nginx, caddy, traefik
        /// Google Cloud Logging's request entries (`LogEntry.httpRequest`), which log no user.
        case cloudLogging
        /// Istio's JSON access log (Envoy's `json_format`), which logs no user.
        case istio

        var logsUsers: Bool { self != .cloudLogging && self != .istio }
    }

    static let clean = MalformedCorpusTests.folder + "/access-log/clean.log"

    /// The requests of the corpus's clean combined log.
    static func requests() throws -> [HTTPRequest] {
        let parser = AccessLogParser(format: .combined)
        return try String(contentsOfFile: clean, encoding: .utf8).split(separator: "\n").map { line in
            guard case .request(let request) = parser.parse(String(line)) else { throw CocoaError(.fileReadCorruptFile) }
            return request
        }
    }

    /// The corpus's clean combined log with `-` for every user, written into `directory`: what a
    /// log that keeps no user must report.
    static func cleanWithoutUsers(in directory: TemporaryDirectory) throws -> String {
        let lines = try String(contentsOfFile: clean, encoding: .utf8).split(separator: "\n").map { line in
            var fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            fields[2] = "-"
            return fields.joined(separator: " ")
        }
        return directory.write("clean-without-users.log", lines.joined(separator: "\n") + "\n")
    }

    /// `request` as `server` logs it, with its user where that server's users usually are.
    static func line(_ request: HTTPRequest, as server: Server) throws -> String {
        // Whole seconds, as the combined log has them.
        let time = request.time.rfc3339.replacingOccurrences(of: ".000Z", with: "Z")
        var object: [String: Any]
        switch server {
        case .nginx:
            object = ["time_iso8601": time, "remote_addr": "203.0.113.4", "request": "\(request.method) \(request.target) HTTP/1.1",
                      "status": request.status.map(String.init) ?? "-", "request_time": "0.012", "http_x_user_id": request.userID ?? "-"]
            for header in request.headers { object["http_" + header.name.replacingOccurrences(of: "-", with: "_")] = header.value }
        case .caddy:
            var headers: [String: [String]] = [:]
            for header in request.headers { headers[header.name.split(separator: "-").map(\.capitalized).joined(separator: "-")] = [header.value] }
            object = ["level": "info", "ts": request.time.microseconds / 1_000_000, "logger": "http.log.access", "msg": "handled request",
                      "request": ["remote_ip": "203.0.113.4", "proto": "HTTP/2.0", "method": request.method, "host": "places-proxy.example.com",
                                  "uri": request.target, "headers": headers] as [String: Any],
                      "user_id": request.userID ?? "", "status": request.status ?? 0]
        case .cloudLogging:
            var logged: [String: Any] = ["requestMethod": request.method, "requestUrl": "https://maps.googleapis.com" + request.target,
                                         "userAgent": "okhttp/4.12.0", "remoteIp": "203.0.113.4", "latency": "0.041220s", "protocol": "HTTP/1.1"]
            if let status = request.status { logged["status"] = status }
            object = ["insertId": "6514a1b2000c8a0f", "httpRequest": logged, "timestamp": time, "severity": "INFO", "receiveTimestamp": time,
                      "resource": ["type": "cloud_run_revision", "labels": ["service_name": "places-proxy", "project_id": "my-project"]],
                      "logName": "projects/my-project/logs/run.googleapis.com%2Frequests"]
        case .istio:
            object = ["start_time": request.time.rfc3339, "method": request.method, "path": request.target, "protocol": "HTTP/1.1",
                      "response_code": request.status ?? 0, "response_flags": "-", "bytes_received": 0, "bytes_sent": 625, "duration": 41,
                      "upstream_service_time": "40", "x_forwarded_for": "203.0.113.4", "user_agent": "okhttp/4.12.0",
                      "request_id": "5f0c6a3e-5b1b-4d5a-9c1e-2d8f7a6b3c21", "authority": "places-proxy.example.com", "upstream_host": "10.0.0.7:8080",
                      "upstream_cluster": "outbound|8080||places-proxy.default.svc.cluster.local", "route_name": "default"]
        case .traefik:
            object = ["ClientAddr": "203.0.113.4:5555", "RequestMethod": request.method, "RequestPath": request.target, "RequestProtocol": "HTTP/1.1",
                      "DownstreamStatus": request.status ?? 0, "StartUTC": time, "request_X-User-Id": request.userID ?? "", "Duration": 1_200_000]
            for header in request.headers { object["request_" + header.name.split(separator: "-").map(\.capitalized).joined(separator: "-")] = header.value }
        }
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self)
    }

    @Test("Each server's log gives the combined log's report, on the pipeline (1 and 2 threads) and the line reader", arguments: Server.allCases)
    func sameReport(server: Server) throws {
        let requests = try Self.requests()
        #expect(requests.count == 81 && requests.contains { $0.userID != nil })
        let directory = TemporaryDirectory()
        let path = directory.write("access.\(server).jsonl", try requests.map { try Self.line($0, as: server) }.joined(separator: "\n") + "\n")
        let arguments = ["--json", "--pricing", "legacy-list"]
        // No user in Cloud Logging's or Istio's records: the same requests without theirs.
        let clean = server.logsUsers ? Self.clean : try Self.cleanWithoutUsers(in: directory)
        let combined = runCLI(["analyze", clean, "--quiet"] + arguments)
        let expected = MalformedCorpusTests.withoutInputFiles(try MalformedCorpusTests.object(combined.stdout))
        for threads in ["1", "2"] {
            let run = runCLI(["analyze", path, "--threads", threads] + arguments)
            #expect(run.code == .success && !run.stderr.contains("warning"), "\(run.stderr)")
            #expect(MalformedCorpusTests.withoutInputFiles(try MalformedCorpusTests.object(run.stdout)) == expected, "\(server), \(threads) threads")
        }
        let twin = try LogReader().read([path])
        let reference = try LogReader().read([clean])
        #expect(twin.calls.count == reference.calls.count && twin.rejected == 0 && twin.skippedRequests == reference.skippedRequests)
    }

    @Test("The keys each server writes are read: times to the microsecond, a request in parts, headers, the user, the body")
    func parsedRecords() throws {
        func parse(_ json: String, userHeader: String = LogReader.defaultUserHeader) -> JSONAccessRecord.Result {
            var bytes = Array(json.utf8)
            return bytes.withUnsafeMutableBufferPointer { JSONAccessRecord.parse(UnsafeBufferPointer($0), userHeader: userHeader) }
        }
        func request(_ json: String, userHeader: String = LogReader.defaultUserHeader) throws -> HTTPRequest {
            guard case .request(let request) = parse(json, userHeader: userHeader) else { throw CocoaError(.fileReadCorruptFile) }
            return request
        }
        // nginx: $msec, $request_method with $uri and $args, $request_time no header, `-` absent.
        let nginx = try request(#"{"msec":"1790845203.123","request_method":"POST","uri":"/v1/places:autocomplete","args":"alt=json","status":200,"# +
            #""request_time":"0.004","request_body":"{\"input\":\"Pa\",\"sessionToken\":\"t-1\"}","http_x_goog_fieldmask":"places.id","remote_user":"-","http_referer":"-"}"#)
        #expect(nginx.time == Timestamp(microseconds: 1_790_845_203_123_000) && !nginx.wholeSecondTime)
        #expect(nginx.method == "POST" && nginx.target == "/v1/places:autocomplete?alt=json" && nginx.status == 200)
        #expect(nginx.headers.map(\.name) == ["x-goog-fieldmask"] && nginx.body == #"{"input":"Pa","sessionToken":"t-1"}"# && nginx.userID == nil)
        // Caddy: `ts` with a fraction, the request nested, header values as arrays.
        let caddy = try request(#"{"ts":1790845203.5,"request":{"method":"GET","uri":"/maps/api/place/details/json?place_id=X","headers":{"X-User-Id":["u-7"],"Accept":["a","b"]}},"status":200}"#)
        #expect(caddy.time == Timestamp(microseconds: 1_790_845_203_500_000) && !caddy.wholeSecondTime)
        #expect(caddy.userID == "u-7" && caddy.headers.map(\.name) == ["accept"] && caddy.headers[0].value == "a, b")
        // Traefik: StartUTC to the nanosecond (microseconds kept), request_ headers, not nginx's request_ variables.
        let traefik = try request(#"{"StartUTC":"2026-10-01T09:00:03.123456789Z","time":"2026-10-01T09:00:03Z","RequestMethod":"GET","RequestPath":"/maps/api/geocode/json?place_id=X","# +
            #""DownstreamStatus":200,"request_X-Goog-Fieldmask":"id","request_length":"310"}"#)
        #expect(traefik.time.rfc3339 == "2026-10-01T09:00:03.123456Z" && traefik.headers.map(\.name) == ["x-goog-fieldmask"] && traefik.status == 200)
        // No response: Traefik's status 0 is no status, as nginx's `-`.
        #expect(try request(#"{"StartUTC":"2026-10-01T09:00:03Z","RequestMethod":"GET","RequestPath":"/","DownstreamStatus":0}"#).status == nil)
        // nginx's $time_local and a user header chosen with --user-header.
        let local = try request(#"{"time_local":"01/Oct/2026:11:00:03 +0200","request":"GET /maps/api/place/autocomplete/json?input=a HTTP/2.0","http_x_account":"acct-9"}"#, userHeader: "x-account")
        #expect(local.time.rfc3339 == "2026-10-01T09:00:03.000Z" && local.wholeSecondTime && local.userID == "acct-9" && local.headers.isEmpty)

        // Cloud Logging: `timestamp` to the nanosecond, the request in `httpRequest` with an absolute URL.
        let cloud = try request(#"{"insertId":"x","httpRequest":{"requestMethod":"GET","requestUrl":"https://places-proxy-abc-uc.a.run.app/maps/api/place/autocomplete/json?input=Ga","# +
            #""status":200,"userAgent":"okhttp/4.12.0","referer":"-","latency":"0.04s"},"timestamp":"2026-10-01T09:00:03.123456789Z","severity":"INFO","labels":{"instanceId":"00f4"}}"#)
        #expect(cloud.time.rfc3339 == "2026-10-01T09:00:03.123456Z" && !cloud.wholeSecondTime && cloud.method == "GET" && cloud.status == 200)
        #expect(cloud.target == "https://places-proxy-abc-uc.a.run.app/maps/api/place/autocomplete/json?input=Ga" && cloud.userID == nil)
        #expect(cloud.headers.map(\.name) == ["user-agent"] && cloud.headers[0].value == "okhttp/4.12.0")

        let secret = "AIzaSyNOT-TO-BE-PRINTED"
        let malformed: [(String, String)] = [
            (#"{"request":"GET /maps/api/place/autocomplete/json?key=\#(secret) HTTP/1.1"}"#, "no time"),
            (#"{"time_local":"yesterday \#(secret)","request":"GET / HTTP/1.1"}"#, "`time_local`"),
            (#"{"time_iso8601":"2026-10-01T09:00:03Z","remote_addr":"\#(secret)"}"#, "no request"),
            (#"{"time_iso8601":"2026-10-01T09:00:03Z","request":"-"}"#, "the request line is empty"),
            (#"{"time_iso8601":"2026-10-01T09:00:03Z","request":"GET /?key=\#(secret) HTTP/1.1","status":"\#(secret)"}"#, "status"),
            (#"{"ts":true,"request":"GET / HTTP/1.1"}"#, "`ts`"),
        ]
        for (json, said) in malformed {
            guard case .malformed(let reason) = parse(json) else {
                Issue.record("read: \(json)")
                continue
            }
            #expect(reason.contains(said) && !reason.contains("AIza"), "\(reason)")
        }
    }

    @Test("Malformed records of a JSON access log are skipped and counted at their lines; other requests are counted as skipped")
    func malformedLines() throws {
        let requests = try Self.requests()
        var lines = try requests.prefix(40).map { try Self.line($0, as: .nginx) }
        lines.insert(#"{"remote_addr":"203.0.113.4","request":"GET /maps/api/place/autocomplete/json?input=a&key=AIzaSyX HTTP/1.1"}"#, at: 5)
        lines.insert(#"{"time_iso8601":"2026-10-02T03:48:38Z","remote_addr":"203.0.113.4","request":"GET /favicon.ico HTTP/1.1","status":"404"}"#, at: 10)
        let directory = TemporaryDirectory()
        let path = directory.write("access.jsonl", lines.joined(separator: "\n") + "\n")
        let run = runCLI(["analyze", path, "--json"])
        #expect(run.code == .success)
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains("warning") }
        #expect(warnings.count == 1 && warnings[0].hasPrefix("\(path):6: warning: a web server's JSON access log record with no time"), "\(run.stderr)")
        #expect(!run.stderr.contains("AIza"))
        let input = try #require(try MalformedCorpusTests.object(run.stdout)["input"] as? [String: Any])
        #expect(input["rejected"] as? Int == 1 && input["skipped_requests"] as? Int == 1 && input["records"] as? Int == 40)
    }

    @Test("Call records and a web server's records in one file are each read as what they are, on both paths")
    func mixed() throws {
        let requests = try Self.requests()
        // Calls a minute apart from the requests, so that each keeps its own searches.
        let calls = (0..<30).map { ac(Double($0) * 60, "call-\($0 % 5)", "ab").jsonLine.replacing(/"input":"([^"]*)"/) { "\"input_length\":\($0.1.count)" } }
        var lines: [String] = []
        for (index, request) in requests.enumerated() {
            lines.append(try Self.line(request, as: .nginx))
            if index % 3 == 0, index / 3 < calls.count { lines.append(calls[index / 3]) }
        }
        let directory = TemporaryDirectory()
        let path = directory.write("mixed.jsonl", lines.joined(separator: "\n") + "\n")
        let mixedCalls = lines.filter { $0.contains("\"api\"") }.count
        let reference = try LogReader().read([Self.clean])
        for threads in ["1", "2"] {
            let run = runCLI(["analyze", path, "--json", "--threads", threads])
            #expect(run.code == .success && !run.stderr.contains("warning"), "\(run.stderr)")
            let input = try #require(try MalformedCorpusTests.object(run.stdout)["input"] as? [String: Any])
            #expect(input["records"] as? Int == reference.calls.count + mixedCalls && input["rejected"] as? Int == 0)
        }
        let twin = try LogReader().read([path])
        #expect(twin.calls.count == reference.calls.count + mixedCalls && twin.rejected == 0)
    }
}
