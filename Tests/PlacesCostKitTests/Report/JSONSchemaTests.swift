import Foundation
import Testing
@testable import PlacesCostKit

/// The JSON Schemas of `docs/schema/` against the documents the commands print, and the test
/// validator (`Support/JSONSchemaValidator.swift`) against hand-made documents, so that a
/// passing run means the validator could have failed.
@Suite("JSON Schemas")
struct JSONSchemaTests {
    static let folder = packageRoot + "/docs/schema"

    /// Each output: its schema file, the `schema` key the renderer writes, the file's `$id`.
    static let outputs: [(file: String, schemaKey: String, id: String)] = [
        ("report.schema.json", JSONReportRenderer.schema, "urn:placescost:report:1"),
        ("simulation.schema.json", SimulationRenderer.schema, "urn:placescost:simulation:1"),
        ("reconciliation.schema.json", ReconciliationRenderer.schema, "urn:placescost:reconciliation:1"),
        ("comparison.schema.json", ComparisonRenderer.schema, "urn:placescost:comparison:2"),
        ("forecast.schema.json", ForecastRenderer.schema, "urn:placescost:forecast:1"),
        ("whatif.schema.json", ScenarioRenderer.schema, "urn:placescost:whatif:1"),
    ]

    /// `compare --json` of the README's worked example: the sample log before and after its
    /// token mistakes were fixed.
    static let workedComparison = ["compare", "SampleLogs/ios-app.jsonl", "docs/examples/after-fix/ios-app.jsonl", "--json", "--quiet"]

    static func schema(_ file: String) throws -> JSONTree {
        try JSONTree(parsing: String(contentsOfFile: folder + "/" + file, encoding: .utf8))
    }

    static func validator(_ file: String) throws -> JSONSchemaValidator {
        try JSONSchemaValidator(schema: schema(file))
    }

    /// Parses a command's standard output and checks it against `file`; returns the document.
    @discardableResult
    static func expectValid(_ output: String, against file: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> JSONTree {
        let document = try JSONTree(parsing: output)
        let violations = try validator(file).validate(document)
        #expect(violations.isEmpty, "\(file): \(violations.prefix(10).map(\.description).joined(separator: "\n"))", sourceLocation: sourceLocation)
        return document
    }

    /// A generated log of two calendar months (so that months, tables and credits repeat).
    static func generatedLog(_ directory: TemporaryDirectory, format: String = "jsonl") -> String {
        let path = directory.path + "/generated." + (format == "access-log" ? "log" : format)
        let result = runCLI(["generate", "--searches", "1500", "--seed", "24", "--start", "2026-10-20", "--days", "20", "--format", format, "--out", path])
        #expect(result.code == .success, "\(result.stderr)")
        return path
    }

    // MARK: - The validator

    static let handMadeSchema = #"""
    {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "$id": "urn:placescost:test:1",
      "type": "object",
      "required": ["id", "count", "kind"],
      "additionalProperties": false,
      "properties": {
        "id": {"const": "t/1"},
        "count": {"$ref": "#/$defs/count"},
        "kind": {"enum": ["a", "b"]},
        "ratio": {"type": ["number", "null"], "minimum": 0, "maximum": 1},
        "month": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}$"},
        "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "counts": {"type": "object", "propertyNames": {"pattern": "^[0-9]+$"}, "additionalProperties": {"$ref": "#/$defs/count"}},
        "either": {"anyOf": [{"type": "object", "required": ["x"], "additionalProperties": false, "properties": {"x": {"type": "integer"}}}, {"type": "null"}]}
      },
      "$defs": {"count": {"type": "integer", "minimum": 0}}
    }
    """#

    @Test("the validator accepts documents that keep the schema", arguments: [
        #"{"id": "t/1", "count": 0, "kind": "a"}"#,
        #"{"kind": "b", "count": 12, "id": "t/1", "ratio": null, "month": "2026-10", "tags": ["x"], "counts": {"1": 2, "10": 0}, "either": {"x": 3}}"#,
        #"{"id": "t/1", "count": 1e3, "kind": "a", "ratio": 0.25, "either": null, "counts": {}}"#,
        #"{"id": "t/1", "count": 2.0, "kind": "a", "ratio": 1}"#,
    ])
    func validatorAccepts(document: String) throws {
        let validator = try JSONSchemaValidator(schema: JSONTree(parsing: JSONSchemaTests.handMadeSchema))
        let violations = validator.validate(try JSONTree(parsing: document))
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test("the validator rejects each kind of violation, naming where", arguments: [
        (#"{"count": 0, "kind": "a"}"#, "", "the required key `id` is missing"),
        (#"{"id": "t/2", "count": 0, "kind": "a"}"#, "/id", "expected \"t/1\""),
        (#"{"id": "t/1", "count": "0", "kind": "a"}"#, "/count", "expected integer, found string"),
        (#"{"id": "t/1", "count": 1.5, "kind": "a"}"#, "/count", "expected integer, found number"),
        (#"{"id": "t/1", "count": -1, "kind": "a"}"#, "/count", "below the minimum 0"),
        (#"{"id": "t/1", "count": 0, "kind": "c"}"#, "/kind", "is not one of"),
        (#"{"id": "t/1", "count": 0, "kind": "a", "extra": 1}"#, "/extra", "the key `extra` is not in the schema"),
        (#"{"id": "t/1", "count": 0, "kind": "a", "ratio": 1.01}"#, "/ratio", "above the maximum 1"),
        (#"{"id": "t/1", "count": 0, "kind": "a", "ratio": true}"#, "/ratio", "expected number or null, found boolean"),
        (#"{"id": "t/1", "count": 0, "kind": "a", "month": "2026-1"}"#, "/month", "does not match the pattern"),
        (#"{"id": "t/1", "count": 0, "kind": "a", "tags": []}"#, "/tags", "at least 1 elements"),
        (#"{"id": "t/1", "count": 0, "kind": "a", "tags": ["x", 1]}"#, "/tags/1", "expected string"),
        (#"{"id": "t/1", "count": 0, "kind": "a", "counts": {"a/b": 1}}"#, "/counts/a~1b", "the key: \"a/b\" does not match"),
        (#"{"id": "t/1", "count": 0, "kind": "a", "counts": {"1": -1}}"#, "/counts/1", "below the minimum"),
        (#"{"id": "t/1", "count": 0, "kind": "a", "either": {"x": 1, "y": 2}}"#, "/either", "matches none of the 2 schemas"),
        (#"[]"#, "", "expected object, found array"),
    ])
    func validatorRejects(document: String, path: String, message: String) throws {
        let validator = try JSONSchemaValidator(schema: JSONTree(parsing: JSONSchemaTests.handMadeSchema))
        let violations = validator.validate(try JSONTree(parsing: document))
        #expect(violations.count == 1, "\(violations)")
        #expect(violations.first?.path == path)
        #expect(violations.first?.message.contains(message) == true, "\(violations)")
    }

    @Test("the validator refuses a schema outside its subset instead of skipping a check", arguments: [
        (#"{"type": "object", "patternProperties": {"^a": true}}"#, JSONSchemaValidator.SchemaError.unsupportedKeyword(path: "", keyword: "patternProperties")),
        (#"{"properties": {"a": {"format": "date"}}}"#, .unsupportedKeyword(path: "/properties/a", keyword: "format")),
        (##"{"items": {"$ref": "#/$defs/missing"}, "$defs": {}}"##, .unresolvedReference(path: "/items", reference: "#/$defs/missing")),
        (##"{"items": {"$ref": "other.json#/$defs/a"}}"##, .unresolvedReference(path: "/items", reference: "other.json#/$defs/a")),
        (#"{"type": "float"}"#, .malformedKeyword(path: "", keyword: "type", expected: "a type name or a non-empty list of them")),
        (#"{"properties": {"a": {"$id": "urn:x"}}}"#, .misplacedKeyword(path: "/properties/a", keyword: "$id")),
        (#"{"properties": {"a": 3}}"#, .notASchema(path: "/properties/a")),
    ])
    func validatorRefusesSchema(schema: String, error: JSONSchemaValidator.SchemaError) throws {
        #expect(throws: error) { try JSONSchemaValidator(schema: JSONTree(parsing: schema)) }
    }

    @Test("the test parser reads JSON strictly: a repeated key, trailing text or a bad number is an error", arguments: [
        #"{"a": 1, "a": 2}"#, #"{"a": 1} x"#, #"[01]"#, #"[1.]"#, #"{"a": nul}"#, "[\"\u{01}\"]", #"[1,]"#, #""\ud800""#, #"NaN"#,
    ])
    func parserRejects(text: String) {
        #expect(throws: JSONTreeParser.Failure.self) { try JSONTree(parsing: text) }
    }

    @Test("the test parser reads escapes, surrogate pairs and numbers as JSON spells them")
    func parserReads() throws {
        let tree = try JSONTree(parsing: #" {"s": "a\"\\\/\n\u00e9\ud83d\ude00", "n": [-0, 1.5e2, 1E-2, 12], "o": {}, "l": [true, false, null]} "#)
        #expect(tree["s"] == .string("a\"\\/\né😀"))
        #expect(tree["n"] == .array([.number(0), .number(150), .number(0.01), .number(12)]))
        #expect(tree["o"] == .object([]))
        #expect(tree["l"] == .array([.bool(true), .bool(false), .null]))
    }

    // MARK: - The schema files

    @Test("every schema is JSON, draft 2020-12, with its own $id, and within the validator's subset", arguments: outputs.map(\.file))
    func schemaFile(file: String) throws {
        let schema = try JSONSchemaTests.schema(file)
        let output = try #require(JSONSchemaTests.outputs.first { $0.file == file })
        #expect(schema["$schema"] == .string("https://json-schema.org/draft/2020-12/schema"))
        #expect(schema["$id"] == .string(output.id))
        #expect(schema["title"]?.string?.isEmpty == false)
        #expect(schema["type"] == .string("object"))
        #expect(schema["additionalProperties"] == .bool(false))
        _ = try JSONSchemaValidator(schema: schema)
    }

    @Test("each schema's `schema` key is the renderer's, and its $id is urn:placescost:NAME:VERSION of it", arguments: outputs.map(\.file))
    func schemaIDs(file: String) throws {
        let schema = try JSONSchemaTests.schema(file)
        let output = try #require(JSONSchemaTests.outputs.first { $0.file == file })
        #expect(schema["properties"]?["schema"]?["const"] == .string(output.schemaKey))
        #expect(schema["required"].map { required in
            guard case .array(let names) = required else { return false }
            return names.contains(.string("schema"))
        } == true)
        // placescost.NAME/VERSION <-> urn:placescost:NAME:VERSION <-> docs/schema/NAME.schema.json
        let parts = output.schemaKey.split(separator: "/")
        let name = parts[0].dropFirst("placescost.".count)
        #expect(output.schemaKey.hasPrefix("placescost.") && parts.count == 2)
        #expect(output.id == "urn:placescost:\(name):\(parts[1])")
        #expect(file == "\(name).schema.json")
        #expect(Set(JSONSchemaTests.outputs.map(\.schemaKey)).count == JSONSchemaTests.outputs.count)
    }

    @Test("simulate's schema repeats report.json's definitions of pricing and recommendation word for word")
    func sharedDefinitions() throws {
        let report = try JSONSchemaTests.schema("report.schema.json")["$defs"]!
        let simulation = try JSONSchemaTests.schema("simulation.schema.json")["$defs"]!
        // Months are `YYYY-MM` in report.json but `month N` in a simulation; a simulated strategy
        // has two figures per search more. Every other definition they share must be the same.
        let differing: Set<String> = ["month", "strategy"]
        let shared = Set(report.members.map(\.key)).intersection(simulation.members.map(\.key))
        #expect(shared.isSuperset(of: ["pricing", "recommendation", "option", "ranked_option", "strategy_month"]))
        for name in shared.subtracting(differing).sorted() {
            #expect(report[name] == simulation[name], "$defs/\(name) differs between report.schema.json and simulation.schema.json")
        }
        let reportStrategy = report["strategy"]!["properties"]!.members.map(\.key)
        let simulatedStrategy = simulation["strategy"]!["properties"]!.members.map(\.key)
        #expect(simulatedStrategy == reportStrategy + ["requests_per_search", "list_cost_per_search_usd"])
        let reconciliation = try JSONSchemaTests.schema("reconciliation.schema.json")["$defs"]!
        for member in reconciliation.members {
            #expect(report[member.key] == member.value, "$defs/\(member.key) differs between report.schema.json and reconciliation.schema.json")
        }
    }

    // MARK: - analyze --json

    @Test("analyze --json on the bundled SampleLogs validates, and so does the golden report.json")
    func sampleLogs() throws {
        let result = runCLI(["analyze", "--json", "--quiet"], workingDirectory: packageRoot)
        #expect(result.code == .success, "\(result.stderr)")
        let document = try JSONSchemaTests.expectValid(result.stdout, against: "report.schema.json")
        #expect(document["schema"] == .string("placescost.report/1"))
        let golden = try String(contentsOfFile: packageRoot + "/Tests/PlacesCostKitTests/Fixtures/golden/sample-logs/report.json", encoding: .utf8)
        try JSONSchemaTests.expectValid(golden, against: "report.schema.json")
    }

    @Test("analyze --json on a generated log validates: --scale 300, --pricing places-new-2025, --timestamp, other formats", arguments: [
        ["--scale", "300"],
        ["--pricing", "places-new-2025", "--timestamp"],
        ["--pricing", "legacy-2018", "--scale", "300", "--delays", "2,9", "--max-delay", "6", "--dedupe"],
        ["--format", "csv", "--session-timeout", "60", "--user-gap", "10", "--timezone", "Asia/Tokyo"],
        ["--format", "access-log"],
        ["--by", "platform", "--scale", "300"],
        ["--by", "day", "--timezone", "Asia/Tokyo"],
        ["--by", "project"],
        ["--by", "api_version", "--format", "har"],
    ])
    func generatedLog(options: [String]) throws {
        let directory = TemporaryDirectory()
        let format = options.firstIndex(of: "--format").map { options[$0 + 1] } ?? "jsonl"
        let log = JSONSchemaTests.generatedLog(directory, format: format)
        let result = runCLI(["analyze", log, "--json", "--quiet"] + options, workingDirectory: packageRoot)
        #expect(result.code == .success, "\(result.stderr)")
        let document = try JSONSchemaTests.expectValid(result.stdout, against: "report.schema.json")
        #expect((document["generated_at"] != nil) == options.contains("--timestamp"))
        #expect((document["by"] != nil) == options.contains("--by"))
    }

    @Test("analyze --json on the Maps JavaScript API capture validates")
    func harCapture() throws {
        let result = runCLI(["analyze", "SampleLogs/har/maps-javascript-page.har", "--json", "--quiet"], workingDirectory: packageRoot)
        #expect(result.code == .success, "\(result.stderr)")
        let document = try JSONSchemaTests.expectValid(result.stdout, against: "report.schema.json")
        #expect(document["input"]?["platforms"]?[0]?["platform"] == .string("javascript"))
    }

    // MARK: - simulate --json

    @Test("simulate --json validates, with and without options", arguments: [
        [],
        ["--requests", "3.5", "--months", "3", "--pricing", "legacy-2018", "--needs-details", "yes", "--delays", "2,9"],
        ["--chars", "12", "--delay", "2", "--completion-rate", "0.4", "--fields", "name,formatted_address", "--max-delay", "6", "--pricing", "legacy-list"],
        ["--searches", "1000000000000", "--requests", "10000", "--months", "2", "--pricing", "legacy-2018"],
        ["--searches", "1", "--chars", "1", "--completion-rate", "0", "--report", "json"],
    ])
    func simulate(options: [String]) throws {
        let result = runCLI(["simulate", "--json"] + options, workingDirectory: packageRoot)
        #expect(result.code == .success, "\(result.stderr)")
        let document = try JSONSchemaTests.expectValid(result.stdout, against: "simulation.schema.json")
        #expect(document["schema"] == .string("placescost.simulation/1"))
        let report = try JSONSchemaTests.validator("report.schema.json").validate(document)
        #expect(!report.isEmpty, "simulate's JSON is not report.json and must not pass as one")
    }

    @Test("simulate --from --json validates, measured and projected, from a report.json and from a log", arguments: [
        [String](),
        ["--searches", "50000", "--growth", "10", "--months", "12", "--start", "2025-01"],
        ["--months", "2", "--pricing", "legacy-list"],
    ])
    func simulateFrom(options: [String]) throws {
        let directory = TemporaryDirectory()
        let log = JSONSchemaTests.generatedLog(directory)
        for input in [log] {
            let result = runCLI(["simulate", "--json", "--quiet", "--from", input] + options, workingDirectory: packageRoot)
            #expect(result.code == .success, "\(result.stderr)")
            let document = try JSONSchemaTests.expectValid(result.stdout, against: "forecast.schema.json")
            #expect(document["schema"] == .string(ForecastRenderer.schema))
        }
    }

    @Test("simulate --from --scenario --json validates, and the example scenario file validates against its own schema")
    func simulateScenarios() throws {
        let directory = TemporaryDirectory()
        let log = JSONSchemaTests.generatedLog(directory)
        let example = packageRoot + "/docs/examples/scenarios/scenarios.json"
        let result = runCLI(["simulate", "--json", "--quiet", "--from", log, "--scenario", example], workingDirectory: packageRoot)
        #expect(result.code == .success, "\(result.stderr)")
        let document = try JSONSchemaTests.expectValid(result.stdout, against: "whatif.schema.json")
        #expect(document["schema"] == .string(ScenarioRenderer.schema))
        let scenarioSchema = try JSONSchemaTests.validator("scenarios.schema.json")
        let file = try JSONTree(parsing: String(contentsOfFile: example, encoding: .utf8))
        #expect(scenarioSchema.validate(file).isEmpty)
        #expect(try JSONSchemaTests.schema("scenarios.schema.json")["$id"] == .string("urn:placescost:scenarios:1"))
    }

    // MARK: - reconcile --json

    @Test("reconcile --json against the sample cost table validates, on standard output and in --out")
    func reconcileSample() throws {
        let directory = TemporaryDirectory()
        let result = runCLI(
            ["reconcile", "--billing", "SampleLogs/billing/cost-table-2026-10.csv", "--json", "--quiet", "--out", directory.path + "/out"],
            workingDirectory: packageRoot
        )
        #expect(result.code == .success, "\(result.stderr)")
        let document = try JSONSchemaTests.expectValid(result.stdout, against: "reconciliation.schema.json")
        #expect(document["schema"] == .string("placescost.reconciliation/1"))
        #expect(document["suggested_scale"] == .null)
        let written = try String(contentsOfFile: directory.path + "/out/reconciliation.json", encoding: .utf8)
        #expect(written == result.stdout)
    }

    @Test("reconcile --json validates when a sample log suggests a --scale and a SKU is on one side only")
    func reconcileSampled() throws {
        let directory = TemporaryDirectory()
        let log = ReconcileCommandTests.log(directory)
        // Ten times the log's 100 searches billed, and a Geocoding SKU the log never made.
        let bill = directory.write("bill.csv", """
        Date,Service description,Service ID,SKU description,SKU ID,Usage amount,Usage unit,List cost ($),Negotiated savings ($),Savings programs ($),Other savings ($),Unrounded subtotal ($),Subtotal ($)
        2026-10-01,Places API,AAAA,Places Details,1,1000,count,17,0,0,-17,0,0
        2026-10-01,Places API,AAAA,Autocomplete (included with Places Details) - Per Session,2,1000,count,0,0,0,0,0,0
        2026-10-01,Places API,AAAA,Basic Data,3,1000,count,0,0,0,0,0,0
        2026-10-02,Geocoding API,CCCC,Geocoding,4,"5",count,0.025,0,0,0,0.025,0.025
        """)
        let result = runCLI(["reconcile", log, "--billing", bill, "--pricing", "legacy-list", "--json", "--quiet"])
        #expect(result.code == .success, "\(result.stderr)")
        let document = try JSONSchemaTests.expectValid(result.stdout, against: "reconciliation.schema.json")
        #expect(document["billing_file"]?["layout"] == .string("reports-page"))
        guard case .number? = document["suggested_scale"] else {
            Issue.record("expected a suggested scale, found \(String(describing: document["suggested_scale"]))")
            return
        }
    }

    // MARK: - compare --json

    @Test("compare --json validates: the worked example on standard output and in --out, and report.json sides under --scale")
    func comparison() throws {
        let directory = TemporaryDirectory()
        let result = runCLI(JSONSchemaTests.workedComparison + ["--out", directory.path + "/out"], workingDirectory: packageRoot)
        #expect(result.code == .success, "\(result.stderr)")
        try JSONSchemaTests.expectValid(result.stdout, against: "comparison.schema.json")
        let written = try String(contentsOfFile: directory.path + "/out/comparison.json", encoding: .utf8)
        #expect(written == result.stdout)
        let log = JSONSchemaTests.generatedLog(directory)
        let report = directory.path + "/scaled.json"
        let analyzed = runCLI(["analyze", log, "--scale", "300", "--pricing", "places-new-2025", "--json", "--quiet"])
        try analyzed.stdout.write(toFile: report, atomically: true, encoding: .utf8)
        let scaled = runCLI(["compare", report, packageRoot + "/SampleLogs/ios-app.jsonl", "--json", "--quiet"])
        #expect(scaled.code == .success, "\(scaled.stderr)")
        try JSONSchemaTests.expectValid(scaled.stdout, against: "comparison.schema.json")
    }

    // MARK: - Mutated documents

    @Test("a document with a key removed, a wrong type, an unknown key or an unknown enum value fails", arguments: [
        ("report.schema.json", ["input", "records"], nil as JSONTree?, "/input"),
        ("report.schema.json", ["strategies", "0", "cost_usd"], .string("0"), "/strategies/0/cost_usd"),
        ("report.schema.json", ["strategies", "0", "id"], .string("cheapest"), "/strategies/0/id"),
        ("report.schema.json", ["strategies", "0", "skus", "Geocoding"], .number(1.5), "/strategies/0/skus/Geocoding"),
        ("report.schema.json", ["recommendation", "tree_answer", "delay"], .number(-1), "/recommendation/tree_answer"),
        ("report.schema.json", ["anomalies", "token_reused"], .null, "/anomalies/token_reused"),
        ("report.schema.json", ["searches", "requests_histogram", "one"], .number(1), "/searches/requests_histogram/one"),
        ("report.schema.json", ["headline", "surprise"], .bool(true), "/headline/surprise"),
        ("report.schema.json", ["schema"], .string("placescost.simulation/1"), "/schema"),
        ("simulation.schema.json", ["simulation"], nil, ""),
        ("simulation.schema.json", ["strategies", "0", "requests_per_search"], nil, "/strategies/0"),
        ("simulation.schema.json", ["simulation", "completion_rate"], .number(1.5), "/simulation/completion_rate"),
        ("simulation.schema.json", ["simulation", "typing", "chars"], .string("8"), "/simulation/typing"),
        ("reconciliation.schema.json", ["skus", "0", "flagged"], .string("no"), "/skus/0/flagged"),
        ("reconciliation.schema.json", ["billing_file", "layout"], .string("pdf"), "/billing_file/layout"),
        ("reconciliation.schema.json", ["schema"], nil, ""),
        ("comparison.schema.json", ["before", "current", "list_cost_usd"], nil, "/before/current"),
        ("comparison.schema.json", ["anomalies", "0", "after_count"], .string("0"), "/anomalies/0/after_count"),
        ("comparison.schema.json", ["after", "completion_rate"], .number(1.5), "/after/completion_rate"),
        ("comparison.schema.json", ["schema"], .string("placescost.report/1"), "/schema"),
    ])
    func mutated(file: String, path: [String], replacement: JSONTree?, expectedPath: String) throws {
        let output: String
        switch file {
        case "simulation.schema.json":
            output = runCLI(["simulate", "--json"], workingDirectory: packageRoot).stdout
        case "comparison.schema.json":
            output = runCLI(JSONSchemaTests.workedComparison, workingDirectory: packageRoot).stdout
        case "reconciliation.schema.json":
            output = runCLI(["reconcile", "--billing", "SampleLogs/billing/cost-table-2026-10.csv", "--json", "--quiet"], workingDirectory: packageRoot).stdout
        default:
            output = try String(contentsOfFile: packageRoot + "/Tests/PlacesCostKitTests/Fixtures/golden/sample-logs/report.json", encoding: .utf8)
        }
        let validator = try JSONSchemaTests.validator(file)
        let original = try JSONTree(parsing: output)
        #expect(validator.validate(original).isEmpty)
        let changed = original.replacing(path, with: replacement)
        #expect(changed != original, "the mutation at \(path) changed nothing")
        let violations = validator.validate(changed)
        #expect(!violations.isEmpty)
        #expect(violations.contains { $0.path == expectedPath }, "\(violations)")
    }
}
