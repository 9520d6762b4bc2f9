import Foundation
import Testing
@testable import PlacesCostKit

/// docs/instrumentation.md: the recipes it shows are the code the tests compile and run.
@Suite("Instrumentation recipes")
struct InstrumentationRecipeTests {
    static let document = packageRoot + "/docs/instrumentation.md"

    /// A stand-in for GMSPlacesClient: answers at once, remembers what it was asked.
    final class FakePlacesClient: PlacesCalls {
        struct Token {}
        struct Fields: OptionSet {
            let rawValue: Int
            static let formattedAddress = Fields(rawValue: 1)
            static let coordinate = Fields(rawValue: 2)
        }
        var queries: [String] = []

        func findAutocompletePredictions(fromQuery query: String, filter: Never?, sessionToken: Token?, callback: @escaping ([String]?, (any Error)?) -> Void) {
            queries.append(query)
            callback(["a place"], nil)
        }

        func fetchPlace(fromPlaceID placeID: String, placeFields: Fields, sessionToken: Token?, callback: @escaping (String?, (any Error)?) -> Void) {
            callback("the place", nil)
        }
    }

    /// The lines between `// recipe: NAME begin` and `// recipe: NAME end` of a source file.
    static func recipe(_ name: String, in path: String) throws -> String {
        let text = try String(contentsOfFile: packageRoot + "/" + path, encoding: .utf8)
        let begin = try #require(text.range(of: "// recipe: \(name) begin\n"))
        let end = try #require(text.range(of: "// recipe: \(name) end\n"))
        return String(text[begin.upperBound..<end.lowerBound])
    }

    @Test("The iOS wrapper logs canonical lines without the typed text, and analyze reads them as the searches made")
    func iosWrapper() throws {
        var lines: [String] = []
        let client = FakePlacesClient()
        let places = LoggedPlaces(client, fieldNames: { fields in
            (fields.contains(.formattedAddress) ? ["formatted_address"] : []) + (fields.contains(.coordinate) ? ["geometry"] : [])
        }, write: { lines.append($0) })
        // A search that ends in a place: three keystrokes, non-ASCII among them.
        let search = places.newSearch(.init())
        for query in ["Zü", "Züri", "Zürich"] { places.autocomplete(query, in: search) { _, _ in } }
        places.fetchPlace("ChIJ-place", fields: [.formattedAddress, .coordinate], in: search) { _, _ in }
        // A search the user gives up.
        let abandoned = places.newSearch(.init())
        for query in ["ca", "caf\u{E9}"] { places.autocomplete(query, in: abandoned) { _, _ in } }

        #expect(client.queries == ["Zü", "Züri", "Zürich", "ca", "café"])
        #expect(lines.count == 6)
        for line in lines {
            // "caf" alone is no proof: a random token's hex digits can spell it.
            #expect(!line.contains("Zü") && !line.contains("caf\u{E9}") && !line.contains("\"ca\""), "no typed text in \(line)")
        }
        let directory = TemporaryDirectory()
        let log = directory.write("app.jsonl", lines.joined(separator: "\n") + "\n")
        let result = runCLI(["analyze", log, "--json", "--quiet"])
        #expect(result.code == .success, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let searches = try #require(report["searches"] as? [String: Any])
        #expect(searches["total"] as? Int == 2)
        #expect(searches["completed"] as? Int == 1)
        #expect(searches["avg_chars_at_selection"] as? Double == 6, "Zürich is 6 code points")
        let anomalies = try #require(report["anomalies"] as? [String: Int])
        #expect(anomalies.values.allSatisfy { $0 == 0 }, "\(anomalies)")
    }

    @Test("docs/instrumentation.md shows the compiled iOS wrapper word for word")
    func documentHoldsTheWrapper() throws {
        let document = try String(contentsOfFile: InstrumentationRecipeTests.document, encoding: .utf8)
        let code = try InstrumentationRecipeTests.recipe("ios-legacy", in: "Tests/PlacesCostKitTests/Instrumentation/PlacesTelemetry.swift")
        #expect(document.contains("```swift\n" + code + "```\n"), "copy the recipe between the markers of PlacesTelemetry.swift into docs/instrumentation.md")
    }

    @Test("docs/instrumentation.md shows the warehouse views of scripts/sql word for word")
    func documentHoldsTheViews() throws {
        let document = try String(contentsOfFile: InstrumentationRecipeTests.document, encoding: .utf8)
        for file in ["scripts/sql/firebase_view_bigquery.sql", "scripts/sql/firebase_view_duckdb.sql"] {
            let sql = try String(contentsOfFile: packageRoot + "/" + file, encoding: .utf8)
            #expect(document.contains("```sql\n" + sql + "```\n"), "\(file)")
        }
    }

    /// A page's searches through the web recipe, on a stand-in for the Maps JavaScript API that
    /// records what the API was asked; prints the logged lines, then the queries asked, as JSON.
    static let webPage = #"""
    import { loggedPlaces } from "./recipe.mjs";
    const asked = [];
    globalThis.google = { maps: { places: {
      AutocompleteSessionToken: class {},
      AutocompleteService: class { getPlacePredictions(request) { asked.push(request.input); return Promise.resolve({ predictions: [] }); } },
      AutocompleteSuggestion: { fetchAutocompleteSuggestions(request) { asked.push(request.input); return Promise.resolve({ suggestions: [] }); } },
    } } };
    const lines = [];
    const places = loggedPlaces((line) => lines.push(line));
    const placesService = { getDetails(request, callback) { callback({ place_id: request.placeId }, "OK"); } };
    // Legacy: a search ended by a place, with non-ASCII text; a search given up.
    const chosen = places.newSearch();
    for (const input of ["Zü", "Züri", "Zürich"]) await places.predictions(input, chosen);
    places.details(placesService, "ChIJ-place", ["formatted_address", "geometry"], chosen, () => {});
    const abandoned = places.newSearch();
    for (const input of ["ca", "café"]) await places.predictions(input, abandoned);
    // Places API (New): suggestions, then the chosen place's fields.
    const fresh = places.newSearch();
    for (const input of ["Ber", "Berl"]) await places.suggestions(input, fresh);
    await places.fetchFields({ fetchFields: async () => ({}) }, ["formattedAddress", "location"], fresh);
    console.log(JSON.stringify({ lines, asked }));
    """#

    @Test("The web recipe, run in node on a stand-in for the Maps JavaScript API, logs lines without the typed text that analyze reads as the searches made")
    func webRecipeRuns() throws {
        let document = try String(contentsOfFile: InstrumentationRecipeTests.document, encoding: .utf8)
        let recipe = try #require(document.components(separatedBy: "```js\n").dropFirst().first?.components(separatedBy: "```\n").first)
        // `.ci/run` installs node (and sets PLACESCOST_BROWSER_TESTS): there, its absence fails.
        guard let node = CompletionScriptTests.installed("node") else {
            if ProcessInfo.processInfo.environment["PLACESCOST_BROWSER_TESTS"] == "1" { Issue.record("node is not installed") }
            return
        }
        let directory = TemporaryDirectory()
        directory.write("recipe.mjs", recipe)
        directory.write("page.mjs", InstrumentationRecipeTests.webPage)
        let result = try CompletionScriptTests.run(node, ["page.mjs"], in: directory.path)
        #expect(result.status == 0, "\(result.output)")
        let output = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: [String]])
        let lines = try #require(output["lines"])
        #expect(output["asked"] == ["Zü", "Züri", "Zürich", "ca", "café", "Ber", "Berl"], "the API still gets what was typed")
        #expect(lines.count == 9)
        for line in lines {
            #expect(!line.contains("Zü") && !line.contains("caf\u{E9}") && !line.contains("\"ca\"") && !line.contains("Ber"), "no typed text in \(line)")
        }
        let log = directory.write("web.jsonl", lines.joined(separator: "\n") + "\n")
        let analyzed = runCLI(["analyze", log, "--json", "--quiet"])
        #expect(analyzed.code == .success, "\(analyzed.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(analyzed.stdout.utf8)) as? [String: Any])
        let searches = try #require(report["searches"] as? [String: Any])
        #expect(searches["total"] as? Int == 3 && searches["completed"] as? Int == 2)
        #expect(searches["avg_chars_at_selection"] as? Double == 5, "Zürich is 6 code points, Berl 4")
        #expect((report["anomalies"] as? [String: Int])?.values.allSatisfy { $0 == 0 } == true, "\(String(describing: report["anomalies"]))")
        let byAPI = try #require((report["input"] as? [String: Any])?["by_api"] as? [String: Int])
        #expect(byAPI == ["autocomplete": 7, "place_details": 2])
    }

    @Test("The web recipe is JavaScript node accepts, where node is installed")
    func webRecipeParses() throws {
        let document = try String(contentsOfFile: InstrumentationRecipeTests.document, encoding: .utf8)
        let blocks = document.components(separatedBy: "```js\n").dropFirst().map { $0.components(separatedBy: "```\n")[0] }
        #expect(!blocks.isEmpty)
        guard let node = CompletionScriptTests.installed("node") else { return }
        let directory = TemporaryDirectory()
        for (index, block) in blocks.enumerated() {
            let file = directory.write("recipe-\(index).mjs", block)
            let result = try CompletionScriptTests.run(node, ["--check", file])
            #expect(result.status == 0, "\(result.output)")
        }
    }
}
