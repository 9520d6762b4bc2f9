/// `searches.csv`'s rows: each finished search as a `SearchRow`, its token and user as keyed
/// pseudonyms computed here, on the walk's thread.
extension SessionStream {
    mutating func appendRow(_ draft: Draft, _ outcome: Search.Outcome, lengths: LengthProfile, selection: Event?, shape: Int, mayExpire: Bool) {
        guard let row = makeRow(draft, outcome, lengths: lengths, selection: selection, shape: UInt32(shape), mayExpire: mayExpire) else { return }
        let runs = rows!.runs.count
        rows!.append(row)
        if rows!.runs.count != runs { publishSpilledRun() }
    }

    /// The row of `draft` ending with `outcome`; `nil` when the walk makes no rows.
    private mutating func makeRow(_ draft: Draft, _ outcome: Search.Outcome, lengths: LengthProfile, selection: Event?, shape: UInt32, mayExpire: Bool) -> SearchRow? {
        guard let pseudonymizer = options.rows?.pseudonymizer else { return nil }
        var row = SearchRow(
            startedAt: draft.startedAt, sequence: draft.sequence, endedAt: selection?.time ?? draft.lastAutocompleteAt,
            token: 0, user: 0, requests: lengths.requests,
            charactersAtSelection: outcome.isCompleted ? lengths.last : -1, shape: shape,
            hasToken: draft.kind != .inferred, hasUser: draft.user != UInt32.max, mayExpire: mayExpire
        )
        if row.hasToken { row.token = tokenPseudonym(draft.key, pseudonymizer) }
        if row.hasUser, tokenUsersArePseudonyms, draft.kind != .inferred {
            row.user = tokenUserPseudonyms[Int(draft.user)]
        } else if row.hasUser {
            if let known = userPseudonyms[draft.user] {
                row.user = known
            } else {
                row.user = storedPseudonym(draft.user, in: users, pseudonymizer)
                userPseudonyms[draft.user] = row.user
            }
        }
        return row
    }

    /// Hands the run just spilled to `options.rows.publications` with what writing it needs:
    /// the walk's shapes, the rows of runs on a spent token idle for `idleRunAge` as they stand,
    /// and the earliest start of every other open search (or the time being walked), before
    /// which no row this walk emits later starts, those published as they stood aside.
    private mutating func publishSpilledRun() {
        guard let publications = options.rows?.publications, let store = rows, let run = store.runs.last,
              store.failure == nil, !isLate, !finishing
        else { return }
        var bound = walkedTime
        var provisional: [SearchRow] = []
        let (earlier, overflow) = walkedTime.subtractingReportingOverflow(publications.idleRunAge)
        let idleSince = overflow ? Int64.min : earlier
        for slot in openTokens.indices {
            guard let open = openTokens[slot], open.sessionOpen || open.hasRun, !open.draft.publishedAsItStands else { continue }
            if !open.sessionOpen, open.draft.lastAutocompleteAt < idleSince, let row = rowAtEnd(ofRun: open.draft) {
                provisional.append(row)
                openTokens[slot]!.draft.publishedAsItStands = true
                continue
            }
            bound = min(bound, open.draft.startedAt)
        }
        for case let draft? in openUsers { bound = min(bound, draft.startedAt) }
        provisional.sort { $0.precedes($1) }
        publications.publish(RowPublication(
            partition: partition, descriptor: store.spillDescriptor, run: run, provisional: provisional,
            shapes: tally.shapes, uncountedShapes: uncountedShapes, periodTimes: tally.periodTimes, bound: bound
        ))
    }

    /// The row `finish` would emit for a run on a spent token if the log ended here (abandoned,
    /// no selection), counting nothing: a shape no search has had yet is noted in `uncountedShapes`.
    private mutating func rowAtEnd(ofRun draft: Draft) -> SearchRow? {
        let lengths = draft.lengthsAside ? asideLengths[draft.sequence]! : LengthProfile(draft.lengths)
        let key = shapeKey(draft, .abandoned, lengths: lengths, selection: nil)
        let shape: UInt32
        if let counted = tally.index(of: key) {
            shape = UInt32(counted)
        } else if let known = uncountedShapeIndices[key] {
            shape = SearchRow.uncountedShape(known)
        } else {
            uncountedShapeIndices[key] = uncountedShapes.count
            shape = SearchRow.uncountedShape(uncountedShapes.count)
            uncountedShapes.append(key)
        }
        return makeRow(draft, .abandoned, lengths: lengths, selection: nil, shape: shape, mayExpire: false)
    }

    /// The index in `tokenUserPseudonyms` of a token call's user: its token's last user's when the
    /// bytes match (a session's calls share their user), else a new pseudonym, computed here.
    @inline(__always)
    mutating func tokenUserPseudonym(token: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        if let known = tokenUsers.find(token: token, bytes) { return known }
        return newTokenUserPseudonym(token: token, bytes)
    }

    /// Out of the loop over calls: most calls' user is their token's last one.
    @inline(never)
    private mutating func newTokenUserPseudonym(token: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let pseudonymizer = options.rows?.pseudonymizer else { return .max }
        // The user's text as logged: what `TokenKey` gives back of the stored key, too.
        let index = UInt32(tokenUserPseudonyms.count)
        tokenUserPseudonyms.append(pseudonymizer.pseudonym64(bytes))
        tokenUsers.store(token: token, bytes, id: index)
        return index
    }

    /// Keeps the pseudonyms of token calls' users that something still refers to by index, under
    /// new indices: the calls in the reorder buffer and the open tokens' drafts. The cache of each
    /// token's last user (`tokenUsers`), which holds indices too, is emptied.
    mutating func compactTokenUserPseudonyms(_ buffer: inout ReorderBuffer<Event>) {
        func refersToUser(_ event: Event) -> Bool { !event.base && event.byToken && event.user != .max }
        var renumbered = [UInt32](repeating: .max, count: tokenUserPseudonyms.count)
        var kept: [UInt64] = []
        func renumber(_ index: UInt32) -> UInt32 {
            guard index != .max else { return .max }
            if renumbered[Int(index)] == .max {
                renumbered[Int(index)] = UInt32(kept.count)
                kept.append(tokenUserPseudonyms[Int(index)])
            }
            return renumbered[Int(index)]
        }
        buffer.updateEach { event in
            if refersToUser(event) { event.user = renumber(event.user) }
        }
        for slot in openTokens.indices where openTokens[slot] != nil {
            openTokens[slot]!.draft.user = renumber(openTokens[slot]!.draft.user)
        }
        tokenUserPseudonyms = kept
        tokenUsers.removeAll()
        // As for tokens: waiting for as many new ones again keeps the work per user bounded.
        tokenUserCompactAt = max(1, options.compactAfter, 2 * kept.count)
    }

    /// Notes that the session of `token`, emitted with shape `from`, ends with shape `to`.
    mutating func reshapeRow(token: UInt32, from: UInt32, to: Int) {
        guard let pseudonymizer = options.rows?.pseudonymizer else { return }
        rows!.reshaped[tokenPseudonym(token, pseudonymizer)] = (from, UInt32(to))
    }

    /// The pseudonym computed when `token` was interned; every token interned with rows on has
    /// one. Else (never, as long as that holds) the same value from the stored key's text.
    private mutating func tokenPseudonym(_ token: UInt32, _ pseudonymizer: Pseudonymizer) -> UInt64 {
        tokenPseudonyms[token] ?? storedPseudonym(token, in: tokens, pseudonymizer)
    }

    /// The pseudonym of the key `id` of `table`, from its text as logged (`TokenKey.decode` into
    /// the reused `rowText`).
    private mutating func storedPseudonym(_ id: UInt32, in table: KeyTable, _ pseudonymizer: Pseudonymizer) -> UInt64 {
        var text: [UInt8] = []
        swap(&text, &rowText)
        defer { swap(&text, &rowText) }
        let length = table.withBytes(id) { TokenKey.decode($0, into: &text) }
        return text.withUnsafeBytes { pseudonymizer.pseudonym64(UnsafeRawBufferPointer(rebasing: $0[..<length])) }
    }
}
