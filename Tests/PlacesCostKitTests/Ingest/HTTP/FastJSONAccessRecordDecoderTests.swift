import Foundation
import Testing
@testable import PlacesCostKit
@testable import PlacesCostReference

/// The fast JSON access record decoder against its slow twin (`JSONLineParser.parseTree` +
/// `JSONAccessRecord` + `PlacesRequestDecoder` + `HTTPRequest.fingerprint`): whatever it answers
/// must be what the slow path makes of the line, and it must answer the records nginx and
/// Traefik write.
@Suite("FastJSONAccessRecordDecoder")
struct FastJSONAccessRecordDecoderTests {
    /// A user header and routes: the defaults, or a header of the team's own and a stripped prefix.
    enum Setting: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case defaults, ownHeaderAndPrefix

        var userHeader: String { self == .defaults ? LogReader.defaultUserHeader : "x-account" }

        var routes: RequestRoutes {
            var routes = RequestRoutes()
            if self == .ownHeaderAndPrefix { try! routes.addStrippedPrefix("/proxy") }
            return routes
        }

        var testDescription: String { rawValue }
    }

    private func outcomes(_ text: String, setting: Setting = .defaults) -> (fast: AccessLogTwins.Outcome?, slow: AccessLogTwins.Outcome?) {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { mutable in
            let line = UnsafeBufferPointer(mutable)
            let decoder = FastJSONAccessRecordDecoder(userHeader: setting.userHeader, leaving: setting.routes.prefixes)
            return (AccessLogTwins.fastJSON(line, decoder: decoder),
                    AccessLogTwins.slowJSON(line, userHeader: setting.userHeader, routes: setting.routes))
        }
    }

    @Test("The keys the decoder matches are JSONAccessRecord's time keys and RawRecord's web server keys")
    func keys() {
        typealias Key = FastJSONAccessRecordDecoder.Member.Key
        #expect(Key.timeKeys.map { "\($0.name)" } == JSONAccessRecord.timeKeys)
        #expect(Set(Key.webServerKeys.map { "\($0.name)" }) == RawRecord.webServerKeys)
        for key in Key.allCases {
            let name = Array("\(key.name)".utf8)
            #expect(name.withUnsafeBufferPointer { Key.named($0.baseAddress!, $0.count) } == key)
        }
    }

    @Test("Records as nginx and Traefik write them: answered fast, with the slow path's call and fingerprint")
    func answeredShapes() throws {
        let target = "/maps/api/place/autocomplete/json?input=M%C3%BCn&sessiontoken=6513270e&key=AIzaSyEXAMPLE"
        let records = [
            #"{"time_iso8601":"2026-10-01T11:00:03+02:00","remote_addr":"203.0.113.4","request":"GET \#(target) HTTP/1.1","status":"200","http_user_agent":"okhttp/4.12.0","http_referer":"-"}"#,
            #"{"msec": "1790845203.123", "remote_addr": "203.0.113.4", "remote_user": "alice", "request": "GET \#(target) HTTP/2.0", "status": "304", "http_user_agent": "ua", "http_x_forwarded_for": "10.0.0.1"}"#,
            #" { "msec" : 1790845203.5 ,"request_method":"GET","request_uri":"/maps/api/place/details/json?place_id=ChIJ&fields=name%2Crating&sessiontoken=t-1","status":200,"http_x_user_id":"u-7","remote_user":"bob" } "#,
            #"{"time_local":"01/Oct/2026:09:00:03 +0000","request":"GET /maps/api/geocode/json?place_id=ChIJ HTTP/1.1","status":"-","user_id":"u-9","remote_addr":"203.0.113.4"}"#,
            #"{"StartUTC":"2026-10-01T09:00:03.123456789Z","RequestMethod":"POST","RequestPath":"/v1/places:autocomplete","DownstreamStatus":200,"ClientAddr":"203.0.113.4:5555","request_User-Agent":"Dart/3.4","request_X-User-Id":"u-1","Duration":1200000}"#,
            #"{"StartUTC":"2026-10-01T09:00:03Z","RequestMethod":"GET","RequestPath":"/healthz","DownstreamStatus":0,"ClientAddr":"203.0.113.4:5555"}"#,
            #"{"@timestamp":"2026-10-01T09:00:03.25Z","method":"GET","uri":"/v1/places/ChIJ?fields=id&sessionToken=s","status":"200","remote_ip":"203.0.113.4","level":null,"ok":true}"#,
            // Caddy: the request nested, headers as arrays, escapes in what is not read.
            #"{"level":"info","ts":1790845203.5241024,"logger":"http.log.access","msg":"handled request","request":{"remote_ip":"203.0.113.4","proto":"HTTP/2.0","method":"GET","host":"proxy.example.com","uri":"\#(target)","headers":{"User-Agent":["PlacesDemo/3.2 CFNetwork/1410.0.3"],"Accept":["*/*"],"X-User-Id":["u-7"],"Accept-Encoding":[]},"tls":{"resumed":false,"version":772,"server_name":"proxy.example.com"}},"bytes_read":0,"user_id":"","duration":0.0009,"size":2533,"status":200,"resp_headers":{"Etag":["\"33a64df5\""],"Content-Type":["application/json; charset=UTF-8"]}}"#,
            #"{"ts":1790845203,"request":{"method":"POST","uri":"/v1/places:autocomplete","headers":{"Content-Type":"application/json","X-Empty":["-",""]}},"status":200,"user_id":"u-8"}"#,
        ]
        for record in records {
            let (fast, slow) = outcomes(record)
            #expect(fast != nil && fast == slow, "\(record)")
            #expect(fast?.description == slow?.description)
        }
        // The headers of a record with a fraction of a second are in its fingerprint, as the slow path's.
        let (withHeaders, _) = outcomes(records[1])
        let (otherAgent, _) = outcomes(records[1].replacingOccurrences(of: #""http_user_agent": "ua""#, with: #""http_user_agent": "ub""#))
        guard case .call(_, _, let one, _)? = withHeaders, case .call(_, _, let other, _)? = otherAgent else {
            Issue.record("not calls")
            return
        }
        #expect(one != other && one != Fingerprint.unrepeatable)
    }

    @Test("Records the fast path leaves to the slow one, which reads, rejects or passes them on")
    func declined() {
        enum Kind { case call, notPlaces, malformed, notWebServer }
        let time = #""time_iso8601":"2026-10-01T09:00:03Z""#
        let autocomplete = "/maps/api/place/autocomplete/json?input=a&sessiontoken=t"
        let cases: [(String, Kind)] = [
            (#"{"ts":1790845203.5,"request":{"method":"GET","uri":"\#(autocomplete)","headers":{"Accept":["a","b"]}},"status":200}"#, .call),  // two values
            (#"{"ts":1790845203.5,"request":{"method":"GET","uri":"\#(autocomplete)","headers":{"Sec-Ch-Ua":["\"Chromium\";v=\"128\""]}},"status":200}"#, .call),
            (#"{"ts":1790845203.5,"request":{"method":"GET","uri":"\#(autocomplete)","method":"GET"},"status":200}"#, .call),
            (#"{"ts":1790845203.5,"request":{"method":"GET","uri":"\#(autocomplete)","headers":{"Accept":["a"],"accept":["b"]}},"status":200}"#, .call),
            (#"{"ts":1790845203.5,"request":{"method":"GET","uri":"\#(autocomplete)"},"resp_headers":{"Etag":["\ud800"]},"status":200}"#, .notWebServer),
            (#"{\#(time),"request":"GET \#(autocomplete) HTTP/1.1","http_user_agent":"a \"quoted\" agent"}"#, .call),  // an escape
            (#"{\#(time),"request":"GET \#(autocomplete) HTTP/1.1","http_user_agent":"Zürich"}"#, .call),  // not ASCII
            (#"{\#(time),"request":"GET \#(autocomplete) HTTP/1.1","status":"200","status":"404"}"#, .call),  // a key twice
            (#"{\#(time),"request":"GET \#(autocomplete) HTTP/1.1","http_x_user_id":"u-1","request_X-User-Id":"u-2"}"#, .call),
            (#"{\#(time),"request":"POST /v1/places:searchText HTTP/1.1","http_x_goog_fieldmask":"places.id"}"#, .call),
            (#"{\#(time),"request":"POST /v1/places:autocomplete HTTP/1.1","request_body":"{}"}"#, .call),
            (#"{\#(time),"request_method":"GET","uri":"/maps/api/place/autocomplete/json","args":"input=a"}"#, .call),
            (#"{\#(time),"request":"GET \#(autocomplete) HTTP/1.1","http_accept":"a","http_accept":"-"}"#, .call),
            (#"{"msec":"1790845203.123","request":"GET \#(autocomplete) HTTP/1.1","status":"0200"}"#, .call),
            (#"{\#(time),"request":"GET /index.html HTTP/1.1","http_a":"1","http_b":"2","http_c":"3","http_d":"4","http_e":"5","http_f":"6","http_g":"7","http_h":"8","http_i":"9","http_j":"10","http_k":"11","http_l":"12","http_m":"13","http_n":"14","http_o":"15","http_p":"16","http_q":"17","http_r":"18","http_s":"19","http_t":"20","http_u":"21","http_v":"22","http_w":"23","http_x":"24","http_y":"25","http_z":"26","http_aa":"27","http_ab":"28","http_ac":"29","http_ad":"30","http_ae":"31","http_af":"32","http_ag":"33"}"#, .notPlaces),
            (#"{\#(time),"request":"GET /maps/api/place/details/json?fields=name HTTP/1.1"}"#, .malformed),
            (#"{\#(time),"request":"-","status":"400"}"#, .malformed),
            (#"{"time_local":"31/Sep/2026:09:00:03 +0000","request":"GET / HTTP/1.1"}"#, .malformed),
            (#"{"request":"GET \#(autocomplete) HTTP/1.1","status":"200"}"#, .malformed),
            (#"{\#(time),"request":"GET / HTTP/1.1","status":"2000"}"#, .malformed),
            (#"{"timestamp":"2026-10-01T09:00:03Z","api":"autocomplete","request":"x"}"#, .notWebServer),
            (#"{\#(time),"status":"200"}"#, .notWebServer),
            (#"{\#(time),"request":"GET / HTTP/1.1",}"#, .notWebServer),
            (#"{\#(time),"request":"GET / HTTP/1.1","n":01}"#, .notWebServer),
        ]
        for (line, kind) in cases {
            let (fast, slow) = outcomes(line)
            #expect(fast == nil, "answered: \(line)")
            switch (slow, kind) {
            case (.call?, .call), (.notPlaces?, .notPlaces), (.malformed?, .malformed), (nil, .notWebServer): break
            default: Issue.record("the slow path gives \(String(describing: slow)) for \(line)")
            }
        }
    }

    @Test("Every record the fast path answers gives the slow path's outcome; plain records are all answered",
          arguments: Setting.allCases)
    func agreesWithSlowPath(_ setting: Setting) {
        var generator = JSONAccessRecordGenerator(seed: setting == .defaults ? 0x150A : 0x150B, userHeader: setting.userHeader)
        let decoder = FastJSONAccessRecordDecoder(userHeader: setting.userHeader, leaving: setting.routes.prefixes)
        let tally = AccessLogTally.rounds(3_000, of: &generator) { tally, line, plain in
            tally.compare(line, plain: plain, decoder: decoder, setting: setting)
        }
        #expect(tally.plainAnswered == 3_000, "\(tally)")
        // The unusual records must reach every answer, or agreement proves little.
        #expect(tally.adversarialCalls > 500, "\(tally)")
        #expect(tally.adversarialNotPlaces > 100, "\(tally)")
        #expect(tally.declinedButValid > 300, "\(tally)")
        #expect(tally.slowRejected > 300, "\(tally)")
        #expect(tally.notWebServer > 300, "\(tally)")
    }

    @Test("Every record of a generated log written as nginx's, Caddy's, Traefik's and Cloud Logging's JSON is answered fast")
    func generatedLog() throws {
        let run = runCLI(["generate", "--searches", "800", "--seed", "9", "--format", "access-log"])
        #expect(run.code == .success)
        let parser = AccessLogParser(format: .combined)
        let decoder = FastJSONAccessRecordDecoder()
        var answered = 0
        var compared = 0
        for text in run.stdout.split(separator: "\n") {
            guard case .request(var request) = parser.parse(String(text)) else { continue }
            // Times to the millisecond, so the fingerprints are compared too.
            request.time = Timestamp(microseconds: request.time.microseconds + Int64(compared % 1_000) * 1_000)
            for server in JSONAccessLogTests.Server.allCases {
                var line = try JSONAccessLogTests.line(request, as: server)
                if server == .nginx { line = line.replacingOccurrences(of: #""time_iso8601":"#, with: #""@timestamp":"#) }
                compared += 1
                let bytes = Array(line.utf8)
                let (fast, slow) = bytes.withUnsafeBufferPointer { (AccessLogTwins.fastJSON($0, decoder: decoder), AccessLogTwins.slowJSON($0)) }
                #expect(slow != nil)
                if fast != nil { answered += 1 }
                #expect(fast == slow, "\(line)")
            }
        }
        #expect(compared > 9_000)
        #expect(answered == compared)
    }
}

extension AccessLogTally {
    mutating func compare(_ line: [UInt8], plain: Bool, decoder: FastJSONAccessRecordDecoder, setting: FastJSONAccessRecordDecoderTests.Setting) {
        line.withUnsafeBufferPointer { bytes in
            compare(line, plain: plain, fast: AccessLogTwins.fastJSON(bytes, decoder: decoder),
                    slow: AccessLogTwins.slowJSON(bytes, userHeader: setting.userHeader, routes: setting.routes))
        }
    }
}

/// Random web server JSON records: plain ones as nginx (`escape=json`) and Traefik write them,
/// adversarial ones with every unusual member the twins must agree on, and byte-level mutations.
struct JSONAccessRecordGenerator: TwinLineGenerator {
    private var lines: AccessLogLineGenerator
    private var random: SeededRandom
    private let userHeader: String

    init(seed: UInt64, userHeader: String) {
        lines = AccessLogLineGenerator(shape: .combined, seed: seed ^ 0x5EED)
        random = SeededRandom(seed: seed)
        self.userHeader = userHeader
    }

    private mutating func pick<T>(_ choices: [T]) -> T { choices.randomElement(using: &random)! }
    private mutating func chance(_ oneIn: Int) -> Bool { Int.random(in: 0 ..< oneIn, using: &random) == 0 }

    /// A JSON string literal of plain text (no character that needs an escape).
    private func quoted(_ text: String) -> String { "\"" + text + "\"" }

    mutating func mutated(_ line: [UInt8]) -> [UInt8] { lines.mutated(line) }

    mutating func line(adversarial: Bool) -> [UInt8] {
        var members: Members
        switch Int.random(in: 0 ..< 5, using: &random) {
        case 0: members = nginx(adversarial: adversarial)
        case 1: members = traefik(adversarial: adversarial)
        case 2: members = cloudLogging(adversarial: adversarial)
        case 3: members = istio(adversarial: adversarial)
        default: members = caddy(adversarial: adversarial)
        }
        if adversarial {
            for _ in 0 ..< Int.random(in: 1 ... 4, using: &random) { disturb(&members) }
        }
        let colon = pick([":", ": ", " : "])
        let comma = pick([",", ", "])
        var text = members.map { $0.key.hasPrefix("\u{0}") ? String($0.key.dropFirst()) : quoted($0.key) + colon + $0.value }.joined(separator: comma)
        text = "{" + text + "}"
        if adversarial, chance(10) { text = pick([" ", "\t", "\r "]) + text + pick(["", " ", "\t"]) }
        return Array(text.utf8)
    }

    private typealias Members = [(key: String, value: String)]

    private mutating func time(_ key: String) -> String {
        let seconds = 1_790_812_800 + Int.random(in: 0 ..< 31 * 86_400, using: &random)
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: pick([0, 7_200, -19_800]))
        switch key {
        case "time_local":
            formatter.dateFormat = "dd/MMM/yyyy:HH:mm:ss Z"
            return quoted(formatter.string(from: date))
        case "msec", "ts":
            let literal = "\(seconds)" + pick([".123", ".5", "", ".000"])
            return key == "ts" || chance(2) ? literal : quoted(literal)
        default:
            formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss" + pick(["", ".SSS", ".SSSSSS"]) + pick(["xxx", "'Z'"])
            return quoted(formatter.string(from: date))
        }
    }

    private mutating func user() -> String {
        quoted(pick(["-", "u-000123", "frank", "", "u-42"]))
    }

    private mutating func nginx(adversarial: Bool) -> Members {
        let timeKey = pick(["time_iso8601", "time_local", "msec", "@timestamp"])
        let target = lines.target(adversarial: adversarial)
        let method = adversarial ? pick(["GET", "POST", "get", "M-SEARCH", ""]) : pick(["GET", "GET", "POST"])
        var members: Members = [(timeKey, time(timeKey)), ("remote_addr", quoted("203.0.113.7")), ("remote_user", user())]
        if chance(4) {
            members += [("request_method", quoted(method)), ("request_uri", quoted(target))]
        } else {
            members.append(("request", quoted(method + " " + target + " " + pick(["HTTP/1.1", "HTTP/2.0"]))))
        }
        members += [("status", quoted(pick(["200", "200", "404", "-"]))), ("body_bytes_sent", quoted("512")), ("request_time", quoted("0.012")),
                    ("http_referer", quoted(pick(["-", "https://app.example/"]))), ("http_user_agent", quoted(pick(["okhttp/4.12.0", "Mozilla/5.0 (X11; Linux x86_64)"])))]
        if chance(2) { members.append(("http_" + userHeader.replacingOccurrences(of: "-", with: "_"), user())) }
        if chance(3) { members.append(("http_x_forwarded_for", quoted("198.51.100.2"))) }
        members.shuffle(using: &random)
        return members
    }

    private mutating func traefik(adversarial: Bool) -> Members {
        var members: Members = [
            ("ClientAddr", quoted("203.0.113.7:5555")), ("RequestMethod", quoted(pick(["GET", "POST"]))),
            ("RequestPath", quoted(lines.target(adversarial: adversarial))), ("RequestProtocol", quoted("HTTP/1.1")),
            ("DownstreamStatus", pick(["200", "200", "0", "404"])), ("StartUTC", time("StartUTC")), ("Duration", "1200000"),
            ("request_User-Agent", quoted("Dart/3.4 (dart:io)")),
        ]
        if chance(2) { members.append(("request_" + userHeader.split(separator: "-").map(\.capitalized).joined(separator: "-"), user())) }
        members.shuffle(using: &random)
        return members
    }

    /// Caddy's default access record: the request nested, its headers as arrays of strings.
    private mutating func caddy(adversarial: Bool) -> Members {
        let headerName = userHeader.split(separator: "-").map(\.capitalized).joined(separator: "-")
        var headers: [(String, String)] = [("User-Agent", #"["PlacesDemo/3.2 CFNetwork/1410.0.3 Darwin/22.4.0"]"#), ("Accept", #"["*/*"]"#)]
        if chance(2) { headers.append((headerName, "[" + user() + "]")) }
        if adversarial {
            for _ in 0 ..< Int.random(in: 1 ... 3, using: &random) {
                headers.append(pick([
                    ("Accept-Language", #"["en","de"]"#), ("Sec-Ch-Ua", #"["\"Chromium\";v=\"128\""]"#), ("X-Goog-FieldMask", #"["places.id"]"#),
                    ("X-Goog-Fieldmask", #"["-"]"#), (headerName.lowercased(), #"["u-5"]"#), (headerName, #""u-6""#), (headerName, #"["-","u-9"]"#),
                    ("Accept", #"["text/html"]"#), ("X-Empty", "[]"), ("X-Null", "null"), ("X-Number", "[42]"), ("X-Nested", #"[{"a":1}]"#),
                    ("Cookie", #"["a=\u00e9"]"#),
                ]))
            }
            headers.shuffle(using: &random)
        }
        let headerText = "{" + headers.map { quoted($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
        var request: Members = [("remote_ip", quoted("203.0.113.7")), ("proto", quoted("HTTP/2.0")), ("method", quoted(pick(["GET", "GET", "POST"]))),
                                ("host", quoted("proxy.example.com")), ("uri", quoted(lines.target(adversarial: adversarial))), ("headers", headerText),
                                ("tls", #"{"resumed":false,"version":772,"server_name":"proxy.example.com"}"#)]
        if adversarial {
            switch Int.random(in: 0 ..< 6, using: &random) {
            case 0: request.removeAll { $0.key == pick(["method", "uri", "headers"]) }
            case 1: request.append(pick([("method", quoted("HEAD")), ("uri", quoted("/")), ("headers", "{}"), ("headers", "[]"), ("method", "null")]))
            case 2: request[request.firstIndex { $0.key == "headers" }!].value = pick(["null", "\"x\"", #"{"A":["a"],"A":["b"]}"#])
            default: break
            }
            request.shuffle(using: &random)
        }
        let ts = "\(1_790_812_800 + Int.random(in: 0 ..< 31 * 86_400, using: &random))" + pick([".5241024", ".5", "", ".000"])
        var members: Members = [
            ("level", quoted("info")), ("ts", ts), ("logger", quoted("http.log.access")), ("msg", quoted("handled request")),
            ("request", "{" + request.map { quoted($0.key) + ":" + $0.value }.joined(separator: ",") + "}"),
            ("bytes_read", "0"), ("user_id", user()), ("duration", "0.000929675"), ("size", "2533"), ("status", pick(["200", "200", "404", "0"])),
            ("resp_headers", pick([#"{"Server":["Caddy"],"Content-Type":["application/json"]}"#, #"{"Etag":["\"33a64df5\""]}"#])),
        ]
        if adversarial { members.shuffle(using: &random) }
        return members
    }

    /// Istio's JSON access record (Envoy's `json_format`).
    private mutating func istio(adversarial: Bool) -> Members {
        var members: Members = [
            ("start_time", time("start_time")), ("method", quoted(pick(["GET", "GET", "POST"]))), ("path", quoted(lines.target(adversarial: adversarial))),
            ("protocol", quoted("HTTP/1.1")), ("response_code", pick(["200", "200", "0", "404"])), ("response_flags", quoted("-")),
            ("bytes_received", "0"), ("bytes_sent", "625"), ("duration", "41"), ("x_forwarded_for", quoted("203.0.113.7")),
            ("user_agent", quoted("okhttp/4.12.0")), ("authority", quoted("places-proxy.example.com")), ("upstream_host", quoted("10.0.0.7:8080")),
        ]
        if adversarial {
            if chance(3) { members.append(pick([("uri", quoted("/")), ("status", "404"), ("response_code", quoted("200")), ("start_time", quoted("-")),
                                                ("path", "null"), ("request_uri", quoted("/maps/api/place/autocomplete/json?input=x"))])) }
            members.shuffle(using: &random)
        }
        return members
    }

    /// Google Cloud Logging's request entry: the request in `httpRequest`, its URL absolute.
    private mutating func cloudLogging(adversarial: Bool) -> Members {
        let host = pick(["https://places-proxy-abc123-uc.a.run.app", "https://maps.googleapis.com", "http://10.0.0.7:8080"])
        var logged: Members = [("requestMethod", quoted(pick(["GET", "GET", "POST"]))), ("requestUrl", quoted(host + lines.target(adversarial: adversarial))),
                               ("requestSize", quoted("512")), ("status", pick(["200", "200", "404"])), ("responseSize", quoted("2533")),
                               ("userAgent", quoted("okhttp/4.12.0")), ("remoteIp", quoted("203.0.113.7")), ("latency", quoted("0.041220s")),
                               ("protocol", quoted("HTTP/1.1"))]
        if chance(2) { logged.append(("referer", quoted(pick(["https://app.example/", "-"])))) }
        if adversarial {
            switch Int.random(in: 0 ..< 6, using: &random) {
            case 0: logged.removeAll { $0.key == pick(["requestMethod", "requestUrl", "status", "userAgent"]) }
            case 1: logged.append(pick([("requestMethod", quoted("HEAD")), ("requestUrl", quoted("/")), ("status", "0"), ("userAgent", quoted("x")),
                                        ("status", quoted("200")), ("userAgent", "null"), ("referer", #""a\"b""#), ("requestUrl", "7")]))
            case 2: logged[logged.firstIndex { $0.key == "requestUrl" }!].value = pick(["null", #""https://h/maps/api/geocode/json?place_id=\u0041""#, quoted("")])
            default: break
            }
            logged.shuffle(using: &random)
        }
        let timestamp = time("timestamp")
        var members: Members = [
            ("insertId", quoted("6514a1b2000c8a0f")), ("httpRequest", "{" + logged.map { quoted($0.key) + ":" + $0.value }.joined(separator: ",") + "}"),
            ("resource", #"{"type":"cloud_run_revision","labels":{"service_name":"places-proxy","project_id":"my-project"}}"#),
            ("timestamp", timestamp), ("severity", quoted("INFO")), ("labels", #"{"instanceId":"00f46b9285"}"#),
            ("logName", quoted("projects/my-project/logs/run.googleapis.com%2Frequests")), ("receiveTimestamp", timestamp),
        ]
        if adversarial {
            if chance(4) { members.append(pick([("http_user_agent", quoted("ua")), ("status", "404"), ("request_method", quoted("GET")), ("httpRequest", "{}")])) }
            members.shuffle(using: &random)
        }
        return members
    }

    /// One unusual change: a value of another kind, a member dropped, repeated or added.
    private mutating func disturb(_ members: inout Members) {
        let odd = ["null", "true", "false", "123", "-1.5e3", "0", "200", "200.0", "01", "1.", "-", "\"-\"", "\"\"", "{\"a\":1}", "[1]", "[]",
                   "\"a\\\"b\"", "\"\\u00e9\"", "\"é\"", "\"\t\"", "\"0200\"", "\"+200\"", "\"2000\"", "\"abc\"", "1790845203.5", "\"1790845203\""]
        switch Int.random(in: 0 ..< 6, using: &random) {
        case 0 where !members.isEmpty:
            let index = Int.random(in: 0 ..< members.count, using: &random)
            members[index].value = pick(odd)
        case 1 where !members.isEmpty:
            members.remove(at: Int.random(in: 0 ..< members.count, using: &random))
        case 2 where !members.isEmpty:
            var copy = pick(members)
            if chance(2) { copy.value = pick(odd) }
            members.insert(copy, at: Int.random(in: 0 ... members.count, using: &random))
        case 3:
            let header = userHeader.replacingOccurrences(of: "-", with: "_")
            let added: (String, String) = pick([
                ("api", quoted("autocomplete")), ("timestamp", quoted("2026-10-01T09:00:03Z")), ("request_body", quoted("{}")),
                ("http_x_goog_fieldmask", quoted("places.id")), ("request_X-Goog-FieldMask", quoted("id")), ("http_x_goog_fieldmask", quoted("-")),
                ("args", quoted("input=a&sessiontoken=t")), ("query_string", quoted("input=b")), ("uri", quoted("/maps/api/place/autocomplete/json")),
                ("request_method", quoted("GET")), ("method", quoted("GET")), ("RequestMethod", quoted("GET")), ("user_id", quoted("u-1")),
                ("http_" + header, quoted("u-2")), ("http_" + header.uppercased(), quoted("u-3")), ("request_" + userHeader, quoted("u-4")),
                ("status", quoted("0")), ("DownstreamStatus", "0"), ("status", "200"), ("ts", "1790845203.5"), ("ts", quoted("1790845203")),
                ("time", quoted("2026-10-01T09:00:03Z")), ("@timestamp", quoted("2026-10-01T09:00:03.5+02:00")), ("msec", quoted("abc")),
                ("time_local", quoted("31/Sep/2026:09:00:03 +0000")), ("time_local", quoted("01/Oct/2026:09:00:03 +0000")), ("remote_ip", quoted("x")),
                ("request", quoted("-")), ("request", quoted("GET /maps/api/place/autocomplete/json?input=a HTTP/1.1")), ("http_", quoted("x")),
                ("request_time", quoted("0.1")), ("request_Accept", quoted("a")), ("http_accept", quoted("b")),
            ])
            members.insert(added, at: Int.random(in: 0 ... members.count, using: &random))
        case 4:
            for index in 0 ..< Int.random(in: 10 ... 20, using: &random) { members.append(("http_x_extra_\(index)", quoted("v"))) }
        default:
            // Raw text between members: a stray comma, whitespace, a nested value.
            members.insert(("\u{0}" + pick(["\"k\" : \"v\"", "\"k\":{}", "\"n\":-0.5E+2", "\"k\":\t\"v\""]), ""), at: Int.random(in: 0 ... members.count, using: &random))
        }
    }
}
