import Foundation
import Testing
@testable import PlacesCostKit

/// Names that come from the input reach every report escaped for its format, and a log naming
/// any number of unknown APIs gives bounded reports.
@Suite("Hostile names in reports")
struct HostileNamesTests {
    static let hostile = [
        "# Heading", "<img src=x onerror=alert(1)>", "a | b | c", "`code` span", "line\nbreak", "[x](javascript:alert(1))",
        "**bold** _it_", "\u{202E}txt.exe", "&amp; &#60;script&#62;", "\\|", "- item", "1. item", "> quote", "<!-- comment",
        String(repeating: "w", count: 10_000), "tab\there", " padded ", "</details>",
    ]

    static func log(apis: [String]) -> String {
        let calls = [ac(0, "a", "12"), ac(1, "a", "123"), details(2, "a")] + apis.enumerated().map { index, api in
            TestRecord(at: Double(10 + index), api: api)
        }
        return calls.map(\.jsonLine).joined(separator: "\n")
    }

    /// The lines of `markdown` outside fenced code, and whether each is a table row.
    static func unescapedPipes(_ line: String) -> Int {
        var count = 0
        var escaped = false
        var inCode = false
        for character in line {
            if escaped {
                escaped = false
                continue
            }
            switch character {
            case "\\": escaped = !inCode
            case "`": inCode.toggle()
            case "|": if !inCode { count += 1 }
            default: break
            }
        }
        return count
    }

    @Test("Unknown API names, file names and billing SKUs cannot add a heading, an HTML tag, a table cell or a line to report.md")
    func markdownEscaping() throws {
        let directory = TemporaryDirectory()
        let clean = directory.write("clean.jsonl", Self.log(apis: ["find_place"]))
        let hostile = directory.write("<b>x<b> | #1 `x`.jsonl", Self.log(apis: Self.hostile))
        let cleanRun = runCLI(["analyze", clean, "--pricing", "legacy-list"])
        let run = runCLI(["analyze", hostile, "--pricing", "legacy-list"])
        #expect(run.code == .success)
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let headings = { (text: String) in text.split(separator: "\n").filter { $0.hasPrefix("#") } }
        #expect(headings(run.stdout) == headings(cleanRun.stdout))
        for tag in ["<img", "<b>", "</details>\n</details>", "<!--", "<script"] {
            #expect(!run.stdout.contains(tag), "raw \(tag) in report.md")
        }
        #expect(!run.stdout.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" || $0 == "\u{202E}" })
        // Every table row has as many cell separators as its table's header.
        var columns: Int?
        for line in lines {
            guard line.hasPrefix("|") else {
                columns = nil
                continue
            }
            let pipes = Self.unescapedPipes(String(line))
            if let columns { #expect(pipes == columns, "\(line)") } else { columns = pipes }
        }
        #expect(lines.allSatisfy { $0.count < 4_000 })
        // A hostile name that reads as a name is there, escaped where Markdown would take it as
        // a list; the others are counted under one name that quotes none of them.
        #expect(run.stdout.contains("| `- item` | 1 |") && run.stdout.contains("| `1. item` | 1 |"), "\(run.stdout)")
        #expect(run.stdout.contains("| `\(API.unreadableName)` | 15 |"), "\(run.stdout)")
        #expect(!run.stdout.contains("onerror") && !run.stdout.contains("wwwwwwww"))
    }

    @Test("A name is inline code when it can be, escaped text otherwise", arguments: [
        ("autocomplete", "`autocomplete`"), ("Find Place (not priced)", "`Find Place (not priced)`"),
        ("a|b", "a\\|b"), ("<b>", "&lt;b&gt;"), ("`x`", "\\`x\\`"), ("# h", "`# h`"), ("\n", "\u{FFFD}"), (" x", " x"),
        ("Places API Autocomplete – Per Request", "`Places API Autocomplete – Per Request`"),
    ])
    func name(_ text: String, _ expected: String) {
        #expect(MarkdownText.name(text) == expected)
    }

    @Test("200 distinct unknown API names: the 20 most called are listed, the rest are one line; every call is still counted")
    func boundedUnknownNames() throws {
        let directory = TemporaryDirectory()
        // x_api_0 is called 3 times, x_api_1..4 twice: they are listed whatever their names sort as.
        let names = (0..<200).map { "x_api_\($0)" } + ["x_api_0", "x_api_0"] + (1...4).map { "x_api_\($0)" }
        let file = directory.write("many.jsonl", Self.log(apis: names))
        let out = directory.path + "/out"
        let run = runCLI(["analyze", file, "--out", out, "--quiet", "--pricing", "legacy-list"])
        #expect(run.code == .success)
        let report = try MalformedCorpusTests.object(String(contentsOfFile: out + "/report.json", encoding: .utf8))
        let input = try #require(report["input"] as? [String: Any])
        let byAPI = try #require(input["by_api"] as? [String: Int])
        let unknown = byAPI.filter { !["autocomplete", "place_details"].contains($0.key) }
        #expect(unknown.count == UnknownAPIList.listed + 1)
        #expect(unknown["x_api_0"] == 3)
        #expect((1...4).allSatisfy { unknown["x_api_\($0)"] == 2 })
        #expect(unknown["180 other unknown API names"] == 180)
        #expect(byAPI.values.reduce(0, +) == input["records"] as? Int)
        let costs = try String(contentsOfFile: out + "/costs.csv", encoding: .utf8)
        #expect(!costs.contains("x_api_199"))
        let markdown = try String(contentsOfFile: out + "/report.md", encoding: .utf8)
        #expect(markdown.contains("180 other unknown API names"))
    }

    @Test("The fold is by calls then name, and leaves logs with few unknown names as they are")
    func foldRule() {
        let few = UnknownAPIList(callsByName: ["b": 1, "a": 1])
        #expect(few.folding(["b": 1, "a": 1, "autocomplete": 5]) == ["b": 1, "a": 1, "autocomplete": 5])
        var counts = Dictionary(uniqueKeysWithValues: (0..<25).map { ("n\($0)", 1) })
        counts["z"] = 9
        let list = UnknownAPIList(callsByName: counts)
        #expect(list.kept.contains("z") && list.kept.count == 20)
        #expect(list.foldedNames == 6 && list.foldedCalls == 6)
        // Ties by name: n0, n1, n10, ... n24, n3 come first as strings.
        #expect(list.shownName("n0") == "n0" && list.shownName("n9") == "6 other unknown API names")
    }

    @Test("A price table whose id is not a plain name is rejected, naming the key")
    func priceTableID() throws {
        let directory = TemporaryDirectory()
        let bundled = try String(contentsOfFile: packageRoot + "/Pricing/legacy-list.json", encoding: .utf8)
        let table = directory.write("t.json", bundled.replacingOccurrences(of: "\"id\": \"legacy-list\"", with: "\"id\": \"<img src=x> | # x\""))
        #expect(table != "" && bundled.contains("\"id\": \"legacy-list\""))
        let log = directory.write("log.jsonl", Self.log(apis: []))
        let run = runCLI(["analyze", log, "--pricing", table])
        #expect(run.code == .dataError)
        #expect(run.stderr.contains("at `id`: expected 1 to 64 letters"))
        #expect(!run.stderr.contains("<img"))
    }
}
