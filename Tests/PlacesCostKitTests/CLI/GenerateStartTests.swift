import Foundation
import Testing
@testable import PlacesCostKit

/// Issue 20, classes 1 and 11: generate's --start is bounded to periods whose every time analyze
/// reads; outside, a usage error names the range (it trapped before 1970 and wrote year 10000).
@Suite("generate --start range")
struct GenerateStartTests {
    @Test("Before 1970 or too late for --days: usage error naming the range")
    func outOfRange() {
        for (start, days) in [("1969-12-31", "30"), ("1969-12-31T23:59:59Z", "1"), ("1970-01-01T00:30:00+01:00", "1"), ("9999-12-31", "30"),
                              ("9999-12-31", "1"), ("9999-12-01T00:00:00.001Z", "30"), ("0001-01-01", "1")] {
            let result = runCLI(["generate", "--searches", "3", "--start", start, "--days", days])
            #expect(result.code == .usage, "\(start) \(days)")
            #expect(result.stderr.contains("--start takes a date or time from 1970-01-01T00:00:00.000Z to "), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test("The first and last starts allowed write logs analyze reads whole, in every format")
    func edgesAnalyze() throws {
        let directory = TemporaryDirectory()
        for (start, days) in [("1970-01-01", "2"), ("9999-12-01", "30"), ("9999-12-30", "1")] {
            for format in ["jsonl", "csv", "access-log"] {
                let generated = runCLI(["generate", "--searches", "200", "--start", start, "--days", days, "--format", format])
                #expect(generated.code == .success, "\(start) \(format): \(generated.stderr)")
                let path = directory.write("log-\(format).\(format == "access-log" ? "log" : format)", generated.stdout)
                let analyzed = runCLI(["analyze", path, "--json"])
                #expect(analyzed.code == .success, "\(start) \(format): \(analyzed.stderr.prefix(300))")
                #expect(analyzed.stdout.contains(#""rejected": 0"#), "\(start) \(format)")
            }
        }
    }
}
