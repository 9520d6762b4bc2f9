/// `--by`: the raw group id of each call and search (`SearchTally.ShapeKey.group`), and the calls
/// and anomalies counted per group. Nothing here runs without `--by`.
extension SessionStream {
    /// A call's group, by its own attributes: its project's or platform's label id, its API
    /// generation's code, or its calendar day in the report's time zone.
    mutating func callGroup(_ event: Event, _ by: GroupDimension) -> UInt32 {
        switch by {
        case .project: event.project
        case .platform: event.platform
        case .apiVersion: UInt32(APIGeneration.code(event.generation))
        case .day: UInt32(bitPattern: calendar.day(of: Timestamp(microseconds: event.time)))
        }
    }

    /// A search's group: its project (a token's calls share one), the platform and generation
    /// it is recorded with (its first call's that names one, else its selection's, as
    /// `searches.csv` and the pricing read them), or the day of its first call.
    mutating func searchGroup(_ draft: Draft, selection: Event?, _ by: GroupDimension) -> UInt32 {
        switch by {
        case .project: draft.project
        case .platform: draft.platform != 0 ? draft.platform : (selection?.platform ?? 0)
        case .apiVersion: UInt32(APIGeneration.code(draft.generation ?? selection?.generation))
        case .day: UInt32(bitPattern: calendar.day(of: Timestamp(microseconds: draft.startedAt)))
        }
    }

    /// Counts a kept call in its group, with the anomalies one call shows by itself.
    mutating func countInGroup(_ event: Event, _ by: GroupDimension) {
        let group = callGroup(event, by)
        var counts = tally.groupCounts[group] ?? SearchTally.GroupCounts()
        counts.calls += 1
        if event.api == .autocomplete, !event.byToken { counts.anomalies.noTokenRequests += 1 }
        if event.api == .placeDetails, event.fields == 0 { counts.anomalies.fieldsUnspecified += 1 }
        tally.groupCounts[group] = counts
    }

    /// Counts one anomaly of a call (`token_reused`, `details_without_autocomplete`) in its group.
    mutating func countCallAnomaly(_ event: Event, _ anomaly: WritableKeyPath<Anomalies, Int>) {
        guard let by = options.groupBy else { return }
        tally.groupCounts[callGroup(event, by), default: SearchTally.GroupCounts()].anomalies[keyPath: anomaly] += 1
    }

    /// Counts one anomaly of a session (`expired`, `one_request_sessions`) in the group of its
    /// search, counted as shape `shape`.
    mutating func countSessionAnomaly(shape: Int, _ anomaly: WritableKeyPath<Anomalies, Int>) {
        guard options.groupBy != nil else { return }
        tally.groupCounts[tally.shapes[shape].group, default: SearchTally.GroupCounts()].anomalies[keyPath: anomaly] += 1
    }
}
