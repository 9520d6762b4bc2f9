import Foundation
import Testing
@testable import PlacesCostKit
import PlacesCostReference

/// Issue 20, classes 1 and 2: a number the command line accepts never traps (exit 132) and never
/// prints a non-finite number; one outside what the tool can compute with is a usage error that
/// names the option and the allowed range.
@Suite("Numeric options")
struct NumericOptionTests {
    /// Values past every range: huge, non-finite, the Int64 edges, spellings `Double` accepts.
    static let outOfRange = ["1e20", "9.223e12", "1e15", "1e16", "1e308", "1e400", "-1e308", "nan", "inf", "-inf",
                             "9223372036854775807", "9223372036854775808", "0x1p80", "-0", "0", "-5"]

    @Test("Lengths of time: --session-timeout, --user-gap, --reorder-window (analyze) and sql's")
    func seconds() {
        let directory = TemporaryDirectory()
        let log = directory.write("log.jsonl", smallLog)
        for option in ["--session-timeout", "--user-gap", "--reorder-window"] {
            for value in NumericOptionTests.outOfRange {
                let result = runCLI(["analyze", log, "--json", "--quiet", option, value])
                #expect(result.code == .usage, "\(option) \(value)")
                #expect(result.stderr.contains("\(option) takes a number of seconds from 0.000001 to 315537897600, not `\(value)`."), "\(result.stderr)")
            }
            let largest = runCLI(["analyze", log, "--json", "--quiet", option, "315537897600"])
            #expect(largest.code == .success, "\(option): \(largest.stderr)")
            #expect(nonFiniteJSONProblem(largest.stdout) == nil)
        }
        for option in ["--session-timeout", "--user-gap"] {
            let result = runCLI(["sql", "--dialect", "duckdb", option, "1e20"])
            #expect(result.code == .usage)
            #expect(result.stderr.contains("\(option) takes a number of seconds from 0.000001 to 315537897600"))
        }
    }

    @Test("--scale: a millionth to a million; the largest gives finite JSON and Markdown")
    func scale() {
        let directory = TemporaryDirectory()
        let log = directory.write("log.jsonl", smallLog)
        for value in NumericOptionTests.outOfRange + ["1000001", "0.0000009"] {
            let result = runCLI(["analyze", log, "--json", "--quiet", "--scale", value])
            #expect(result.code == .usage, "--scale \(value)")
            #expect(result.stderr.contains("--scale takes a factor from 0.000001 to 1000000, not `\(value)`."), "\(result.stderr)")
        }
        for value in ["1000000", "0.000001", "999999.999999"] {
            let json = runCLI(["analyze", log, "--json", "--quiet", "--scale", value])
            #expect(json.code == .success, "\(value): \(json.stderr)")
            #expect(nonFiniteJSONProblem(json.stdout) == nil, "--scale \(value)")
            let markdown = runCLI(["analyze", log, "--quiet", "--scale", value])
            #expect(markdown.code == .success)
            // Words such as "inferred" are fine; `inf` or `nan` as a number is not.
            #expect(markdown.stdout.range(of: #"(?<![A-Za-z])(inf|nan)(?![A-Za-z])"#, options: [.regularExpression, .caseInsensitive]) == nil)
            let reconcile = runCLI(["reconcile", log, "--billing", packageRoot + "/SampleLogs/billing/cost-table-2026-10.csv", "--json", "--quiet", "--scale", value])
            #expect(reconcile.code == .success)
            #expect(nonFiniteJSONProblem(reconcile.stdout) == nil)
        }
    }

    @Test("simulate's numbers: out of range is a usage error; the largest accepted give finite JSON")
    func simulate() {
        for (option, value) in [("--searches", "1e20"), ("--searches", "1000000000001"), ("--requests", "1e308"), ("--requests", "nan"),
                                ("--chars", "9223372036854775808"), ("--delay", "1e3"), ("--completion-rate", "inf"), ("--months", "121"), ("--max-delay", "-1")] {
            let result = runCLI(["simulate", "--json", option, value])
            #expect(result.code == .usage, "\(option) \(value)")
            #expect(result.stderr.contains(option) && result.stderr.contains("from"), "\(result.stderr)")
        }
        let largest = runCLI(["simulate", "--json", "--searches", "1000000000000", "--requests", "10000", "--months", "120", "--pricing", "legacy-2018"])
        #expect(largest.code == .success)
        #expect(nonFiniteJSONProblem(largest.stdout) == nil)
    }
}
