import Foundation
import Testing
@testable import PlacesCostKit

/// `simulate --from LOG` takes `analyze`'s options for reading and grouping logs, from their one
/// declaration, and reads the log as `analyze LOG` with the same options does.
@Suite("simulate --from LOG with analyze's log options")
struct SimulateLogOptionsTests {
    @Test("simulate --from LOG OPTS bills what analyze LOG OPTS bills, for every strategy, delay and month", arguments: [
        ["--timezone", "Pacific/Kiritimati"],
        ["--session-timeout", "40", "--user-gap", "5"],
        ["--since", "2025-02-20", "--until", "2025-03-05", "--threads", "1"],
        ["--dedupe", "--reorder-window", "30"],
        ["--delays", "3,8", "--max-delay", "2", "--format", "jsonl", "--strict"],
    ])
    func sameAsAnalyze(given: [String]) throws {
        // At a volume past the free caps and credit, so that every option shows in the bill.
        let options = given + ["--scale", "400"]
        let directory = TemporaryDirectory()
        let log = try OtherGenerationTests.log(directory, .mixed, days: 30, searches: 900)
        if given.contains("--dedupe") {
            // Records repeated exactly, as exporters that retry write them, for --dedupe to drop.
            let text = try String(contentsOfFile: log, encoding: .utf8)
            let repeated = text.split(separator: "\n").prefix(300).joined(separator: "\n")
            try (text + repeated + "\n").write(toFile: log, atomically: true, encoding: .utf8)
        }
        let (_, analyzed) = try SimulateFromTests.report(log, directory, options: options)
        let simulated = try SimulateFromTests.simulate(["--from", log] + options)
        OtherGenerationTests.expectSameBills(simulated, analyzed, options.joined(separator: " "))
        let months = (analyzed["period"] as! [String: Any])["months"] as! [String]
        #expect((simulated["months"] as! [[String: Any]]).map { $0["month"] as! String } == months)
        // The options change the reading: without them the bill differs.
        let plain = try SimulateFromTests.simulate(["--from", log, "--scale", "400"])
        #expect(SimulateFromTests.strategies(plain).mapValues { $0["cost_usd"] as! Double } != SimulateFromTests.strategies(simulated).mapValues { $0["cost_usd"] as! Double })
    }

    @Test("An access log, a HAR file and CSV, given to simulate --from, bill what analyze bills of them, with and without their options", arguments: [
        ("access-log", ["--format", "access-log", "--since", "2025-02-25"]), ("access-log", []),
        ("har", ["--format", "har", "--until", "2025-03-05", "--threads", "1"]), ("har", []),
        ("csv", ["--format", "csv", "--session-timeout", "40", "--timezone", "Asia/Tokyo"]),
    ])
    func otherFormats(format: String, given: [String]) throws {
        let directory = TemporaryDirectory()
        let log = directory.path + "/generated." + (format == "access-log" ? "log" : format)
        let generated = runCLI(["generate", "--searches", "700", "--seed", "23", "--format", format, "--start", "2025-02-15", "--days", "30", "--out", log])
        #expect(generated.code == .success, "\(generated.stderr)")
        let options = given + ["--scale", "300"]
        let (_, analyzed) = try SimulateFromTests.report(log, directory, options: options)
        #expect(((analyzed["searches"] as! [String: Any])["total"] as! Int) > 0, "\(format): no searches read")
        let simulated = try SimulateFromTests.simulate(["--from", log] + options)
        OtherGenerationTests.expectSameBills(simulated, analyzed, "\(format) " + options.joined(separator: " "))
        let months = (analyzed["period"] as! [String: Any])["months"] as! [String]
        #expect((simulated["months"] as! [[String: Any]]).map { $0["month"] as! String } == months)
        guard !given.isEmpty else { return }
        // The options change the reading: without them the bill differs.
        let plain = try SimulateFromTests.simulate(["--from", log, "--scale", "300"])
        #expect(SimulateFromTests.strategies(plain).mapValues { $0["cost_usd"] as! Double } != SimulateFromTests.strategies(simulated).mapValues { $0["cost_usd"] as! Double })
    }

    @Test("A report.json was read with its own options: a log option with it is a one-line usage error", arguments: [
        ["--scale", "2"], ["--timezone", "Europe/Paris"], ["--session-timeout", "60"], ["--dedupe"], ["--route", "/x=autocomplete"],
        ["--delays", "1,2"], ["--max-delay", "3"],
    ])
    func refusedWithReport(options: [String]) throws {
        let directory = TemporaryDirectory()
        let log = SimulateFromTests.log(directory, start: "2026-10-01", days: 5, searches: 200)
        let (report, _) = try SimulateFromTests.report(log, directory)
        let result = runCLI(["simulate", "--from", report] + options)
        #expect(result.code == .usage)
        let first = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("placescost: error: \(options[0]) says how a log is read"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("Without --from the log options are refused; with --from they are in simulate's help and completion")
    func declaredOnce() throws {
        let result = runCLI(["simulate", "--scale", "2"])
        #expect(result.code == .usage && result.stderr.contains("--scale takes --from LOG"), "\(result.stderr)")
        let help = runCLI(["simulate", "--help"]).stdout
        for option in SimulateCommand.logOptions {
            #expect(help.contains(option.longFlag), "\(option.longFlag)")
            #expect(SimulateCommand.table.option(named: option.name) == AnalyzeCommand.table.option(named: option.name), "\(option.longFlag) is declared twice")
        }
        #expect(SimulateCommand.table.option(named: "quiet") == AnalyzeCommand.table.option(named: "quiet"))
        let bash = runCLI(["completion", "bash"]).stdout
        #expect(bash.contains("--session-timeout") && bash.contains("--log-format"))
    }
}
