import Foundation

/// Renders a `BarChart` as a standalone SVG 1.1 document.
///
/// The files are linked from Markdown reports (`![...](charts/x.svg)`), and GitHub shows such
/// images through an `<img>` element: no scripts, no external fonts or style sheets, nothing that
/// needs loading. So everything is inline attributes, the text uses the system font stack, and a
/// white background keeps the chart readable in dark mode. Output is byte for byte deterministic
/// (reports are compared with golden files): numbers are written by `decimal(_:fractionDigits:)`,
/// which never consults a locale, and nothing depends on the date or on hashing order.
///
/// Text widths are estimated, not measured (there is no font to measure with): 0.58 em per
/// character (0.64 in bold), about 7 px at 12 px, which is generous for Latin text in the usual
/// sans-serif fonts.
struct SVGChartRenderer: Sendable {
    static let width = 720.0
    /// The height of vertical charts; horizontal ones grow with their rows instead.
    static let verticalHeight = 360.0
    static let rowHeight = 28.0
    static let barThickness = 18.0

    static let barColour = "#4c78a8"
    static let accentColour = "#f58518"
    static let textColour = "#1f2328"
    static let mutedTextColour = "#57606a"
    static let gridColour = "#d8dee4"
    static let axisColour = "#8c959f"
    static let fontFamily = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Helvetica, Arial, sans-serif"

    init() {}

    /// The chart as an SVG document, ending in a newline.
    func render(_ chart: BarChart) -> String {
        switch chart.orientation {
        case .vertical: return renderVertical(chart)
        case .horizontal: return renderHorizontal(chart)
        }
    }

    // MARK: - Vertical

    private func renderVertical(_ chart: BarChart) -> String {
        let width = Self.width, height = Self.verticalHeight
        let values = chart.bars.map { Self.drawable($0.value) }
        let scale = ValueScale(maximum: values.max() ?? 0)
        // Without a positive value, gridlines would only label an empty range: keep the 0.
        let hasRange = values.contains { $0 > 0 }
        let ticks = hasRange ? scale.ticks : [0]
        let tickLabels = hasRange ? ticks.map(scale.label) : ["0"]

        let plotTop = Self.headerHeight(chart) + 16
        let plotBottom = height - 52
        // Room on the left for the rotated axis title, then for the widest tick label.
        let plotLeft = (34 + Self.textWidth(tickLabels, fontSize: 11) + 8).rounded(.up)
        let plotRight = width - 20
        let plotWidth = plotRight - plotLeft, plotHeight = plotBottom - plotTop

        var svg = Self.documentStart(chart, width: width, height: height)
        for (tick, label) in zip(ticks, tickLabels) {
            let y = Self.crisp(plotBottom - scale.fraction(tick) * plotHeight)
            if tick > 0 {
                svg.append(Self.line(x1: plotLeft, y1: y, x2: plotRight, y2: y, colour: Self.gridColour))
            }
            svg.append(Self.text(label, x: plotLeft - 6, y: y + 4, size: 11, anchor: "end", colour: Self.mutedTextColour))
        }

        if chart.bars.isEmpty {
            svg.append(Self.noData(left: plotLeft, top: plotTop, right: plotRight, bottom: plotBottom))
        } else {
            let slot = plotWidth / Double(chart.bars.count)
            // Bars fill 70% of their slot, so that 60 histogram bins still read as separate bars.
            let barWidth = slot * 0.7
            // Value labels only when all fit with some space between: a dense row of numbers over
            // thin bars reads as one number.
            let showValues = chart.bars.allSatisfy { Self.textWidth($0.valueLabel, fontSize: 11, bold: $0.highlighted) <= slot - 6 }
            let shown = Self.labelledBars(chart.bars.map(\.label), slot: slot)
            for (index, bar) in chart.bars.enumerated() {
                // Rounded before y is derived from it, so that every bar ends exactly on the baseline.
                let length = (scale.fraction(values[index]) * plotHeight * 10).rounded() / 10
                let centre = plotLeft + slot * (Double(index) + 0.5)
                svg.append(Self.bar(bar, x: centre - barWidth / 2, y: plotBottom - length, width: barWidth, height: length))
                if showValues {
                    svg.append(Self.text(bar.valueLabel, x: centre, y: plotBottom - length - 4, size: 11, anchor: "middle", colour: Self.textColour, bold: bar.highlighted, className: "value-label"))
                }
                if shown[index] {
                    svg.append(Self.line(x1: Self.crisp(centre), y1: plotBottom, x2: Self.crisp(centre), y2: plotBottom + 4, colour: Self.axisColour))
                    svg.append(Self.text(bar.label, x: centre, y: plotBottom + 16, size: 11, anchor: "middle", colour: Self.mutedTextColour, bold: bar.highlighted, className: "category-label"))
                }
            }
        }

        // Markers stand where their value falls among the bars, read from the first bar's whole
        // number label; drawn within the plot, their label on the side with room.
        if let first = chart.bars.first.flatMap({ Int($0.label) }), !chart.bars.isEmpty {
            let slot = plotWidth / Double(chart.bars.count)
            for marker in chart.markers where marker.position.isFinite {
                let x = Self.crisp(min(max(plotLeft + slot * (marker.position - Double(first) + 0.5), plotLeft), plotRight))
                svg.append("<line class=\"marker\" x1=\"\(Self.decimal(x))\" y1=\"\(Self.decimal(plotTop))\" x2=\"\(Self.decimal(x))\" y2=\"\(Self.decimal(plotBottom))\" stroke=\"\(Self.accentColour)\" stroke-width=\"1.5\" stroke-dasharray=\"5 4\"/>")
                let onLeft = x + Self.textWidth(marker.label, fontSize: 11) + 4 > plotRight
                svg.append(Self.text(marker.label, x: onLeft ? x - 4 : x + 4, y: plotTop + 10, size: 11, anchor: onLeft ? "end" : "start", colour: Self.textColour, className: "marker-label"))
            }
        }

        let baseline = Self.crisp(plotBottom)
        svg.append(Self.line(x1: plotLeft, y1: baseline, x2: plotRight, y2: baseline, colour: Self.axisColour))
        let middle = (plotTop + plotBottom) / 2
        svg.append("<text x=\"18\" y=\"\(Self.decimal(middle))\" transform=\"rotate(-90 18 \(Self.decimal(middle)))\" font-size=\"12\" text-anchor=\"middle\" fill=\"\(Self.mutedTextColour)\">\(Self.escaped(chart.valueAxisLabel))</text>")
        svg.append(Self.text(chart.categoryAxisLabel, x: (plotLeft + plotRight) / 2, y: plotBottom + 38, size: 12, anchor: "middle", colour: Self.mutedTextColour))
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    /// Which category labels a vertical chart prints: every n-th, n in 1, 2, 5, 10, 20, 50...,
    /// so that printed labels stand at least a label's width and 16 px apart: closer than that,
    /// a row of numbers reads as one long number.
    ///
    /// When the labels are consecutive integers (histogram bins), the printed ones are the
    /// multiples of n (5, 10, 15 rather than 1, 6, 11).
    static func labelledBars(_ labels: [String], slot: Double) -> [Bool] {
        let needed = (textWidth(labels, fontSize: 11) + 16) / slot
        guard needed.isFinite else { return labels.map { _ in false } }
        var every = 1, candidates = [2, 5, 10]
        while Double(every) < needed {
            every = candidates.removeFirst()
            if candidates.isEmpty { candidates = [every * 2, every * 5, every * 10] }
        }
        let integers = labels.compactMap { Int($0) }
        let consecutive = integers.count == labels.count
            && zip(integers, integers.dropFirst()).allSatisfy { $1 == $0 &+ 1 }
        return labels.indices.map { index in
            let position = consecutive ? integers[index] : index
            return position % every == 0
        }
    }

    // MARK: - Horizontal

    private func renderHorizontal(_ chart: BarChart) -> String {
        let width = Self.width
        let values = chart.bars.map { Self.drawable($0.value) }
        let scale = ValueScale(maximum: values.max() ?? 0)
        // Without a positive value, gridlines would only label an empty range: keep the 0.
        let hasRange = values.contains { $0 > 0 }
        let ticks = hasRange ? scale.ticks : [0]
        let tickLabels = hasRange ? ticks.map(scale.label) : ["0"]

        let headerY = Self.headerHeight(chart) + 18
        let plotTop = headerY + 10
        let rows = chart.bars.isEmpty ? 3 : chart.bars.count
        let plotBottom = plotTop + Self.rowHeight * Double(rows)
        let height = (plotBottom + 52).rounded(.up)
        // The label column takes what the longest label needs, up to 45% of the width; longer
        // labels are cut with an ellipsis (the bar's tooltip keeps the whole text).
        let labelColumn = min(chart.bars.map { Self.textWidth($0.label, fontSize: 12, bold: $0.highlighted) }.max() ?? 0, width * 0.45 - 26)
        let plotLeft = (16 + labelColumn + 10).rounded(.up)
        let valueColumn = min(chart.bars.map { Self.textWidth($0.valueLabel, fontSize: 12, bold: $0.highlighted) }.max() ?? 0, width * 0.25)
        // The right margin holds the longest value label and half of the last tick label.
        let plotRight = (width - max(valueColumn + 16, Self.textWidth(tickLabels, fontSize: 11) / 2 + 8)).rounded(.down)
        let plotWidth = plotRight - plotLeft

        var svg = Self.documentStart(chart, width: width, height: height)
        svg.append(Self.text(chart.categoryAxisLabel, x: 16, y: headerY, size: 12, anchor: "start", colour: Self.mutedTextColour, bold: true))
        for (tick, label) in zip(ticks, tickLabels) {
            let x = Self.crisp(plotLeft + scale.fraction(tick) * plotWidth)
            if tick > 0 {
                svg.append(Self.line(x1: x, y1: plotTop, x2: x, y2: plotBottom, colour: Self.gridColour))
            }
            svg.append(Self.text(label, x: x, y: plotBottom + 16, size: 11, anchor: "middle", colour: Self.mutedTextColour))
        }

        if chart.bars.isEmpty {
            svg.append(Self.noData(left: plotLeft, top: plotTop, right: plotRight, bottom: plotBottom))
        }
        for (index, bar) in chart.bars.enumerated() {
            let length = scale.fraction(values[index]) * plotWidth
            let rowTop = plotTop + Self.rowHeight * Double(index)
            let textY = rowTop + Self.rowHeight / 2 + 4
            svg.append(Self.bar(bar, x: plotLeft, y: rowTop + (Self.rowHeight - Self.barThickness) / 2, width: length, height: Self.barThickness))
            let label = Self.truncated(bar.label, toWidth: labelColumn, fontSize: 12, bold: bar.highlighted)
            svg.append(Self.text(label, x: plotLeft - 10, y: textY, size: 12, anchor: "end", colour: Self.textColour, bold: bar.highlighted, className: "category-label"))
            let valueLabel = Self.truncated(bar.valueLabel, toWidth: valueColumn, fontSize: 12, bold: bar.highlighted)
            svg.append(Self.text(valueLabel, x: plotLeft + length + 6, y: textY, size: 12, anchor: "start", colour: Self.textColour, bold: bar.highlighted, className: "value-label"))
        }

        let axis = Self.crisp(plotLeft)
        svg.append(Self.line(x1: axis, y1: plotTop, x2: axis, y2: plotBottom, colour: Self.axisColour))
        svg.append(Self.text(chart.valueAxisLabel, x: (plotLeft + plotRight) / 2, y: plotBottom + 38, size: 12, anchor: "middle", colour: Self.mutedTextColour))
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    // MARK: - Elements

    /// The prologue, background, title and caption shared by both orientations.
    private static func documentStart(_ chart: BarChart, width: Double, height: Double) -> [String] {
        let size = "width=\"\(decimal(width, fractionDigits: 0))\" height=\"\(decimal(height, fractionDigits: 0))\""
        var svg = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" \(size) viewBox=\"0 0 \(decimal(width, fractionDigits: 0)) \(decimal(height, fractionDigits: 0))\" font-family=\"\(escaped(fontFamily))\">",
            "<title>\(escaped(chart.title))</title>",
        ]
        if let caption = chart.caption {
            svg.append("<desc>\(escaped(caption))</desc>")
        }
        svg.append("<rect x=\"0\" y=\"0\" \(size) fill=\"#ffffff\"/>")
        svg.append(text(chart.title, x: 16, y: 28, size: 16, anchor: "start", colour: textColour, bold: true))
        if let caption = chart.caption {
            svg.append(text(caption, x: 16, y: 47, size: 12, anchor: "start", colour: mutedTextColour))
        }
        return svg
    }

    /// Where the plot may start: under the title, and under the caption if there is one.
    private static func headerHeight(_ chart: BarChart) -> Double {
        chart.caption == nil ? 36 : 54
    }

    private static func bar(_ bar: BarChart.Bar, x: Double, y: Double, width: Double, height: Double) -> String {
        let colour = bar.highlighted ? accentColour : barColour
        return "<rect class=\"bar\" x=\"\(decimal(x))\" y=\"\(decimal(y))\" width=\"\(decimal(width))\" height=\"\(decimal(height))\" fill=\"\(colour)\"><title>\(escaped(bar.label)): \(escaped(bar.valueLabel))</title></rect>"
    }

    /// The plot area's frame with "no data" in the middle, for a chart without bars.
    private static func noData(left: Double, top: Double, right: Double, bottom: Double) -> String {
        let frame = "<rect x=\"\(decimal(crisp(left)))\" y=\"\(decimal(crisp(top)))\" width=\"\(decimal((right - left).rounded(.down)))\" height=\"\(decimal((bottom - top).rounded(.down)))\" fill=\"none\" stroke=\"\(gridColour)\" stroke-width=\"1\"/>"
        return frame + "\n" + text("no data", x: (left + right) / 2, y: (top + bottom) / 2 + 5, size: 14, anchor: "middle", colour: mutedTextColour, className: "no-data")
    }

    private static func line(x1: Double, y1: Double, x2: Double, y2: Double, colour: String) -> String {
        "<line x1=\"\(decimal(x1))\" y1=\"\(decimal(y1))\" x2=\"\(decimal(x2))\" y2=\"\(decimal(y2))\" stroke=\"\(colour)\" stroke-width=\"1\"/>"
    }

    private static func text(_ content: String, x: Double, y: Double, size: Int, anchor: String, colour: String, bold: Bool = false, className: String? = nil) -> String {
        var attributes = ""
        if let className { attributes += "class=\"\(className)\" " }
        attributes += "x=\"\(decimal(x))\" y=\"\(decimal(y))\" font-size=\"\(size)\""
        if anchor != "start" { attributes += " text-anchor=\"\(anchor)\"" }
        if bold { attributes += " font-weight=\"600\"" }
        return "<text \(attributes) fill=\"\(colour)\">\(escaped(content))</text>"
    }

    // MARK: - Numbers and text

    /// Values as drawn: negative and non-finite ones as 0, huge ones capped so that coordinates
    /// stay exact in `decimal`.
    static func drawable(_ value: Double) -> Double {
        guard value.isFinite, value > 0 else { return 0 }
        return min(value, 1e15)
    }

    /// A 1-pixel line's coordinate: the middle of a pixel, so that it is drawn sharp, not as two
    /// half-grey pixels.
    private static func crisp(_ coordinate: Double) -> Double {
        coordinate.rounded(.down) + 0.5
    }

    /// `value` with exactly `fractionDigits` digits after a `.`, digits grouped by `,` when asked.
    ///
    /// Written out rather than `String(format:)` or a `NumberFormatter` so that no locale can
    /// change a byte of a chart. Handles magnitudes below 9e15 (see `drawable`).
    static func decimal(_ value: Double, fractionDigits: Int = 1, grouped: Bool = false) -> String {
        guard value.isFinite else { return "0" }
        var power: UInt64 = 1
        for _ in 0..<fractionDigits { power *= 10 }
        let scaled = (abs(value) * Double(power)).rounded()
        guard scaled < 9e18 else { return value < 0 ? "-0" : "0" }
        let units = UInt64(scaled)
        var whole = String(units / power)
        if grouped, whole.count > 3 {
            var groups: [Substring] = []
            var end = whole.endIndex
            while end > whole.startIndex {
                let start = whole.index(end, offsetBy: -3, limitedBy: whole.startIndex) ?? whole.startIndex
                groups.insert(whole[start..<end], at: 0)
                end = start
            }
            whole = groups.joined(separator: ",")
        }
        var text = (value < 0 && units > 0 ? "-" : "") + whole
        if fractionDigits > 0 {
            let fraction = String(units % power)
            text += "." + String(repeating: "0", count: fractionDigits - fraction.count) + fraction
        }
        return text
    }

    /// The estimated width of `text`: 0.58 em per character, 0.64 em in bold.
    static func textWidth(_ text: String, fontSize: Double, bold: Bool = false) -> Double {
        Double(text.count) * fontSize * (bold ? 0.64 : 0.58)
    }

    /// The estimated width of the widest of `texts`, in regular weight.
    static func textWidth(_ texts: [String], fontSize: Double) -> Double {
        texts.map { textWidth($0, fontSize: fontSize) }.max() ?? 0
    }

    /// `text` cut with an ellipsis to fit `width`.
    static func truncated(_ text: String, toWidth width: Double, fontSize: Double, bold: Bool = false) -> String {
        let fits = Int(width / textWidth("x", fontSize: fontSize, bold: bold) + 1e-6)
        guard text.count > fits else { return text }
        return String(text.prefix(max(fits - 1, 0))) + "…"
    }

    /// `text` for XML character data and attribute values.
    ///
    /// Besides the five markup characters, control characters other than tab, newline and
    /// carriage return are dropped: XML 1.0 forbids them even escaped, and one in a label would
    /// make the whole file unreadable. Line breaks become spaces, since SVG text is one line.
    static func escaped(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&apos;"
            case "\t", "\n", "\r": output += " "
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}

extension SVGChartRenderer {
    /// The value axis: from 0 to a "nice" maximum in 3 to 5 steps of 1, 2, 2.5 or 5 times a power
    /// of ten, so gridlines fall on numbers a reader can add up.
    struct ValueScale: Equatable {
        let step: Double
        let intervals: Int
        /// Digits after the point in tick labels: enough for the step (0.25 needs 2).
        let fractionDigits: Int

        /// The smallest nice step that covers `maximum` in at most 5 intervals; as consecutive
        /// nice steps are at most 2.5 apart, that takes at least 3, so the top gridline is never
        /// far above the longest bar. A maximum of 0 (no bars, all zero) gets the scale of 1, so
        /// that no bar length divides by zero.
        init(maximum: Double) {
            let top = maximum > 0 && maximum.isFinite ? maximum : 1
            let magnitude = pow(10, (log10(top / 5)).rounded(.down))
            var chosen = 10 * magnitude
            for multiple in [1, 2, 2.5, 5] where top / (multiple * magnitude) <= 5 * (1 + 1e-9) {
                chosen = multiple * magnitude
                break
            }
            step = chosen
            intervals = max(1, Int((top / step - 1e-9).rounded(.up)))
            var digits = 0
            while digits < 12 {
                let shifted = step * pow(10, Double(digits))
                if abs(shifted - shifted.rounded()) < 1e-6 * shifted { break }
                digits += 1
            }
            fractionDigits = digits
        }

        var maximum: Double { step * Double(intervals) }

        var ticks: [Double] { (0...intervals).map { Double($0) * step } }

        /// Where `value` lies on the axis, from 0 to 1.
        func fraction(_ value: Double) -> Double {
            min(max(value / maximum, 0), 1)
        }

        func label(_ tick: Double) -> String {
            SVGChartRenderer.decimal(tick, fractionDigits: fractionDigits, grouped: true)
        }
    }
}
