import Foundation
import Testing
@testable import PlacesCostKit
@testable import PlacesCostReference

/// The streaming HAR reader on hand-written captures, and against its Foundation twin on
/// generated ones read through read(2) boundaries that fall everywhere.
@Suite("HARReader")
struct HARReaderTests {
    static let apiKey = "AIzaSyD-SECRET-KEY-0123456789abcdefghij"

    @Test("A capture read record by record reports its progress as it goes, plain or gzip-compressed", arguments: [false, true])
    func progress(compressed: Bool) throws {
        if compressed, ZLib.platform == nil { return }
        let directory = TemporaryDirectory()
        let har = runCLI(["generate", "--searches", "2000", "--seed", "5", "--format", "har"]).stdout
        let path = compressed ? directory.write("capture.har.gz", bytes: StoredGzipWriter.member(Array(har.utf8))) : directory.write("capture.har", har)
        let size = Int((try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0)
        let seen = ProgressNotes()
        var options = Analyzer.Options()
        options.progress = { seen.note($0) }
        _ = try Analyzer(options: options).analyze(paths: [path])
        let notes = seen.values
        // About every 4,096 calls: several notes, in order, within the file's bytes.
        #expect(notes.count >= 3, "\(notes)")
        #expect(notes == notes.sorted() && notes.allSatisfy { $0 > 0 && $0 <= size }, "\(notes) of \(size)")
    }

    /// The byte counts the progress callback was given, in order.
    final class ProgressNotes: @unchecked Sendable {
        private let lock = NSLock()
        private var notes: [Int] = []
        var values: [Int] { lock.withLock { notes } }
        func note(_ bytes: Int) { lock.withLock { notes.append(bytes) } }
    }

    @Test("The shape of docs/formats.md section 3 reads as one request")
    func formatsExample() throws {
        let har = #"""
        {"log":{"entries":[{"startedDateTime":"2026-10-01T09:00:03.730Z","request":{"method":"POST","url":"https://places.googleapis.com/v1/places:autocomplete",
        "headers":[{"name":"X-Goog-FieldMask","value":"suggestions.placePrediction.placeId"}],"postData":{"mimeType":"application/json",
        "text":"{\"input\":\"pizza\",\"sessionToken\":\"abc\"}"}},"response":{"status":200,"content":{"size":2,"text":"{}"}}}]}}
        """#
        let result = try HARTestSupport.read(har)
        #expect(result.error == nil)
        let expected = HTTPRequest(
            time: try TimestampParser.parse("2026-10-01T09:00:03.730Z").get(), method: "POST",
            target: "https://places.googleapis.com/v1/places:autocomplete",
            headers: [("X-Goog-FieldMask", "suggestions.placePrediction.placeId")],
            body: #"{"input":"pizza","sessionToken":"abc"}"#, status: 200)
        #expect(result.entries == [.request(expected, index: 1)])
    }

    @Test("A POST places:autocomplete keeps its escaped JSON body, Unicode and every header")
    func autocompletePost() throws {
        let har = #"""
        {
          "log": {
            "version": "1.2",
            "creator": {"name": "WebInspector", "version": "537.36"},
            "pages": [{"id": "page_1", "title": "{\"entries\": [", "pageTimings": {}}],
            "entries": [
              {
                "_priority": "High",
                "response": {"status": 200, "headers": [], "content": {"size": 30, "mimeType": "application/json", "text": "{\"suggestions\":[\"]}\"]}"}},
                "request": {
                  "url": "https://places.googleapis.com/v1/places:autocomplete",
                  "headers": [
                    {"name": "Content-Type", "value": "application/json"},
                    {"value": "suggestions.placePrediction.text,suggestions.placePrediction.placeId", "name": "X-Goog-FieldMask"},
                    {"name": "X-Goog-Api-Key", "value": "AIzaSyD-SECRET-KEY-0123456789abcdefghij"},
                    {"name": "X-Odd", "value": "tab\there \"quoted\" back\\slash \u00e9 \ud83d\ude00 \/"}
                  ],
                  "method": "POST",
                  "postData": {"mimeType": "application/json", "text": "{\"input\":\"M\\u00fcn\",\"languageCode\":\"d\u00e9\",\"sessionToken\":\"0c5a\\\"x\"}"}
                },
                "startedDateTime": "2026-10-01T11:00:03.123456+02:00"
              },
              {"startedDateTime": "2026-10-01T09:00:04Z", "request": {"method": "GET", "url": "https://example.com/a.js", "headers": []}, "response": {"status": 304}}
            ]
          }
        }
        """#
        let result = try HARTestSupport.read(har, chunkSize: 7)
        #expect(result.error == nil)
        try #require(result.entries.count == 2)
        guard case .request(let request, index: 1) = result.entries[0] else {
            Issue.record("entry 1 is \(result.entries[0])")
            return
        }
        #expect(request.time == Timestamp(microseconds: try TimestampParser.parse("2026-10-01T09:00:03.123456Z").get().microseconds))
        #expect(request.method == "POST")
        #expect(request.target == "https://places.googleapis.com/v1/places:autocomplete")
        #expect(request.headers.map(\.name) == ["Content-Type", "X-Goog-FieldMask", "X-Goog-Api-Key", "X-Odd"])
        #expect(request.headers[1].value == "suggestions.placePrediction.text,suggestions.placePrediction.placeId")
        #expect(request.headers[2].value == Self.apiKey)
        #expect(request.headers[3].value == "tab\there \"quoted\" back\\slash é 😀 /")
        // The body is still JSON text: its own escapes (\u00fc, \") are for the decoder to read.
        #expect(request.body == #"{"input":"M\u00fcn","languageCode":"dé","sessionToken":"0c5a\"x"}"#)
        #expect(request.status == 200)
        guard case .request(let second, index: 2) = result.entries[1] else {
            Issue.record("entry 2 is \(result.entries[1])")
            return
        }
        #expect(second.body == nil && second.status == 304 && second.headers.isEmpty)
        #expect(try HARReader.entriesWithFoundation(data: Data(har.utf8)) == result.entries)
    }

    @Test("Entries missing required fields are malformed, in order, and their reasons quote no secret")
    func malformedEntries() throws {
        let secretURL = "https://maps.googleapis.com/maps/api/place/autocomplete/json?input=x&key=\(Self.apiKey)"
        let header = #"{"name":"X-Goog-Api-Key","value":"\#(Self.apiKey)"}"#
        let entries = [
            #"{"request":{"method":"GET","url":"\#(secretURL)","headers":[\#(header)]}}"#,
            #"{"startedDateTime":"yesterday","request":{"method":"GET","url":"\#(secretURL)"}}"#,
            #"{"startedDateTime":"2026-10-01T09:00:00Z","response":{"status":200}}"#,
            #"{"startedDateTime":"2026-10-01T09:00:00Z","request":{"url":"\#(secretURL)","headers":[\#(header)]}}"#,
            #"{"startedDateTime":"2026-10-01T09:00:00Z","request":{"method":"GET","headers":[\#(header)]}}"#,
            #"{"startedDateTime":"2026-10-01T09:00:00Z","request":{"method":"GET","url":7}}"#,
            #"null"#,
            #"{"startedDateTime":"2026-10-01T09:00:00Z","request":{"method":"GET","url":"\#(secretURL)",}}"#,
            #"{"startedDateTime":"2026-10-01T09:00:00Z","request":{"method":"GET","url":"\#(secretURL)","headers":[\#(header)]}}"#,
        ]
        let har = #"{"log":{"entries":[\#(entries.joined(separator: ","))]}}"#
        let result = try HARTestSupport.read(har, chunkSize: 5)
        #expect(result.error == nil)
        let reasons = result.entries.compactMap { entry -> String? in
            if case .malformed(let reason, _) = entry { return reason }
            return nil
        }
        #expect(result.entries.map(\.index) == Array(1...9))
        #expect(reasons == [
            HAREntryParser.Reason.noStartedDateTime,
            HAREntryParser.Reason.badStartedDateTime(TimestampError.notATimestamp(ValueShape("yesterday"))),
            HAREntryParser.Reason.noRequest,
            HAREntryParser.Reason.noMethod,
            HAREntryParser.Reason.noURL,
            HAREntryParser.Reason.noURL,
            HAREntryParser.Reason.notAnObject,
            "the entry is not valid JSON (invalid JSON: expected a key at column 190 of the entry).",
        ])
        for reason in reasons {
            #expect(!reason.contains("AIza") && !reason.contains("googleapis") && !reason.contains("key="))
            // Each follows "entry N of log.entries: " in a warning.
            #expect(reason.hasPrefix("the entry") && reason.hasSuffix("."))
        }
        if case .request(let request, index: 9) = result.entries.last {
            #expect(request.headers.first?.value == Self.apiKey)
        } else {
            Issue.record("the last entry is not a request")
        }
    }

    @Test("The streaming reader and its Foundation twin read the same entries from generated captures")
    func agreesWithFoundation() throws {
        var generator = HARGenerator(seed: 0x4841_5220_2026)
        var requests = 0
        var malformed = 0
        var bytes = 0
        for document in 0..<40 {
            let har = generator.document(entries: document == 0 ? 0 : Int(generator.next() % 40) + 1)
            bytes += har.count
            let expected = try HARReader.entriesWithFoundation(data: har)
            for chunkSize in [1, 7, 13, 4_096, 1 << 20] where chunkSize > 1 || har.count < 300_000 {
                let result = try HARTestSupport.read(har, chunkSize: chunkSize)
                #expect(result.error == nil)
                #expect(result.entries == expected, "document \(document), chunk size \(chunkSize)")
                if result.entries != expected {
                    for (got, want) in zip(result.entries, expected) where got != want {
                        Issue.record("got \(got)\nwant \(want)")
                        break
                    }
                    return
                }
            }
            for entry in expected {
                if case .request = entry { requests += 1 } else { malformed += 1 }
            }
        }
        // The generator must exercise both answers and large bodies, or agreement proves little.
        #expect(requests > 400)
        #expect(malformed > 40)
        #expect(bytes > 5_000_000)
    }

    @Test("A cut-off capture delivers its complete entries, then throws truncated")
    func truncated() throws {
        var generator = HARGenerator(seed: 7)
        let har = generator.document(entries: 12, compactOnly: true)
        let all = try HARReader.entriesWithFoundation(data: har)
        let entriesKey = har.firstRange(of: Data(#""entries""#.utf8))!.lowerBound
        var cutPoints = Array(stride(from: entriesKey + 11, to: har.count, by: max(1, har.count / 97)))
        cutPoints.append(har.count - 1)
        for cut in cutPoints {
            let result = try HARTestSupport.read(har.prefix(cut), chunkSize: 64)
            // `_other`, which holds a decoy `"entries"`, may come before `log`: cut before `log`, it is no HAR yet.
            if result.error as? HARReader.Error == .notHAR(reason: "it ends before any log object"), result.entries.isEmpty {
                continue
            }
            guard case .truncated(let entriesRead) = result.error as? HARReader.Error else {
                Issue.record("cut at \(cut) of \(har.count): \(String(describing: result.error))")
                continue
            }
            #expect(entriesRead == result.entries.count)
            #expect(result.entries == Array(all.prefix(result.entries.count)), "cut at \(cut)")
        }
        let whole = try HARTestSupport.read(har.prefix(har.count - 1))
        #expect(whole.entries.count == 12)
        #expect(HARReader.Error.truncated(entriesRead: 12).description.contains("cut off after 12 complete entries"))
    }

    @Test("Inputs that are not HAR captures are rejected with the reason", arguments: [
        ("", "it is empty"),
        ("  \n", "it is empty"),
        ("hello", "it does not start with a JSON object"),
        ("[1,2]", "it does not start with a JSON object"),
        (#"{"timestamp":"2026-10-01T09:00:03.730Z","api":"autocomplete"}"# + "\n" + #"{"timestamp":"2026-10-01T09:00:04Z"}"#, "it has no log object"),
        (#"{"log":[]}"#, "its log member is not an object"),
        (#"{"log":{"version":"1.2","creator":{"name":"x"}}}"#, "its log object has no entries array"),
        (#"{"log":{"entries":{}}}"#, "its log.entries member is not an array"),
        (#"{"pages":["#, "it ends before any log object"),
    ])
    func notHAR(input: String, reason: String) throws {
        let result = try HARTestSupport.read(input)
        #expect(result.error as? HARReader.Error == .notHAR(reason: reason))
        #expect(result.entries.isEmpty)
        #expect(throws: HARReader.Error.self) { try HARReader.entriesWithFoundation(data: Data(input.utf8)) }
        #expect(HARReader.Error.notHAR(reason: reason).description.hasPrefix("the input is not a HAR capture: \(reason). "))
    }

    @Test("A broken structure between entries is invalid JSON, after the entries before it")
    func invalidStructure() throws {
        let result = try HARTestSupport.read(#"{"log":{"entries":[{"startedDateTime":"2026-10-01T09:00:00Z","request":{"method":"GET","url":"u"}} {}]}}"#)
        #expect(result.entries.count == 1)
        guard case .invalidJSON(_, let reason) = result.error as? HARReader.Error else {
            Issue.record("\(String(describing: result.error))")
            return
        }
        #expect(reason == "expected ',' or ']' after an entry")
    }

    @Test("Keys spelled with escapes and a byte-order mark are read")
    func escapedKeysAndByteOrderMark() throws {
        let har = "\u{FEFF}" + #"{"\u006cog":{"entr\u0069es":[{"startedDateTime":"2026-10-01T09:00:00Z","request":{"method":"GET","url":"u"}}]}}"#
        let result = try HARTestSupport.read(har, chunkSize: 1)
        #expect(result.error == nil)
        #expect(result.entries.count == 1)
    }

    @Test("sniff knows HAR captures from JSON Lines and other JSON", arguments: [
        (#"{"log":{"version":"1.2","entries":[]}}"#, true),
        ("\u{FEFF}\n  {\n  \"log\": {\n    \"creator\": {\"name\": \"Charles\"}", true),
        (#"{"log":{"entries":[{"startedDateTime":"#, true),
        (#"{"_x":{"log":{"version":"1"}},"log":{"pages":[]}}"#, true),
        (#"{"comment":"}","log":{"browser":{}}}"#, true),
        (#"{"timestamp":"2026-10-01T09:00:03.730Z","api":"autocomplete","session":"s1"}"# + "\n" + #"{"log":{"entries":[]}}"#, false),
        (#"{"timestamp":"2026-10-01T09:00:03.730Z","note":"\"log\":{\"entries\":[]}"}"#, false),
        (#"{"_x":{"log":{"version":"1"}}}"#, false),
        (#"{"log":{"comment":"x"}}"#, false),
        (#"{"log":"entries"}"#, false),
        (#"[{"log":{"entries":[]}}]"#, false),
        ("timestamp,api,session\n", false),
        ("", false),
    ])
    func sniff(head: String, isHAR: Bool) {
        #expect(HARReader.sniff(Array(head.utf8)) == isHAR)
    }
}

/// Reading HAR text through a real file descriptor.
enum HARTestSupport {
    struct Result {
        var entries: [HARReader.Entry] = []
        var error: (any Error)?
    }

    static func read(_ text: String, chunkSize: Int = 1 << 20) throws -> Result {
        try read(Data(text.utf8), chunkSize: chunkSize)
    }

    static func read(_ data: Data, chunkSize: Int = 1 << 20) throws -> Result {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("har-\(UUID().uuidString).har")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let descriptor = open(url.path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var result = Result()
        do {
            try HARReader(chunkSize: chunkSize).forEachEntry(fileDescriptor: descriptor) { result.entries.append($0) }
        } catch {
            result.error = error
        }
        return result
    }
}

/// Random HAR documents: keys in varied order, escapes of every kind, Unicode, large response
/// bodies, pretty-printed or compact, some entries malformed.
struct HARGenerator {
    private var random: SeededRandom

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    /// The project's seeded generator: reproducible across platforms, unlike the system one.
    mutating func next() -> UInt64 {
        random.next()
    }

    mutating func chance(_ percent: UInt64) -> Bool { next() % 100 < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }

    static let alphabet: [Unicode.Scalar] = Array("abcXYZ019 -_:/.,{}[]\"\\\n\t\r\u{1}\u{1F}é中ü€😀\u{10FFFF}".unicodeScalars)

    /// A JSON string literal whose value is random text, escaped in every way JSON allows.
    mutating func stringLiteral(length: Int) -> String {
        var out = "\""
        for _ in 0..<length {
            let scalar = chance(70) ? pick(Array("abcdefghij klmnop".unicodeScalars)) : pick(Self.alphabet)
            out += escaped(scalar)
        }
        return out + "\""
    }

    mutating func escaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\"": return "\\\""
        case "\\": return "\\\\"
        case "\n": return chance(50) ? "\\n" : "\\u000a"
        case "\t": return "\\t"
        case "\r": return "\\r"
        case "/": return chance(50) ? "/" : "\\/"
        default:
            if scalar.value < 0x20 || chance(10) {
                return Self.unicodeEscape(scalar, uppercase: chance(50))
            }
            return String(scalar)
        }
    }

    static func unicodeEscape(_ scalar: Unicode.Scalar, uppercase: Bool) -> String {
        func hex(_ unit: UInt32) -> String {
            let digits = String(unit, radix: 16, uppercase: uppercase)
            return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
        }
        if scalar.value >= 0x10000 {
            let value = scalar.value - 0x10000
            return hex(0xD800 + (value >> 10)) + hex(0xDC00 + (value & 0x3FF))
        }
        return hex(scalar.value)
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.unicodeScalars.map { scalar -> String in
            switch scalar {
            case "\"": return "\\\""
            case "\\": return "\\\\"
            default: return scalar.value < 0x20 ? unicodeEscape(scalar, uppercase: false) : String(scalar)
            }
        }.joined() + "\""
    }

    mutating func object(_ members: [(String, String)], pretty: Bool) -> String {
        var members = members
        for index in members.indices.reversed() {
            members.swapAt(index, Int(next() % UInt64(index + 1)))
        }
        let separator = pretty ? ",\n  " : pick([",", ", "])
        let colon = pretty ? ": " : pick([":", " : "])
        return "{" + (pretty ? "\n  " : "") + members.map { "\"\($0.0)\"" + colon + $0.1 }.joined(separator: separator) + (pretty ? "\n}" : "}")
    }

    mutating func timestamp() -> String {
        let day = 1 + next() % 28
        let hour = next() % 24
        let fraction = pick(["", ".7", ".730", ".123456", ".000000001"])
        let offset = pick(["Z", "z", "+02:00", "-05:30", "+00:00"])
        return String(format: "2026-10-%02dT%02d:%02d:%02d", day, hour, next() % 60, next() % 60) + fraction + offset
    }

    mutating func entry(pretty: Bool) -> String {
        if chance(2) { return pick(["null", "42", "\"entry\"", "[]", "true"]) }
        let places = chance(70)
        let url = places
            ? pick(["https://places.googleapis.com/v1/places:autocomplete", "https://maps.googleapis.com/maps/api/place/autocomplete/json?input=M%C3%BCn&key=AIzaSyD-SECRET"])
            : "https://example.com/" + String(next() % 1000)
        var headers = [
            object([("name", "\"X-Goog-Api-Key\""), ("value", "\"AIzaSyD-SECRET-\(next() % 1000)\"")], pretty: false),
            object([("name", "\"X-Goog-FieldMask\""), ("value", "\"suggestions.placePrediction.placeId,suggestions.placePrediction.text\"")], pretty: false),
        ]
        for _ in 0..<Int(next() % 4) {
            headers.append(object([("name", stringLiteral(length: 8)), ("value", stringLiteral(length: 20))], pretty: false))
        }
        if chance(10) { headers.append(#"{"name":"X-Only-Name"}"#) }
        if chance(5) { headers.append("7") }
        let body = "{\"input\":\"M\\u00fcn\(next() % 100)\",\"sessionToken\":\"\(next() % 100_000)\",\"note\":\(stringLiteral(length: 10))}"
        var request: [(String, String)] = [
            ("method", places && chance(60) ? "\"POST\"" : "\"GET\""),
            ("url", Self.quoted(url)),
            ("httpVersion", "\"HTTP/2\""),
            ("headers", "[" + headers.joined(separator: ",") + "]"),
            ("queryString", "[]"),
            ("cookies", #"[{"name":"a","value":"b"}]"#),
            ("headersSize", "-1"),
            ("bodySize", String(next() % 500)),
        ]
        if chance(50) {
            request.append(("postData", object([("mimeType", "\"application/json\""), ("text", Self.quoted(body)), ("params", "[]")], pretty: false)))
        }
        if chance(3) { request.removeAll { $0.0 == "method" } }
        if chance(3) { request.removeAll { $0.0 == "url" } }
        if chance(3) { request.removeAll { $0.0 == "headers" } }
        let contentLength = chance(5) ? Int(next() % 200_000) : Int(next() % 300)
        let content = object([
            ("size", String(contentLength)), ("mimeType", "\"application/json\""),
            ("text", stringLiteral(length: contentLength)),
        ], pretty: pretty)
        var response: [(String, String)] = [
            ("status", pick(["200", "200", "400", "0", "403", "2.5e2", "-1"])), ("statusText", "\"OK\""),
            ("headers", #"[{"name":"content-type","value":"application/json"}]"#), ("content", content),
            ("redirectURL", "\"\""),
        ]
        if chance(5) { response.removeAll { $0.0 == "status" } }
        var entry: [(String, String)] = [
            ("startedDateTime", "\"" + timestamp() + "\""), ("time", "12.5"),
            ("request", object(request, pretty: pretty)), ("cache", "{}"),
            ("timings", #"{"send":0,"wait":10.5,"receive":-1}"#), ("pageref", "\"page_1\""),
        ]
        if chance(80) { entry.append(("response", object(response, pretty: pretty))) }
        if chance(3) { entry.removeAll { $0.0 == "startedDateTime" } }
        if chance(2) { entry[0].1 = "\"2026-13-01T00:00:00Z\"" }
        if chance(2) { entry.removeAll { $0.0 == "request" } }
        return object(entry, pretty: pretty)
    }

    /// A whole capture with `entries` entries.
    mutating func document(entries count: Int, compactOnly: Bool = false) -> Data {
        let pretty = !compactOnly && chance(40)
        let entries = (0..<count).map { _ in entry(pretty: pretty) }
        let separator = pretty ? ",\n" : pick([",", " , ", ",\n"])
        var pages: [String] = []
        for _ in 0..<Int(next() % 3) {
            pages.append(object([("id", "\"page_1\""), ("title", stringLiteral(length: Int(next() % 2_000))),
                                 ("pageTimings", #"{"onLoad":[1,{"entries":[]}]}"#)], pretty: pretty))
        }
        let log = object([
            ("version", "\"1.2\""), ("creator", #"{"name":"WebInspector","version":"537.36"}"#),
            ("pages", "[" + pages.joined(separator: ",") + "]"),
            ("entries", "[" + (pretty ? "\n" : "") + entries.joined(separator: separator) + (pretty ? "\n" : "") + "]"),
            ("comment", stringLiteral(length: 30)),
        ], pretty: pretty)
        let top = object([("log", log), ("_other", #"{"log":{"entries":[null]}}"#)], pretty: pretty)
        return Data(top.utf8)
    }
}
