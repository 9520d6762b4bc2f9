/// Token and user ids: interning, and compaction to `SpentTokens` (renumber every id still held).
extension SessionStream {
    /// The id of a walked call's token or user, through the cache of recent keys.
    mutating func internKey(of call: GroupCall, arena: UnsafeRawBufferPointer) -> UInt32 {
        let key = UnsafeRawBufferPointer(rebasing: arena[Int(call.keyStart) ..< Int(call.keyStart + call.keyCount)])
        if call.byToken {
            if let known = recentTokens.find(project: call.project, key, hash: call.keyHash) { return known }
            let id = internToken(project: call.project, key)
            recentTokens.store(project: call.project, key, hash: call.keyHash, id: id)
            return id
        }
        if let known = recentUsers.find(project: call.project, key, hash: call.keyHash) { return known }
        let id = internUser(project: call.project, key)
        recentUsers.store(project: call.project, key, hash: call.keyHash, id: id)
        return id
    }

    /// A token new to `tokens` may have been moved to `spentTokens`: it takes its state from there.
    /// With rows, a new token's pseudonym is computed here, from the bytes as logged. Out of the
    /// loop over calls: most calls' token is found among the recent ones.
    @inline(never)
    private mutating func internToken(project: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        let (id, inserted, length) = SessionStream.intern(project: project, bytes, in: &tokens, scratch: &scratch)
        guard inserted else { return id }
        if length == KeyTable.width, spentTokens.count > 0 {
            let state = scratch.withUnsafeBytes { spentTokens.state(of: SpentTokens.Key($0.baseAddress!)) }
            if let state { tokens[state: id] = state }
        }
        if let pseudonymizer = options.rows?.pseudonymizer { tokenPseudonyms[id] = pseudonymizer.pseudonym64(bytes) }
        return id
    }

    /// The id of a token call's user: its token's last user when the bytes match (a session's
    /// calls share their user), else through the cache of recent keys.
    mutating func internUserOfTokenCall(token: UInt32, project: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        if let known = tokenUsers.find(token: token, bytes) { return known }
        let hash = ByteInterner.hash(bytes)
        let id: UInt32
        if let known = recentUsers.find(project: project, bytes, hash: hash) {
            id = known
        } else {
            id = internUser(project: project, bytes)
            recentUsers.store(project: project, bytes, hash: hash, id: id)
        }
        tokenUsers.store(token: token, bytes, id: id)
        return id
    }

    mutating func internUser(project: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        SessionStream.intern(project: project, bytes, in: &users, scratch: &scratch).id
    }

    /// The id of (`project`, `bytes`) in `table`, stored in `TokenKey`'s packed form (left in
    /// `scratch`), and whether it is new.
    private static func intern(project: UInt32, _ bytes: UnsafeRawBufferPointer, in table: inout KeyTable, scratch: inout [UInt8]) -> (id: UInt32, inserted: Bool, length: Int) {
        if scratch.count < bytes.count + 8 { scratch = [UInt8](repeating: 0, count: bytes.count + 64) }
        return scratch.withUnsafeMutableBufferPointer { buffer in
            let length = TokenKey.encode(project: project, bytes, into: buffer.baseAddress!)
            let (id, inserted) = table.intern(UnsafeRawBufferPointer(start: buffer.baseAddress!, count: length))
            return (id, inserted, length)
        }
    }

    /// Moves the tokens nothing refers to by id, spent or waiting, to `spentTokens`, and
    /// renumbers the rest wherever their ids are held.
    ///
    /// Held by id: calls in the reorder buffer, open tokens (their drafts and deadlines), kept
    /// searches waiting for a verdict, the tokens' pseudonyms, and the cache of recent tokens
    /// (emptied).
    mutating func compactTokens(_ buffer: inout ReorderBuffer<Event>) {
        func isToken(_ event: Event) -> Bool { !event.base && event.byToken && event.key & KeyTable.otherBit == 0 }
        var held = [UInt64](repeating: 0, count: (tokens.packedCount + 63) / 64)
        func hold(_ id: UInt32) {
            if id & KeyTable.otherBit == 0 { held[Int(id) >> 6] |= 1 << UInt64(id & 63) }
        }
        buffer.updateEach { event in
            if isToken(event) { hold(event.key) }
        }
        for token in waitingKept.keys { hold(token) }
        let renumbered = tokens.compact(into: &spentTokens) { id, state in
            held[Int(id) >> 6] >> UInt64(id & 63) & 1 != 0 || TokenState(raw: state).isFreshOrOpen
        }
        func renumber(_ id: UInt32) -> UInt32 {
            id & KeyTable.otherBit != 0 ? id : renumbered[Int(id)]
        }
        buffer.updateEach { event in
            if isToken(event) { event.key = renumber(event.key) }
        }
        for index in openTokens.indices where openTokens[index] != nil {
            openTokens[index]!.draft.key = renumber(openTokens[index]!.draft.key)
        }
        tokenDeadlines.rewrite { entry in
            let token = renumber(entry.token)
            return token == .max ? nil : (entry.deadline, token)
        }
        waitingKept = Dictionary(uniqueKeysWithValues: waitingKept.map { (renumber($0.key), $0.value) })
        tokenPseudonyms.renumberPacked(renumbered)
        recentTokens.removeAll()
        tokenUsers.removeAll()
        // Tokens still held stay; waiting for as many new ones again keeps the work per token bounded.
        compactAt = max(options.compactAfter, 2 * tokens.packedCount)
    }
}
