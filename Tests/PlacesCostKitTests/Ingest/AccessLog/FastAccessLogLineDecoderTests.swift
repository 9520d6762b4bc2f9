import Foundation
import Testing
@testable import PlacesCostKit
@testable import PlacesCostReference

/// The fast access-log decoder against its slow twin (`AccessLogParser` + `PlacesRequestDecoder`
/// + `HTTPRequest.fingerprint`): whatever it answers must be what the slow path makes of the
/// line, and it must answer the lines proxies and `placescost generate` write.
@Suite("FastAccessLogLineDecoder")
struct FastAccessLogLineDecoderTests {
    static let example = AccessLogTests.exampleLine
    static let msecFormat = try! AccessLogFormat(#"${msec} $host $request_method $request_uri $status $request_time "$http_user_agent" $upstream_response_time"#)
    static let isoFormat = try! AccessLogFormat(#"$remote_addr [$time_iso8601] "$request" $status "$remote_user" $uri$is_args$args"#)

    private func outcomes(_ text: String, format: AccessLogFormat = .combined) -> (fast: AccessLogTwins.Outcome?, slow: AccessLogTwins.Outcome) {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { mutable in
            let line = UnsafeBufferPointer(mutable)
            return (AccessLogTwins.fast(line, decoder: FastAccessLogLineDecoder(format: format)),
                    AccessLogTwins.slow(line, parser: AccessLogParser(format: format)))
        }
    }

    @Test("A preflight or a redirected Places request is the slow path's to count; other OPTIONS and 3xx lines are answered fast")
    func notBilled() {
        let places = #"10.0.0.1 - - [01/Oct/2026:09:00:03 +0000] "GET /maps/api/place/autocomplete/json?input=ab&sessiontoken=T HTTP/1.1" 200 5 "-" "ua""#
        for (method, status, kind) in [("OPTIONS", "204", PlacesRequestDecoder.NotBilled.preflight), ("options", "200", .preflight), ("GET", "307", .redirect), ("POST", "301", .redirect)] {
            let line = places.replacingOccurrences(of: "\"GET ", with: "\"\(method) ").replacingOccurrences(of: "\" 200 ", with: "\" \(status) ")
            let (fast, slow) = outcomes(line)
            #expect(fast == nil, "\(line)")
            #expect(slow == .notBilled(kind), "\(line)")
        }
        let (fast304, slow304) = outcomes(places.replacingOccurrences(of: "\" 200 ", with: "\" 304 "))
        #expect(fast304 != nil && fast304 == slow304)
        let (fastOther, slowOther) = outcomes(#"10.0.0.1 - - [01/Oct/2026:09:00:03 +0000] "OPTIONS /healthz HTTP/1.1" 302 5 "-" "ua""#)
        #expect(fastOther == .notPlaces(host: nil) && fastOther == slowOther)
    }

    @Test("The docs/formats.md line: the exact spans, and the slow path's call and fingerprint")
    func exampleLine() throws {
        let line = Array(Self.example.utf8)
        let record = try #require(line.withUnsafeBufferPointer { FastAccessLogLineDecoder(format: .combined).decode($0) })
        let text = { (span: ByteSpan?) in span.map { String(decoding: line[Int($0.start) ..< Int($0.start + $0.count)], as: UTF8.self) } }
        #expect(record.time.microseconds == AccessLogTests.nineOhThree)
        #expect(text(record.method) == "GET")
        #expect(text(record.target) == "/maps/api/place/autocomplete/json?input=1600+Amph&sessiontoken=6513270e269e0d37f2a74de452e6b438&key=AIzaSyEXAMPLE")
        #expect(record.user == nil)
        #expect(text(record.status) == "200")
        let call = try #require(record.call)
        #expect(call.api == .autocomplete && call.generation == .legacy && !call.bodyUnknown)
        #expect(text(call.sessionToken) == "6513270e269e0d37f2a74de452e6b438")
        #expect(call.inputLength == 9)
        #expect(call.fields == nil)
        let (fast, slow) = outcomes(Self.example)
        #expect(fast == slow)
        guard case .call(_, _, let fingerprint, _)? = fast, case .request(let request) = AccessLogParser(format: .combined).parse(Self.example) else {
            Issue.record("not a call")
            return
        }
        #expect(fingerprint == request.fingerprint)
    }

    @Test("Lines of every shape the fast path takes: the same outcome as the slow path, answered fast")
    func answeredShapes() {
        let stamp = "[01/Oct/2026:09:00:03 +0000]"
        let combined = [
            #"10.0.0.1 - alice \#(stamp) "GET /maps/api/place/details/json?placeid=ChIJ&fields=name%2Cgeometry,+rating,,&sessiontoken=t-1&key=k HTTP/2.0" 200 5 "-" "ua""#,
            #"10.0.0.1 - - \#(stamp) "GET /maps/api/place/autocomplete/xml?input=M%C3%BCn+chen%F0%9F%8D%95&input=ignored HTTP/1.1" 200 5 "-" "ua""#,
            #"10.0.0.1 - - \#(stamp) "GET /maps/api/place/autocomplete/json?input=100%25%zz%4&sessiontoken=&sessionToken=second HTTP/1.1" 200 5 "-" "ua""#,
            #"10.0.0.1 - - \#(stamp) "GET /maps/api/place/autocomplete/json?input&&sessiontoken=a#input=x HTTP/1.1" 200 5 "-" "ua""#,
            #"10.0.0.1 - - \#(stamp) "GET /maps/api/geocode/json?latlng=1,2&sessiontoken=x HTTP/1.1" 304 - "-" "ua""#,
            #"10.0.0.1 - - \#(stamp) "GET /maps/api/place/queryautocomplete/json?input=pizza+near HTTP/1.1" - 5 "-" "ua""#,
            #"10.0.0.1 - - \#(stamp) "GET /maps/api/place/findplacefromtext/json?input=Museum HTTP/1.1" 200 5 "-" "ua""#,
            #"10.0.0.1 - - \#(stamp) "GET /maps/api/place/textsearch/json?query=pizza HTTP/1.1" 200 5 "-" "ua""#,
            #"10.0.0.1 - - \#(stamp) "POST /v1/places:autocomplete HTTP/1.1" 200 5 "-" "ua""#,
            #"10.0.0.1 - bob \#(stamp) "GET /v1/places/ChIJN1t?fields=&$fields=x&sessiontoken=lower&sessionToken=upper HTTP/1.1" 200 5 "-" "ua""#,
            #"10.0.0.1 - - \#(stamp) "POST /v1/places:searchText?$fields=places.id HTTP/1.1" 200 5 "-" "ua""#,
            #"10.0.0.1 - - \#(stamp) "POST /v1:validateAddress HTTP/1.1" 200 5 "-" "ua""#,
            #"10.0.0.1 - - \#(stamp) "GET   /index.html   HTTP/1.1 " 200 5 "-" "ua \"quoted\"""#,
            #"10.0.0.1 - - \#(stamp) "GET /maps/api/place/photo?photoreference=x HTTP/1.1" 200 5 "-" "ua""#,
            #"10.0.0.1 - - \#(stamp) "GET /v1/places/ChIJ/photos/a/media HTTP/1.1" 200 5 "-" "ua""#,
            #"10.0.0.1 - - \#(stamp) "OPTIONS /healthz HTTP/1.1" 200 5 "-" "ua" 0.042 "203.0.113.1""#,
            // Absolute URLs, as forward proxies and load balancers log them.
            #"10.0.0.1 - - \#(stamp) "GET https://maps.googleapis.com/maps/api/place/autocomplete/json?input=a HTTP/1.1" 200 5 "-" "ua""#,
            #"10.0.0.1 - - \#(stamp) "GET http://user:pw@Proxy.Example.COM.:8080/maps/api/place/details/json?place_id=X&sessiontoken=t HTTP/1.1" 200 5 "-" "ua""#,
            #"10.0.0.1 - - \#(stamp) "GET HTTPS://[::1]:8443/maps/api/geocode/json?address=x HTTP/1.1" 200 5 "-" "ua""#,
            #"10.0.0.1 - - \#(stamp) "GET https://www.example.com/index.html HTTP/1.1" 200 5 "-" "ua""#,
            #"10.0.0.1 - - \#(stamp) "get /maps/api/place/autocomplete/json?input=a"#,  // common inside combined: no
            #"127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /maps/api/place/autocomplete/json?input=ab HTTP/1.0" 200 2326"#,
        ]
        var answered = 0
        for line in combined {
            let (fast, slow) = outcomes(line)
            if let fast {
                answered += 1
                #expect(fast == slow, "\(line)")
            } else {
                #expect(line.hasPrefix(#"10.0.0.1 - - \#(stamp) "get"#), "declined: \(line)")
            }
        }
        #expect(answered == combined.count - 1)

        // A very long line: 20,000 escaped characters typed, and a 300 KB user agent.
        let long = #"10.0.0.1 - - \#(stamp) "GET /maps/api/place/autocomplete/json?input=\#(String(repeating: "%C3%A9+", count: 10_000))&sessiontoken=t HTTP/1.1" 200 5 "-" "\#(String(repeating: "ua ", count: 100_000))""#
        let (fast, slow) = outcomes(long)
        #expect(fast != nil && fast == slow)
        guard case .call(let call, _, _, _)? = fast else { return }
        #expect(call.inputLength == 20_000)

        let msec = #"1790845203.730 api.myapp.example GET /maps/api/place/details/json?place_id=ChIJ&fields=formatted_address&sessiontoken=tok&key=k 200 0.042 "okhttp/4.12.0" 0.040"#
        #expect(outcomes(msec, format: Self.msecFormat).fast == outcomes(msec, format: Self.msecFormat).slow)
        #expect(outcomes(msec, format: Self.msecFormat).fast != nil)
        for iso in ["2026-10-01T11:00:03+02:00", "2026-10-01T09:00:03Z"] {
            let line = #"10.0.0.1 [\#(iso)] "GET /maps/api/place/autocomplete/json?input=a&sessiontoken=t HTTP/1.1" 200 "carol" /x?y"#
            let (fast, slow) = outcomes(line, format: Self.isoFormat)
            #expect(fast != nil && fast == slow, "\(iso)")
        }
    }

    @Test("Lines the fast path leaves to the slow one, which reads or rejects them")
    func declined() {
        let stamp = "[01/Oct/2026:09:00:03 +0000]"
        enum Kind { case call, notPlaces, malformed }
        let cases: [(String, Kind)] = [
            (#"10.0.0.1 - - \#(stamp) "GET /maps/api/place/autocomplete/json?input=M%C3 HTTP/1.1" 200 5 "-" "ua""#, .call),  // not UTF-8 once decoded
            (#"10.0.0.1 - - \#(stamp) "GET /maps/api/place/autocomplete/json?sessiontoken=a%2Db HTTP/1.1" 200 5 "-" "ua""#, .call),
            (#"10.0.0.1 - - \#(stamp) "GET /maps/api/place/autocomplete/json?session%74oken=a HTTP/1.1" 200 5 "-" "ua""#, .call),
            (#"10.0.0.1 - - \#(stamp) "GET /v1/places/ChIJ?%24fields=name HTTP/1.1" 200 5 "-" "ua""#, .call),
            (#"10.0.0.1 - - \#(stamp) "GET /maps%2Fapi/place/autocomplete/json?input=a HTTP/1.1" 200 5 "-" "ua""#, .call),
            (#"10.0.0.1 - - \#(stamp) "GET https://proxy.example.com#x/maps/api/place/autocomplete/json?input=a HTTP/1.1" 200 5 "-" "ua""#, .notPlaces),
            (#"10.0.0.1 - - \#(stamp) "POST /v1/places:searchNearby HTTP/1.1" 200 5 "-" "ua""#, .call),
            (#"10.0.0.1 - - \#(stamp) "GET /maps/api/place/autocomplete/json?input=a HTTP/1.1" +200 5 "-" "ua""#, .call),
            (#"10.0.0.1 - jörg \#(stamp) "GET / HTTP/1.1" 200 5 "-" "ua""#, .notPlaces),
            (#"10.0.0.1 - - \#(stamp) "GET /maps/api/place/details/json?fields=name HTTP/1.1" 200 5 "-" "ua""#, .malformed),
            (#"10.0.0.1 - - \#(stamp) "GET /maps/api/place/autocomplete/json?input=a HTTP/1.1" 2000 5 "-" "ua""#, .malformed),
            (#"10.0.0.1 - - [31/Sep/2026:09:00:03 +0000] "GET / HTTP/1.1" 200 5 "-" "ua""#, .malformed),
            (#"10.0.0.1 - - \#(stamp) "GET / HTTP/1.1 extra" 200 5 "-" "ua""#, .malformed),
            (#"10.0.0.1 - - \#(stamp) "-" 400 0 "-" "-""#, .malformed),
            (#"10.0.0.1 - - \#(stamp) "M-SEARCH * HTTP/1.1" 200 5 "-" "ua""#, .malformed),
            ("not an access log line", .malformed),
        ]
        for (line, kind) in cases {
            let (fast, slow) = outcomes(line)
            #expect(fast == nil, "answered: \(line)")
            switch (slow, kind) {
            case (.call, .call), (.notPlaces, .notPlaces), (.malformed, .malformed): break
            default: Issue.record("the slow path gives \(slow) for \(line)")
            }
        }
    }

    @Test("Every line the fast path answers gives the slow path's outcome; plain lines are all answered",
          arguments: AccessLogLineGenerator.Shape.allCases)
    func agreesWithSlowPath(_ shape: AccessLogLineGenerator.Shape) {
        var generator = AccessLogLineGenerator(shape: shape, seed: 0xACCE_5510 &+ UInt64(AccessLogLineGenerator.Shape.allCases.firstIndex(of: shape)!))
        let fast = FastAccessLogLineDecoder(format: shape.format)
        let parser = AccessLogParser(format: shape.format)
        let tally = AccessLogTally.rounds(3_000, of: &generator) { tally, line, plain in
            tally.compare(line, plain: plain, fast: fast, parser: parser)
        }
        #expect(tally.compared == 12_000)
        #expect(tally.plainAnswered == 3_000, "\(tally)")
        // The adversarial lines must reach every answer, or agreement proves little.
        #expect(tally.adversarialCalls > 500, "\(tally)")
        #expect(tally.adversarialNotPlaces > 200, "\(tally)")
        #expect(tally.declinedButValid > 300, "\(tally)")
        #expect(tally.slowRejected > 1_500, "\(tally)")
    }

    @Test("Every line of a generated access log is answered fast, with the slow path's call and fingerprint")
    func generatedLog() throws {
        let run = runCLI(["generate", "--searches", "1500", "--seed", "7", "--format", "access-log"])
        #expect(run.code == .success)
        let fast = FastAccessLogLineDecoder(format: .combined)
        let parser = AccessLogParser(format: .combined)
        var tally = AccessLogTally()
        for line in run.stdout.split(separator: "\n") {
            tally.compare(Array(line.utf8), plain: true, fast: fast, parser: parser)
        }
        for problem in tally.problems.prefix(10) {
            Issue.record("\(problem)")
        }
        #expect(tally.problems.isEmpty)
        #expect(tally.compared > 5_000)
        #expect(tally.plainAnswered == tally.compared, "\(tally)")
    }

    @Test("$time_local: the fast reader gives parseTimeLocal's instant or declines, and reads every valid one")
    func timeLocal() {
        var random = SeededRandom(seed: 26)
        let months = ["Jan", "feb", "MAR", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "dEc", "Okt", "J@n", "Ja"]
        var valid = 0
        for _ in 0 ..< 20_000 {
            let day = Int.random(in: 0 ... 32, using: &random)
            let month = months.randomElement(using: &random)!
            let year = [0, 1, 1970, 2024, 2026, 9999].randomElement(using: &random)!
            let hour = Int.random(in: 0 ... 24, using: &random)
            let offset = ["+0000", "-0530", "+2359", "+2400", "-0060", "+000", "0000", "+00:0"].randomElement(using: &random)!
            let clock = String(format: "%04d:%02d:%02d:%02d", year, hour, Int.random(in: 0 ... 60, using: &random), Int.random(in: 0 ... 60, using: &random))
            var text = Array((String(format: "%02d", day) + "/" + month + "/" + clock + " " + offset).utf8)
            if Int.random(in: 0 ..< 8, using: &random) == 0 {
                text[Int.random(in: 0 ..< text.count, using: &random)] = UInt8.random(in: 0x20 ... 0x7E, using: &random)
            }
            let slow = text.withUnsafeBufferPointer { AccessLogParser.parseTimeLocal($0) }
            let fast = text.withUnsafeBufferPointer { FastAccessLogLineDecoder.timeLocal($0.baseAddress!, $0.count) }
            #expect(fast == slow, "\(String(decoding: text, as: UTF8.self))")
            if slow != nil { valid += 1 }
        }
        #expect(valid > 2_000)
    }

    @Test("$time_iso8601: the fast reader gives TimestampParser's instant or declines")
    func timeISO8601() {
        var random = SeededRandom(seed: 8601)
        var answered = 0
        for _ in 0 ..< 20_000 {
            let date = String(format: "%04d-%02d-%02d", [0, 1, 2024, 2026].randomElement(using: &random)!,
                              Int.random(in: 0 ... 13, using: &random), Int.random(in: 0 ... 32, using: &random))
            let clock = String(format: "%02d:%02d:%02d", Int.random(in: 0 ... 24, using: &random),
                               Int.random(in: 0 ... 60, using: &random), Int.random(in: 0 ... 60, using: &random))
            let separator = ["T", "T", "t", " "].randomElement(using: &random)!
            let zone = ["Z", "+02:00", "-05:30", "+24:00", "+00:60", "z", "+0200", "", ".5Z"].randomElement(using: &random)!
            var text = Array((date + separator + clock + zone).utf8)
            if Int.random(in: 0 ..< 8, using: &random) == 0 {
                text[Int.random(in: 0 ..< text.count, using: &random)] = UInt8.random(in: 0x20 ... 0x7E, using: &random)
            }
            let fast = text.withUnsafeBufferPointer { FastAccessLogLineDecoder.timeISO8601($0.baseAddress!, $0.count) }
            guard let fast else { continue }
            answered += 1
            let slow = text.withUnsafeBufferPointer { try? TimestampParser.parse(bytes: $0).get() }
            #expect(fast == slow, "\(String(decoding: text, as: UTF8.self))")
        }
        #expect(answered > 1_000)
    }

    @Test("input: scalars after percent-decoding, as the slow path counts them, or declined when not UTF-8")
    func inputScalars() {
        var random = SeededRandom(seed: 0x25)
        let pieces = ["a", "+", "%20", "%2B", "%25", "%", "%z", "%4", "%41", "%c3%a9", "%C3%A9", "%C3", "%A9", "%E2%82%AC",
                      "%F0%9F%8D%95", "%ED%A0%80", "%C0%AF", "%F4%90%80%80", "%EF%BF%BF", "%FF", "%00", "\\\"", "Z", "-", "~"]
        var declined = 0
        var answered = 0
        for _ in 0 ..< 20_000 {
            let value = (0 ..< Int.random(in: 0 ... 8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let bytes = Array(value.utf8)
            let fast = bytes.withUnsafeBufferPointer {
                FastAccessLogLineDecoder.scalarCount($0.baseAddress!, ByteSpan(start: 0, count: Int32($0.count)))
            }
            let decoded = RequestTarget.percentDecode(Substring(value), plusIsSpace: true)
            // The decoded bytes, before `String` repairs them: UTF-8 or not.
            var raw: [UInt8] = []
            var index = 0
            while index < bytes.count {
                let hex = Array("0123456789abcdefABCDEF".utf8)
                if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count, hex.contains(bytes[index + 1]), hex.contains(bytes[index + 2]) {
                    raw.append(UInt8(String(decoding: bytes[(index + 1) ... (index + 2)], as: UTF8.self), radix: 16)!)
                    index += 3
                } else {
                    raw.append(bytes[index] == UInt8(ascii: "+") ? 0x20 : bytes[index])
                    index += 1
                }
            }
            if String(validating: raw, as: UTF8.self) == nil {
                #expect(fast == nil, "\(value)")
                declined += 1
            } else {
                #expect(fast.map(Int.init) == decoded.unicodeScalars.count, "\(value)")
                answered += 1
            }
        }
        #expect(declined > 2_000 && answered > 2_000)
    }

    @Test("A block filed through the fast path equals the block filed from the slow path's requests",
          arguments: [false, true])
    func sameBlock(keepUsers: Bool) throws {
        var generator = AccessLogLineGenerator(shape: .combined, seed: keepUsers ? 11 : 12)
        let lines = (0 ..< 4_000).map { index in generator.line(adversarial: index % 3 == 0) }
        let catalogs = CallCatalogs()
        // A window that drops some calls: the generator's times run over October 2026.
        let window = TimeWindow(start: Timestamp(microseconds: 1_790_812_800_000_000 + 86_400_000_000), end: nil)
        func builder() -> CallBlockBuilder {
            CallBlockBuilder(block: CallBlock(index: 3, fileIndex: 0, fileName: "a.log", partitions: Array(repeating: PartitionCalls(), count: 3)),
                             catalogs: catalogs, window: window, keepUsers: keepUsers)
        }
        var fastBuilder = builder()
        var slowBuilder = builder()
        var fastCaches = CallBlockBuilder.Caches()
        var slowCaches = CallBlockBuilder.Caches()
        let decoder = FastAccessLogLineDecoder(format: .combined)
        let parser = AccessLogParser(format: .combined)
        var answered = 0
        for (number, line) in lines.enumerated() {
            line.withUnsafeBufferPointer { line in
                guard let record = decoder.decode(line) else { return }
                answered += 1
                fastBuilder.add(record, line: line, caches: &fastCaches)
                switch parser.parse(line) {
                case .request(let request): slowBuilder.add(request, line: number + 1, caches: &slowCaches)
                case .malformed(let reason): slowBuilder.reject(reason, line: number + 1)
                }
            }
        }
        let fast = fastBuilder.finish(lineCount: lines.count)
        let slow = slowBuilder.finish(lineCount: lines.count)
        #expect(answered > 2_500)
        let filed = fast.partitions.map(\.calls.count).reduce(0, +)
        #expect(filed > 1_000 && fast.outsideWindow > 50 && fast.skippedRequests > 50 && fast.bodiesUnknown > 5, "\(filed) \(fast.outsideWindow) \(fast.skippedRequests) \(fast.bodiesUnknown)")
        #expect(fast.rejected == slow.rejected && fast.outsideWindow == slow.outsideWindow)
        #expect(fast.skippedRequests == slow.skippedRequests && fast.bodiesUnknown == slow.bodiesUnknown)
        #expect(fast.firstCall == slow.firstCall && fast.lastCall == slow.lastCall)
        // The hosts of absolute targets: proxies named, skipped requests counted by host.
        #expect(fast.hosts == slow.hosts && !fast.hosts.proxies.isEmpty && !fast.hosts.skipped.isEmpty, "\(fast.hosts)")
        for (fastCalls, slowCalls) in zip(fast.partitions, slow.partitions) {
            #expect(fastCalls.arena == slowCalls.arena)
            #expect(fastCalls.calls.map { String(describing: $0) } == slowCalls.calls.map { String(describing: $0) })
        }
    }
}

/// Lines for the twins: plain ones, unusual ones, and byte-level mutations of either.
protocol TwinLineGenerator {
    mutating func line(adversarial: Bool) -> [UInt8]
    mutating func mutated(_ line: [UInt8]) -> [UInt8]
}

/// Counts what the twins made of each line, and keeps the disagreements.
struct AccessLogTally: CustomStringConvertible {
    /// The tally of `count` rounds of a plain line, an unusual one, a mutation of the plain one
    /// and a double mutation of the unusual one, each given to `compare`; every disagreement
    /// (the first ten) is recorded as an issue.
    static func rounds<Generator: TwinLineGenerator>(
        _ count: Int, of generator: inout Generator, compare: (inout AccessLogTally, [UInt8], _ plain: Bool) -> Void
    ) -> AccessLogTally {
        var tally = AccessLogTally()
        for _ in 0 ..< count {
            let plain = generator.line(adversarial: false)
            compare(&tally, plain, true)
            let adversarial = generator.line(adversarial: true)
            compare(&tally, adversarial, false)
            compare(&tally, generator.mutated(plain), false)
            compare(&tally, generator.mutated(generator.mutated(adversarial)), false)
        }
        for problem in tally.problems.prefix(10) {
            Issue.record("\(problem)")
        }
        #expect(tally.problems.isEmpty)
        return tally
    }

    var compared = 0
    var plainAnswered = 0
    var adversarialCalls = 0
    var adversarialNotPlaces = 0
    var declinedButValid = 0
    var slowRejected = 0
    /// Lines that are no web server's JSON record (only `FastJSONAccessRecordDecoder`'s twins say so).
    var notWebServer = 0
    var problems: [String] = []

    mutating func compare(_ line: [UInt8], plain: Bool, fast decoder: FastAccessLogLineDecoder, parser: AccessLogParser) {
        line.withUnsafeBufferPointer { bytes in
            compare(line, plain: plain, fast: AccessLogTwins.fast(bytes, decoder: decoder), slow: AccessLogTwins.slow(bytes, parser: parser))
        }
    }

    /// - Parameter slow: `nil` when the line is no web server's record: the fast path must then decline it.
    mutating func compare(_ line: [UInt8], plain: Bool, fast: AccessLogTwins.Outcome?, slow: AccessLogTwins.Outcome?) {
        compared += 1
        let text = String(decoding: line, as: UTF8.self)
        guard let slow else {
            notWebServer += 1
            if let fast { problems.append("answered \(fast) for a line that is no web server's record: \(text)") }
            if plain { problems.append("a plain line is no web server's record: \(text)") }
            return
        }
        if case .malformed = slow { slowRejected += 1 }
        guard let fast else {
            if case .malformed = slow {} else { declinedButValid += 1 }
            if plain { problems.append("a plain line is declined: \(text)") }
            return
        }
        if plain {
            plainAnswered += 1
        } else if case .call = fast {
            adversarialCalls += 1
        } else {
            adversarialNotPlaces += 1
        }
        // `==` on `String` equates canonically equivalent text; the bytes must match too.
        if fast != slow || Array(fast.description.utf8) != Array(slow.description.utf8) {
            problems.append("fast \(fast) != slow \(slow) for \(text)")
        }
    }

    var description: String {
        "compared \(compared), plain answered \(plainAnswered), adversarial calls \(adversarialCalls), adversarial not Places \(adversarialNotPlaces), "
            + "declined but valid \(declinedButValid), slow rejected \(slowRejected), no web server's \(notWebServer)"
    }
}

/// Random access-log lines: plain ones as proxies write them, adversarial ones with every
/// unusual piece the twins must agree on, and byte-level mutations of both.
struct AccessLogLineGenerator: TwinLineGenerator {
    enum Shape: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case combined, common, msec, iso

        var format: AccessLogFormat {
            switch self {
            case .combined: .combined
            case .common: .common
            case .msec: FastAccessLogLineDecoderTests.msecFormat
            case .iso: FastAccessLogLineDecoderTests.isoFormat
            }
        }

        var testDescription: String { rawValue }
    }

    let shape: Shape
    var random: SeededRandom
    /// `$time_local` and `$time_iso8601` writers for UTC, +02:00 and -05:30, from Foundation
    /// (not from the code under test).
    private let localFormatters: [DateFormatter]
    private let isoFormatters: [DateFormatter]

    init(shape: Shape, seed: UInt64) {
        self.shape = shape
        self.random = SeededRandom(seed: seed)
        func formatters(_ pattern: (Int) -> String) -> [DateFormatter] {
            [0, 7_200, -19_800].enumerated().map { index, offset in
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = TimeZone(secondsFromGMT: offset)
                formatter.dateFormat = pattern(index)
                return formatter
            }
        }
        localFormatters = formatters { _ in "dd/MMM/yyyy:HH:mm:ss Z" }
        isoFormatters = formatters { $0 == 0 ? "yyyy-MM-dd'T'HH:mm:ss'Z'" : "yyyy-MM-dd'T'HH:mm:ssxxx" }
    }

    private mutating func pick<T>(_ choices: [T]) -> T { choices.randomElement(using: &random)! }
    private mutating func chance(_ oneIn: Int) -> Bool { Int.random(in: 0 ..< oneIn, using: &random) == 0 }

    /// Seconds into October 2026.
    private mutating func second() -> Int { Int.random(in: 0 ..< 31 * 86_400, using: &random) }

    mutating func line(adversarial: Bool) -> [UInt8] {
        let seconds = 1_790_812_800 + second()
        let user = adversarial ? pick(["-", "", "alice", "u-001450", "a b", "\"", "-x"]) : pick(["-", "u-000123", "frank"])
        let method = adversarial ? pick(["GET", "POST", "HEAD", "get", "PROPFIND", "M-SEARCH", "G3T", ""]) : pick(["GET", "GET", "POST"])
        let target = self.target(adversarial: adversarial)
        let proto = adversarial ? pick(["HTTP/1.1", "HTTP/2.0", "HTTP/2", "", "HTTP/1.1 extra", " HTTP/1.0 "]) : pick(["HTTP/1.1", "HTTP/2.0"])
        let status = adversarial ? pick(["200", "404", "304", "-", "abc", "0200", "+200", "99", "1000", "", "599"]) : pick(["200", "200", "403"])
        var request = method + " " + target + (proto.isEmpty ? "" : " " + proto)
        if adversarial, chance(12) { request = pick(["-", "", "  ", "GET", "\\\"GET / HTTP/1.1\\\""]) }
        let agent = adversarial ? pick(["ua", "Mozilla/5.0 (X11; Linux x86_64)", "a \\\"quoted\\\" agent", "-", "\" \""]) : "okhttp/4.12.0"

        var text: String
        switch shape {
        case .combined, .common:
            let time = adversarial && chance(6) ? badTimeLocal() : timeLocal(seconds)
            text = "203.0.113.7 - \(user) [\(time)] \"\(request)\" \(status) \(pick(["512", "-", "0"]))"
            if shape == .combined {
                text += " \"\(pick(["-", "https://app.example/"]))\" \"\(agent)\""
                if adversarial, chance(5) { text += pick([" 0.042", " \"203.0.113.1\"", "\"", " - "]) }
            }
        case .msec:
            let fraction = adversarial ? pick(["", ".", ".5", ".123456789", "x", ".12a"]) : pick([".123", ".730", ""])
            let msec = adversarial && chance(8) ? pick(["-1", "abc", "", "1e9", "1234567890123"]) : "\(seconds)\(fraction)"
            let uri = adversarial && chance(10) ? pick(["-", ""]) : target
            text = "\(msec) api.example \(method) \(uri) \(status) 0.042 \"\(agent)\" 0.040"
        case .iso:
            let time = adversarial && chance(6)
                ? pick(["2026-10-01T09:00:03.5Z", "2026-10-01t09:00:03Z", "2026-10-01 09:00:03+00:00", "2026-13-01T09:00:03Z", "1790845203000", "2026-10-01T09:00:03"])
                : isoTime(seconds)
            text = "10.0.0.1 [\(time)] \"\(request)\" \(status) \"\(user)\" /uri?\(pick(["a=1", "", "k=\"v\""]))"
        }
        return Array(text.utf8)
    }

    /// Bytes flipped, inserted, deleted or cut off.
    mutating func mutated(_ line: [UInt8]) -> [UInt8] {
        var line = line
        let specials: [UInt8] = [0x20, 0x22, 0x25, 0x26, 0x2B, 0x3D, 0x3F, 0x23, 0x5B, 0x5D, 0x5C, 0x2D, 0x2F, 0x00, 0x09, 0xC3, 0xA9, 0xFF, 0x41, 0x30]
        for _ in 0 ..< Int.random(in: 1 ... 3, using: &random) {
            guard !line.isEmpty else { break }
            let at = Int.random(in: 0 ..< line.count, using: &random)
            switch Int.random(in: 0 ..< 5, using: &random) {
            case 0: line[at] = pick(specials)
            case 1: line.insert(pick(specials), at: at)
            case 2: line.removeSubrange(at ..< min(line.count, at + Int.random(in: 1 ... 6, using: &random)))
            case 3: line.removeSubrange(at...)
            default: line.insert(contentsOf: line[at ..< min(line.count, at + 8)], at: at)
            }
        }
        return line
    }

    private func timeLocal(_ seconds: Int) -> String {
        localFormatters[seconds % 3].string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    private func isoTime(_ seconds: Int) -> String {
        isoFormatters[seconds % 3].string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    private mutating func badTimeLocal() -> String {
        pick(["31/Sep/2026:09:00:03 +0000", "01/Okt/2026:09:00:03 +0000", "01/Oct/2026:09:00:03", "01/Oct/2026:24:00:03 +0000",
              "1/Oct/2026:09:00:03 +0000", "01/oct/2026:09:00:03 -0130", "29/Feb/2025:00:00:00 +0000", "01/Oct/0000:09:00:03 +0000"])
    }

    mutating func target(adversarial: Bool) -> String {
        let plainPaths = ["/maps/api/place/autocomplete/json", "/maps/api/place/details/json", "/maps/api/geocode/json"]
        let paths = plainPaths + [
            "/maps/api/place/autocomplete/xml", "/maps/api/place/queryautocomplete/json", "/maps/api/place/findplacefromtext/json",
            "/maps/api/place/textsearch/json", "/maps/api/place/photo", "/maps/api/staticmap", "/maps/api//json", "/maps/api/json",
            "/v1/places:autocomplete", "/v1/places/ChIJN1t_tDeuEmsRUsoyG83frY4", "/v1/places/ChIJ/photos/a/media", "/v1/places/",
            "/v1/places:searchText", "/v1/places:searchNearby", "/v1:validateAddress", "/v1/placesfoo", "/", "/index.html",
            "/maps%2Fapi/place/autocomplete/json", "/maps/api/place/auto%63omplete/json", "https://maps.googleapis.com/maps/api/place/autocomplete/json",
            "*", "maps/api/place/autocomplete/json", "/MAPS/api/place/autocomplete/json",
        ]
        let path = adversarial ? pick(paths) : pick(plainPaths)
        var parameters: [String] = []
        if adversarial {
            for _ in 0 ..< Int.random(in: 0 ... 7, using: &random) { parameters.append(adversarialParameter()) }
        } else {
            switch path {
            case plainPaths[0]: parameters.append("input=" + encodedInput(adversarial: false))
            case plainPaths[1]:
                parameters.append("place_id=ChIJN1t_tDeuEmsRUsoyG83frY4")
                if chance(3) { parameters.append("fields=" + pick(["formatted_address,geometry/location", "name,rating,photos", "name%2Cgeometry"])) }
            default: parameters.append(pick(["place_id=ChIJ", "address=1600+Amphitheatre", "latlng=40.7,-73.9"]))
            }
            if !chance(4) { parameters.append("sessiontoken=" + uuid()) }
            parameters.append("key=AIzaSyPLANTEDKEY123")
            parameters.shuffle(using: &random)
        }
        var target = path
        // Absolute URLs, as forward proxies and load balancers log them, with every part of an
        // authority the host is read from.
        if adversarial, path.hasPrefix("/"), chance(4) {
            target = pick(["https://maps.googleapis.com", "https://proxy.example.com:443", "http://u:p@Proxy.Example.COM.", "HTTPS://[::1]:8443",
                           "https://[::1]", "hTTp://places.googleapis.com", "https://", "http://h@", "https://a:b:c", "https://host..", "http://x%41y"]) + target
        }
        if !parameters.isEmpty || (adversarial && chance(6)) { target += "?" + parameters.joined(separator: pick(["&", "&", "&", "&&"])) }
        if adversarial, chance(10) { target += pick(["#frag", "#input=x&sessiontoken=y", "#"]) }
        return target
    }

    private mutating func adversarialParameter() -> String {
        switch Int.random(in: 0 ..< 14, using: &random) {
        case 0, 1: return "input=" + encodedInput(adversarial: true)
        case 2: return pick(["input", "input=", "input=%", "inp%75t=abc", "input+=x", "Input=x"])
        case 3: return pick(["sessiontoken=", "sessionToken="]) + pick([uuid(), "", "a%2Db", "a+b", "tok\\\"en", "%zz", "t"])
        case 4: return pick(["session%74oken=abc", "sessiontoken", "sessiontokens=x"])
        case 5: return pick(["fields=", "$fields=", "%24fields="]) + pick(["name,geometry", "", ",+,", "name%2C+rating", "a%C3%A9", "%FF", "x,,y"])
        case 6: return pick(["placeid=", "place_id="]) + pick(["ChIJ", ""])
        case 7: return pick(["address=1600+Amph", "latlng=", "components=country:us", "address="])
        case 8: return "key=AIzaSyPLANTEDKEY123"
        case 9: return pick(["language=en", "flag", "=v", "a=b=c"])
        case 10: return "sessiontoken=" + uuid()
        case 11: return "fields=" + pick(["formatted_address", "name,rating"])
        case 12: return "place_id=ChIJN1t"
        default: return "input=" + encodedInput(adversarial: false)
        }
    }

    /// Typed text URL-encoded as the generator does (unreserved kept, space as `+`, the rest
    /// `%XX`), or with adversarial escapes.
    private mutating func encodedInput(adversarial: Bool) -> String {
        let texts = ["1600 Amph", "Łazienki", "München", "pizza near", "Zürich 8001", "🍕 place", "東京", "a+b", "100%", "\"q\""]
        // Typed so far: whole characters, or for adversarial text any prefix of the bytes.
        let typed = pick(texts)
        var bytes = Array(typed.utf8)
        if adversarial {
            bytes = Array(bytes.prefix(Int.random(in: 0 ... bytes.count, using: &random)))
        } else {
            bytes = Array(String(typed.unicodeScalars.prefix(Int.random(in: 0 ... typed.unicodeScalars.count, using: &random))).utf8)
        }
        var text = ""
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a") ... UInt8(ascii: "z"), UInt8(ascii: "A") ... UInt8(ascii: "Z"), UInt8(ascii: "0") ... UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                text.append(Character(UnicodeScalar(byte)))
            case UInt8(ascii: " "):
                text += adversarial && chance(2) ? "%20" : "+"
            default:
                text += String(format: adversarial && chance(2) ? "%%%02x" : "%%%02X", Int(byte))
            }
        }
        if adversarial, chance(2) {
            text += pick(["%", "%z", "%4", "%C3", "%FF", "%ED%A0%80", "%C0%AF", "%2B", "+", "%25", "\\\"", "%F4%90%80%80", "%00", "%0A"])
        }
        return text
    }

    private mutating func uuid() -> String {
        let hex = Array("0123456789abcdef")
        let groups = [8, 4, 4, 4, 12].map { count in String((0 ..< count).map { _ in hex[Int.random(in: 0 ..< 16, using: &random)] }) }
        return groups.joined(separator: "-")
    }
}
