import Foundation
import Testing
@testable import PlacesCostKit
@testable import PlacesCostReference

/// Issue 20, class 11: a leap second (`23:59:60`) is a valid time in every timestamp form the
/// readers parse, fast decoders and slow twins alike, and is the last microsecond of its minute.
@Suite("Leap seconds")
struct LeapSecondTests {
    /// 2016-12-31T23:59:59.999999Z, the instant every spelling below stands for.
    static let instant = Timestamp(microseconds: (Int64(CivilDate.daysSinceEpoch(year: 2017, month: 1, day: 1)) * 86_400) * 1_000_000 - 1)

    @Test("RFC 3339: :60 with or without a fraction, in any offset, is :59.999999 of its minute")
    func rfc3339() throws {
        for text in ["2016-12-31T23:59:60Z", "2016-12-31T23:59:60.000Z", "2016-12-31T23:59:60.5Z", "2016-12-31t23:59:60.999999z",
                     "2016-12-31 23:59:60Z", "2017-01-01T00:59:60+01:00", "2016-12-31T18:59:60-05:00"] {
            #expect(try TimestampParser.parse(text).get() == LeapSecondTests.instant, "\(text)")
        }
        #expect(LeapSecondTests.instant.rfc3339 == "2016-12-31T23:59:59.999999Z")
        // Order is kept: after the last :59 reading, before the next minute; still December.
        #expect(try TimestampParser.parse("2016-12-31T23:59:59.999Z").get() < LeapSecondTests.instant)
        #expect(try LeapSecondTests.instant < TimestampParser.parse("2017-01-01T00:00:00Z").get())
        #expect(CivilDate(daysSinceEpoch: LeapSecondTests.instant.daysSinceEpoch).month == 12)
        for text in ["2016-12-31T23:59:61Z", "2016-12-31T23:60:00Z", "2016-12-31T24:00:00Z"] {
            #expect((try? TimestampParser.parse(text).get()) == nil, "\(text)")
        }
    }

    @Test("JSON Lines: the fast decoder reads the leap second and agrees with the slow parser")
    func jsonLines() throws {
        for time in ["2016-12-31T23:59:60Z", "2016-12-31T23:59:60.500Z", "2016-12-31T23:59:60.123456Z", "2017-01-01T00:59:60+01:00"] {
            let line = Array(#"{"timestamp":"\#(time)","api":"autocomplete","session_token":"t","input":"a","user_id":"u"}"#.utf8)
            let fast = line.withUnsafeBufferPointer { JSONLineTwins.fastCall($0) }
            #expect(fast?.time == LeapSecondTests.instant, "\(time)")
            #expect(try line.withUnsafeBufferPointer { try JSONLineTwins.slowCall($0).get() }.time == LeapSecondTests.instant)
            #expect(line.withUnsafeBufferPointer { JSONLineTwins.disagreement($0) } == nil)
        }
    }

    @Test("CSV: the fast row decoder and the slow path agree on a leap second")
    func csv() throws {
        let columns: [RawRecord.Key?] = ["timestamp", "api", "session_token", "input", "user_id"].map { RawRecord.Key(name: $0) }
        for time in ["2016-12-31T23:59:60Z", "2016-12-31T23:59:60.250Z"] {
            let row = Array("\(time),autocomplete,t,a,u".utf8)
            let fast = row.withUnsafeBufferPointer { CSVRowTwins.fastCall($0, columns: columns) }
            #expect(fast?.time == LeapSecondTests.instant, "\(time)")
            #expect(row.withUnsafeBufferPointer { CSVRowTwins.disagreement($0, columns: columns) } == nil)
        }
    }

    @Test("Access logs: $time_local and $time_iso8601 carry a leap second; fast and slow agree")
    func accessLogs() throws {
        let iso = try AccessLogFormat(#"$remote_addr [$time_iso8601] "$request" $status"#)
        let lines: [(String, AccessLogFormat)] = [
            (#"1.2.3.4 - - [31/Dec/2016:23:59:60 +0000] "GET /maps/api/place/autocomplete/json?input=a&sessiontoken=t HTTP/1.1" 200 10 "-" "-""#, .combined),
            (#"1.2.3.4 - - [01/Jan/2017:00:59:60 +0100] "GET /maps/api/place/autocomplete/json?input=a&sessiontoken=t HTTP/1.1" 200 10"#, .common),
            (#"1.2.3.4 [2016-12-31T23:59:60Z] "GET /maps/api/place/autocomplete/json?input=a&sessiontoken=t HTTP/1.1" 200"#, iso),
            (#"1.2.3.4 [2017-01-01T00:59:60+01:00] "GET /maps/api/place/autocomplete/json?input=a&sessiontoken=t HTTP/1.1" 200"#, iso),
        ]
        for (text, format) in lines {
            let line = Array(text.utf8)
            let fast = line.withUnsafeBufferPointer { AccessLogTwins.fast($0, decoder: FastAccessLogLineDecoder(format: format)) }
            let slow = line.withUnsafeBufferPointer { AccessLogTwins.slow($0, parser: AccessLogParser(format: format)) }
            guard case .call(let call, _, _, _)? = fast else {
                Issue.record("the fast decoder did not read \(text): \(String(describing: fast))")
                continue
            }
            #expect(call.time == LeapSecondTests.instant, "\(text)")
            #expect(fast == slow, "\(text)")
            #expect(line.withUnsafeBufferPointer { AccessLogTwins.disagreement($0, format: format) } == nil)
        }
    }

    @Test("analyze reads leap seconds in JSON Lines, CSV and HAR with no warning")
    func endToEnd() {
        let directory = TemporaryDirectory()
        let jsonl = directory.write("log.jsonl", """
        {"timestamp":"2016-12-31T23:59:59.500Z","api":"autocomplete","session_token":"t","input":"a","user_id":"u"}
        {"timestamp":"2016-12-31T23:59:60.250Z","api":"autocomplete","session_token":"t","input":"ab","user_id":"u"}

        """)
        let csv = directory.write("log.csv", "timestamp,api,session_token,input,user_id\n2016-12-31T23:59:59.500Z,autocomplete,t,a,u\n2016-12-31T23:59:60Z,autocomplete,t,ab,u\n")
        let har = directory.write("log.har", """
        {"log":{"version":"1.2","creator":{"name":"t","version":"1"},"entries":[
        {"startedDateTime":"2016-12-31T23:59:60.100Z","time":1,"request":{"method":"GET","url":"https://maps.googleapis.com/maps/api/place/autocomplete/json?input=a&sessiontoken=t","httpVersion":"HTTP/1.1","headers":[],"queryString":[],"cookies":[],"headersSize":-1,"bodySize":0},"response":{"status":200,"statusText":"OK","httpVersion":"HTTP/1.1","headers":[],"cookies":[],"content":{"size":0,"mimeType":"application/json"},"redirectURL":"","headersSize":-1,"bodySize":0},"cache":{},"timings":{"send":0,"wait":1,"receive":0}}
        ]}}
        """)
        for path in [jsonl, csv, har] {
            let result = runCLI(["analyze", path, "--json"])
            #expect(result.code == .success, "\(path): \(result.stderr)")
            #expect(!result.stderr.contains("warning"), "\(path): \(result.stderr)")
            #expect(result.stdout.contains(#""rejected": 0"#), "\(path)")
            #expect(result.stdout.contains("2016-12-31T23:59:59.999999Z"), "\(path)")
        }
    }
}
