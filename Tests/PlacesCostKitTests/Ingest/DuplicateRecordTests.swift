import Foundation
import Testing
@testable import PlacesCostKit
@testable import PlacesCostReference

/// Exact duplicates (`--dedupe`): a record with the time and content of an earlier one is counted,
/// and with `--dedupe` dropped so that every figure equals the log without the repeats.
@Suite("Duplicate records")
struct DuplicateRecordTests {
    static let corpus = MalformedCorpusTests.folder

    /// The clean log of `format` with `copies` of its lines repeated, some right after the
    /// original, some far later (a retried export page), by a seeded choice.
    static func withRepeats(_ format: String, copies: Int, seed: UInt64) throws -> (path: String, directory: TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let text: String
        if format == "access-log-msec" {
            text = try String(contentsOfFile: try cleanLog(format, in: directory), encoding: .utf8)
        } else {
            let file = ["jsonl": "clean.jsonl", "csv": "clean.csv", "access-log": "clean.log"][format]!
            text = try String(contentsOfFile: corpus + "/\(format)/" + file, encoding: .utf8)
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        var random = SeededRandom(seed: seed)
        let first = format == "csv" ? 1 : 0  // not the header
        for _ in 0..<copies {
            let source = Int.random(in: first...(lines.count - 1), using: &random)
            let target = Bool.random(using: &random) ? source + 1 : Int.random(in: (source + 1)...lines.count, using: &random)
            lines.insert(lines[source], at: target)
        }
        return (directory.write("repeated.\(format)", lines.joined(separator: "\n") + "\n"), directory)
    }

    static func report(_ path: String, _ extra: [String] = []) throws -> [String: Any] {
        let run = runCLI(["analyze", path, "--report", "json", "--pricing", "legacy-list", "--quiet"] + extra)
        #expect(run.code == .success, "\(run.stderr)")
        return try MalformedCorpusTests.object(run.stdout)
    }

    static func withoutDuplicateCounts(_ report: [String: Any]) -> String {
        var report = report
        if var input = report["input"] as? [String: Any] {
            input["duplicates"] = nil
            input["duplicates_dropped"] = nil
            report["input"] = input
        }
        return MalformedCorpusTests.withoutInputFiles(report)
    }

    @Test("Repeats are counted; --dedupe drops them and the report equals the clean log's, on 1 and 2 threads",
          arguments: ["jsonl", "csv", "access-log-msec"], [1 as UInt64, 2, 3])
    func dedupe(_ format: String, seed: UInt64) throws {
        let copies = 9
        let (path, directory) = try Self.withRepeats(format, copies: copies, seed: seed)
        defer { _ = directory }
        let cleanDirectory = TemporaryDirectory()
        let cleanPath = try Self.cleanLog(format, in: cleanDirectory)
        let extra = Self.extraArguments(format)
        let cleanReport = try Self.report(cleanPath, extra)
        let counted = try Self.report(path, extra)
        let countedInput = try #require(counted["input"] as? [String: Any])
        #expect(countedInput["duplicates"] as? Int == copies)
        #expect(countedInput["duplicates_dropped"] as? Int == 0)
        #expect(countedInput["records"] as? Int == ((cleanReport["input"] as? [String: Any])?["records"] as? Int ?? 0) + copies)
        for threads in ["1", "2"] {
            let deduped = try Self.report(path, extra + ["--dedupe", "--threads", threads])
            let input = try #require(deduped["input"] as? [String: Any])
            #expect(input["duplicates"] as? Int == copies)
            #expect(input["duplicates_dropped"] as? Int == copies)
            #expect(Self.withoutDuplicateCounts(deduped) == Self.withoutDuplicateCounts(cleanReport))
        }
        // The slow twin (every call in memory, one set of every record) finds the same repeats.
        var options = LogReader.Options(format: InputFormat(rawValue: format == "access-log-msec" ? "access-log" : format))
        if format == "access-log-msec" { options.logFormat = try AccessLogFormat(Self.msecFormat) }
        #expect(try LogReader(options: options).read([path]).duplicates == copies)
        options.dedupe = true
        let slow = try LogReader(options: options).read([path])
        #expect(slow.duplicatesDropped == copies)
        #expect(slow.calls.count == (cleanReport["input"] as? [String: Any])?["records"] as? Int)
    }

    @Test("In a whole-second access log, identical lines are real calls: never duplicates, never dropped, no hint",
          arguments: [1 as UInt64, 2, 3])
    func wholeSecondAccessLog(seed: UInt64) throws {
        let copies = 9
        let (path, directory) = try Self.withRepeats("access-log", copies: copies, seed: seed)
        defer { _ = directory }
        let cleanReport = try Self.report(Self.corpus + "/access-log/clean.log")
        let cleanRecords = (cleanReport["input"] as? [String: Any])?["records"] as? Int ?? 0
        for extra in [[], ["--dedupe"], ["--dedupe", "--threads", "1"]] {
            let input = try #require(try Self.report(path, extra)["input"] as? [String: Any])
            #expect(input["duplicates"] as? Int == 0)
            #expect(input["duplicates_dropped"] as? Int == 0)
            #expect(input["records"] as? Int == cleanRecords + copies)
        }
        let run = runCLI(["analyze", path, "--report", "json"])
        #expect(!run.stderr.contains("--dedupe"), "\(run.stderr)")
        var options = LogReader.Options(format: .accessLog)
        options.dedupe = true
        let slow = try LogReader(options: options).read([path])
        #expect(slow.duplicates == 0 && slow.calls.count == cleanRecords + copies)
    }

    /// An access-log format with millisecond times, in which repeats are told apart.
    static let msecFormat = #"$remote_addr - $remote_user [$msec] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent""#

    static func extraArguments(_ format: String) -> [String] {
        format == "access-log-msec" ? ["--log-format", msecFormat] : []
    }

    /// The corpus's clean log of `format`; for `access-log-msec`, the combined one rewritten with
    /// `$msec` times (each line a millisecond after the one before in its second, so no two match).
    static func cleanLog(_ format: String, in directory: TemporaryDirectory) throws -> String {
        guard format == "access-log-msec" else {
            let file = ["jsonl": "clean.jsonl", "csv": "clean.csv"][format]!
            return corpus + "/\(format)/" + file
        }
        let text = try String(contentsOfFile: corpus + "/access-log/clean.log", encoding: .utf8)
        var lines: [String] = []
        for (index, line) in text.split(separator: "\n").enumerated() {
            guard case .request(let request) = AccessLogParser(format: .combined).parse(String(line)),
                  let open = line.firstIndex(of: "["), let close = line.firstIndex(of: "]")
            else { continue }
            let microseconds = request.time.microseconds + Int64(index % 997) * 1_000
            let msec = "\(microseconds / 1_000_000).\(String(format: "%03d", (microseconds / 1_000) % 1_000))"
            lines.append(String(line[..<open]) + "[" + msec + String(line[close...]))
        }
        return directory.write("clean.log", lines.joined(separator: "\n") + "\n")
    }

    @Test("HAR entries repeated are duplicates too")
    func harEntries() throws {
        let text = try String(contentsOfFile: Self.corpus + "/har/clean.har", encoding: .utf8)
        var lines = text.split(separator: "\n").map(String.init)
        // Entries are one per line, each but the last followed by a comma.
        lines.insert(lines[3], at: 4)
        lines.insert(lines[7], at: 20)
        let directory = TemporaryDirectory()
        let path = directory.write("repeated.har", lines.joined(separator: "\n") + "\n")
        let cleanReport = try Self.report(Self.corpus + "/har/clean.har")
        let deduped = try Self.report(path, ["--dedupe"])
        #expect((deduped["input"] as? [String: Any])?["duplicates_dropped"] as? Int == 2)
        #expect(Self.withoutDuplicateCounts(deduped) == Self.withoutDuplicateCounts(cleanReport))
    }

    @Test("Same time, other content is not a duplicate; the same content at another time is not either")
    func nearMisses() throws {
        let base = #"{"timestamp":"2026-10-02T03:48:40.000Z","api":"autocomplete","session_token":"t-1","input":"Ga"}"#
        let lines = [
            base,
            #"{"timestamp":"2026-10-02T03:48:40.000Z","api":"autocomplete","session_token":"t-1","input":"Gb"}"#,
            #"{"timestamp":"2026-10-02T03:48:40.001Z","api":"autocomplete","session_token":"t-1","input":"Ga"}"#,
            base,
            #"{"timestamp":"2026-10-02T03:48:41.000Z","api":"geocoding","place_id":"p"}"#,
            #"{"timestamp":"2026-10-02T03:48:41.000Z","api":"geocoding","place_id":"p"}"#,
            #"{"timestamp":"2026-10-02T03:48:41.000Z","api":"geocoding","place_id":"q"}"#,
        ]
        let directory = TemporaryDirectory()
        let path = directory.write("near.jsonl", lines.joined(separator: "\n") + "\n")
        let run = runCLI(["analyze", path, "--report", "json", "--dedupe"])
        let input = try #require(try MalformedCorpusTests.object(run.stdout)["input"] as? [String: Any])
        #expect(input["duplicates_dropped"] as? Int == 2)
        #expect(input["records"] as? Int == 5)
        #expect((input["by_api"] as? [String: Any])?["geocoding"] as? Int == 2)
        #expect(run.stderr.contains("--dedupe dropped 2 records"))
        let counted = runCLI(["analyze", path, "--report", "json"])
        #expect(counted.stderr.contains("2 records repeat an earlier record exactly"))
    }

    @Test("Many calls in one instant (whole-second access logs) are compared through a set")
    func crowdedInstant() throws {
        let lines = (0..<200).map { #"{"timestamp":"2026-10-02T03:48:40Z","api":"geocoding","place_id":"p\#($0 % 150)"}"# }
        let directory = TemporaryDirectory()
        let path = directory.write("crowded.jsonl", lines.joined(separator: "\n") + "\n")
        let input = try #require(try Self.report(path, ["--dedupe"])["input"] as? [String: Any])
        #expect(input["duplicates_dropped"] as? Int == 50)
        #expect(input["records"] as? Int == 150)
    }

    @Test("A CSV row is fingerprinted by its bytes: rows written alike agree; other quoting or another unknown cell does not")
    func csvRowFingerprints() throws {
        let lines = [
            "timestamp,api,input,extra",
            "1790845200000,autocomplete,Kra,x",
            "1790845200000,autocomplete,Kra,x",
            "1790845200000,autocomplete,\"Kra\",x",
            "1790845200000,autocomplete,Kra,y",
            "1790845200000,autocomplete,\"Kr",
            "a\",x",
        ]
        var parser = CSVRecordParser()
        var prints: [UInt64] = []
        for (index, line) in lines.enumerated() {
            var line = line
            try line.withUTF8 { bytes in
                try parser.feed(bytes, number: index + 1) { event in
                    if case .record(_, _, let fingerprint) = event { prints.append(fingerprint) }
                }
            }
        }
        #expect(prints.count == 5)
        #expect(prints[0] == prints[1])
        #expect(Set(prints).count == 4)
        // A row spanning lines: its lines joined by a newline.
        var spanning = "1790845200000,autocomplete,\"Kr\na\",x"
        #expect(prints[4] == spanning.withUTF8 { Fingerprint.of($0) })
    }

    @Test("Fingerprints: the same bytes give the same value; a changed byte, a moved boundary or a longer run another")
    func fingerprints() {
        func of(_ text: String) -> UInt64 {
            var text = text
            return text.withUTF8 { Fingerprint.of($0) }
        }
        let line = String(repeating: "abcdefghij", count: 7)
        #expect(of(line) == of(line))
        var values: Set<UInt64> = []
        for length in 0...line.utf8.count { values.insert(of(String(line.prefix(length)))) }
        #expect(values.count == line.utf8.count + 1)
        var split = Fingerprint()
        split.combine("ab")
        split.combine("c")
        var other = Fingerprint()
        other.combine("a")
        other.combine("bc")
        #expect(split.value != other.value)
        #expect(of(line) != of(line.replacingOccurrences(of: "j", with: "k")))
        // A changed byte at every position of every length reaches the value: each lane, the
        // 16- and 8-byte steps and the overlapping tail word all count.
        let bytes = Array(String(repeating: "0123456789abcdef", count: 5).utf8)
        for length in 1...bytes.count {
            let prefix = Array(bytes[..<length])
            let original = prefix.withUnsafeBytes { Fingerprint.of($0) }
            var changed: Set<UInt64> = [original]
            for position in 0..<length {
                var copy = prefix
                copy[position] ^= 0x01
                changed.insert(copy.withUnsafeBytes { Fingerprint.of($0) })
            }
            #expect(changed.count == length + 1, "length \(length)")
        }
    }
}
