import Foundation
import Testing
@testable import PlacesCostKit

/// `SampleLogs/` holds one week of traffic three ways: the canonical JSON Lines log, a proxy's
/// access log of the same calls (legacy URLs) and a HAR capture of them (Places API New); see
/// `scripts/render_sample_formats.py`.
@Suite("The sample traffic in three formats")
struct SampleFormatsTests {
    static let canonical = packageRoot + "/SampleLogs/ios-app.jsonl"
    static let accessLog = packageRoot + "/SampleLogs/proxy/access.log"
    static let har = packageRoot + "/SampleLogs/har/web-app.har"
    static let plantedKey = "AIzaSyDEMO-not-a-real-key-0000000000000"

    func analyze(_ path: String) throws -> Analysis {
        var options = Analyzer.Options()
        options.keepSearches = true
        return try Analyzer(options: options).analyze(paths: [path]).0
    }

    @Test("the access log and the HAR give the canonical log's records, searches and anomalies")
    func sameSearches() throws {
        let canonical = try analyze(SampleFormatsTests.canonical)
        for path in [SampleFormatsTests.accessLog, SampleFormatsTests.har] {
            let other = try analyze(path)
            #expect(other.input.records == canonical.input.records, "\(path)")
            #expect(other.input.rejected == 0)
            #expect(other.statistics == canonical.statistics, "\(path)")
            #expect(other.sessions.anomalies == canonical.sessions.anomalies, "\(path)")
            #expect(other.sessions.keptSearches.map(\.requestInputLengths) == canonical.sessions.keptSearches.map(\.requestInputLengths))
        }
    }

    @Test("the access log of legacy URLs costs what the canonical log costs, strategy by strategy")
    func sameCosts() throws {
        var options = Analyzer.Options()
        options.pricing = "legacy-list"
        let canonical = try Analyzer(options: options).analyze(paths: [SampleFormatsTests.canonical]).0
        let access = try Analyzer(options: options).analyze(paths: [SampleFormatsTests.accessLog]).0
        #expect(access.pricing.strategies.map(\.listCostUSD) == canonical.pricing.strategies.map(\.listCostUSD))
    }

    @Test("the API key in every request reaches no output", arguments: [accessLog, har])
    func noKey(path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(SampleFormatsTests.plantedKey), "the sample must carry the key, or this proves nothing")
        let directory = TemporaryDirectory()
        // A malformed line carrying a key, so that a diagnostic is printed too.
        let broken = directory.write(path.hasSuffix(".har") ? "broken.har" : "broken.log",
            path.hasSuffix(".har")
                ? #"{"log":{"version":"1.2","entries":[{"request":{"method":"GET","url":"https://maps.googleapis.com/maps/api/place/autocomplete/json?input=a&key=\#(SampleFormatsTests.plantedKey)","headers":[{"name":"X-Goog-Api-Key","value":"\#(SampleFormatsTests.plantedKey)"}]}}]}}"#
                : "203.0.113.7 - - [99/Xyz/2026:09:00:03 +0000] \"GET /maps/api/place/autocomplete/json?input=a&key=\(SampleFormatsTests.plantedKey) HTTP/1.1\" 200 1 \"-\" \"-\"\n" + text.split(separator: "\n").prefix(50).joined(separator: "\n") + "\n")
        for arguments in [[path, "--out", directory.path + "/out", "--report", "md"], [path, "--json"], [broken, "--json"], [path, "--format", "jsonl"]] {
            let result = runCLI(["analyze"] + arguments, workingDirectory: packageRoot)
            #expect(!result.stdout.contains(SampleFormatsTests.plantedKey) && !result.stderr.contains(SampleFormatsTests.plantedKey), "\(arguments)")
            #expect(!result.stdout.contains("AIzaSy") && !result.stderr.contains("AIzaSy"), "\(arguments)")
        }
        let written = try FileManager.default.subpathsOfDirectory(atPath: directory.path + "/out")
        #expect(written.contains("report.json"))
        for file in written where file.contains(".") {
            let contents = try String(contentsOfFile: directory.path + "/out/" + file, encoding: .utf8)
            #expect(!contents.contains("AIzaSy"), "\(file)")
        }
    }

    static let browserCapture = packageRoot + "/SampleLogs/har/maps-javascript-page.har"

    @Test("the browser capture is what its README command generates, and reads as both JavaScript libraries")
    func browserCapture() throws {
        let directory = TemporaryDirectory()
        let regenerated = directory.path + "/page.har"
        #expect(runCLI(["generate", "--searches", "120", "--seed", "11", "--format", "har", "--days", "1", "--out", regenerated]).code == .success)
        #expect(try Data(contentsOf: URL(fileURLWithPath: regenerated)) == Data(contentsOf: URL(fileURLWithPath: SampleFormatsTests.browserCapture)))
        let analysis = try analyze(SampleFormatsTests.browserCapture)
        #expect(analysis.input.rejected == 0)
        #expect(Set(analysis.input.platforms.map(\.platform)) == [.javascript])
        #expect(Set(analysis.input.platforms.map(\.generation)) == [.legacy, .new])
        #expect(analysis.input.skippedRequests > 50, "the map tiles")
        #expect(analysis.sessions.anomalies.fieldsUnspecified > 0 && analysis.sessions.anomalies.tokenReused > 0)
        // The same traffic as a canonical log: the same token searches and anomalies (a browser
        // sends no user id, so token-less calls make no inferred search).
        let canonical = directory.write("page.jsonl", "")
        #expect(runCLI(["generate", "--searches", "120", "--seed", "11", "--days", "1", "--out", canonical]).code == .success)
        let expected = try analyze(canonical)
        #expect(analysis.input.records == expected.input.records)
        #expect(analysis.sessions.anomalies == expected.sessions.anomalies)
        #expect(analysis.statistics.total == expected.statistics.total - expected.sessions.searches.filter { $0.search.kind == .inferred }.map(\.count).reduce(0, +))
    }
}
