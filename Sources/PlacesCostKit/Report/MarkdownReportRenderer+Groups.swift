/// `report.md`'s "Cost by <group>" section (`docs/report-schema.md`): only with `--by`.
extension MarkdownReportRenderer {
    /// Rows shown before the rest are summed into one (every group is in `report.json`).
    static let shownGroups = 50

    /// The dimension as a column heading.
    static func groupHeading(_ dimension: GroupDimension) -> String {
        switch dimension {
        case .project: "project"
        case .platform: "platform"
        case .apiVersion: "API generation"
        case .day: "day"
        }
    }

    /// How searches, calls, anomalies and money are put in groups: the section's first paragraph.
    static func groupRule(_ dimension: GroupDimension) -> String {
        let membership = switch dimension {
        case .project: "Each search counts in its project; calls with no project are \"(no project)\"."
        case .platform: "Each search counts in the platform of its first call that names one; each call in its own."
        case .apiVersion: "Each search counts in the API generation of its first call that names one; each call in its own (none named: legacy)."
        case .day: "Each search counts on the calendar day (in `--timezone`, UTC by default) of its first call; each call on its own day."
        }
        return membership + " Anomalies of a call (reuse, no token, no field mask, details without autocomplete) count with the call, those of a session (expired, one request) with its search. Each month's bill is shared by the groups' list cost per SKU, so the groups add up to the totals (in `report.json` to the micro-dollar)."
    }

    /// The recommended option as the by-table's columns name it.
    static func groupRecommended(_ breakdown: GroupBreakdown) -> String {
        breakdown.recommendedStrategy.rawValue + (breakdown.recommendedDelay > 0 ? ", delay \(breakdown.recommendedDelay)" : "")
    }

    /// The groups shown one a row, and the rest summed into one row when there are more.
    static func shownGroups(_ breakdown: GroupBreakdown) -> (shown: [GroupBreakdown.Group], rest: (count: Int, total: GroupBreakdown.Group)?) {
        let rest = breakdown.groups.dropFirst(shownGroups)
        guard !rest.isEmpty else { return (breakdown.groups, nil) }
        let others = GroupBreakdown(dimension: breakdown.dimension, recommendedStrategy: breakdown.recommendedStrategy, recommendedDelay: breakdown.recommendedDelay, groups: Array(rest))
        return (Array(breakdown.groups.prefix(shownGroups)), (rest.count, others.total))
    }

    func groupLines(_ analysis: Analysis) -> [String] {
        guard let breakdown = analysis.groups else { return [] }
        let heading = Self.groupHeading(breakdown.dimension)
        let rule = Self.groupRule(breakdown.dimension)
        let columns = Self.groupColumns(breakdown)
        var lines = [
            "## Cost by \(heading)", "",
            rule, "",
            "| " + ([heading] + columns).joined(separator: " | ") + " |",
            "|---" + columns.map { $0 == "anomalies" ? "|---" : "|---:" }.joined() + "|",
        ]
        let (shown, rest) = Self.shownGroups(breakdown)
        for group in shown {
            lines.append(row(group.name.map(MarkdownText.name) ?? "(no project)", group, of: breakdown))
        }
        if let rest {
            lines.append(row("\(Money.count(rest.count)) more (each in `report.json`)", rest.total, of: breakdown))
        }
        lines.append(row("**total**", breakdown.total, of: breakdown))
        if ReportCharts.dailyDays(analysis) != nil {
            lines += [
                "",
                "![\(ReportCharts.dailyCallsTitle(analysis))](\(ReportCharts.dailyCalls))",
                "",
                "![\(ReportCharts.dailyCostTitle(analysis))](\(ReportCharts.dailyCostPerSearch))",
            ]
        }
        lines.append("")
        return lines
    }

    /// Whether the by-table shows the recommendation's bill beside the bill now: not when the
    /// recommendation is to keep the integration as it is, whose columns would repeat them.
    static func showsRecommended(_ breakdown: GroupBreakdown) -> Bool {
        breakdown.recommendedStrategy != .current || breakdown.recommendedDelay > 0
    }

    /// The by-table's columns after the group's name.
    static func groupColumns(_ breakdown: GroupBreakdown) -> [String] {
        let recommended = groupRecommended(breakdown)
        return ["calls", "searches", "completed", "anomalies", "bill now", "list price now", "per search now"]
            + (showsRecommended(breakdown) ? ["bill, \(recommended)", "per search, \(recommended)"] : [])
    }

    /// A group's cells under `groupColumns`, as the engine's text (anomaly names as `code`).
    static func groupCells(_ group: GroupBreakdown.Group, of breakdown: GroupBreakdown) -> [String] {
        let anomalies = group.anomalies.named.filter { $0.count > 0 }.map { "`\($0.name)` \(Money.count($0.count))" }
        let now = [
            Money.count(group.calls), Money.count(group.searches), Money.count(group.completed),
            anomalies.isEmpty ? "none" : anomalies.joined(separator: ", "),
            Money.usd(group.current.costUSD), Money.usd(group.current.listCostUSD),
            group.costPerSearchUSD(group.current).map { Money.usd($0, digits: 4, fixed: true) } ?? "n/a",
        ]
        guard showsRecommended(breakdown) else { return now }
        return now + [
            Money.usd(group.recommended.costUSD),
            group.costPerSearchUSD(group.recommended).map { Money.usd($0, digits: 4, fixed: true) } ?? "n/a",
        ]
    }

    private func row(_ name: String, _ group: GroupBreakdown.Group, of breakdown: GroupBreakdown) -> String {
        "| " + ([name] + Self.groupCells(group, of: breakdown)).joined(separator: " | ") + " |"
    }
}
