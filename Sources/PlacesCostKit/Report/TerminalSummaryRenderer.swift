/// What `analyze` prints on a terminal: the report's headline and what to do, in at most
/// `maxLines` lines of at most `width` columns, with colour for the recommendation and the money
/// when `TerminalText.color` is on. The full report is `report.md` (`--out`, or `--report md`,
/// which is also what goes to a pipe or a file).
struct TerminalSummaryRenderer: Sendable {
    var text: TerminalText
    /// The `--out` directory as the user gave it, when the full report was written there.
    var outDirectory: String?
    static let maxLines = 40
    static let labelWidth = 22
    /// The options table's columns, with the spaces before each: rank, name, delay, and the least
    /// the money columns take (bill, saving, list price); each money column widens to its widest
    /// figure and two spaces, so that a bill of $10,000 or more never runs into the delay.
    static let optionColumns = (rank: 2 + 2 + 2, name: 34, delay: 5, bill: 10, saving: 17, list: 13)

    /// The options table on a screen, for the options it shows.
    struct OptionLayout {
        var name: Int
        var bill: Int
        var saving: Int
        /// The list price's width; nil where the whole table does not fit.
        var list: Int?
    }

    /// The options table on this screen for `shown`: the list price only where the whole table
    /// fits, the strategy's name cut to the room left.
    func optionLayout(_ shown: [Recommendation.Option]) -> OptionLayout {
        let columns = TerminalSummaryRenderer.optionColumns
        func width(_ minimum: Int, _ figure: (Recommendation.Option) -> Double) -> Int {
            shown.reduce(minimum) { max($0, Money.usd(figure($1)).unicodeScalars.count + 2) }
        }
        let (bill, saving, list) = (width(columns.bill, \.costUSD), width(columns.saving, \.savingsUSDPerMonth), width(columns.list, \.listCostUSD))
        let figures = columns.delay + bill + saving
        let fits = text.width >= columns.rank + columns.name + figures + list
        return OptionLayout(name: min(columns.name, text.width - columns.rank - figures - (fits ? list : 0)), bill: bill, saving: saving, list: fits ? list : nil)
    }
    /// The headline's labels that would not fit `labelWidth`, shortened for the terminal.
    static let shortLabels = ["Why not the tree's answer": "Why not the tree", "Same delay, calls as made": "Calls as made, delayed"]

    func render(_ analysis: Analysis) -> String {
        let advice = analysis.recommendation
        var header: [String] = []
        var coverage = "\(Money.count(analysis.input.records, "call", "calls")), \(Money.count(analysis.statistics.total, "search", "searches"))"
        if let first = analysis.input.firstCall, let last = analysis.input.lastCall {
            coverage += ", \(first.rfc3339.prefix(10)) to \(last.rfc3339.prefix(10))"
        }
        header += text.wrapped(text.styled("Places Autocomplete cost summary", .bold) + " (" + coverage + ")")
        if analysis.input.usedSampleLogs {
            header += text.wrapped(text.styled("The bundled sample logs: simulated traffic, not yours. Run `placescost analyze YOUR.jsonl`.", .dim))
                .map { text.inline($0) }
        }

        var rows: [(label: String, text: String, style: TerminalText.Style?)] = [
            // With how little of its months the logs hold, when they hold less than a month a month.
            ("Estimated bill now", AdviceSentences.billNow(advice, coverage: MarkdownReportRenderer.briefCoverage(analysis)), .yellow),
        ]
        if let caution = AdviceSentences.unseenTokens(analysis.input) { rows.append(("Caution", caution, .yellow)) }
        for (label, sentence) in AdviceSentences.rows(advice, pricing: analysis.pricing) {
            let style: TerminalText.Style? = label == "Recommended" ? .green : label == "Saving" ? .yellow : nil
            rows.append((label, sentence, style))
        }
        var headline: [[String]] = rows.map(headlineRow)

        let valid = Array(advice.highlights.filter(\.valid).prefix(5))
        let notValid = Array(advice.highlights.filter { !$0.valid }.prefix(2))
        // The summary shows a few options: those it leaves out are counted, never dropped unsaid.
        let unshown = advice.highlights.count - valid.count - notValid.count
        let layout = optionLayout(valid + notValid)
        let optionsHeader = TerminalSummaryRenderer.padded("Options by the bill", layout.name + 6)
            + TerminalSummaryRenderer.leftPadded("delay", TerminalSummaryRenderer.optionColumns.delay)
            + TerminalSummaryRenderer.leftPadded("bill", layout.bill) + TerminalSummaryRenderer.leftPadded("saving a month", layout.saving)
            + (layout.list.map { TerminalSummaryRenderer.leftPadded("list price", $0) } ?? "")
        var options = [text.styled(optionsHeader, .bold)]
        for (index, option) in valid.enumerated() {
            options.append(optionLine(option, rank: String(index + 1), advice: advice, layout: layout))
        }
        // On a screen too narrow for the words, a mark and its legend: the rank's `-` alone does
        // not say why an option is out.
        let spelled = notValid.allSatisfy { optionName($0, advice: advice).unicodeScalars.count + " (not valid)".count <= layout.name }
        for option in notValid {
            options.append(optionLine(option, rank: "-", advice: advice, layout: layout, note: spelled ? " (not valid)" : " *"))
        }
        // Shown below the options for as long as a marked one is: the marked ones are the last.
        var markedOptions = spelled ? 0 : notValid.count
        var legend = markedOptions > 0 ? ["      * not valid: does not serve the app"] : []

        let seen = advice.anomalies.filter { $0.cost.count > 0 }
        var anomalies: [String] = []
        if !seen.isEmpty {
            // Under --scale the money is for the scaled volume: so is the count beside it.
            let scale = analysis.pricing.scale
            let countLabel = scale == 1 ? "count" : "billed"
            let shown = seen.prefix(6).map { (name: $0.cost.name, count: Money.count(Double($0.cost.count) * scale), cost: Money.usd($0.cost.billedListUSD), fix: $0.fix) }
            // As wide as the widest figure (a count two spaces from the longest name, which fills
            // its 28 columns), so a count in the millions or a cost of $10,000 stays under its header.
            let countWidth = shown.reduce(9) { max($0, $1.count.unicodeScalars.count + 2) }
            let costWidth = shown.reduce(9) { max($0, $1.cost.unicodeScalars.count) }
            // The fix is cut to the screen; on one too narrow for a useful part, left out, with
            // its header.
            let room = text.width - (2 + 28 + countWidth + 2 + costWidth + 2)
            anomalies.append(text.styled(
                TerminalSummaryRenderer.padded("Anomalies", 30) + TerminalSummaryRenderer.leftPadded(countLabel, countWidth)
                    + "  " + TerminalSummaryRenderer.leftPadded("list cost", costWidth) + (room >= 12 ? "  fix" : ""), .bold
            ))
            for anomaly in shown {
                let start = "  " + TerminalSummaryRenderer.padded(anomaly.name, 28) + TerminalSummaryRenderer.leftPadded(anomaly.count, countWidth)
                    + "  " + text.styled(TerminalSummaryRenderer.leftPadded(anomaly.cost, costWidth), .yellow)
                // The fix is Markdown; cut to the screen it keeps no mark, so none that would be cut in two.
                let fix = anomaly.fix.replacingOccurrences(of: "`", with: "")
                anomalies.append(room >= 12 ? start + "  " + TerminalText.truncated(fix, to: room) : start)
            }
        }

        let footer: [String]
        if let outDirectory {
            footer = text.wrapped("Full report in \(outDirectory)/: report.md (decision path, next steps, every delay), report.html, report.json, searches.csv, costs.csv and charts/.")
        } else {
            footer = text.wrapped("Full report: add --out DIR for report.md (decision path, next steps, every delay), report.json, searches.csv and charts, or --report md for the Markdown here.")
        }

        // Within the budget: anomalies first lose their last rows, then the headline its last
        // explanations, then the options their last rows (never the recommended option's).
        let keepOptionLines = (valid.firstIndex { $0.sameChoice(as: advice.recommended) } ?? 1) + 2
        let optionRows = valid.count + notValid.count
        /// The options and anomalies left out, each said on a line of its own.
        func unsaid() -> (options: Int, anomalies: Int) {
            (optionRows + unshown - (options.count - 1), seen.isEmpty ? 0 : seen.count - (anomalies.count - 1))
        }
        func total() -> Int {
            header.count + 1 + headline.reduce(0) { $0 + $1.count } + 1 + options.count + legend.count
                + (anomalies.isEmpty ? 0 : 1 + anomalies.count) + 1 + footer.count
                + (unsaid().options > 0 ? 1 : 0) + (unsaid().anomalies > 0 ? 1 : 0)
        }
        while total() > TerminalSummaryRenderer.maxLines {
            if anomalies.count > 3 {
                anomalies.removeLast()
            } else if headline.count > 3 {
                headline.removeLast()
            } else if options.count > max(3, keepOptionLines) {
                options.removeLast()
                if markedOptions > 0 {
                    markedOptions -= 1
                    if markedOptions == 0 { legend = [] }
                }
            } else {
                break
            }
        }
        // What the summary and its budget left out is counted, never dropped unsaid.
        let (moreOptions, moreAnomalies) = unsaid()
        if moreOptions > 0 { options.append("      " + Money.count(moreOptions, "more option", "more options") + " in the full report") }
        if moreAnomalies > 0 { anomalies.append("  " + Money.count(moreAnomalies, "more anomaly", "more anomalies") + " in the full report") }
        var lines = header + [""] + headline.joined() + [""] + options + legend
        if !anomalies.isEmpty { lines += [""] + anomalies }
        lines += [""] + footer
        return lines.joined(separator: "\n") + "\n"
    }

    private func headlineRow(_ row: (label: String, text: String, style: TerminalText.Style?)) -> [String] {
        let body = text.inline(row.text)
        let styled = row.style.map { text.styled(body, $0) } ?? body
        let width = TerminalSummaryRenderer.labelWidth
        let label = TerminalSummaryRenderer.padded(TerminalSummaryRenderer.shortLabels[row.label] ?? row.label, width)
        return text.wrapped(styled, indent: width + 1, firstIndent: width + 1)
            .enumerated().map { $0.offset == 0 ? label + " " + $0.element.dropFirst(width + 1) : $0.element }
    }

    /// The option's name with what it is to the advice: `current (keep)`, `session_details (tree)`.
    private func optionName(_ option: Recommendation.Option, advice: Recommendation) -> String {
        var name = option.strategy.rawValue
        if option.sameChoice(as: advice.recommended) { name += advice.keepsCurrent ? " (keep)" : " (recommended)" }
        if option.sameChoice(as: advice.treeOption), !option.sameChoice(as: advice.recommended) { name += " (tree)" }
        return name
    }

    private func optionLine(_ option: Recommendation.Option, rank: String, advice: Recommendation, layout: OptionLayout, note: String = "") -> String {
        // The name is cut, never the note after it.
        let name = TerminalText.truncated(optionName(option, advice: advice), to: layout.name - note.unicodeScalars.count) + note
        let line = "  " + TerminalSummaryRenderer.leftPadded(rank, 2) + "  " + TerminalSummaryRenderer.padded(name, layout.name)
            + TerminalSummaryRenderer.leftPadded(String(option.delay), TerminalSummaryRenderer.optionColumns.delay)
            + TerminalSummaryRenderer.leftPadded(Money.usd(option.costUSD), layout.bill)
            + TerminalSummaryRenderer.leftPadded(Money.usd(option.savingsUSDPerMonth), layout.saving)
            + (layout.list.map { TerminalSummaryRenderer.leftPadded(Money.usd(option.listCostUSD), $0) } ?? "")
        return option.sameChoice(as: advice.recommended) ? text.styled(line, .green) : line
    }

    static func padded(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.unicodeScalars.count))
    }

    static func leftPadded(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.unicodeScalars.count)) + text
    }
}
