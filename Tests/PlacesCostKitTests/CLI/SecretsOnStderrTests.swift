import Foundation
import Testing
@testable import PlacesCostKit

/// No warning or error quotes a value that may be personal or secret: a token, typed text, a
/// user id or an API key planted in a field that does not parse is named by its field and shape.
@Suite("No secret on standard error")
struct SecretsOnStderrTests {
    /// Values a broken exporter could write into the timestamp field, each with a marker that must
    /// never reach standard error.
    static let planted: [(value: String, marker: String)] = [
        ("AIzaSyB-PLANTEDkey0123456789abcdefghijk", "PLANTED"),
        ("https://maps.googleapis.com/maps/api/place/autocomplete/json?input=12+Baker+St&key=AIzaSyPLANTED0123456789abcdefghijk", "AIza"),
        ("key=AIzaSyPLANTED0123456789abcdefghijklmn", "AIza"),
        ("7b94d68c-ff83-4f09-8e63-PLANTED", "PLANTED"),
        ("12 Baker Street, Flat PLANTED", "Baker"),
        ("planted.user@example.com", "example.com"),
        ("98765432109876543210123", "98765432109876543210123"),
        ("2026-13-01T09:00:00Z PLANTED", "PLANTED"),
        ("2026-13-01T09:00:00Z", "2026-13-01"),
        ("2026-10-01T09:00:00 PLANTED", "PLANTED"),
        ("2026-10-01T09:00:00+25:00", "+25:00"),
        ("", "\u{0}"),
    ]

    static let good = #"{"timestamp":"2026-10-01T09:00:00Z","api":"autocomplete","session_token":"t","input":"ab"}"#

    static func jsonString(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst().dropLast().description
    }

    /// One log per format with `value` in its timestamp field, among good records.
    static func logs(planting value: String, in directory: TemporaryDirectory) -> [(path: String, format: String)] {
        let json = jsonString(value)
        let jsonl = directory.write("a.jsonl", [good, #"{"timestamp":\#(json),"api":"autocomplete","session_token":"t","input":"abc"}"#, good].joined(separator: "\n"))
        var logs = [(jsonl, "jsonl")]
        if value.allSatisfy(\.isNumber), !value.isEmpty {
            logs.append((directory.write("n.jsonl", [good, #"{"timestamp":\#(value),"api":"autocomplete"}"#].joined(separator: "\n")), "jsonl"))
        }
        let cell = "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        logs.append((directory.write("a.csv", "timestamp,api,session_token,input\n2026-10-01T09:00:00Z,autocomplete,t,ab\n\(cell),autocomplete,t,abc\n"), "csv"))
        // No header: the first row is a record, whose cells must not be quoted as column names.
        logs.append((directory.write("headless.csv", "2026-10-01T09:00:00Z,autocomplete,\(cell),\(cell)\n"), "csv"))
        let request = #"{"method":"GET","url":"https://maps.googleapis.com/maps/api/place/autocomplete/json?input=ab&sessiontoken=t&key=AIzaSyDEMO","headers":[]}"#
        let entry = { (time: String) in #"{"startedDateTime":\#(time),"request":\#(request),"response":{"status":200}}"# }
        logs.append((directory.write("a.har", #"{"log":{"version":"1.2","entries":[\#(entry("\"2026-10-01T09:00:00Z\"")),\#n\#(entry(json))]}}"#), "har"))
        let line = { (time: String) in #"203.0.113.7 - u1 [\#(time)] "GET /maps/api/place/autocomplete/json?input=ab&sessiontoken=t&key=AIzaSyDEMO HTTP/1.1" 200 10 "-" "-""# }
        logs.append((directory.write("access.log", [line("01/Oct/2026:09:00:03 +0000"), line(value)].joined(separator: "\n") + "\n"), "access-log"))
        return logs
    }

    @Test("A value planted in the timestamp field is never printed, as a warning or a --strict error, in any format", arguments: 0..<planted.count)
    func plantedTimestamp(_ index: Int) throws {
        let (value, marker) = Self.planted[index]
        let directory = TemporaryDirectory()
        for (path, format) in Self.logs(planting: value, in: directory) {
            for strict in [false, true] {
                let run = runCLI(["analyze", path, "--format", format, "--report", "json"] + (strict ? ["--strict"] : []))
                #expect(run.stderr.contains("warning:") || run.stderr.contains("error:"), "\(format): nothing said about the planted value")
                #expect(!run.stderr.contains(marker), "\(format)\(strict ? " --strict" : ""): \(run.stderr)")
            }
        }
    }

    @Test("A value planted in a billing export's cost cell is never printed by reconcile", arguments: 0..<planted.count)
    func plantedBillingCost(_ index: Int) throws {
        let (value, marker) = Self.planted[index]
        guard !value.isEmpty, Double(value) == nil else { return }
        let directory = TemporaryDirectory()
        let log = directory.write("log.jsonl", Self.good)
        let cell = "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        let bill = directory.write("bill.csv", BillingExportNumberTests.console(cost: cell))
        let only = directory.write("only.csv", BillingExportNumberTests.console(cost: cell).split(separator: "\n").dropLast().joined(separator: "\n") + "\n")
        for path in [bill, only] {
            let run = runCLI(["reconcile", log, "--billing", path, "--pricing", "legacy-list"])
            #expect(run.stderr.contains("warning:") || run.stderr.contains("error:"), "\(path): \(run.stderr)")
            #expect(!run.stderr.contains(marker), "\(run.stderr)")
        }
    }

    @Test("The shape names length and kinds of characters, never the characters")
    func shape() {
        #expect(ValueShape("98765432109876543210123").description == "a 23-digit number")
        #expect(ValueShape("key=AIza").description == "an 8-character text of letters and punctuation")
        #expect(ValueShape("12 rue de l’Église").description == "an 18-character text of letters, digits, spaces and other characters")
        #expect(ValueShape("").description == "an empty text")
        #expect(TimestampError.notATimestamp(ValueShape("yesterday")).description
            == "the timestamp (a 9-character text of letters) is neither RFC 3339 (2026-10-01T09:00:03.730Z) nor epoch milliseconds (or seconds)")
    }
}
