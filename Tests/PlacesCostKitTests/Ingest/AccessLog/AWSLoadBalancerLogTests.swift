import Foundation
import Testing
@testable import PlacesCostKit
@testable import PlacesCostReference

/// An AWS Application Load Balancer's access log is told from its first line and read without
/// `--log-format`: its microsecond times, the request line's absolute URL, no user.
@Suite("AWS load balancer access logs")
struct AWSLoadBalancerLogTests {
    /// `request` as the load balancer logs it, `microseconds` into its second.
    static func line(_ request: HTTPRequest, microseconds: Int) -> String {
        let time = request.time.rfc3339.replacingOccurrences(of: ".000Z", with: String(format: ".%06dZ", microseconds))
        let status = request.status.map(String.init) ?? "-"
        return "https \(time) app/places-proxy/50dc6c495c0c9188 203.0.113.4:2817 10.0.0.1:80 0.000 0.001 0.000 \(status) \(status) 34 366 "
            + "\"\(request.method) https://maps.googleapis.com:443\(request.target) HTTP/1.1\" \"okhttp/4.12.0\" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 "
            + "arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 \"Root=1-58337262-36d228ad5d99923122bbe354\" "
            + "\"places.example.com\" \"-\" 0 \(time) \"forward\" \"-\" \"-\" \"10.0.0.1:80\" \"\(status)\" \"-\" \"-\""
    }

    @Test("A log of them gives the combined log's report without its users, on the pipeline (1 and 2 threads) and the line reader")
    func sameReport() throws {
        let requests = try JSONAccessLogTests.requests()
        let directory = TemporaryDirectory()
        let path = directory.write("alb.log", requests.enumerated().map { Self.line($1, microseconds: $0 * 1_000) }.joined(separator: "\n") + "\n")
        let clean = try JSONAccessLogTests.cleanWithoutUsers(in: directory)
        let arguments = ["--json", "--pricing", "legacy-list"]
        /// The report without its input files and the first and last call's times (the load
        /// balancer's have microseconds).
        func figures(_ output: String) throws -> String {
            var report = try MalformedCorpusTests.object(output)
            var period = try #require(report["period"] as? [String: Any])
            (period["first_call"], period["last_call"]) = (nil, nil)
            report["period"] = period
            return MalformedCorpusTests.withoutInputFiles(report)
        }
        let expected = try figures(runCLI(["analyze", clean, "--quiet"] + arguments).stdout)
        for extra in [["--threads", "1"], ["--threads", "2"], ["--log-format", "aws-alb"], ["--format", "access-log"]] {
            let run = runCLI(["analyze", path] + extra + arguments)
            #expect(run.code == .success && !run.stderr.contains("warning"), "\(extra): \(run.stderr)")
            #expect(try figures(run.stdout) == expected, "\(extra)")
        }
        let twin = try LogReader().read([path])
        let reference = try LogReader().read([clean])
        #expect(twin.rejected == 0 && twin.calls.count == reference.calls.count)
    }

    @Test("A line's fields: the time to the microsecond, the absolute URL's host, the load balancer's status, no user")
    func parsedLine() throws {
        let text = "https 2026-10-01T09:00:03.123456Z app/places-proxy/50dc6c495c0c9188 203.0.113.4:2817 10.0.0.1:80 0.000 0.001 0.000 502 - 34 366 "
            + "\"GET https://proxy.example.com:443/maps/api/place/autocomplete/json?input=Ga&sessiontoken=abc HTTP/1.1\" \"okhttp/4.12.0\" - - - \"-\""
        #expect(AccessLogParser.layout(of: Array((text + "\n").utf8)) == .awsALB)
        #expect(AccessLogParser.layout(of: Array((AccessLogTests.exampleLine + "\n").utf8)) == .combined)
        guard case .request(let request) = AccessLogParser(format: .awsALB).parse(text) else {
            Issue.record("not read")
            return
        }
        #expect(request.time.rfc3339 == "2026-10-01T09:00:03.123456Z" && !request.wholeSecondTime)
        #expect(request.target == "https://proxy.example.com:443/maps/api/place/autocomplete/json?input=Ga&sessiontoken=abc")
        #expect(request.status == 502 && request.userID == nil)
        guard case .call(let call, _, let proxyHost) = PlacesRequestDecoder.decode(request) else {
            Issue.record("not a call")
            return
        }
        #expect(call.sessionToken == "abc" && call.inputLength == 2 && proxyHost == "proxy.example.com")
    }

    @Test("With microsecond times a repeated line is a duplicate, as with $msec; nginx's whole-second $time_iso8601 is not")
    func duplicates() throws {
        let requests = try JSONAccessLogTests.requests()
        let directory = TemporaryDirectory()
        let alb = Self.line(requests[0], microseconds: 5)
        let path = directory.write("alb.log", [alb, alb, Self.line(requests[1], microseconds: 6)].joined(separator: "\n") + "\n")
        let input = try #require(try MalformedCorpusTests.object(runCLI(["analyze", path, "--json", "--quiet"]).stdout)["input"] as? [String: Any])
        #expect(input["duplicates"] as? Int == 1 && input["records"] as? Int == 3)
        let iso = #"10.0.0.1 [2026-10-01T09:00:03Z] "GET /maps/api/place/autocomplete/json?input=a&sessiontoken=t HTTP/1.1" 200"#
        let isoPath = directory.write("iso.log", [iso, iso].joined(separator: "\n") + "\n")
        let format = #"$remote_addr [$time_iso8601] "$request" $status"#
        let whole = try #require(try MalformedCorpusTests.object(runCLI(["analyze", isoPath, "--log-format", format, "--json", "--quiet"]).stdout)["input"] as? [String: Any])
        #expect(whole["duplicates"] as? Int == 0)
        let fraction = directory.write("fraction.log", [iso, iso].joined(separator: "\n").replacingOccurrences(of: "03Z", with: "03.25Z") + "\n")
        let fine = try #require(try MalformedCorpusTests.object(runCLI(["analyze", fraction, "--log-format", format, "--json", "--quiet"]).stdout)["input"] as? [String: Any])
        #expect(fine["duplicates"] as? Int == 1)
    }
}
