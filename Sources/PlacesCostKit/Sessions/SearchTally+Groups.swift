/// `--by`: a tally whose shapes carry groups, split into the report's total and one tally per group.
extension SearchTally {
    /// The searches, base calls and counts of one named group.
    struct Group {
        var tally: SearchTally
        var counts: GroupCounts
    }

    /// The tally with every group folded into one (what the report's totals read, the same
    /// counts as a run without `--by`), and each group's searches and base calls under the name
    /// `name` gives its raw id (several ids may share a name: `iPhone` and `ios` are one platform).
    /// Each group's periods keep the whole log's earliest times, so its representatives price as
    /// the total's do.
    func separatingGroups<Name: Hashable>(_ name: (UInt32) -> Name) -> (total: SearchTally, groups: [Name: Group]) {
        var total = withoutShapes()
        var groups: [Name: Group] = [:]
        var names: [UInt32: Name] = [:]
        func group(_ id: UInt32) -> Name {
            if let known = names[id] { return known }
            let found = name(id)
            names[id] = found
            return found
        }
        for (index, key) in shapes.enumerated() where shapeCounts[index] > 0 {
            let time = periodTimes[key.period]!
            var folded = key
            folded.group = 0
            total.add(folded, time: time, count: shapeCounts[index])
            groups[group(key.group), default: Group(tally: SearchTally(), counts: GroupCounts())].tally.add(folded, time: time, count: shapeCounts[index])
        }
        for (key, count) in baseCalls where count > 0 {
            let time = periodTimes[key.period]!
            var folded = key
            folded.group = 0
            total.addBaseCall(folded, time: time, count: count)
            groups[group(key.group), default: Group(tally: SearchTally(), counts: GroupCounts())].tally.addBaseCall(folded, time: time, count: count)
        }
        for (id, counts) in groupCounts {
            var entry = groups[group(id)] ?? Group(tally: SearchTally(), counts: GroupCounts())
            entry.counts.calls += counts.calls
            entry.counts.anomalies = entry.counts.anomalies + counts.anomalies
            groups[group(id)] = entry
        }
        for name in groups.keys {
            for (period, time) in periodTimes { groups[name]!.tally.notePeriod(period, time: time) }
        }
        return (total, groups)
    }
}
