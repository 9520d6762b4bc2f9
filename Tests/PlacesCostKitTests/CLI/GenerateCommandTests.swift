import Foundation
import Testing
@testable import PlacesCostKit

@Suite struct GenerateCommandTests {
    static let searches = 4000

    static func generate(_ format: String, seed: Int = 11) -> String {
        let result = runCLI(["generate", "--searches", String(searches), "--seed", String(seed), "--format", format])
        #expect(result.code == .success)
        #expect(result.stderr.isEmpty)
        return result.stdout
    }

    @Test func sameSeedSameBytesOtherSeedOtherBytes() {
        let first = GenerateCommandTests.generate("jsonl")
        #expect(first == GenerateCommandTests.generate("jsonl"))
        #expect(first != GenerateCommandTests.generate("jsonl", seed: 12))
        #expect(GenerateCommandTests.generate("access-log") == GenerateCommandTests.generate("access-log"))
    }

    @Test func jsonlHasTheCanonicalShape() throws {
        let text = GenerateCommandTests.generate("jsonl")
        let lines = text.split(separator: "\n")
        let first = try #require(lines.first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        #expect(object["api_version"] as? String == "legacy")
        #expect((object["timestamp"] as? String)?.count == "2026-10-01T09:00:03.730Z".count)
        #expect((object["user_id"] as? String)?.hasPrefix("u-") == true)
        // Non-ASCII places are typed, unescaped.
        #expect(text.contains("\"input\":\"東京"))
        #expect(text.contains("\"fields\":[\"formattedAddress\",\"coordinate\"]"))
    }

    @Test func everyFormatAnalyzesToTheSameSearchesAndAnomalies() throws {
        let directory = TemporaryDirectory()
        var results: [(total: Int, completed: Int, anomalies: [String], records: Int)] = []
        for (format, name) in [("jsonl", "log.jsonl"), ("csv", "log.csv"), ("access-log", "access.log")] {
            let file = directory.write(name, GenerateCommandTests.generate(format))
            let (analysis, _) = try Analyzer().analyze(paths: [file])
            #expect(analysis.input.rejected == 0, "\(format)")
            let statistics = analysis.statistics
            results.append((statistics.total, statistics.completed,
                            analysis.sessions.anomalies.named.map { "\($0.name)=\($0.count)" }, analysis.input.records))
        }
        let jsonl = results[0]
        let n = Double(GenerateCommandTests.searches)
        #expect(Double(jsonl.total) > 0.95 * n && Double(jsonl.total) < 1.2 * n)
        let completedShare = Double(jsonl.completed) / Double(jsonl.total)
        #expect(completedShare > 0.72 && completedShare < 0.86)
        // Every anomaly the generator plans shows up.
        #expect(!jsonl.anomalies.contains { $0.hasSuffix("=0") }, "\(jsonl.anomalies)")
        for other in results.dropFirst() {
            #expect(other.total == jsonl.total)
            #expect(other.completed == jsonl.completed)
            #expect(other.anomalies == jsonl.anomalies)
            #expect(other.records == jsonl.records)
        }
    }

    @Test func accessLogKeyNeverReachesTheReport() throws {
        let directory = TemporaryDirectory()
        let log = directory.write("access.log", GenerateCommandTests.generate("access-log"))
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("key=AIzaSyGENERATED-not-a-key"))
        let output = directory.path + "/report"
        let result = runCLI(["analyze", log, "--out", output])
        #expect(result.code == .success)
        #expect(!result.stdout.contains("AIza") && !result.stderr.contains("AIza"))
        for file in try FileManager.default.subpathsOfDirectory(atPath: output) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: output + "/" + file, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            let text = try String(contentsOfFile: output + "/" + file, encoding: .utf8)
            #expect(!text.contains("AIza"), "\(file)")
        }
    }

    @Test func csvHasTheHeaderAndPipeJoinedFields() {
        let text = GenerateCommandTests.generate("csv")
        #expect(text.hasPrefix("timestamp,api,session_token,input,place_id,fields,api_version,user_id,platform,status\n"))
        #expect(text.contains(",formattedAddress|coordinate,legacy,"))
    }

    @Test func outWritesAFileAndFailsWith73() throws {
        let directory = TemporaryDirectory()
        let result = runCLI(["generate", "--searches", "50", "--out", "gen.jsonl"], workingDirectory: directory.path)
        #expect(result.code == .success)
        #expect(result.stdout.isEmpty)
        let written = try String(contentsOfFile: directory.path + "/gen.jsonl", encoding: .utf8)
        #expect(written == runCLI(["generate", "--searches", "50"]).stdout)
        let failed = runCLI(["generate", "--searches", "5", "--out", directory.path + "/missing/dir/x.jsonl"])
        #expect(failed.code == .cannotCreate)
        // `generate --out` names a file, and its advice says so.
        #expect(failed.stderr.hasSuffix(": No such file or directory. Choose an --out file in a folder you can write to.\n"), "\(failed.stderr)")
    }

    /// Makes `generate --out FILE` fail once its hidden file exists (a folder with a file in it
    /// takes FILE's name, so the last rename fails), and interrupts the run at its `moment`-th
    /// chance: what the folder held right then is what a run the signal ended would leave.
    final class FailingInterrupter: @unchecked Sendable {
        let moment: Int
        let folder: String
        private(set) var cleanup: InterruptCleanup!
        private var moments = 0
        private(set) var left: [String]?

        init(moment: Int, folder: String) {
            self.moment = moment
            self.folder = folder
            cleanup = InterruptCleanup(end: { _ in }, interruptible: { [unowned self] in reached() })
        }

        private func reached() {
            moments += 1
            if moments == 1 {
                try! FileManager.default.createDirectory(atPath: folder + "/gen.jsonl", withIntermediateDirectories: false)
                _ = FileManager.default.createFile(atPath: folder + "/gen.jsonl/kept", contents: Data())
            }
            guard moments == moment else { return }
            cleanup.interrupted(by: SIGINT)
            left = try! FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        }
    }

    @Test("generate --out interrupted at any moment of a failing run leaves no hidden file")
    func interruptedFailureLeavesNothing() throws {
        var interrupted = 0
        for moment in 1... {
            let directory = TemporaryDirectory()
            let interrupter = FailingInterrupter(moment: moment, folder: directory.path)
            let context = CommandContext(standardOutput: StringSink(), standardError: StringSink(), workingDirectory: directory.path, environment: testEnvironment)
            var command = GenerateCommand(arguments: ["--searches", "20", "--out", "gen.jsonl"], context: context)
            command.interruptCleanup = interrupter.cleanup
            #expect(throws: CLIError.self) { try command.run() }
            guard let left = interrupter.left else { break }
            interrupted += 1
            #expect(left == ["gen.jsonl"], "interrupted at moment \(moment): \(left)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["gen.jsonl"], "after the run, moment \(moment)")
        }
        #expect(interrupted >= 2)
    }

    @Test func startAndDaysSetThePeriod() {
        let text = runCLI(["generate", "--searches", "200", "--start", "2027-01-15", "--days", "2"]).stdout
        for line in text.split(separator: "\n") {
            #expect(line.contains("\"timestamp\":\"2027-01-15T") || line.contains("\"timestamp\":\"2027-01-16T") || line.contains("\"timestamp\":\"2027-01-17T00:0"))
        }
    }

    @Test(arguments: [
        ["generate"], ["generate", "--searches", "0"], ["generate", "--searches", "5", "--format", "xml"],
        ["generate", "--searches", "5", "--seed", "-1"], ["generate", "--searches", "5", "--start", "yesterday"],
        ["generate", "--searches", "5", "file.jsonl"], ["generate", "--searches", "5", "--bogus"],
    ])
    func usageErrorsExit64(_ arguments: [String]) {
        let result = runCLI(arguments)
        #expect(result.code == .usage)
        #expect(result.stderr.contains("usage: placescost generate"))
    }

    @Test func helpIsShown() {
        let result = runCLI(["generate", "--help"])
        #expect(result.code == .success)
        #expect(result.stdout.contains("--searches N"))
        #expect(runCLI(["--help"]).stdout.contains("generate"))
    }
}
