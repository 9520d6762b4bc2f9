import Foundation
import Testing
@testable import PlacesCostKit

/// nginx/Apache access log lines read by `AccessLogFormat` and `AccessLogParser`.
@Suite("AccessLog")
struct AccessLogTests {
    /// 2026-10-01T09:00:03Z, from `date -u -d 2026-10-01T09:00:03Z +%s`.
    static let nineOhThree: Int64 = 1_790_845_203 * 1_000_000
    static let plantedKey = "AIzaSyPLANTEDKEY123"
    static let exampleLine = #"203.0.113.7 - - [01/Oct/2026:09:00:03 +0000] "GET /maps/api/place/autocomplete/json?input=1600+Amph&sessiontoken=6513270e269e0d37f2a74de452e6b438&key=AIzaSyEXAMPLE HTTP/1.1" 200 1432 "-" "MyApp/3.2 CFNetwork/1410.0.3 Darwin/22.4.0""#

    private func parsed(_ line: String, format: AccessLogFormat = .combined) -> HTTPRequest? {
        if case .request(let request) = AccessLogParser(format: format).parse(line) { return request }
        return nil
    }

    private func reason(_ line: String, format: AccessLogFormat = .combined) -> String? {
        if case .malformed(let reason) = AccessLogParser(format: format).parse(line) { return reason }
        return nil
    }

    @Test("The docs/formats.md combined line: time, method, target, status; no user, headers or body")
    func combinedExample() throws {
        let request = try #require(parsed(Self.exampleLine))
        var expected = HTTPRequest(
            time: Timestamp(microseconds: Self.nineOhThree), method: "GET",
            target: "/maps/api/place/autocomplete/json?input=1600+Amph&sessiontoken=6513270e269e0d37f2a74de452e6b438&key=AIzaSyEXAMPLE",
            status: 200)
        expected.wholeSecondTime = true
        #expect(request == expected)
        // The bytes entry point (what `LineReader` hands out) agrees with the String one.
        #expect(AccessLogParser(format: .combined).parse(Array(Self.exampleLine.utf8)) == .request(request))
    }

    @Test("$remote_user is the user; the client address never is")
    func remoteUser() throws {
        let line = #"198.51.100.4 - alice [01/Oct/2026:09:00:03 +0000] "GET /x HTTP/2.0" 304 0 "https://app.example/" "Mozilla/5.0 (X11; Linux x86_64)""#
        #expect(try #require(parsed(line)).userID == "alice")
        #expect(try #require(parsed(Self.exampleLine)).userID == nil)
    }

    @Test("$time_local offsets give the UTC instant")
    func timeLocalOffsets() throws {
        let cases: [(String, Int64)] = [
            ("01/Oct/2026:11:00:03 +0200", Self.nineOhThree),
            ("01/Oct/2026:03:30:03 -0530", Self.nineOhThree),
            ("01/oct/2026:09:00:03 +0000", Self.nineOhThree),
            ("29/Feb/2024:00:00:00 +0000", 1_709_164_800 * 1_000_000),
            ("01/Jan/2027:00:30:00 +0100", (1_798_761_600 - 1_800) * 1_000_000),
        ]
        for (text, expected) in cases {
            let line = #"10.0.0.1 - - [\#(text)] "GET / HTTP/1.1" 200 5"#
            #expect(try #require(parsed(line), "\(text)").time.microseconds == expected, "\(text)")
        }
        for bad in ["31/Sep/2026:09:00:03 +0000", "01/Okt/2026:09:00:03 +0000", "01/Oct/2026:09:00:03", "01/Oct/2026:24:00:03 +0000"] {
            let line = #"10.0.0.1 - - [\#(bad)] "GET / HTTP/1.1" 200 5"#
            #expect(reason(line) == "the $time_local field is not a time like 01/Oct/2026:09:00:03 +0000", "\(bad)")
        }
    }

    @Test("Foundation's date formatter reads $time_local to the same instants")
    func timeLocalMatchesFoundation() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "dd/MMM/yyyy:HH:mm:ss Z"
        for text in ["01/Oct/2026:11:00:03 +0200", "15/Mar/2025:23:59:59 -0800", "31/Dec/1999:23:59:59 +1345"] {
            let date = try #require(formatter.date(from: text))
            var bytes = Array(text.utf8)
            let time = bytes.withUnsafeMutableBufferPointer { AccessLogParser.parseTimeLocal(UnsafeBufferPointer($0)) }
            #expect(time?.microseconds == Int64(date.timeIntervalSince1970) * 1_000_000, "\(text)")
        }
    }

    @Test("$time_iso8601 and $msec")
    func otherTimeVariables() throws {
        let iso = try AccessLogFormat(#"$remote_addr [$time_iso8601] "$request" $status"#)
        #expect(try #require(parsed(#"10.0.0.1 [2026-10-01T11:00:03+02:00] "GET / HTTP/1.1" 200"#, format: iso)).time.microseconds == Self.nineOhThree)
        #expect(reason(#"10.0.0.1 [1790845203000] "GET / HTTP/1.1" 200"#, format: iso) == "the $time_iso8601 field is not a time like 2026-10-01T09:00:03+00:00")

        let msec = try AccessLogFormat(#"$msec "$request" $status"#)
        #expect(try #require(parsed(#"1790845203.123 "GET / HTTP/1.1" 200"#, format: msec)).time.microseconds == Self.nineOhThree + 123_000)
        #expect(try #require(parsed(#"1790845203 "GET / HTTP/1.1" 200"#, format: msec)).time.microseconds == Self.nineOhThree)
        #expect(reason(#"1790845203.x "GET / HTTP/1.1" 200"#, format: msec) == "the $msec field is not a time in seconds since 1970, like 1790845203.123")
    }

    @Test("A custom log_format with $msec and $request_method $request_uri, through to a call")
    func customFormat() throws {
        let format = try AccessLogFormat(#"${msec} $host $request_method $request_uri $status $request_time "$http_user_agent" $upstream_response_time"#)
        let line = #"1790845203.730 api.myapp.example GET /maps/api/place/details/json?place_id=ChIJ&fields=formatted_address,geometry&sessiontoken=tok&key=\#(Self.plantedKey) 200 0.042 "okhttp/4.12.0" 0.040"#
        let request = try #require(parsed(line, format: format))
        #expect(request.method == "GET")
        #expect(request.status == 200)
        #expect(request.time.microseconds == Self.nineOhThree + 730_000)
        let decoded = PlacesRequestDecoder.decode(request)
        #expect(decoded == .call(Call(time: Timestamp(microseconds: Self.nineOhThree + 730_000), api: .placeDetails, sessionToken: "tok",
                                      fields: ["formatted_address", "geometry"], generation: .legacy, status: "200"), bodyUnknown: false, proxyHost: nil))
    }

    @Test("Logged values lose nginx's escapes, the default's \\xHH and escape=json's; an escape it does not know stays as written")
    func unescaping() {
        func unescaped(_ text: String) -> String { Array(text.utf8).withUnsafeBufferPointer { AccessLogParser.unescaped($0) } }
        #expect(unescaped(#"{\x22a\x22:\x5C\xC3\xA9}"#) == #"{"a":\é}"#)
        #expect(unescaped(#"{\"input\":\"K\\rak\/\"}"#) == #"{"input":"K\rak/"}"#)
        #expect(unescaped(#"a\nb\rc\td\be\ff"#) == "a\nb\rc\td\u{8}e\u{C}f")
        #expect(unescaped(#"\u0001\u00e9\u20AC"#) == "\u{1}é€")
        // Not an escape nginx writes: kept byte for byte, as is a backslash that ends the value.
        #expect(unescaped(#"\q \x4 \u12 \uD800 \xZZ end\"#) == #"\q \x4 \u12 \uD800 \xZZ end\"#)
        #expect(unescaped("plain") == "plain")
    }

    @Test("Formats without a time or a request, or with an inseparable needed variable, are refused")
    func formatErrors() {
        #expect(throws: AccessLogFormat.Error(description: "The log format records no time; it needs $time_local, $time_iso8601 or $msec.")) {
            try AccessLogFormat(#"$remote_addr "$request" $status"#)
        }
        #expect(throws: AccessLogFormat.Error(description: "The log format records no request; it needs $request, or $request_method and $request_uri.")) {
            try AccessLogFormat(#"[$time_local] $request_method $status"#)
        }
        #expect(throws: AccessLogFormat.Error(description: "The log format writes $request_uri right next to another variable, so a line cannot be split between them; put a space or other text between them.")) {
            try AccessLogFormat(#"[$time_local] $request_method $request_uri$is_args"#)
        }
        // Back-to-back variables nobody reads are fine; a lone `$` is literal text.
        #expect(throws: Never.self) { try AccessLogFormat(#"[$time_local] "$request" $uri$is_args$args $ cost"#) }
    }

    @Test("The predefined formats compile to nginx's literal text and fields")
    func predefinedFormats() {
        #expect(AccessLogFormat.common.elements == [
            .field([.remoteAddr]), .literal(Array(" - ".utf8)), .field([.remoteUser]), .literal(Array(" [".utf8)),
            .field([.timeLocal]), .literal(Array("] \"".utf8)), .field([.request]), .literal(Array("\" ".utf8)),
            .field([.status]), .literal(Array(" ".utf8)), .field([.bodyBytesSent]),
        ])
        #expect(AccessLogFormat.combined.elements.count == 16)
    }

    @Test("With combined, a common line still reads; text after a combined line is tolerated")
    func fallbackAndTrailingText() throws {
        let commonLine = #"127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326"#
        let common = try #require(parsed(commonLine))
        #expect(common.userID == "frank")
        #expect(common.target == "/apache_pb.gif")
        #expect(common.time.microseconds == 971_211_336 * 1_000_000)
        #expect(parsed(Self.exampleLine + #" 0.042 "203.0.113.1""#) != nil)
        // Apache writes `-` for a response without a body.
        #expect(parsed(#"10.0.0.1 - - [01/Oct/2026:09:00:03 +0000] "HEAD / HTTP/1.1" 200 -"#)?.method == "HEAD")
    }

    @Test("Malformed lines: reasons in full, never the line's text")
    func malformedLines() {
        let key = Self.plantedKey
        #expect(reason("{\"timestamp\":\"2026-10-01T09:00:03Z\",\"api\":\"autocomplete\",\"key\":\"\(key)\"}")
            == "the line does not match the log format: no ` - ` after $remote_addr")
        #expect(reason(#"10.0.0.1 - - [01/Oct/2026:09:00:03 +0000] "-" 400 0 "-" "-""#)
            == "the request line is empty (nginx writes - for a connection closed before a request)")
        #expect(reason(#"10.0.0.1 - - [01/Oct/2026:09:00:03 +0000] "\#(key)" 400 0 "-" "-""#)
            == "the $request field is not an HTTP request line (method, target, protocol)")
        #expect(reason(#"10.0.0.1 - - [01/Oct/2026:09:00:03 +0000] "GET /?key=\#(key) HTTP/1.1" abc 0 "-" "-""#)
            == "the $status field is not an HTTP status code")
        #expect(reason(#"10.0.0.1 - - [\#(key)] "GET /?key=\#(key) HTTP/1.1" 200 0"#)
            == "the $time_local field is not a time like 01/Oct/2026:09:00:03 +0000")
        #expect(reason(#"10.0.0.1 -- [01/Oct/2026:09:00:03 +0000] "GET / HTTP/1.1" 200 0"#)
            == "the line does not match the log format: no ` - ` after $remote_addr")
        #expect(reason("") != nil)
    }

    @Test("A planted API key never appears in a result's printed form or a reason")
    func secretsStayOut() throws {
        let key = Self.plantedKey
        let lines = [
            #"10.0.0.1 - - [01/Oct/2026:09:00:03 +0000] "GET /maps/api/place/autocomplete/json?input=a&key=\#(key) HTTP/1.1" 200 12 "-" "ua""#,
            #"10.0.0.1 - - [01/Oct/2026:09:00:03 +0000] "GET /maps/api/place/details/json?key=\#(key) HTTP/1.1" 200 12 "-" "ua""#,
            #"10.0.0.1 - - [01/Oct/2026:09:00:03 +0000] "GET /?key=\#(key) HTTP/1.1" xyz 12 "-" "ua""#,
            #"10.0.0.1 - - [01/Oct/2026:09:00:03 +0000] "\#(key)" 200 12 "-" "ua""#,
            #"garbage \#(key)"#,
        ]
        for line in lines {
            let result = AccessLogParser(format: .combined).parse(line)
            #expect(!String(describing: result).contains(key))
            #expect(!String(reflecting: result).contains(key))
            if case .request(let request) = result {
                #expect(!String(describing: PlacesRequestDecoder.decode(request)).contains(key))
            }
        }
    }

    @Test("Sniffing: the first non-blank line decides")
    func sniff() {
        func head(_ text: String) -> [UInt8] { Array(text.utf8) }
        #expect(AccessLogParser.sniff(head(Self.exampleLine + "\n")))
        #expect(AccessLogParser.sniff(head("\n  \r\n" + Self.exampleLine + "\r\n" + "garbage\n")))
        #expect(AccessLogParser.sniff(head(#"127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326"#)))
        #expect(!AccessLogParser.sniff(head(#"{"timestamp":"2026-10-01T09:00:03.730Z","api":"autocomplete"}"# + "\n" + Self.exampleLine)))
        #expect(!AccessLogParser.sniff(head("timestamp,api,session_token\n")))
        #expect(!AccessLogParser.sniff(head("\n\n")))
        #expect(!AccessLogParser.sniff([]))
    }
}
