/// `report.md`'s "Cost by <group>" section (`docs/report-schema.md`): only with `--by`.
extension MarkdownReportRenderer {
    /// Rows shown before the rest are summed into one (every group is in `report.json`).
    static let shownGroups = 50

    func groupLines(_ analysis: Analysis) -> [String] {
        guard let breakdown = analysis.groups else { return [] }
        let heading: String = switch breakdown.dimension {
        case .project: "project"
        case .platform: "platform"
        case .apiVersion: "API generation"
        case .day: "day"
        }
        let rule: String = switch breakdown.dimension {
        case .project: "Each search counts in its project; calls with no project are \"(no project)\"."
        case .platform: "Each search counts in the platform of its first call that names one; each call in its own."
        case .apiVersion: "Each search counts in the API generation of its first call that names one; each call in its own (none named: legacy)."
        case .day: "Each search counts on the calendar day (in `--timezone`, UTC by default) of its first call; each call on its own day."
        }
        let recommended = breakdown.recommendedStrategy.rawValue + (breakdown.recommendedDelay > 0 ? ", delay \(breakdown.recommendedDelay)" : "")
        var lines = [
            "## Cost by \(heading)", "",
            rule + " Anomalies of a call (reuse, no token, no field mask, details without autocomplete) count with the call, those of a session (expired, one request) with its search. Each month's bill is shared by the groups' list cost per SKU, so the groups add up to the totals (in `report.json` to the micro-dollar).", "",
            "| \(heading) | calls | searches | completed | anomalies | bill now | list price now | per search now | bill, \(recommended) | per search, \(recommended) |",
            "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|",
        ]
        let shown = breakdown.groups.prefix(MarkdownReportRenderer.shownGroups)
        for group in shown {
            lines.append(row(group.name.map(MarkdownText.name) ?? "(no project)", group))
        }
        let rest = breakdown.groups.dropFirst(MarkdownReportRenderer.shownGroups)
        if !rest.isEmpty {
            let others = GroupBreakdown(dimension: breakdown.dimension, recommendedStrategy: breakdown.recommendedStrategy, recommendedDelay: breakdown.recommendedDelay, groups: Array(rest))
            lines.append(row("\(Money.count(rest.count)) more (each in `report.json`)", others.total))
        }
        lines.append(row("**total**", breakdown.total))
        if ReportCharts.dailyDays(analysis) != nil {
            lines += [
                "",
                "![Calls by day](\(ReportCharts.dailyCalls))",
                "",
                "![\(ReportCharts.dailyCostTitle(analysis))](\(ReportCharts.dailyCostPerSearch))",
            ]
        }
        lines.append("")
        return lines
    }

    private func row(_ name: String, _ group: GroupBreakdown.Group) -> String {
        let anomalies = group.anomalies.named.filter { $0.count > 0 }.map { "`\($0.name)` \(Money.count($0.count))" }
        let cells = [
            name, Money.count(group.calls), Money.count(group.searches), Money.count(group.completed),
            anomalies.isEmpty ? "none" : anomalies.joined(separator: ", "),
            Money.usd(group.current.costUSD), Money.usd(group.current.listCostUSD),
            group.current.costPerSearchUSD(group.searches).map { Money.usd($0, digits: 4) } ?? "n/a",
            Money.usd(group.recommended.costUSD),
            group.recommended.costPerSearchUSD(group.searches).map { Money.usd($0, digits: 4) } ?? "n/a",
        ]
        return "| " + cells.joined(separator: " | ") + " |"
    }
}
