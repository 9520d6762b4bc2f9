import Foundation
import Testing
@testable import PlacesCostKit
@testable import PlacesCostReference

/// A log whose `timestamp` is Unix time in seconds, as many loggers write it, gives the report of
/// the same instants in RFC 3339: as JSON numbers (whole or with a fraction), as digits in a
/// string, as CSV cells; on the block pipeline (1 and 2 threads) and the line reader alike.
/// Read as milliseconds, as it was, a week became ten minutes of January 1970.
@Suite("Epoch seconds")
struct EpochSecondsTests {
    /// The sample log's records, each with its time in RFC 3339 and as epoch seconds of the
    /// same instant (to the millisecond).
    static func records() throws -> [(record: [String: Any], seconds: String)] {
        let text = try String(contentsOfFile: packageRoot + "/SampleLogs/ios-app.jsonl", encoding: .utf8)
        return try text.split(separator: "\n").prefix(1500).map { line in
            var record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            record["input_length"] = (record.removeValue(forKey: "input") as? String)?.unicodeScalars.count
            let time = try TimestampParser.parse(try #require(record["timestamp"] as? String)).get()
            let millis = time.microseconds / 1_000
            return (record, "\(millis / 1_000).\(String(format: "%03lld", millis % 1_000))")
        }
    }

    static func jsonLines(_ records: [[String: Any]]) throws -> String {
        try records.map { String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self) }.joined(separator: "\n") + "\n"
    }

    @Test("Seconds as numbers with a fraction, digits and CSV cells give the RFC 3339 log's report")
    func sameReport() throws {
        let records = try Self.records()
        let directory = TemporaryDirectory()
        let rfc3339 = directory.write("rfc3339.jsonl", try Self.jsonLines(records.map(\.record)))
        // A JSON number with its fraction, written as the literal (JSONSerialization would round it).
        let numbers = try records.map { entry -> String in
            var record = entry.record
            record["timestamp"] = "@@"
            return String(decoding: try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]), as: UTF8.self)
                .replacingOccurrences(of: "\"@@\"", with: entry.seconds)
        }
        let number = directory.write("seconds.jsonl", numbers.joined(separator: "\n") + "\n")
        let arguments = ["--json", "--pricing", "legacy-list"]
        let expected = MalformedCorpusTests.withoutInputFiles(try MalformedCorpusTests.object(runCLI(["analyze", rfc3339] + arguments).stdout))
        for threads in ["1", "2"] {
            let run = runCLI(["analyze", number, "--threads", threads] + arguments)
            #expect(run.code == .success && run.stderr.isEmpty, "\(run.stderr)")
            #expect(MalformedCorpusTests.withoutInputFiles(try MalformedCorpusTests.object(run.stdout)) == expected)
        }
        #expect(try LogReader().read([number]).calls.map(\.time) == LogReader().read([rfc3339]).calls.map(\.time))

        // Whole seconds, as numbers, as digit strings and as CSV cells: the whole-second RFC 3339 log's report.
        let whole = records.map { entry -> [String: Any] in
            var record = entry.record
            record["timestamp"] = String(entry.seconds.prefix { $0 != "." })
            return record
        }
        let truncated = directory.write("whole.jsonl", try Self.jsonLines(whole.map { record in
            var record = record
            let seconds = Int64(record["timestamp"] as! String)!
            record["timestamp"] = Timestamp(microseconds: seconds * 1_000_000).rfc3339
            return record
        }))
        let wholeExpected = MalformedCorpusTests.withoutInputFiles(try MalformedCorpusTests.object(runCLI(["analyze", truncated] + arguments).stdout))
        let digits = directory.write("digits.jsonl", try Self.jsonLines(whole))
        let integers = directory.write("integers.jsonl", try Self.jsonLines(whole.map { record in
            var record = record
            record["timestamp"] = Int64(record["timestamp"] as! String)!
            return record
        }))
        let columns = ["timestamp", "api", "session_token", "input_length", "place_id", "user_id", "platform"]
        let csv = directory.write("whole.csv", columns.joined(separator: ",") + "\n" + whole.map { record in
            columns.map { record[$0].map { "\($0)" } ?? "" }.joined(separator: ",")
        }.joined(separator: "\n") + "\n")
        for path in [digits, integers, csv] {
            let run = runCLI(["analyze", path] + arguments)
            #expect(run.code == .success && run.stderr.isEmpty, "\(path): \(run.stderr)")
            let report = try MalformedCorpusTests.object(run.stdout)
            if path == csv {
                // The CSV carries no fields: compare what it holds, the times and searches.
                #expect((report["searches"] as? [String: Any])?["total"] as? Int == ((try MalformedCorpusTests.object(runCLI(["analyze", truncated] + arguments).stdout))["searches"] as? [String: Any])?["total"] as? Int)
            } else {
                #expect(MalformedCorpusTests.withoutInputFiles(report) == wholeExpected, "\(path)")
            }
        }
        // The period is the log's, not January 1970.
        #expect(runCLI(["analyze", integers]).stdout.contains("for 2026-10"))
    }
}
