import Foundation
import Testing
@testable import PlacesCostKit

/// Runs the built `placescost` executable as a user would.
@Suite("End to end")
struct EndToEndTests {
    /// The executable built beside the test bundle (the test target depends on it).
    static let executable: String? = {
        var candidates: [String] = []
        if let path = Bundle.main.executablePath {
            candidates.append(URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("placescost").path)
        }
        candidates.append(packageRoot + "/.build/debug/placescost")
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    func run(_ arguments: [String], stdin: Data? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(EndToEndTests.executable, "placescost was not built beside the tests"))
        process.arguments = arguments
        process.environment = testEnvironment
        process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(stdin ?? Data())
        try input.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    @Test("analyze on SampleLogs/ gives the same report as the in-process run")
    func sampleLogs() throws {
        let result = try run(["analyze", "--json"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("analyzing the bundled sample logs"))
        let inProcess = runCLI(["analyze", "--json"], workingDirectory: packageRoot)
        #expect(result.stdout == inProcess.stdout)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let input = try #require(json["input"] as? [String: Any])
        #expect(input["records"] as? Int == 3849)
        #expect(input["rejected"] as? Int == 0)
    }

    @Test("- reads standard input")
    func standardInput() throws {
        let log = [ac(0, "t", "a"), ac(1, "t", "ab"), details(2, "t")].map(\.jsonLine).joined(separator: "\n")
        let result = try run(["analyze", "-", "--json"], stdin: Data(log.utf8))
        #expect(result.status == 0)
        #expect(result.stdout.contains("\"completed\": 1"))
        #expect(result.stdout.contains("\"<stdin>\""))
    }

    @Test("Exit codes of the real process: 64, 66 and 65")
    func exitCodes() throws {
        #expect(try run(["analyze", "--bogus"]).status == 64)
        #expect(try run(["analyze", "/no/such/file"]).status == 66)
        let bad = try run(["analyze", "-", "--strict"], stdin: Data("{oops\n".utf8))
        #expect(bad.status == 65)
        #expect(bad.stderr.hasPrefix("placescost: error: <stdin>:1: malformed record"))
    }

    @Test("No report file shows typed text, tokens or user ids")
    func noPersonalData() throws {
        let out = TemporaryDirectory()
        let result = try run(["analyze", "--out", out.path, "--report", "md"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("# Places Autocomplete cost report"))
        #expect(result.stderr.contains("wrote report.md, report.html, report.json, searches.csv, costs.csv"))
        let sample = try String(contentsOfFile: packageRoot + "/SampleLogs/ios-app.jsonl", encoding: .utf8)
        let tokens = sample.split(separator: "\"session_token\":\"").dropFirst().prefix(50).map { String($0.prefix(36)) }
        let users = sample.split(separator: "\"user_id\":\"").dropFirst().prefix(50).map { String($0.prefix { $0 != "\"" }) }
        #expect(tokens.count == 50 && users.count == 50)
        for file in ["report.md", "report.html", "report.json", "searches.csv", "costs.csv"] + ReportCharts.files {
            let text = try String(contentsOfFile: out.path + "/" + file, encoding: .utf8)
            for secret in ["Café de", "東京タワー", "Hauptbahnhof München"] {
                #expect(sample.contains(secret), "the sample should hold this input, or the check below proves nothing")
                #expect(!text.contains(secret), "\(file) shows typed text")
            }
            for secret in tokens + users {
                #expect(!text.contains("\"\(secret)\"") && !text.contains(",\(secret),"), "\(file) shows \(secret)")
            }
        }
    }
}
