import Foundation
import Testing
@testable import PlacesCostKit
import PlacesCostReference

/// Issue 20, classes 1 and 9: every number of a user price table is range-checked (exit 65 naming
/// the key path and the range), and a table file is refused past its size limit.
@Suite("Price table numbers and size")
struct PriceTableBoundsTests {
    static func table(_ id: String, replacing pattern: String, with text: String) -> String {
        let json = BundledPriceTables.files.first { $0.id == id }!.json
        let range = json.range(of: pattern, options: .regularExpression)!
        let match = json[range]
        return json.replacingCharacters(in: range, with: match[...match.firstIndex(of: ":")!] + " " + text)
    }

    static let cases: [(id: String, pattern: String, keyPath: String)] = [
        ("legacy-2018", #""usd_per_1000": [0-9.]+"#, "skus[0].tiers[0].usd_per_1000"),
        ("legacy-2018", #""up_to": [0-9]+"#, "skus[0].tiers[0].up_to"),
        ("legacy-2025", #""free_monthly": [0-9]+"#, "skus[0].free_monthly"),
        ("legacy-2018", #""monthly_credit_usd": [0-9.]+"#, "monthly_credit_usd"),
        ("places-new-2025", #""essentials_request_cap": [0-9]+"#, "session_rules.essentials_request_cap"),
    ]

    @Test("Numbers past their range are data errors naming the key path and the range")
    func outOfRange() throws {
        let directory = TemporaryDirectory()
        for (id, pattern, keyPath) in PriceTableBoundsTests.cases {
            for value in ["1e308", "1e20", "9223372036854775807", "-1", "1000000000000000001", "1e400"] {
                let path = directory.write("t.json", PriceTableBoundsTests.table(id, replacing: pattern, with: value))
                for arguments in [["simulate", "--pricing", path, "--json"], ["pricing", "show", path], ["pricing", "show", path, "--json"]] {
                    let result = runCLI(arguments)
                    #expect(result.code == .dataError, "\(keyPath) = \(value): \(arguments): \(result.stderr)")
                    #expect(result.stdout.isEmpty)
                    #expect(result.stderr.hasPrefix("placescost: error: \(path)"))
                }
                let error = #expect(throws: PricingError.self) { try PriceTableLoader().load(path) }
                // Integers both kinds of field decode: the range check itself must name the key.
                if ["-1", "1000000000000000001"].contains(value), case .invalidTable(_, let reportedPath, let reason)? = error {
                    #expect(reportedPath == keyPath, "\(value): \(reason)")
                    #expect(reason.contains("must be") && reason.contains(" to "), "\(reason)")
                }
                // A number no count can be is named at its key too, never as "not valid JSON".
                let counts = ["up_to", "free_monthly", "essentials_request_cap"].contains { keyPath.hasSuffix($0) }
                if counts, ["1e308", "1e20", "9223372036854775807"].contains(value), case .invalidTable(_, let reportedPath, let reason)? = error {
                    #expect(reportedPath == keyPath, "\(value): \(reason)")
                }
                // A number past any Double is not JSON Foundation reads: said so, with Foundation's why.
                if value == "1e400", case .invalidTable(_, let reportedPath, let reason)? = error {
                    #expect(reportedPath.isEmpty && reason.hasPrefix("not valid JSON (") && reason.contains("1e400"), "\(reason)")
                }
            }
        }
    }

    @Test("A count with a fraction is named at its key path", arguments: [
        ("legacy-2025", #""free_monthly": [0-9]+"#, "skus[0].free_monthly"),
        ("legacy-2018", #""up_to": [0-9]+"#, "skus[0].tiers[0].up_to"),
        ("places-new-2025", #""essentials_request_cap": [0-9]+"#, "session_rules.essentials_request_cap"),
    ])
    func fractionalCount(id: String, pattern: String, keyPath: String) throws {
        let directory = TemporaryDirectory()
        let path = directory.write("t.json", PriceTableBoundsTests.table(id, replacing: pattern, with: "10000.5"))
        let result = runCLI(["pricing", "show", path])
        #expect(result.code == .dataError)
        #expect(result.stderr.hasPrefix("placescost: error: \(path): at `\(keyPath)`: not a whole number"), "\(result.stderr)")
    }

    @Test("The largest numbers accepted price finitely at the largest --scale")
    func largestAccepted() {
        let directory = TemporaryDirectory()
        var json = PriceTableBoundsTests.table("legacy-2018", replacing: #""usd_per_1000": [0-9.]+"#, with: "100000")
        json = json.replacingOccurrences(of: #""monthly_credit_usd": [0-9.]+"#, with: "\"monthly_credit_usd\": 1000000000", options: .regularExpression)
        let table = directory.write("t.json", json)
        let log = directory.write("log.jsonl", smallLog)
        let analyze = runCLI(["analyze", log, "--pricing", table, "--scale", "1000000", "--json", "--quiet"])
        #expect(analyze.code == .success, "\(analyze.stderr)")
        #expect(nonFiniteJSONProblem(analyze.stdout) == nil)
        let simulate = runCLI(["simulate", "--pricing", table, "--searches", "1000000000000", "--requests", "10000", "--months", "120", "--json"])
        #expect(simulate.code == .success)
        #expect(nonFiniteJSONProblem(simulate.stdout) == nil)
        let show = runCLI(["pricing", "show", table])
        #expect(show.code == .success)
    }

    @Test("A table file past 4 MB is refused without being read whole")
    func tooLarge() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/huge.json"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(PriceTableLoader.maxFileBytes + 1))
        try handle.close()
        let result = runCLI(["simulate", "--pricing", path])
        #expect(result.code == .dataError)
        #expect(result.stderr.contains("larger than 4 MB"), "\(result.stderr)")
    }
}
