import Foundation
import Testing
@testable import PlacesCostKit

/// `--out` is all or nothing, reports are the same bytes on every run, and no output carries a
/// secret.
@Suite("Safe outputs")
struct OutputSafetyTests {
    // Privacy-first (`input_length`), so that the error is the only line on standard error: a log
    // with typed text gets a note first (`InputLengthTests`).
    let log = [ac(0, "a", "12"), ac(1, "a", "123"), details(2, "a"), ac(100, nil, "9", user: "u-1")].map(\.jsonLine).joined(separator: "\n")
        .replacing(/"input":"([^"]*)"/) { "\"input_length\":\($0.1.count)" }

    /// Every path under `root`, relative, sorted.
    func listing(_ root: String) -> [String] {
        (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).sorted()
    }

    @Test("An --out directory that cannot be created exits 73 and leaves nothing behind", arguments: [
        "blocker/reports", "blocker/reports/nested", "new/" + String(repeating: "x", count: 300), "new/deeper/" + String(repeating: "y", count: 300) + "/z",
    ])
    func cannotCreate(_ relative: String) {
        let directory = TemporaryDirectory()
        let file = directory.write("log.jsonl", log)
        _ = directory.write("blocker", "a file where a folder should be")
        let before = listing(directory.path)
        // A key from the environment: the run that first makes the key file notes it, and the
        // parallel cases would race to be that run.
        let run = runCLI(["analyze", file, "--out", directory.path + "/" + relative], environment: [Pseudonymizer.keyVariable: "output-safety"])
        #expect(run.code == .cannotCreate)
        #expect(run.stderr.hasPrefix("placescost: error: cannot write "))
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(listing(directory.path) == before)
    }

    @Test("A failure part-way keeps the earlier report whole, and leaves no staging folder")
    func earlierReportSurvives() throws {
        let directory = TemporaryDirectory()
        let file = directory.write("log.jsonl", log)
        let out = directory.path + "/out"
        #expect(runCLI(["analyze", file, "--out", out, "--quiet"]).code == .success)
        let earlier = try listing(out).filter { !$0.hasPrefix("charts") }.map { try String(contentsOfFile: out + "/" + $0, encoding: .utf8) }
        // `charts` becomes a file: the new charts cannot be written, so nothing may be replaced.
        try FileManager.default.removeItem(atPath: out + "/charts")
        _ = directory.write("out/charts", "in the way")
        let other = directory.write("other.jsonl", [ac(0, "b", "1"), ac(5, "c", "2")].map(\.jsonLine).joined(separator: "\n"))
        let run = runCLI(["analyze", other, "--out", out])
        #expect(run.code == .cannotCreate)
        let after = try listing(out).filter { !$0.hasPrefix("charts") }.map { try String(contentsOfFile: out + "/" + $0, encoding: .utf8) }
        #expect(after == earlier)
        #expect(!listing(out).contains { $0.contains(".placescost-") })
    }

    @Test("A write that fails part-way exits 74 and leaves the --out folder as it was: none when it was new, the earlier report when there was one")
    func writeFails() throws {
        let directory = TemporaryDirectory()
        // Enough searches that searches.csv passes a file-size limit (`ulimit -f`): the tool
        // ignores SIGXFSZ, so the write past it fails (EFBIG) as a full disk's would.
        let file = directory.write("log.jsonl", (0..<3000).map { ac(Double($0), "t\($0)", "abc").jsonLine }.joined(separator: "\n") + "\n")
        let executable = try #require(EndToEndTests.executable, "placescost was not built beside the tests")
        func limited(_ out: String) throws -> ProcessRun {
            try ProcessRun.run("/bin/sh", ["-c", "ulimit -f 128; exec \"$@\"", "sh", executable, "analyze", file, "--out", out, "--quiet"], timeout: 120)
        }
        let new = directory.path + "/new/report"
        let failed = try limited(new)
        #expect(failed.status == ExitCode.ioError.rawValue)
        #expect(failed.stderr.hasPrefix("placescost: error: cannot write \(new)/"), "\(failed.stderr)")
        #expect(failed.stderr.hasSuffix(": File too large. No file of the report was replaced: the --out folder is as it was before the run.\n"), "\(failed.stderr)")
        #expect(listing(directory.path) == ["log.jsonl"])

        let earlierLog = directory.write("small.jsonl", log)
        let out = directory.path + "/out"
        #expect(runCLI(["analyze", earlierLog, "--out", out, "--quiet"]).code == .success)
        let before = listing(out).map { try? Data(contentsOf: URL(fileURLWithPath: out + "/" + $0)) }
        #expect(try limited(out).status == ExitCode.ioError.rawValue)
        #expect(listing(out).map { try? Data(contentsOf: URL(fileURLWithPath: out + "/" + $0)) } == before)
        #expect(!listing(out).contains { $0.contains(".placescost-") })
    }

    @Test("A new --out report replaces the earlier report of the same command whole; the user's files and other commands' reports stay")
    func replacesEarlierReport() throws {
        let directory = TemporaryDirectory()
        let sample = packageRoot + "/SampleLogs/ios-app.jsonl"
        let file = directory.write("log.jsonl", log)
        let out = directory.path + "/out"
        let daily = [ReportCharts.dailyCalls, ReportCharts.dailyCostPerSearch]
        #expect(runCLI(["analyze", sample, "--by", "day", "--out", out, "--quiet"]).code == .success)
        #expect(daily.allSatisfy { FileManager.default.fileExists(atPath: out + "/" + $0) })
        #expect(Set(listing(out).filter { $0.contains(".") }).isSubset(of: ReportBundle.anyPaths))
        directory.write("out/notes.md", "the user's")
        directory.write("out/charts/logo.svg", "the user's")
        #expect(runCLI(["analyze", file, "--out", out, "--quiet"]).code == .success)
        var kept = ["charts", "charts/logo.svg", "notes.md"] + ReportBundle.anyPaths.filter { !daily.contains($0) }
        #expect(listing(out) == kept.sorted())

        // Other commands' reports stay beside it, the analysis compare reads among them;
        // simulate's two reports replace each other.
        let report = directory.path + "/report.json"
        try FileManager.default.copyItem(atPath: out + "/report.json", toPath: report)
        #expect(runCLI(["compare", report, out + "/report.json", "--out", out, "--quiet"]).code == .success)
        kept += ["comparison.md", "comparison.json", "comparison.html"]
        #expect(listing(out) == kept.sorted())
        #expect(runCLI(["simulate", "--from", report, "--out", out, "--quiet"]).code == .success)
        #expect(listing(out) == (kept + ForecastRenderer.paths).sorted())
        let scenarios = packageRoot + "/docs/examples/scenarios/scenarios.json"
        #expect(runCLI(["simulate", "--from", report, "--scenario", scenarios, "--out", out, "--quiet"]).code == .success)
        #expect(listing(out) == (kept + ScenarioRenderer.paths).sorted())
        #expect(runCLI(["simulate", "--from", report, "--out", out, "--quiet"]).code == .success)
        #expect(listing(out) == (kept + ForecastRenderer.paths).sorted())
    }

    @Test("Two runs on the same input write byte-identical report files, on any thread count")
    func deterministic() throws {
        let directory = TemporaryDirectory()
        let first = directory.path + "/first"
        let second = directory.path + "/second"
        let sample = packageRoot + "/SampleLogs/ios-app.jsonl"
        #expect(runCLI(["analyze", sample, "--out", first, "--quiet", "--threads", "1"]).code == .success)
        #expect(runCLI(["analyze", sample, "--out", second, "--quiet", "--threads", "2"]).code == .success)
        let names = listing(first).filter { !$0.hasSuffix("charts") }
        #expect(names == listing(second).filter { !$0.hasSuffix("charts") })
        #expect(names.count == 5 + ReportCharts.files.count)
        for name in names {
            let one = try #require(FileManager.default.contents(atPath: first + "/" + name))
            let two = try #require(FileManager.default.contents(atPath: second + "/" + name))
            #expect(one == two, "\(name) differs between runs")
        }
    }

    @Test("--timestamp puts the time the report was made in report.json and report.md; without it there is none")
    func timestamp() throws {
        let directory = TemporaryDirectory()
        let file = directory.write("log.jsonl", log)
        let stamped = runCLI(["analyze", file, "--json", "--timestamp"])
        let object = try MalformedCorpusTests.object(stamped.stdout)
        let made = try #require(object["generated_at"] as? String)
        #expect(made.hasPrefix("20") && made.hasSuffix("Z"))
        #expect(runCLI(["analyze", file, "--timestamp"]).stdout.contains("- Report made at 20"))
        #expect(!runCLI(["analyze", file, "--json"]).stdout.contains("generated_at"))
    }

    @Test("PLACESCOST_HASH_KEY keys searches.csv's pseudonyms; no output holds a raw id, token or input")
    func keyedPseudonyms() throws {
        let directory = TemporaryDirectory()
        let file = directory.write("log.jsonl", log)
        let out = directory.path + "/out"
        let context = CommandContext(
            standardOutput: StringSink(), standardError: StringSink(), workingDirectory: directory.path,
            environment: [Pseudonymizer.keyVariable: "team secret"]
        )
        #expect(CLI(arguments: ["analyze", file, "--out", out, "--quiet"], context: context).run() == .success)
        let searches = try String(contentsOfFile: out + "/searches.csv", encoding: .utf8)
        #expect(searches.contains(Pseudonymizer(key: Array("team secret".utf8)).pseudonym("u-1")))
        for name in listing(out) where !name.hasSuffix("charts") {
            // The reports name the input, whose folder's UUID may hold `123`.
            let text = try String(contentsOfFile: out + "/" + name, encoding: .utf8).replacingOccurrences(of: directory.path, with: "")
            for secret in ["u-1", "\"a\"", ",a,", "123"] where !(name.hasSuffix(".svg") && secret == "123") {
                #expect(!text.contains(secret), "\(secret) in \(name)")
            }
        }
    }
}
