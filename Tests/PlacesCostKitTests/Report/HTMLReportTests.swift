import Foundation
import Testing
@testable import PlacesCostKit

/// `report.html` is one self-contained page: no script, nothing to fetch, every input-derived
/// name escaped, and only the elements the renderer writes.
@Suite("HTML report")
struct HTMLReportTests {
    /// Every element `HTMLReportRenderer` and the inlined SVG charts write.
    static let elements: Set<String> = [
        "!doctype", "html", "head", "meta", "title", "style", "body", "main", "header", "h1", "h2", "p", "dl", "div",
        "dt", "dd", "strong", "code", "section", "table", "thead", "tbody", "tr", "th", "td", "figure", "figcaption",
        "svg", "rect", "text", "line", "ol", "ul", "li", "details", "summary", "desc", "wbr",
    ]

    /// The names of the elements of `html`, lowercased, closing tags included.
    static func tags(_ html: String) -> Set<String> {
        let regex = try! NSRegularExpression(pattern: "</?([!A-Za-z][^\\s>/]*)")
        let source = html as NSString
        return Set(regex.matches(in: html, range: NSRange(location: 0, length: source.length)).map { source.substring(with: $0.range(at: 1)).lowercased() })
    }

    /// Which of the ways a page can load something `html` holds.
    static func fetches(_ html: String) -> [String] {
        ["src=", "href=", "url(", "@import", "http:", "https:", "//", "<script", "<link", "<img", "<iframe", "<object", "<embed", "srcset", "xlink:", "<base"]
            .filter { html.lowercased().contains($0) }
    }

    @Test("The sample report loads nothing: no script, no URL, a policy that forbids every fetch")
    func selfContained() throws {
        let html = try #require(try GoldenReportTests.sampleReport()["report.html"])
        #expect(Self.fetches(html).isEmpty, "\(Self.fetches(html))")
        #expect(Self.tags(html).isSubset(of: Self.elements), "\(Self.tags(html).subtracting(Self.elements))")
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">"))
        #expect(html.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"))
        #expect(html.contains("@media print"))
        // One figure per chart, each with its inline SVG and a caption; ids unique in the page.
        #expect(html.components(separatedBy: "<figure ").count - 1 == ReportCharts.files.count)
        #expect(html.components(separatedBy: "<svg ").count - 1 == ReportCharts.files.count)
        #expect(html.components(separatedBy: "<figcaption>").count - 1 == ReportCharts.files.count)
        let ids = try NSRegularExpression(pattern: " id=\"([^\"]*)\"").matches(in: html, range: NSRange(location: 0, length: (html as NSString).length))
            .map { (html as NSString).substring(with: $0.range(at: 1)) }
        #expect(Set(ids).count == ids.count && ids.count == ReportCharts.files.count + 9, "\(ids)")
    }

    @Test("The inline charts are the chart files' SVG, without the XML declaration and namespace")
    func inlineCharts() throws {
        let files = try GoldenReportTests.sampleReport()
        let html = try #require(files["report.html"])
        for path in ReportCharts.files {
            let svg = try #require(files[path])
            let inline = HTMLReportRenderer.inlineSVG(svg)
            #expect(html.contains(inline), "\(path) is not inlined whole")
            #expect(!inline.contains("<?xml") && !inline.contains("xmlns"))
            #expect(inline.split(separator: "\n").dropFirst() == svg.split(separator: "\n").dropFirst(2), "\(path): only the first element's attributes change")
        }
    }

    @Test("Unknown API names, file names and the engine's sentences cannot add an element, an attribute or a fetch to report.html")
    func hostileNames() throws {
        let directory = TemporaryDirectory()
        let hostile = directory.write("<b>x<b> | #1 `x` \"'&.jsonl", HostileNamesTests.log(apis: HostileNamesTests.hostile + ["<script>alert(1)</script>", "\" onload=\"x"]))
        // 20 unknown names: every one is listed (more would fold into one line).
        let out = directory.path + "/out"
        let run = runCLI(["analyze", hostile, "--out", out, "--quiet", "--pricing", "legacy-list"])
        #expect(run.code == .success, "\(run.stderr)")
        let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        #expect(Self.tags(html).isSubset(of: Self.elements), "\(Self.tags(html).subtracting(Self.elements))")
        for raw in ["<img", "<b>", "<script", "<!--", "\u{202E}"] {
            #expect(!html.contains(raw), "raw \(raw) in report.html")
        }
        // Every `<` starts one of the renderer's own elements, none with an event handler.
        #expect(try NSRegularExpression(pattern: "<[A-Za-z][^>]*\\son[a-z]+\\s*=").numberOfMatches(in: html, range: NSRange(location: 0, length: (html as NSString).length)) == 0)
        #expect(html.components(separatedBy: "<style>").count == 2)
        let style = html.components(separatedBy: "<style>")[1].components(separatedBy: "</style>")[0]
        #expect(Self.fetches(style).isEmpty && style == "\n" + HTMLReportRenderer.style + "\n")
        #expect(!html.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" })
        // The file's name is there, escaped; an API name that reads as one too, and the others
        // are counted under one name that quotes none of them (`API.otherName`).
        #expect(html.contains("<b>x<b> | #1 `x` \"'&.jsonl".map { HTMLText.escaped(String($0)) }.joined()))
        #expect(html.contains("<code>1. item</code>") && html.contains("<code>- item</code>"))
        #expect(html.contains("<code>\(API.unreadableName)</code>"))
        #expect(!html.contains("onerror") && !html.contains("wwwwwwww"))
    }

    @Test("HTMLText escapes markup and turns only balanced backticks and ** into elements", arguments: [
        ("a < b & c > \"d\" 'e'", "a &lt; b &amp; c &gt; &quot;d&quot; &#39;e&#39;"),
        ("`x` and **y**", "<code>x</code> and <strong>y</strong>"),
        ("`<b>`", "<code>&lt;b&gt;</code>"),
        ("one ` backtick", "one ` backtick"),
        ("**unbalanced", "**unbalanced"),
        ("**bold `code` bold**", "<strong>bold <code>code</code> bold</strong>"),
        ("line\nbreak\u{202E}", "line break\u{FFFD}"),
    ])
    func inline(_ text: String, _ expected: String) {
        #expect(HTMLText.inline(text) == expected)
    }
}
