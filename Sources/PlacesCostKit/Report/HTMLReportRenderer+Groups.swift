/// `report.html`'s "Cost by <group>" section: `report.md`'s, from the same `GroupBreakdown`
/// and the same sentences and cells (`MarkdownReportRenderer+Groups`); only with `--by`.
extension HTMLReportRenderer {
    func groupLines(_ analysis: Analysis, charts: [String: BarChart]) -> [String] {
        guard let breakdown = analysis.groups else { return [] }
        let heading = MarkdownReportRenderer.groupHeading(breakdown.dimension)
        let columns = [Column.text(heading)] + MarkdownReportRenderer.groupColumns(breakdown).enumerated().map { index, title in
            index == 3 ? Column.text(title, wide: true) : Column.number(title)
        }
        func row(_ name: String, _ group: GroupBreakdown.Group, className: String? = nil) -> String {
            tableRow([name] + MarkdownReportRenderer.groupCells(group, of: breakdown).map(HTMLText.inline), columns, className: className, headerFirst: true)
        }
        let (shown, rest) = MarkdownReportRenderer.shownGroups(breakdown)
        var rows = shown.map { row($0.name.map(HTMLText.name) ?? "(no project)", $0) }
        if let rest { rows.append(row("\(Money.count(rest.count)) more (each in <code>report.json</code>)", rest.total)) }
        rows.append(row("<strong>total</strong>", breakdown.total, className: "group"))
        var lines = [
            "<section id=\"cost-by-group\">",
            "<h2>Cost by \(HTMLText.escaped(heading))</h2>",
            "<p>\(HTMLText.inline(MarkdownReportRenderer.groupRule(breakdown.dimension)))</p>",
        ]
        lines += table(columns, rows)
        for path in [ReportCharts.dailyCalls, ReportCharts.dailyCostPerSearch] {
            if let chart = charts[path] { lines += figureLines(chart, path: path) }
        }
        lines.append("</section>")
        return lines
    }
}
