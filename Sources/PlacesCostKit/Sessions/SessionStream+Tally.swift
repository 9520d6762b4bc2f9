/// The tally: finished searches and base calls counted by shape, kept whole only for searches.csv.
extension SessionStream {
    // MARK: - Counting

    @discardableResult
    mutating func closeSession(_ session: Draft, _ outcome: Search.Outcome, selection: Event? = nil, mayExpire: Bool = false) -> Int {
        let shape = emit(session, outcome, selection: selection, mayExpire: mayExpire)
        if session.hasOneRequest {
            tally.anomalies.oneRequestSessions += 1
            countSessionAnomaly(shape: shape, \.oneRequestSessions)
        }
        return shape
    }

    /// Counts a finished search by its shape; returns the shape's index.
    ///
    /// - Parameter mayExpire: the search is a session counted as abandoned while its token
    ///   waits: a later call may yet show it expired (`reshapeRow`).
    @discardableResult
    mutating func emit(_ draft: Draft, _ outcome: Search.Outcome, selection: Event? = nil, mayExpire: Bool = false) -> Int {
        let lengths = takeLengths(of: draft)
        let key = shapeKey(draft, outcome, lengths: lengths, selection: selection)
        let index = tally.add(key, time: draft.startedAt)
        if rows != nil { appendRow(draft, outcome, lengths: lengths, selection: selection, shape: index, mayExpire: mayExpire) }
        if options.keepSearches {
            let all = keptLengths.removeValue(forKey: draft.sequence) ?? lengths.representativeLengths(clip: options.clip)
            tally.kept.append((search(draft, outcome, lengths: all, selection: selection), draft.sequence))
        }
        return index
    }

    /// The shape of `draft` ending with `outcome`.
    mutating func shapeKey(_ draft: Draft, _ outcome: Search.Outcome, lengths: LengthProfile, selection: Event?) -> SearchTally.ShapeKey {
        var group: UInt32 = 0
        if let by = options.groupBy { group = searchGroup(draft, selection: selection, by) }
        return SearchTally.ShapeKey(
            period: calendar.period(of: Timestamp(microseconds: draft.startedAt)), lengths: lengths,
            selectionFields: selection?.fields ?? 0, kind: draft.kind, outcome: outcome, generation: draft.generation ?? selection?.generation,
            selectionAPI: selection?.api, selectionGeneration: selection?.generation, group: group
        )
    }

    mutating func addBaseCall(_ event: Event, orphan: Bool) {
        var group: UInt32 = 0
        if let by = options.groupBy { group = callGroup(event, by) }
        let key = SearchTally.BaseCallKey(
            period: calendar.period(of: Timestamp(microseconds: event.time)), fields: event.fields, otherAPI: event.otherAPI,
            api: event.api, generation: event.generation, hasToken: event.byToken, orphan: orphan, group: group
        )
        tally.addBaseCall(key, time: event.time)
    }

    /// The full search, for `searches.csv`.
    private func search(_ draft: Draft, _ outcome: Search.Outcome, lengths: [Int?], selection: Event?) -> Search {
        let selected = selection.map {
            Selection(api: API(code: $0.api, otherName: ""), time: Timestamp(microseconds: $0.time),
                      fields: catalogs.fieldMasks.value($0.fields), generation: $0.generation)
        }
        let generation = draft.generation ?? selection?.generation
        let tokenText: String? = draft.kind == .inferred ? nil : TokenKey.decode(tokens.bytes(draft.key))
        let userText: String? = draft.user == UInt32.max ? nil : TokenKey.decode(users.bytes(draft.user))
        return Search(
            kind: draft.kind, outcome: outcome, requestInputLengths: lengths,
            selection: selected, startedAt: Timestamp(microseconds: draft.startedAt),
            endedAt: Timestamp(microseconds: selection?.time ?? draft.lastAutocompleteAt),
            generation: generation, sessionToken: tokenText, userID: userText,
            project: catalogs.labels.value(draft.project),
            platform: catalogs.labels.value(draft.platform != 0 ? draft.platform : (selection?.platform ?? 0))
        )
    }
}
