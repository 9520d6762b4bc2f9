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
    /// The options table's columns: rank, name, delay, bill, saving and list price, with the
    /// spaces before each.
    static let optionColumns = (rank: 2 + 2 + 2, name: 34, figures: 5 + 10 + 17, list: 13)

    /// The options table on this screen: the list price only where the whole table fits, the
    /// strategy's name cut to the room left.
    var optionLayout: (name: Int, list: Bool) {
        let columns = TerminalSummaryRenderer.optionColumns
        let list = text.width >= columns.rank + columns.name + columns.figures + columns.list
        return (min(columns.name, text.width - columns.rank - columns.figures - (list ? columns.list : 0)), list)
    }
    /// The headline's labels that would not fit `labelWidth`, shortened for the terminal.
    static let shortLabels = ["Why not the tree's answer": "Why not the tree", "Same delay, calls as made": "Calls as made, delayed"]

    func render(_ analysis: Analysis) -> String {
        let advice = analysis.recommendation
        var header: [String] = []
        var coverage = "\(Money.count(analysis.input.records)) calls, \(Money.count(analysis.statistics.total)) searches"
        if let first = analysis.input.firstCall, let last = analysis.input.lastCall {
            coverage += ", \(first.rfc3339.prefix(10)) to \(last.rfc3339.prefix(10))"
        }
        header += text.wrapped(text.styled("Places Autocomplete cost summary", .bold) + " (" + coverage + ")")
        if analysis.input.usedSampleLogs {
            header += text.wrapped(text.styled("The bundled sample logs: simulated traffic, not yours. Run `placescost analyze YOUR.jsonl`.", .dim))
                .map { text.inline($0) }
        }

        let perMonth = advice.current.costUSD / Double(advice.months)
        var rows: [(label: String, text: String, style: TerminalText.Style?)] = [
            ("Estimated bill now", "**\(Money.usd(perMonth)) a month**; \(Money.usd(advice.current.listCostUSD)) at list prices", .yellow),
        ]
        for (label, sentence) in AdviceSentences.rows(advice, pricing: analysis.pricing) {
            let style: TerminalText.Style? = label == "Recommended" ? .green : label == "Saving" ? .yellow : nil
            rows.append((label, sentence, style))
        }
        var headline: [[String]] = rows.map(headlineRow)

        let layout = optionLayout
        var options = [text.styled(TerminalSummaryRenderer.padded("Options by the bill", layout.name + 6) + "delay      bill   saving a month" + (layout.list ? "   list price" : ""), .bold)]
        for (index, option) in advice.highlights.filter(\.valid).prefix(5).enumerated() {
            options.append(optionLine(option, rank: String(index + 1), advice: advice))
        }
        for option in advice.highlights.filter({ !$0.valid }).prefix(2) {
            options.append(optionLine(option, rank: "-", advice: advice, note: " (not valid)"))
        }

        let seen = advice.anomalies.filter { $0.cost.count > 0 }
        var anomalies: [String] = []
        if !seen.isEmpty {
            // Under --scale the money is for the scaled volume: so is the count beside it.
            let scale = analysis.pricing.scale
            let countLabel = scale == 1 ? "count" : "billed"
            anomalies.append(text.styled(TerminalSummaryRenderer.padded("Anomalies", 30) + TerminalSummaryRenderer.leftPadded(countLabel, 9) + "       cost  fix", .bold))
            for anomaly in seen.prefix(6) {
                let start = "  " + TerminalSummaryRenderer.padded(anomaly.cost.name, 28)
                    + TerminalSummaryRenderer.leftPadded(Money.count(Double(anomaly.cost.count) * scale), 9)
                    + "  " + text.styled(TerminalSummaryRenderer.leftPadded(Money.usd(anomaly.cost.billedListUSD), 9), .yellow) + "  "
                // The fix is cut to the screen; on one too narrow for a useful part, left out.
                let room = text.width - TerminalText.visibleWidth(start)
                anomalies.append(room >= 12 ? start + TerminalText.truncated(anomaly.fix, to: room) : String(start.dropLast(2)))
            }
        }

        let footer: [String]
        if let outDirectory {
            footer = text.wrapped("Full report in \(outDirectory)/: report.md (decision path, next steps, every delay), report.html, report.json, searches.csv, costs.csv and charts/.")
        } else {
            footer = text.wrapped("Full report: add --out DIR for report.md (decision path, next steps, every delay), report.json, searches.csv and charts, or --report md for the Markdown here.")
        }

        // Within the budget: anomalies and options first lose their last rows, then the
        // headline its last explanations.
        func total() -> Int {
            header.count + 1 + headline.reduce(0) { $0 + $1.count } + 1 + options.count + (anomalies.isEmpty ? 0 : 1 + anomalies.count) + 1 + footer.count
        }
        while total() > TerminalSummaryRenderer.maxLines {
            if anomalies.count > 3 {
                anomalies.removeLast()
            } else if options.count > 3 {
                options.removeLast()
            } else if headline.count > 3 {
                headline.removeLast()
            } else {
                break
            }
        }
        var lines = header + [""] + headline.joined() + [""] + options
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

    private func optionLine(_ option: Recommendation.Option, rank: String, advice: Recommendation, note: String = "") -> String {
        var name = option.strategy.rawValue
        if option.sameChoice(as: advice.recommended) { name += advice.keepsCurrent ? " (keep)" : " (recommended)" }
        if option.sameChoice(as: advice.treeOption), !option.sameChoice(as: advice.recommended) { name += " (tree)" }
        name += note
        let layout = optionLayout
        let line = "  " + TerminalSummaryRenderer.leftPadded(rank, 2) + "  " + TerminalSummaryRenderer.padded(TerminalText.truncated(name, to: layout.name), layout.name)
            + TerminalSummaryRenderer.leftPadded(String(option.delay), 5)
            + TerminalSummaryRenderer.leftPadded(Money.usd(option.costUSD), 10)
            + TerminalSummaryRenderer.leftPadded(Money.usd(option.savingsUSDPerMonth), 17)
            + (layout.list ? TerminalSummaryRenderer.leftPadded(Money.usd(option.listCostUSD), 13) : "")
        return option.sameChoice(as: advice.recommended) ? text.styled(line, .green) : line
    }

    static func padded(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.unicodeScalars.count))
    }

    static func leftPadded(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.unicodeScalars.count)) + text
    }
}
