import Foundation
import Testing
@testable import PlacesCostKit
@testable import PlacesCostReference

/// The streaming session walk (`SessionStream` in `CallPipeline`) against its slow twin, the
/// `SessionBuilder` that holds every call and sorts each token's: same searches, shapes, counts
/// and costs, for any thread count, window and input order.
struct Timed: Reorderable {
    var time: Int64
    var sequence: Int64
}

@Suite("Streamed sessions agree with the builder")
struct SessionStreamTests {
    /// A random log with token reuse, expiry, orphans, token-less users, other APIs and
    /// projects, in time order with each call moved up to `disorder` seconds.
    static func randomLog(seed: UInt64, calls: Int, disorder: Double) -> [TestRecord] {
        var random = SeededRandom(seed: seed)
        let tokens = (0..<max(4, calls / 6)).map { _ in random.chance(0.7) ? UUID(uuid: uuid(&random)).uuidString.lowercased() : "tok-\(random.below(1000))" }
        let users: [String?] = [nil, "u1", "u2", "u3", "u4", "42"]
        let masks: [[String]?] = [nil, ["formattedAddress"], ["place_id", "geometry"], ["displayName", "formatted_phone_number"], ["rating"]]
        let apis = ["autocomplete", "autocomplete", "autocomplete", "autocomplete", "place_details", "place_details", "geocoding", "address_validation", "text_search", "AutocompletePlaces", "mystery_api"]
        var at = 0.0
        var records: [(order: Double, record: TestRecord)] = []
        var tokenCursor = 0
        for _ in 0..<calls {
            at += random.chance(0.03) ? random.unit() * 900 : random.unit() * 8
            let token: String? = random.chance(0.15) ? nil : tokens[min(tokens.count - 1, tokenCursor + random.below(3))]
            if random.chance(0.2) { tokenCursor = min(tokens.count - 1, tokenCursor + 1) }
            let api = apis[random.below(apis.count)]
            var record = TestRecord(at: (at * 1000).rounded() / 1000, api: api, token: token)
            if api == "autocomplete" || api == "AutocompletePlaces" {
                record.input = random.chance(0.1) ? nil : String(repeating: "é", count: random.below(12))
            } else if api == "place_details" {
                record.fields = masks[random.below(masks.count)]
            }
            record.user = users[random.below(users.count)]
            record.project = random.chance(0.2) ? "p\(random.below(2))" : nil
            record.version = random.chance(0.3) ? (random.chance(0.5) ? "new" : "legacy") : nil
            records.append((record.at + random.unit() * disorder, record))
        }
        return records.sorted { $0.order < $1.order }.map(\.record)
    }

    static func uuid(_ random: inout SeededRandom) -> uuid_t {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: random.next()) }
        return (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])
    }

    /// The slow twin: every call read, each token's sorted and walked, then tallied.
    static func builderSummary(_ file: String, timeout: Double) throws -> (SearchSummary, [Int]) {
        let calls = try LogReader().read([file]).calls
        let options = SessionOptions(timeoutSeconds: timeout)
        let analysis = SessionBuilder(options: options).build(calls)
        let calendar = BillingCalendar(ruleStartDays: try PricingPlan.load(nil).ruleStartDays)
        let summary = SearchSummary(analysis, calendar: calendar, clip: 6, keepSearches: true)
        let alternatives = Analyzer.comparedTimeouts.filter { $0 != timeout }.map { seconds -> Int in
            SessionBuilder(options: SessionOptions(timeoutSeconds: seconds)).build(calls).anomalies.expired
        }
        return (summary, alternatives)
    }

    static func streamed(_ file: String, threads: Int, window: Double, timeout: Double, keep: Bool = true, compactAfter: Int? = nil) throws -> Analysis {
        var options = Analyzer.Options()
        if let compactAfter { options.compactAfter = compactAfter }
        options.threads = threads
        options.reorderWindowSeconds = window
        options.keepSearches = keep
        options.sessions = SessionOptions(timeoutSeconds: timeout)
        return try Analyzer(options: options).analyze(paths: [file]).0
    }

    @Test("Random logs, in order and minutes out of order, on 1 to 3 threads, with small and large windows", arguments: 1...12)
    func agreesWithBuilder(seed: Int) throws {
        let directory = TemporaryDirectory()
        let disorder = [0.0, 5, 120, 3_000][seed % 4]
        let timeout = [180.0, 60, 30][seed % 3]
        let log = SessionStreamTests.randomLog(seed: UInt64(seed), calls: 400 + seed * 50, disorder: disorder)
        let file = directory.write("log.jsonl", log.map(\.jsonLine).joined(separator: "\n") + "\n")
        let (expected, expectedExpired) = try SessionStreamTests.builderSummary(file, timeout: timeout)
        var reference: Analysis?
        // Spent and waiting tokens move to the compact set every few new tokens in some runs.
        for (threads, window, compactAfter) in [(1, 600.0, nil), (2, 600, 3), (3, 1, 1), (2, 0.5, 16), (1, 600, 40)] {
            let analysis = try SessionStreamTests.streamed(file, threads: threads, window: window, timeout: timeout, compactAfter: compactAfter)
            let streamed = analysis.sessions
            #expect(streamed.anomalies == expected.anomalies, "threads \(threads), window \(window), compaction \(compactAfter ?? 0)")
            #expect(streamed.searches == expected.searches, "threads \(threads), window \(window), compaction \(compactAfter ?? 0)")
            #expect(streamed.baseCalls == expected.baseCalls, "threads \(threads), window \(window), compaction \(compactAfter ?? 0)")
            #expect(streamed.keptSearches == expected.keptSearches, "threads \(threads), window \(window), compaction \(compactAfter ?? 0)")
            #expect(streamed.alternatives.map(\.expired) == expectedExpired, "threads \(threads), window \(window), compaction \(compactAfter ?? 0)")
            if let reference {
                #expect(ReportBundle().render(analysis, as: .json) == ReportBundle().render(reference, as: .json))
                #expect(ReportBundle().render(analysis, as: .md) == ReportBundle().render(reference, as: .md))
            }
            reference = analysis
        }
        // Without keeping searches the shapes (and so every report figure) are the same.
        for compactAfter in [nil, 2, 25] {
            let lean = try SessionStreamTests.streamed(file, threads: 2, window: 600, timeout: timeout, keep: false, compactAfter: compactAfter)
            #expect(ReportBundle().render(lean, as: .json) == ReportBundle().render(reference!, as: .json))
        }
    }

    @Test("Lengths that outgrow a walk's compact profile (a class past 255 calls, delays past 8) count as the builder counts them", arguments: [false, true])
    func lengthsAside(keep: Bool) throws {
        let directory = TemporaryDirectory()
        var log: [TestRecord] = []
        // A session of 300 one-character calls: its first class passes a byte's count.
        for call in 0..<300 { log.append(TestRecord(at: Double(call) * 0.05, api: "autocomplete", token: "tok-long", input: "a")) }
        log.append(TestRecord(at: 16, api: "place_details", token: "tok-long", fields: ["formattedAddress"]))
        // Sessions, a spent-token run and a user's searches with lengths 0...12, past 8 classes.
        for search in 0..<6 {
            let start = 20 + Double(search) * 40
            let token: String? = search == 5 ? nil : "tok-\(min(search, 3))"
            for length in 0...12 {
                log.append(TestRecord(at: start + Double(length), api: "autocomplete", token: token, input: String(repeating: "b", count: (length * 7) % 13), user: "u1"))
            }
            if search % 2 == 0 { log.append(TestRecord(at: start + 14, api: "place_details", token: token, fields: ["rating"], user: "u1")) }
        }
        let file = directory.write("log.jsonl", log.map(\.jsonLine).joined(separator: "\n") + "\n")

        let delays = Array(1...10)
        let calls = try LogReader().read([file]).calls
        let calendar = BillingCalendar(ruleStartDays: try PricingPlan.load(nil).ruleStartDays)
        let expected = SearchSummary(SessionBuilder(options: SessionOptions()).build(calls), calendar: calendar, clip: 10, keepSearches: keep)
        var options = Analyzer.Options()
        options.costs.delays = delays
        options.keepSearches = keep
        for threads in [1, 2] {
            options.threads = threads
            let streamed = try Analyzer(options: options).analyze(paths: [file]).0.sessions
            #expect(streamed.searches == expected.searches, "threads \(threads)")
            #expect(streamed.anomalies == expected.anomalies, "threads \(threads)")
            #expect(streamed.keptSearches == expected.keptSearches, "threads \(threads)")
        }
        #expect(expected.searches.contains { $0.search.requests == 300 })
    }

    @Test("Searches on the compared timeouts match the builder's")
    func alternativeSearchCounts() throws {
        let directory = TemporaryDirectory()
        let log = SessionStreamTests.randomLog(seed: 99, calls: 800, disorder: 30)
        let file = directory.write("log.jsonl", log.map(\.jsonLine).joined(separator: "\n") + "\n")
        let calls = try LogReader().read([file]).calls
        let analysis = try SessionStreamTests.streamed(file, threads: 2, window: 60, timeout: 180)
        for alternative in analysis.timeoutSensitivity {
            let built = SessionBuilder(options: SessionOptions(timeoutSeconds: alternative.timeoutSeconds)).build(calls)
            #expect(alternative.searches == built.searches.count && alternative.expired == built.anomalies.expired)
        }
    }

    @Test("The reorder buffer releases in (time, position) order and reports calls later than its window")
    func reorderBuffer() {
        var buffer = ReorderBuffer<Timed>(window: 2_000_000)
        var released: [Timed] = []
        let times: [Int64] = [5, 3, 4, 9, 7, 6, 12, 11, 20, 18]
        for (position, seconds) in times.enumerated() {
            buffer.insert(Timed(time: seconds * 1_000_000, sequence: Int64(position))) { released.append($0) }
        }
        buffer.flush { released.append($0) }
        #expect(released.map(\.time) == times.sorted().map { $0 * 1_000_000 })
        #expect(!buffer.isLate && buffer.disorder == 3_000_000)
        var late = ReorderBuffer<Timed>(window: 1_000_000)
        for (position, seconds) in [Int64(10), 20, 30, 5].enumerated() {
            late.insert(Timed(time: seconds * 1_000_000, sequence: Int64(position))) { _ in }
        }
        #expect(late.isLate && late.disorder == 25_000_000)
    }

    @Test("A call at most the window older than the newest is never late, wherever it falls in a bucket; one three buckets more than that is")
    func reorderWindowContract() {
        let bucket: Int64 = 1 << ReorderBuffer<Timed>.bucketShift
        for window: Int64 in [0, 500_000, 1_000_000, 10_000_000, 600_000_000] {
            for step in 0..<21 {
                let newest = 1_790_000_000_000_000 + Int64(step) * (bucket / 7)
                for lateness in [0, window / 2, window] {
                    var buffer = ReorderBuffer<Timed>(window: window)
                    var released: [Int64] = []
                    buffer.insert(Timed(time: newest - window, sequence: 0)) { released.append($0.time) }
                    buffer.insert(Timed(time: newest, sequence: 1)) { released.append($0.time) }
                    buffer.insert(Timed(time: newest - lateness, sequence: 2)) { released.append($0.time) }
                    buffer.flush { released.append($0.time) }
                    #expect(!buffer.isLate, "window \(window), lateness \(lateness)")
                    #expect(released == [newest - window, newest - lateness, newest].sorted(), "window \(window), lateness \(lateness)")
                }
                var late = ReorderBuffer<Timed>(window: window)
                late.insert(Timed(time: newest, sequence: 0)) { _ in }
                late.insert(Timed(time: newest - window - 3 * bucket - 1, sequence: 1)) { _ in }
                #expect(late.isLate, "window \(window)")
            }
        }
    }

    @Test("Token keys: UUIDs pack eight digits a word exactly as digit by digit, and refuse what is not a lowercase digit")
    func tokenPacking() {
        var random = SeededRandom(seed: 6)
        let alphabet = Array("0123456789abcdef".utf8)
        // Near-misses around both ranges, upper case, dashes, high bytes.
        let odd: [UInt8] = [0x2F, 0x3A, 0x40, 0x41, 0x46, 0x47, 0x60, 0x67, 0x2D, 0x00, 0x7F, 0x80, 0xB0, 0xE6, 0xFF]
        for round in 0..<4000 {
            let dashed = round % 2 == 0
            var text = (0..<(dashed ? 36 : 32)).map { _ in alphabet[random.below(alphabet.count)] }
            if dashed { for index in [8, 13, 18, 23] { text[index] = 0x2D } }
            if round % 3 != 0 {
                for _ in 0..<(1 + random.below(2)) { text[random.below(text.count)] = odd[random.below(odd.count)] }
            }
            var fast = [UInt8](repeating: 0, count: 16)
            var slow = [UInt8](repeating: 0, count: 16)
            let (packed, expected) = text.withUnsafeBufferPointer { source in
                (dashed ? TokenKey.packDashed(UnsafeRawPointer(source.baseAddress!), into: &fast) : TokenKey.packPlain(UnsafeRawPointer(source.baseAddress!), into: &fast),
                 TokenKey.packReference(source.baseAddress!, dashed: dashed, into: &slow))
            }
            // A dashed text's dashes are checked before packing: the twins see only the digits.
            #expect(packed == expected, "\(String(decoding: text, as: UTF8.self))")
            if packed { #expect(fast == slow, "\(String(decoding: text, as: UTF8.self))") }
        }
    }

    @Test("The byte decoder of stored keys gives its slow twin's text: dashed and plain UUIDs of every digit, other tokens, projects of every width")
    func tokenKeyBytesDecode() {
        var random = SystemRandomNumberGenerator()
        var tokens = ["", "tok-1", "7B94D68C-FF83-4F09-8E63-860A076469AA", String(repeating: "x", count: 100)]
        // Every digit at every place, dashed and plain, plus random ones.
        for digit in "0123456789abcdef" {
            let plain = String(repeating: digit, count: 32)
            tokens += [plain, UUID.dashed(plain)]
        }
        for _ in 0..<500 {
            let plain = String((0..<32).map { _ in "0123456789abcdef".randomElement(using: &random)! })
            tokens += [plain, UUID.dashed(plain)]
        }
        var text: [UInt8] = []
        for (index, token) in tokens.enumerated() {
            var bytes = token
            let project: UInt32 = [0, 127, 128, 300, 1 << 20, .max][index % 6]
            let key = bytes.withUTF8 { TokenKey.encoded(project: project, UnsafeRawBufferPointer($0)) }
            let length = key.withUnsafeBytes { TokenKey.decode($0, into: &text) }
            #expect(String(decoding: text[..<length], as: UTF8.self) == TokenKey.decode(key[...]))
            #expect(TokenKey.decode(key[...]) == token)
        }
    }

    @Test("Token keys: UUIDs pack to 18 bytes and unpack to the same text; other tokens are kept as they are")
    func tokenKeys() {
        for token in ["7b94d68c-ff83-4f09-8e63-860a076469aa", "6513270e269e0d37f2a74de452e6b438", "7B94D68C-FF83-4F09-8E63-860A076469AA", "tok-1", "", "7b94d68c-ff83-4f09-8e63-860a076469ag"] {
            var text = token
            let key = text.withUTF8 { TokenKey.encoded(project: 300, UnsafeRawBufferPointer($0)) }
            #expect(TokenKey.decode(key[...]) == token)
            if token.count >= 32, token == token.lowercased(), token.allSatisfy(\.isHexDigit) || token.filter({ $0 != "-" }).allSatisfy(\.isHexDigit) {
                #expect(key.count == 19)  // two bytes of project id, a tag, 16 bytes
            }
        }
    }
}

/// Cutting JSON Lines into blocks must not move a diagnostic's line or lose a record.
@Suite("JSON Lines cut into blocks")
struct BlockIngestTests {
    /// A log with malformed records, blank and CRLF lines, escapes and a line over the limit.
    static func log() -> String {
        var lines: [String] = []
        for index in 0..<400 {
            switch index % 37 {
            case 5: lines.append("{\"timestamp\":\"2026-10-01T09:00:00Z\",\"api\":")  // cut off
            case 11: lines.append("")
            case 17: lines.append("not json at all")
            case 23: lines.append("{\"timestamp\":\"yesterday\",\"api\":\"autocomplete\"}")
            case 29: lines.append("{\"timestamp\":\(1_790_845_200_000 + index * 1000),\"api\":\"autocomplete\",\"session_token\":\"t\\u0041\(index / 9)\",\"input\":\"caf\\u00e9\"}\r")
            case 31: lines.append("{\"timestamp\":\(1_790_845_200_000 + index * 1000),\"api\":\"autocomplete\",\"input\":\"" + String(repeating: "x", count: 300) + "\"}")
            default:
                lines.append(ac(Double(index), "tok-\(index / 9)", String(repeating: "a", count: index % 9), user: "u\(index % 5)").jsonLine)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("Block sizes from 40 bytes to 4 MB give the line reader's diagnostics and the same report", arguments: [40, 333, 4096, 4 << 20])
    func blocks(blockSize: Int) throws {
        let directory = TemporaryDirectory()
        let file = directory.write("log.jsonl", BlockIngestTests.log())
        var reference = LogReader(options: LogReader.Options())
        reference.options.strict = false
        let read = try reference.read([file])
        var options = Analyzer.Options()
        options.blockSize = blockSize
        options.maxLineLength = 200
        let (analysis, diagnostics) = try Analyzer(options: options).analyze(paths: [file])
        // The line reader's limit is 1 MiB; the 300-character lines are over this test's 200.
        let expectedOverlong = Array(stride(from: 32, through: 400, by: 37))
        let overlong = diagnostics.diagnostics.filter { $0.reason == JSONLinesBlockParser.overlongReason }.map(\.location.line)
        #expect(overlong == Array(expectedOverlong.prefix(overlong.count)))
        let others = diagnostics.diagnostics.filter { $0.reason != JSONLinesBlockParser.overlongReason }
        #expect(others == Array(read.diagnostics.prefix(others.count)))
        #expect(diagnostics.diagnosticCount == read.diagnosticCount + expectedOverlong.count)
        #expect(analysis.input.records == read.calls.count - expectedOverlong.count)
        var whole = Analyzer.Options()
        whole.maxLineLength = 200
        let baseline = try Analyzer(options: whole).analyze(paths: [file]).0
        #expect(ReportBundle().render(analysis, as: .json) == ReportBundle().render(baseline, as: .json))
    }
}

extension BlockIngestTests {
    @Test("Calls are counted by platform and generation however large the platforms' label ids")
    func platformsPastTheInlineCounts() throws {
        // Forty projects are named before any platform, so the platforms' label ids (shared
        // with projects) put their counts past the builder's inline slots.
        var lines: [String] = []
        let platforms = ["ios", "android", "web", "IPAD", "server", "js"]
        for index in 0..<600 {
            let named = index < 40 ? ",\"project\":\"p\(index)\"" : ",\"platform\":\"\(platforms[(index / 3) % platforms.count])\""
            let version = index % 3 == 0 ? ",\"api_version\":\"new\"" : (index % 3 == 1 ? ",\"api_version\":\"legacy\"" : "")
            lines.append("{\"timestamp\":\(1_790_845_200_000 + index * 700),\"api\":\"autocomplete\",\"session_token\":\"t\(index / 5)\"\(named)\(version)}")
        }
        let directory = TemporaryDirectory()
        let file = directory.write("log.jsonl", lines.joined(separator: "\n") + "\n")
        var expected: [String: Int] = [:]
        for call in try LogReader().read([file]).calls {
            expected["\(ClientPlatform(logValue: call.platform)) \(call.generation ?? .legacy)", default: 0] += 1
        }
        for threads in [1, 2] {
            var options = Analyzer.Options()
            options.threads = threads
            let platforms = try Analyzer(options: options).analyze(paths: [file]).0.input.platforms
            let counted = Dictionary(uniqueKeysWithValues: platforms.map { ("\($0.platform) \($0.generation)", $0.calls) })
            #expect(counted == expected, "threads \(threads)")
        }
        #expect(expected.count >= 7)
    }
}

@Suite("Access logs cut into blocks")
struct AccessLogBlockTests {
    /// An access log with Places calls, other requests, malformed and blank lines, CRLF line ends
    /// and lines over the limit.
    static func log() -> String {
        var lines: [String] = []
        for index in 0..<300 {
            let second = String(format: "%02d", index % 60)
            let minute = String(format: "%02d", index / 60)
            let stamp = "[01/Oct/2026:09:\(minute):\(second) +0000]"
            let token = "6513270e269e0d37f2a74de452e6b\(String(format: "%03d", index / 7))"
            switch index % 29 {
            case 3: lines.append("")
            case 7: lines.append("not an access log line")
            case 11: lines.append("203.0.113.7 - - \(stamp) \"GET /index.html HTTP/1.1\" 200 512 \"-\" \"curl/8\"")
            case 13: lines.append("203.0.113.7 - - \(stamp) \"GET /maps/api/place/autocomplete/json?input=" + String(repeating: "x", count: 300) + " HTTP/1.1\" 200 1 \"-\" \"-\"")
            case 17: lines.append("203.0.113.7 - - [31/Feb/2026:09:00:00 +0000] \"GET /maps/api/place/autocomplete/json?input=a HTTP/1.1\" 200 1 \"-\" \"-\"")
            case 19:
                lines.append("203.0.113.7 - - \(stamp) \"GET /maps/api/place/details/json?place_id=ChIJ&fields=formatted_address&sessiontoken=\(token)&key=AIzaSyEXAMPLE HTTP/1.1\" 200 900 \"-\" \"MyApp/3.2\"\r")
            default:
                let input = String(repeating: "a", count: 1 + index % 6)
                lines.append("203.0.113.7 - - \(stamp) \"GET /maps/api/place/autocomplete/json?input=\(input)&sessiontoken=\(token)&key=AIzaSyEXAMPLE HTTP/1.1\" 200 1432 \"-\" \"MyApp/3.2\"")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("Block sizes from 60 bytes to 4 MB give the line reader's diagnostics and counts, and one report", arguments: [60, 777, 4 << 20])
    func blocks(blockSize: Int) throws {
        let directory = TemporaryDirectory()
        let file = directory.write("access.log", AccessLogBlockTests.log())
        var reference = LogReader(options: LogReader.Options(format: .accessLog))
        reference.options.strict = false
        let read = try reference.read([file])
        #expect(read.calls.count > 200 && read.skippedRequests > 0 && read.rejected > 0)
        var options = Analyzer.Options()
        options.reader = LogReader.Options(format: .accessLog)
        options.blockSize = blockSize
        options.maxLineLength = 250
        let (analysis, diagnostics) = try Analyzer(options: options).analyze(paths: [file])
        // The line reader's limit is 1 MiB; the long requests are over this test's 250 bytes.
        let expectedOverlong = Array(stride(from: 14, through: 300, by: 29))
        let overlong = diagnostics.diagnostics.filter { $0.reason == LineReader.overlongReason }.map(\.location.line)
        // The first `LogReader.maxStoredDiagnostics` warnings are kept, in line order.
        #expect(overlong == Array(expectedOverlong.prefix(overlong.count)) && !overlong.isEmpty)
        let others = diagnostics.diagnostics.filter { $0.reason != LineReader.overlongReason }
        #expect(others == Array(read.diagnostics.prefix(others.count)) && !others.isEmpty)
        #expect(diagnostics.diagnosticCount == read.diagnosticCount + expectedOverlong.count)
        #expect(analysis.input.records == read.calls.count - expectedOverlong.count)
        #expect(analysis.input.skippedRequests == read.skippedRequests)
        var whole = Analyzer.Options()
        whole.reader = LogReader.Options(format: .accessLog)
        whole.maxLineLength = 250
        let baseline = try Analyzer(options: whole).analyze(paths: [file]).0
        #expect(ReportBundle().render(analysis, as: .json) == ReportBundle().render(baseline, as: .json))
    }
}

private extension UUID {
    /// 32 hex digits with a UUID's dashes (8-4-4-4-12).
    static func dashed(_ plain: String) -> String {
        let digits = Array(plain)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }.joined(separator: "-")
    }
}
