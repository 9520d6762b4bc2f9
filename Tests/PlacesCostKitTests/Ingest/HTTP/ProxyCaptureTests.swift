import Foundation
import Testing
@testable import PlacesCostKit
@testable import PlacesCostReference

/// Captures of real setups (`docs/formats.md` sections 2 and 3): Google's paths under a proxy's
/// own host, a proxy's own paths mapped with `--route` or `--strip-prefix`, headers and bodies an
/// nginx `log_format` records, the user header, and a capture with no Places call at all.
@Suite("Proxies and captures")
struct ProxyCaptureTests {
    static func report(_ arguments: [String]) throws -> (report: [String: Any], stderr: String) {
        let run = runCLI(["analyze"] + arguments + ["--report", "json", "--pricing", "legacy-list"])
        #expect(run.code == .success, "\(run.stderr)")
        return (try MalformedCorpusTests.object(run.stdout), run.stderr)
    }

    /// The report with its input's counts of what was read left out: what is priced and walked.
    static func priced(_ report: [String: Any]) -> String {
        var report = report
        report["input"] = nil
        return MalformedCorpusTests.json(report)
    }

    @Test("CORS preflights and redirected requests, in a HAR and in an access log, are counted and change no figure")
    func preflightsAndRedirects() throws {
        let directory = TemporaryDirectory()
        // A HAR: a preflight before every call, and a 307 Internal Redirect before every one of Google's.
        let har = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: SampleFormatsTests.har))) as? [String: Any])
        var log = try #require(har["log"] as? [String: Any])
        let entries = try #require(log["entries"] as? [[String: Any]])
        var padded: [[String: Any]] = []
        var places = 0
        for entry in entries {
            let request = try #require(entry["request"] as? [String: Any])
            let url = try #require(request["url"] as? String)
            if url.contains("googleapis.com") {
                places += 1
                var preflight = entry, redirect = entry
                var preflightRequest = request
                preflightRequest["method"] = "OPTIONS"
                preflightRequest["postData"] = nil
                preflight["request"] = preflightRequest
                preflight["response"] = ["status": 204, "statusText": "", "headers": [], "content": ["size": 0, "mimeType": ""]] as [String: Any]
                preflight["_resourceType"] = "preflight"
                redirect["response"] = ["status": 307, "statusText": "Internal Redirect", "headers": [], "redirectURL": url, "content": ["size": 0, "mimeType": ""]] as [String: Any]
                padded += [preflight, redirect]
            }
            padded.append(entry)
        }
        log["entries"] = padded
        let paddedHAR = directory.write("padded.har", String(decoding: try JSONSerialization.data(withJSONObject: ["log": log]), as: UTF8.self))
        let direct = try Self.report([SampleFormatsTests.har]).report
        let read = try Self.report([paddedHAR]).report
        #expect(Self.priced(read) == Self.priced(direct))
        let input = try #require(read["input"] as? [String: Any]), directInput = try #require(direct["input"] as? [String: Any])
        #expect(input["preflight_requests"] as? Int == places && input["redirected_requests"] as? Int == places)
        #expect(input["skipped_requests"] as? Int == (directInput["skipped_requests"] as? Int ?? 0) + 2 * places)
        #expect(input["records"] as? Int == directInput["records"] as? Int)
        // An access log: each line preceded by its preflight and a redirect, in the combined format
        // the fast decoder reads.
        let lines = try String(contentsOfFile: SampleFormatsTests.accessLog, encoding: .utf8).split(separator: "\n").map(String.init)
        let tripled = lines.flatMap { line in
            [line.replacingOccurrences(of: "\"GET ", with: "\"OPTIONS ").replacingOccurrences(of: "\"POST ", with: "\"OPTIONS ").replacingOccurrences(of: "\" 200 ", with: "\" 204 "),
             line.replacingOccurrences(of: "\" 200 ", with: "\" 302 "), line]
        }
        let accessLog = directory.write("tripled.log", tripled.joined(separator: "\n") + "\n")
        let directLog = try Self.report([SampleFormatsTests.accessLog]).report
        let readLog = try Self.report([accessLog]).report
        #expect(Self.priced(readLog) == Self.priced(directLog))
        let logInput = try #require(readLog["input"] as? [String: Any])
        #expect(logInput["preflight_requests"] as? Int == lines.count && logInput["redirected_requests"] as? Int == lines.count)
        let markdown = runCLI(["analyze", accessLog, "--pricing", "legacy-list", "--report", "md", "--quiet"]).stdout
        #expect(markdown.contains("to Places endpoints but not calls, so billed by no one: \(Money.count(lines.count)) CORS preflights"), "\(markdown)")
    }

    @Test("A proxy's prefix before Google's paths, in an access log or a HAR, is named with the --strip-prefix that reads it")
    func prefixHint() throws {
        let directory = TemporaryDirectory()
        let log = try String(contentsOfFile: SampleFormatsTests.accessLog, encoding: .utf8)
        let har = try String(contentsOfFile: SampleFormatsTests.har, encoding: .utf8)
        for (name, text, prefix) in [
            ("origin.log", log.replacingOccurrences(of: "GET /maps", with: "GET /api/google/maps"), "/api/google"),
            ("absolute.log", log.replacingOccurrences(of: "GET /maps", with: "GET https://proxy.example.com/v2/geo/maps"), "/v2/geo"),
            ("capture.har", har.replacingOccurrences(of: "https://maps.googleapis.com/maps", with: "https://proxy.example.com/p/maps")
                .replacingOccurrences(of: "https://places.googleapis.com/v1", with: "https://proxy.example.com/p/v1"), "/p"),
        ] {
            let path = directory.write(name, text)
            let run = runCLI(["analyze", path, "--json"])
            #expect(run.code == .dataError)
            #expect(run.stderr.hasSuffix("Google's API paths come after \(prefix) in them: pass --strip-prefix \(prefix).\n"), "\(name): \(run.stderr)")
            let stripped = runCLI(["analyze", path, "--strip-prefix", prefix, "--json", "--quiet", "--pricing", "legacy-list"])
            #expect(stripped.code == .success, "\(stripped.stderr)")
        }
        // A prefix that is not a plain path is not repeated.
        #expect(RequestHosts.prefixBeforeGooglePath(Array("/a%20b/maps/api/place/x".utf8).withUnsafeBytes { UnsafeRawBufferPointer(start: $0.baseAddress, count: $0.count)[...] }) == nil)
        let plain = Array("/x/y/v1/places:autocomplete?q=/maps/api/".utf8).withUnsafeBytes { RequestHosts.prefixBeforeGooglePath($0[...]) }
        #expect(plain == "/x/y")
        #expect(Array("/maps/api/place/x".utf8).withUnsafeBytes { RequestHosts.prefixBeforeGooglePath($0[...]) } == nil)
        #expect(Array("/static/app.js?u=/maps/api/x".utf8).withUnsafeBytes { RequestHosts.prefixBeforeGooglePath($0[...]) } == nil)
    }

    @Test("A HAR of the proxy's own host is read by path, with a note naming the host")
    func harOfProxyHost() throws {
        let text = try String(contentsOfFile: SampleFormatsTests.har, encoding: .utf8)
            .replacingOccurrences(of: "https://places.googleapis.com", with: "http://api.example.com")
            .replacingOccurrences(of: "https://maps.googleapis.com", with: "https://geo.example.com:8443")
        let directory = TemporaryDirectory()
        let path = directory.write("proxied.har", text)
        let direct = try Self.report([SampleFormatsTests.har])
        let proxied = try Self.report([path])
        #expect(MalformedCorpusTests.withoutInputFiles(proxied.report) == MalformedCorpusTests.withoutInputFiles(direct.report))
        #expect(proxied.stderr.contains("requests to api.example.com (3,806), geo.example.com (43) were read by their Google API paths"), "\(proxied.stderr)")
        #expect(!direct.stderr.contains("proxy"))
    }

    /// The sample access log with its paths rewritten as a proxy of the user's own might serve them.
    static func rewrittenAccessLog(_ rewrite: (String) -> String) throws -> (path: String, directory: TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let text = try String(contentsOfFile: SampleFormatsTests.accessLog, encoding: .utf8)
        return (directory.write("access.log", rewrite(text)), directory)
    }

    @Test("--route maps a proxy's own paths, --strip-prefix a prefix before Google's: the report of the direct log")
    func routesAndPrefixes() throws {
        let direct = try Self.report([SampleFormatsTests.accessLog]).report
        let (routed, routedDirectory) = try Self.rewrittenAccessLog {
            $0.replacingOccurrences(of: "/maps/api/place/autocomplete/json", with: "/geo/suggest")
                .replacingOccurrences(of: "/maps/api/place/details/json", with: "/geo/details")
                .replacingOccurrences(of: "/maps/api/geocode/json", with: "/geo/code/v2")
        }
        defer { _ = routedDirectory }
        let routes = ["--route", "/geo/suggest=autocomplete", "--route", "/geo/details/=place_details", "--route=geo/code=geocoding"]
        #expect(MalformedCorpusTests.withoutInputFiles(try Self.report([routed] + routes).report) == MalformedCorpusTests.withoutInputFiles(direct))
        let (prefixed, prefixedDirectory) = try Self.rewrittenAccessLog { $0.replacingOccurrences(of: "\"GET /maps/", with: "\"GET /google/maps/") }
        defer { _ = prefixedDirectory }
        #expect(MalformedCorpusTests.withoutInputFiles(try Self.report([prefixed, "--strip-prefix", "/google/"]).report)
            == MalformedCorpusTests.withoutInputFiles(direct))
        // Without them nothing is a Places call: exit 65, one line, no report.
        let unmapped = runCLI(["analyze", routed, "--report", "json"])
        #expect(unmapped.code == .dataError)
        #expect(unmapped.stdout.isEmpty)
        #expect(unmapped.stderr.contains("none of the 3,849 requests") && unmapped.stderr.contains("name no host") && unmapped.stderr.contains("--route"),
                "\(unmapped.stderr)")
        // The fast access-log decoder leaves routed paths to the slow one, which reads them the same.
        var parsedRoutes = RequestRoutes()
        try parsedRoutes.addRoute("/geo/suggest=autocomplete")
        try parsedRoutes.addRoute("/geo/details=place_details")
        try parsedRoutes.addStrippedPrefix("/google")
        for line in try String(contentsOfFile: routed, encoding: .utf8).split(separator: "\n").prefix(400)
            + (try String(contentsOfFile: prefixed, encoding: .utf8)).split(separator: "\n").prefix(400) {
            let bytes = Array(line.utf8)
            #expect(bytes.withUnsafeBufferPointer { AccessLogTwins.disagreement($0, format: .combined, routes: parsedRoutes) } == nil)
        }
    }

    @Test("--route and --strip-prefix refuse values they cannot use, naming the option")
    func badRoutes() {
        for (arguments, fragment) in [
            (["--route", "/geo/suggest"], "--route takes PATH=API"),
            (["--route", "/geo=directions"], "the API is one of"),
            (["--route", "/geo=autocomplete:v3"], ":legacy or :new"),
            (["--route", "/geo?x=1=autocomplete"], "without a query"),
            (["--strip-prefix", "/"], "--strip-prefix takes a path"),
            (["--user-header", "X User"], "--user-header takes"),
        ] {
            let run = runCLI(["analyze", SampleFormatsTests.accessLog] + arguments)
            #expect(run.code == .usage && run.stderr.contains(fragment), "\(arguments): \(run.stderr)")
        }
    }

    /// A custom nginx format that logs the field mask header, the user header and the body, as the
    /// README recommends.
    static let richFormat = #"$remote_addr - $remote_user [$msec] "$request" $status $body_bytes_sent "$http_x_goog_fieldmask" "$http_x_user_id" "$request_body""#

    static let richLines = [
        #"10.0.0.1 - - [1790845203.100] "POST /v1/places:autocomplete HTTP/1.1" 200 900 "-" "u-7" "{\x22input\x22:\x22Pi\x22,\x22sessionToken\x22:\x22tok-1\x22}""#,
        #"10.0.0.1 - - [1790845203.600] "POST /v1/places:autocomplete HTTP/1.1" 200 900 "-" "u-7" "{\x22input\x22:\x22Piz\x22,\x22sessionToken\x22:\x22tok-1\x22}""#,
        #"10.0.0.1 - - [1790845204.100] "POST /v1/places:autocomplete HTTP/1.1" 200 900 "-" "u-7" "{\x22input\x22:\x22Pizz\x22,\x22sessionToken\x22:\x22tok-1\x22}""#,
        #"10.0.0.1 - - [1790845206.000] "GET /v1/places/ChIJN1t_tDeuEmsRUsoyG83frY4?sessionToken=tok-1 HTTP/1.1" 200 900 "formattedAddress,location" "u-7" "-""#,
        #"10.0.0.2 - - [1790845207.000] "GET /maps/api/place/autocomplete/json?input=Ro&sessiontoken=tok-2 HTTP/1.1" 200 900 "-" "u-8" "-""#,
        #"10.0.0.2 - - [1790845208.000] "GET /maps/api/place/details/json?place_id=ChIJ&fields=formatted_address&sessiontoken=tok-2 HTTP/1.1" 200 900 "-" "-" "-""#,
        // `escape=json` writes the body with JSON's escapes.
        #"10.0.0.3 - - [1790845209.000] "POST /v1/places:autocomplete HTTP/1.1" 200 900 "-" "u-9" "{\"input\":\"Ber\",\"sessionToken\":\"tok-3\"}""#,
    ]

    @Test("A log_format with $http_x_goog_fieldmask, $http_x_user_id and $request_body: masks, users and New-API bodies are read")
    func loggedHeadersAndBody() throws {
        let directory = TemporaryDirectory()
        let path = directory.write("rich.log", Self.richLines.joined(separator: "\n") + "\n")
        let (report, stderr) = try Self.report([path, "--log-format", Self.richFormat])
        let input = try #require(report["input"] as? [String: Any])
        let anomalies = try #require(report["anomalies"] as? [String: Any])
        #expect(input["records"] as? Int == 7 && input["bodies_unknown"] as? Int == 0, "\(input)")
        #expect(anomalies["fields_unspecified"] as? Int == 0 && anomalies["no_token_requests"] as? Int == 0, "\(anomalies)")
        let searches = try #require(report["searches"] as? [String: Any])
        #expect(searches["total"] as? Int == 3 && searches["completed"] as? Int == 2)
        #expect(!stderr.contains("a body that could not be read"))
        // Without those variables, the same calls: bodies unknown, the mask missing.
        let plain = directory.write("plain.log", Self.richLines.joined(separator: "\n") + "\n")
        let run = runCLI(["analyze", plain, "--report", "json", "--log-format", #"$remote_addr - $remote_user [$msec] "$request" $status $body_bytes_sent"#])
        let plainInput = try #require(try MalformedCorpusTests.object(run.stdout)["input"] as? [String: Any])
        #expect(plainInput["bodies_unknown"] as? Int == 4)
        #expect(run.stderr.contains("note: 4 Places API (New) calls carry their session token and input in a body that could not be read"), "\(run.stderr)")
        // The headline says what the figures rest on when that many tokens are unseen; not when none is.
        let plainFormat = #"$remote_addr - $remote_user [$msec] "$request" $status $body_bytes_sent"#
        let caution = "| Caution | **4 of 7 calls (57.14%) are Places API (New) calls whose body this log does not show**: their session tokens and typed input are unknown"
        #expect(runCLI(["analyze", plain, "--report", "md", "--log-format", plainFormat]).stdout.contains(caution))
        #expect(!runCLI(["analyze", path, "--report", "md", "--log-format", Self.richFormat]).stdout.contains("| Caution |"))
        // The fast decoder answers only where it reads what the slow one reads.
        let format = try AccessLogFormat(Self.richFormat)
        var answered = 0
        for line in Self.richLines + Self.richLines.map({ $0.replacingOccurrences(of: #""u-"#, with: #""-"#).replacingOccurrences(of: "\"formattedAddress,location\"", with: "\"-\"") }) {
            let bytes = Array(line.utf8)
            #expect(bytes.withUnsafeBufferPointer { AccessLogTwins.disagreement($0, format: format) } == nil, "\(line)")
            if bytes.withUnsafeBufferPointer({ FastAccessLogLineDecoder(format: format).decode($0) }) != nil { answered += 1 }
        }
        #expect(answered >= 2, "the legacy lines with no header or body logged are answered fast")
    }

    @Test("--user-header names the header that carries a user id, in a HAR and in an access log")
    func userHeader() throws {
        func entry(_ time: String, _ input: String) -> String {
            #"{"startedDateTime":"\#(time)","request":{"method":"GET","url":"https://maps.googleapis.com/maps/api/place/js/AutocompletionService.GetPredictionsJson?1s\#(input)&4sen&15e3&callback=c&key=k&token=1","headers":[{"name":"X-Client","value":"c-1"}]},"response":{"status":200}}"#
        }
        let har = #"{"log":{"version":"1.2","entries":["# + [
            entry("2026-10-01T09:00:00.000Z", "B"), entry("2026-10-01T09:00:01.000Z", "Be"), entry("2026-10-01T09:00:02.000Z", "Ber"),
        ].joined(separator: ",") + "]}}"
        let directory = TemporaryDirectory()
        let path = directory.write("client.har", har)
        let kinds = { (arguments: [String]) throws -> [String: Any] in
            try #require((try Self.report([path] + arguments).report["searches"] as? [String: Any])?["by_kind"] as? [String: Any])
        }
        #expect(try kinds([])["inferred"] as? Int == 0)
        #expect(try kinds(["--user-header", "X-Client"])["inferred"] as? Int == 1)
        let log = directory.write("client.log", Self.richLines.joined(separator: "\n") + "\n")
        let format = Self.richFormat.replacingOccurrences(of: "$http_x_user_id", with: "$http_x_client")
        let run = runCLI(["analyze", log, "--report", "json", "--log-format", format, "--user-header", "x-client"])
        #expect(run.code == .success)
    }

    @Test("A capture with no Places call exits 65 with one line naming the hosts requested most")
    func noPlacesCall() throws {
        let entries = (0..<7).map { index in
            let host = index < 4 ? "tile.example.com" : index < 6 ? "cdn.example.com" : "api.example.com"
            return #"{"startedDateTime":"2026-10-01T09:00:0\#(index).000Z","request":{"method":"GET","url":"https://\#(host)/x/\#(index)?key=AIzaSySECRETHOST","headers":[]},"response":{"status":200}}"#
        }
        let directory = TemporaryDirectory()
        let path = directory.write("wrong.har", #"{"log":{"entries":["# + entries.joined(separator: ",") + "]}}")
        let run = runCLI(["analyze", path])
        #expect(run.code == .dataError)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("none of the 7 requests") && run.stderr.contains("tile.example.com (4), cdn.example.com (2), api.example.com (1)"), "\(run.stderr)")
        #expect(!run.stderr.contains("SECRET"))
    }

    @Test("A browser capture of both libraries: no key, URL signature, typed text or session token reaches any output")
    func browserCaptureSecrets() throws {
        let directory = TemporaryDirectory()
        let har = directory.path + "/browser.har"
        #expect(runCLI(["generate", "--searches", "400", "--seed", "9", "--format", "har", "--days", "2", "--out", har]).code == .success)
        let text = try String(contentsOfFile: har, encoding: .utf8)
        let capture = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let entries = try #require((capture["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        var secrets: Set<String> = [GeneratedLogWriter.apiKey]
        for entry in entries {
            let request = try #require(entry["request"] as? [String: Any])
            let target = RequestTarget(try #require(request["url"] as? String))
            for (name, value) in target.query where value.isEmpty {
                // 1s the input, 20s/15s the token, 14m1&1s the place id.
                if name.hasPrefix("20s") || name.hasPrefix("15s") { secrets.insert(String(name.dropFirst(3))) }
                if name.hasPrefix("1s"), name.count > 6 { secrets.insert(String(name.dropFirst(2))) }
            }
            if let body = (request["postData"] as? [String: Any])?["text"] as? String,
               let array = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [Any] {
                for case let value as String in array where value.count > 5 && value != "en-US" { secrets.insert(value) }
            }
        }
        #expect(secrets.count > 100)
        let out = directory.path + "/out"
        let run = runCLI(["analyze", har, "--out", out, "--report", "json"])
        #expect(run.code == .success, "\(run.stderr)")
        var outputs = [run.stdout, run.stderr]
        for name in try FileManager.default.subpathsOfDirectory(atPath: out) {
            if let contents = try? String(contentsOfFile: out + "/" + name, encoding: .utf8) { outputs.append(contents) }
        }
        for secret in secrets {
            for output in outputs { #expect(!output.contains(secret), "\(secret)") }
        }
        let report = try MalformedCorpusTests.object(run.stdout)
        let platforms = try #require((report["input"] as? [String: Any])?["platforms"] as? [[String: Any]])
        #expect(Set(platforms.compactMap { $0["api_version"] as? String }) == ["legacy", "new"])
        #expect(platforms.allSatisfy { $0["platform"] as? String == "javascript" })
    }
}
