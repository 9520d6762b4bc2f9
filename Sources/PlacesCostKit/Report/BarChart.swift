/// A bar chart as data: what to draw, not how.
///
/// Report code builds one from an `Analysis` or a `PricingResult` and hands it to a renderer
/// (`SVGChartRenderer`). Values are formatted by the caller (`Bar.valueLabel`), because only the
/// caller knows whether a number is a count, a share or money.
struct BarChart: Sendable, Equatable {
    /// Which way the bars grow.
    enum Orientation: Sendable, Equatable {
        /// Bars grow upwards from labels under them: histograms with short, numeric labels.
        case vertical
        /// One row per bar, its label on the left: long labels such as
        /// "per_request_geocoding, delay 3".
        case horizontal
    }

    /// One bar.
    struct Bar: Sendable, Equatable {
        /// The category, printed under (vertical) or left of (horizontal) the bar.
        var label: String
        /// The length of the bar. Negative and non-finite values are drawn as 0: the charts show
        /// counts and costs, which are never negative.
        var value: Double
        /// The text printed at the end of the bar, already formatted ("1,204", "$4.24").
        var valueLabel: String
        /// Drawn in the accent colour, e.g. the recommended strategy.
        var highlighted: Bool

        init(label: String, value: Double, valueLabel: String, highlighted: Bool = false) {
            self.label = label
            self.value = value
            self.valueLabel = valueLabel
            self.highlighted = highlighted
        }
    }

    /// A value marked across a vertical chart's bars, such as the break-even of requests per
    /// search: a dashed line at `position` on the category axis, where the bar labelled with the
    /// whole number n stands at n (4.24 falls between the bars of 4 and 5).
    struct Marker: Sendable, Equatable {
        var position: Double
        var label: String
    }

    var title: String
    /// Small text under the title; nil for none.
    var caption: String?
    /// What the bar lengths count, e.g. "searches" or "USD".
    var valueAxisLabel: String
    /// What the bars are, e.g. "autocomplete requests per search".
    var categoryAxisLabel: String
    var orientation: Orientation
    /// The bars in drawing order: left to right (vertical) or top to bottom (horizontal).
    var bars: [Bar]
    /// Values marked across the bars (vertical charts whose labels are consecutive whole numbers).
    var markers: [Marker] = []

    init(
        title: String,
        caption: String? = nil,
        valueAxisLabel: String,
        categoryAxisLabel: String,
        orientation: Orientation,
        bars: [Bar]
    ) {
        self.title = title
        self.caption = caption
        self.valueAxisLabel = valueAxisLabel
        self.categoryAxisLabel = categoryAxisLabel
        self.orientation = orientation
        self.bars = bars
    }
}
