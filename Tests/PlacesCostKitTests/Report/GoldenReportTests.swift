import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import PlacesCostKit

/// Every file `analyze --out` writes for `SampleLogs/`, compared byte for byte with
/// `Fixtures/golden/sample-logs/`. `RECORD_GOLDEN=1 swift test` rewrites the fixtures after an
/// intended change (review the diff before committing it).
@Suite("Golden reports")
struct GoldenReportTests {
    static let fixtures = packageRoot + "/Tests/PlacesCostKitTests/Fixtures/golden/sample-logs"
    static let recording = ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1"

    /// The files of `analyze --out DIR` on the sample logs, by relative path.
    static func sampleReport() throws -> [String: String] {
        let out = TemporaryDirectory()
        // A fixed key: searches.csv's pseudonyms are otherwise keyed with a random key.
        let result = runCLI(["analyze", "--out", out.path, "--quiet"], workingDirectory: packageRoot, environment: [Pseudonymizer.keyVariable: "golden"])
        #expect(result.code == .success, "\(result.stderr)")
        #expect(result.stdout.isEmpty, "--out alone prints nothing")
        var files: [String: String] = [:]
        for path in ["report.md", "report.html", "report.json", "searches.csv", "costs.csv"] + ReportCharts.files {
            files[path] = try String(contentsOfFile: out.path + "/" + path, encoding: .utf8)
        }
        return files
    }

    @Test("report.md, report.html, report.json, searches.csv, costs.csv and the charts match the golden files")
    func sampleLogs() throws {
        for (path, contents) in try GoldenReportTests.sampleReport().sorted(by: { $0.key < $1.key }) {
            let golden = GoldenReportTests.fixtures + "/" + path
            if GoldenReportTests.recording {
                try FileManager.default.createDirectory(atPath: (golden as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try contents.write(toFile: golden, atomically: true, encoding: .utf8)
                continue
            }
            let expected = try String(contentsOfFile: golden, encoding: .utf8)
            if contents != expected {
                let line = zip(contents.split(separator: "\n", omittingEmptySubsequences: false), expected.split(separator: "\n", omittingEmptySubsequences: false))
                    .enumerated().first { $0.element.0 != $0.element.1 }
                Issue.record("\(path) differs from its golden file at line \((line?.offset ?? -1) + 1): got `\(line?.element.0 ?? "")`, expected `\(line?.element.1 ?? "")`. Run RECORD_GOLDEN=1 swift test if the change is intended.")
            }
        }
    }

    @Test("--report md|json|csv prints exactly what --out writes")
    func stdoutEqualsFiles() throws {
        let files = try GoldenReportTests.sampleReport()
        for (format, file) in [("md", "report.md"), ("json", "report.json"), ("csv", "costs.csv")] {
            let result = runCLI(["analyze", "--report", format, "--quiet"], workingDirectory: packageRoot)
            #expect(result.code == .success)
            #expect(result.stdout == files[file], "--report \(format) differs from \(file)")
        }
        #expect(runCLI(["analyze", "--json", "--quiet"], workingDirectory: packageRoot).stdout == files["report.json"])
    }

    @Test("the SVG charts are well-formed XML")
    func charts() throws {
        let files = try GoldenReportTests.sampleReport()
        for path in ReportCharts.files {
            let parser = XMLParser(data: Data(try #require(files[path]).utf8))
            #expect(parser.parse(), "\(path): \(parser.parserError.map { "\($0)" } ?? "")")
        }
    }
}
