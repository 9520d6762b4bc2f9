import Foundation
import Testing
@testable import PlacesCostKit

/// SVG charts: well-formed, escaped, deterministic, and drawn to scale.
@Suite("SVG chart rendering")
struct SVGChartRendererTests {
    let renderer = SVGChartRenderer()

    func chart(_ orientation: BarChart.Orientation, values: [Double], labels: [String]? = nil, highlighted: Int? = nil, caption: String? = "from the sample logs") -> BarChart {
        let bars = values.enumerated().map { index, value in
            BarChart.Bar(label: labels?[index] ?? String(index + 1), value: value, valueLabel: SVGChartRenderer.decimal(value, fractionDigits: 0), highlighted: index == highlighted)
        }
        return BarChart(title: "Autocomplete requests per search", caption: caption, valueAxisLabel: "searches", categoryAxisLabel: "requests", orientation: orientation, bars: bars)
    }

    /// Renders, parses, and checks what every chart must be: well-formed, finite, one root.
    func parsed(_ chart: BarChart) -> (svg: String, document: ParsedSVG) {
        let svg = renderer.render(chart)
        let document = ParsedSVG(svg)
        #expect(document.error == nil, "not well-formed XML: \(String(describing: document.error))\n\(svg)")
        #expect(document.elements.first?.name == "svg")
        #expect(document.elements.first?.attributes["xmlns"] == "http://www.w3.org/2000/svg")
        #expect(!svg.lowercased().contains("nan"))
        #expect(!svg.lowercased().contains("inf"))
        return (svg, document)
    }

    @Test("A marker stands where its value falls among whole-number bars, its label on the side with room")
    func markers() throws {
        var histogram = chart(.vertical, values: [29, 23, 42, 45, 82, 67, 77, 50])
        histogram.markers = [BarChart.Marker(position: 4.24, label: "break-even 4.24"), BarChart.Marker(position: 40, label: "far")]
        let (_, document) = parsed(histogram)
        let lines = document.elements("line", class: "marker")
        #expect(lines.count == 2)
        // Bar centres: the bar labelled n at n, so 4.24 is a quarter of a slot past bar 4's centre.
        let centres = document.elements("text", class: "category-label").compactMap { $0.number("x") }
        let four = try #require(centres.count == 8 ? centres[3] : nil), five = centres[4]
        let x = try #require(lines[0].number("x1"))
        #expect(abs(x - (four + (five - four) * 0.24)) < 1, "\(x) between \(four) and \(five)")
        // Past the last bar: at the plot's right edge, labelled leftwards.
        let labels = document.elements("text", class: "marker-label")
        #expect(labels.map(\.text) == ["break-even 4.24", "far"])
        #expect(labels[1].attributes["text-anchor"] == "end" && labels[0].attributes["text-anchor"] == nil)
        #expect(try #require(lines[1].number("x1")) > centres[7])
        // Report charts mark the break-even only where the tree asks for it.
        let directory = TemporaryDirectory()
        for (needs, marked) in [("no", true), ("yes", false)] {
            let out = directory.path + "/\(needs)"
            #expect(runCLI(["analyze", "SampleLogs/ios-app.jsonl", "--needs-details", needs, "--out", out, "--quiet"], workingDirectory: packageRoot).code == .success)
            let svg = try String(contentsOfFile: out + "/charts/requests-per-search.svg", encoding: .utf8)
            #expect(svg.contains("class=\"marker\"") == marked)
            #expect(svg.contains(marked ? "break-even 4.24 (dashed)" : "the app needs Place Details, so no break-even applies"))
        }
    }

    @Test("Both orientations are well-formed standalone SVG with a title and a white background", arguments: [BarChart.Orientation.vertical, .horizontal])
    func wellFormed(orientation: BarChart.Orientation) {
        let (svg, document) = parsed(chart(orientation, values: [3, 1, 4, 1, 5], highlighted: 2))
        #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "))
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(document.elements[1].name == "title")
        #expect(document.elements[1].text == "Autocomplete requests per search")
        let background = document.elements("rect").first
        #expect(background?.attributes["fill"] == "#ffffff")
        #expect(background?.attributes["width"] == document.elements[0].attributes["width"])
        for banned in ["<script", "<foreignObject", "<image", "href=", "@import", "url("] {
            #expect(!svg.contains(banned))
        }
    }

    @Test("Markup characters in every text are escaped; control characters are dropped")
    func escaping() {
        let label = "a<b & \"c\" 'd'"
        let chart = BarChart(title: label, caption: label, valueAxisLabel: label, categoryAxisLabel: label, orientation: .horizontal, bars: [
            BarChart.Bar(label: label + "\u{01}", value: 1, valueLabel: label),
        ])
        for orientation in [BarChart.Orientation.horizontal, .vertical] {
            var chart = chart
            chart.orientation = orientation
            let (svg, document) = parsed(chart)
            #expect(svg.contains("a&lt;b &amp; &quot;c&quot; &apos;d&apos;"))
            #expect(!svg.contains("a<b"))
            #expect(!svg.contains("\u{01}"))
            let texts = document.elements("text").map(\.text)
            // Title, caption, two axis labels, category label; the value label where it fits.
            #expect(texts.filter { $0 == label }.count >= 5)
            #expect(document.elements("title").contains { $0.text == label })
        }
    }

    @Test("No bars: the frame and a \"no data\" text", arguments: [BarChart.Orientation.vertical, .horizontal])
    func noBars(orientation: BarChart.Orientation) {
        let (_, document) = parsed(chart(orientation, values: []))
        #expect(document.elements("rect", class: "bar").isEmpty)
        #expect(document.elements("text", class: "no-data").map(\.text) == ["no data"])
        #expect(!document.elements("line").isEmpty)
    }

    @Test("All-zero, negative and non-finite values draw bars of zero length", arguments: [BarChart.Orientation.vertical, .horizontal])
    func zeroValues(orientation: BarChart.Orientation) {
        let (_, document) = parsed(chart(orientation, values: [0, 0, -3, .nan, .infinity, 0]))
        let bars = document.elements("rect", class: "bar")
        #expect(bars.count == 6)
        let lengths = bars.map { $0.number(orientation == .vertical ? "height" : "width") }
        #expect(lengths.allSatisfy { $0 == 0 })
        // No gridlines over an empty range: the value axis shows only its 0.
        #expect(!document.elements("line").contains { $0.attributes["stroke"] == SVGChartRenderer.gridColour })
    }

    @Test("A negative value among positive ones is drawn as 0")
    func negativeClamped() {
        let (_, document) = parsed(chart(.vertical, values: [2, -1]))
        let heights = document.elements("rect", class: "bar").compactMap { $0.number("height") }
        #expect(heights.count == 2 && heights[0] > 0 && heights[1] == 0)
    }

    @Test("The same chart renders to the same bytes", arguments: [BarChart.Orientation.vertical, .horizontal])
    func deterministic(orientation: BarChart.Orientation) {
        let chart = chart(orientation, values: [0.1, 2.25, 1_234.5, 7], highlighted: 1)
        #expect(renderer.render(chart) == renderer.render(chart))
        #expect(renderer.render(chart) == SVGChartRenderer().render(chart))
    }

    @Test("A highlighted bar is drawn in the accent colour, the others in the bar colour", arguments: [BarChart.Orientation.vertical, .horizontal])
    func highlighted(orientation: BarChart.Orientation) {
        let (_, document) = parsed(chart(orientation, values: [3, 1, 4], highlighted: 1))
        let fills = document.elements("rect", class: "bar").map { $0.attributes["fill"] }
        #expect(fills == [SVGChartRenderer.barColour, SVGChartRenderer.accentColour, SVGChartRenderer.barColour])
        #expect(SVGChartRenderer.barColour != SVGChartRenderer.accentColour)
    }

    @Test("Bar lengths are proportional to values", arguments: [BarChart.Orientation.vertical, .horizontal])
    func proportional(orientation: BarChart.Orientation) throws {
        let (_, document) = parsed(chart(orientation, values: [1, 2, 3.5]))
        let attribute = orientation == .vertical ? "height" : "width"
        let lengths = document.elements("rect", class: "bar").compactMap { $0.number(attribute) }
        try #require(lengths.count == 3)
        #expect(lengths[0] > 0)
        // Lengths are written with one decimal: each is off by up to 0.05, scaled with the multiple.
        #expect(abs(lengths[1] - 2 * lengths[0]) <= 0.05 * 3 + 1e-9)
        #expect(abs(lengths[2] - 3.5 * lengths[0]) <= 0.05 * 4.5 + 1e-9)
        if orientation == .vertical {
            // Bars stand on the baseline: y + height is the same for all.
            let bottoms = document.elements("rect", class: "bar").compactMap { bar in bar.number("y").map { $0 + bar.number("height")! } }
            #expect(bottoms.allSatisfy { abs($0 - bottoms[0]) < 1e-9 })
        }
    }

    @Test("60 histogram bins: every bar is drawn, every 5th label is printed, and printed labels do not overlap")
    func thinnedLabels() throws {
        let (_, document) = parsed(chart(.vertical, values: (1...60).map { Double(($0 * 37) % 50) }))
        let bars = document.elements("rect", class: "bar")
        #expect(bars.count == 60)
        let barWidth = try #require(bars.first?.number("width"))
        #expect(barWidth > 1 && barWidth < 12)
        let labels = document.elements("text", class: "category-label")
        #expect(labels.map(\.text) == stride(from: 5, through: 60, by: 5).map(String.init))
        let positions = labels.compactMap { $0.number("x") }
        let gaps = zip(positions.dropFirst(), positions).map { $0 - $1 }
        // Two-digit labels at 11 px are about 13 px wide, and stand at least 16 px apart.
        #expect(gaps.allSatisfy { $0 >= 13 + 16 })
        // Value labels would not fit over bars this thin.
        #expect(document.elements("text", class: "value-label").isEmpty)
    }

    @Test("Few bars: every label and every value label is printed")
    func unthinnedLabels() {
        let (_, document) = parsed(chart(.vertical, values: [10, 20, 30]))
        #expect(document.elements("text", class: "category-label").map(\.text) == ["1", "2", "3"])
        #expect(document.elements("text", class: "value-label").map(\.text) == ["10", "20", "30"])
    }

    @Test("Label thinning steps through 1, 2, 5, 10, 20, 50 and prints multiples for integer bins")
    func thinningSteps() {
        let integers = (0..<100).map(String.init)
        #expect(SVGChartRenderer.labelledBars(integers, slot: 40).allSatisfy { $0 })
        // Two-digit labels need 2 x 11 x 0.58 + 16 = 28.8 px: 10 slots of 3 px, so every 10th.
        let every10 = SVGChartRenderer.labelledBars(integers, slot: 3)
        #expect(every10.indices.filter { every10[$0] } == Array(stride(from: 0, to: 100, by: 10)))
        let words = (0..<100).map { "bin \($0 + 1)" }
        // "bin 100" needs 60.7 px: 21 slots of 3 px, so every 50th, counted by position.
        let everyFifty = SVGChartRenderer.labelledBars(words, slot: 3)
        #expect(everyFifty.indices.filter { everyFifty[$0] } == [0, 50])
        // "bin 10" needs 54.3 px: 18 slots of 3 px, so every 20th.
        let everyTwenty = SVGChartRenderer.labelledBars(Array(words.prefix(10)), slot: 3)
        #expect(everyTwenty.indices.filter { everyTwenty[$0] } == [0])
    }

    @Test("Horizontal: the label column fits the longest label; the height grows by a row per bar")
    func horizontalLayout() throws {
        let short = parsed(chart(.horizontal, values: [1, 2], labels: ["a", "b"])).document
        let long = parsed(chart(.horizontal, values: [1, 2], labels: ["a", "per_request_geocoding, delay 3"])).document
        let shortLeft = try #require(short.elements("rect", class: "bar").first?.number("x"))
        let longLeft = try #require(long.elements("rect", class: "bar").first?.number("x"))
        #expect(longLeft - shortLeft >= 30 * 6.5)
        #expect(long.elements("text", class: "category-label").map(\.text) == ["a", "per_request_geocoding, delay 3"])

        let ten = parsed(chart(.horizontal, values: Array(repeating: 1, count: 10))).document
        let twenty = parsed(chart(.horizontal, values: Array(repeating: 1, count: 20))).document
        let tenHeight = try #require(ten.elements.first?.number("height"))
        let twentyHeight = try #require(twenty.elements.first?.number("height"))
        #expect(twentyHeight - tenHeight == 10 * SVGChartRenderer.rowHeight)
    }

    @Test("Horizontal: a label too long for the column is cut with an ellipsis; the tooltip keeps it")
    func horizontalTruncation() {
        let label = String(repeating: "long label ", count: 20)
        let (_, document) = parsed(chart(.horizontal, values: [1], labels: [label]))
        let printed = document.elements("text", class: "category-label").first?.text ?? ""
        #expect(printed.hasSuffix("…") && printed.count < label.count)
        #expect(document.elements("title").contains { $0.text.hasPrefix(label) })
    }

    @Test("The value axis takes 3 to 5 steps of 1, 2, 2.5 or 5 times a power of ten", arguments: [
        (4.0, [0.0, 1, 2, 3, 4], ["0", "1", "2", "3", "4"]),
        (5.1, [0.0, 2, 4, 6], ["0", "2", "4", "6"]),
        (7.0, [0.0, 2, 4, 6, 8], ["0", "2", "4", "6", "8"]),
        (0.9, [0.0, 0.2, 0.4, 0.6, 0.8, 1], ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]),
        (0.07, [0.0, 0.02, 0.04, 0.06, 0.08], ["0.00", "0.02", "0.04", "0.06", "0.08"]),
        (11.0, [0.0, 2.5, 5, 7.5, 10, 12.5], ["0.0", "2.5", "5.0", "7.5", "10.0", "12.5"]),
        (481.7, [0.0, 100, 200, 300, 400, 500], ["0", "100", "200", "300", "400", "500"]),
        (2_300.0, [0.0, 500, 1_000, 1_500, 2_000, 2_500], ["0", "500", "1,000", "1,500", "2,000", "2,500"]),
        (4_195.0, [0.0, 1_000, 2_000, 3_000, 4_000, 5_000], ["0", "1,000", "2,000", "3,000", "4,000", "5,000"]),
        (0.0, [0.0, 0.2, 0.4, 0.6, 0.8, 1], ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]),
    ])
    func niceScale(maximum: Double, ticks: [Double], labels: [String]) {
        let scale = SVGChartRenderer.ValueScale(maximum: maximum)
        #expect(zip(scale.ticks, ticks).allSatisfy { abs($0 - $1) < 1e-9 } && scale.ticks.count == ticks.count)
        #expect(scale.ticks.map(scale.label) == labels)
    }

    @Test("Numbers are written without a locale: fixed digits, '.' and ',' grouping")
    func decimals() {
        #expect(SVGChartRenderer.decimal(12) == "12.0")
        #expect(SVGChartRenderer.decimal(-0.04) == "0.0")
        #expect(SVGChartRenderer.decimal(-1.25, fractionDigits: 1) == "-1.3")
        #expect(SVGChartRenderer.decimal(0.07, fractionDigits: 3) == "0.070")
        #expect(SVGChartRenderer.decimal(1_234_567.891, fractionDigits: 2, grouped: true) == "1,234,567.89")
        #expect(SVGChartRenderer.decimal(999, fractionDigits: 0, grouped: true) == "999")
    }
}
