/// `searches.csv`'s rows: each finished search as a `SearchRow`, its token and user as keyed
/// pseudonyms computed here, on the walk's thread.
extension SessionStream {
    mutating func appendRow(_ draft: Draft, _ outcome: Search.Outcome, lengths: LengthProfile, selection: Event?, shape: Int, mayExpire: Bool) {
        guard let pseudonymizer = options.rows?.pseudonymizer else { return }
        var row = SearchRow(
            startedAt: draft.startedAt, sequence: draft.sequence, endedAt: selection?.time ?? draft.lastAutocompleteAt,
            token: 0, user: 0, requests: lengths.requests,
            charactersAtSelection: outcome.isCompleted ? lengths.last : -1, shape: UInt32(shape),
            hasToken: draft.kind != .inferred, hasUser: draft.user != UInt32.max, mayExpire: mayExpire
        )
        if row.hasToken { row.token = tokenPseudonym(draft.key, pseudonymizer) }
        if row.hasUser, tokenUsersArePseudonyms, draft.kind != .inferred {
            row.user = tokenUserPseudonyms[Int(draft.user)]
        } else if row.hasUser {
            if let known = userPseudonyms[draft.user] {
                row.user = known
            } else {
                var text: [UInt8] = []
                swap(&text, &rowText)
                let length = users.withBytes(draft.user) { TokenKey.decode($0, into: &text) }
                row.user = text.withUnsafeBytes { pseudonymizer.pseudonym64(UnsafeRawBufferPointer(rebasing: $0[..<length])) }
                swap(&text, &rowText)
                userPseudonyms[draft.user] = row.user
            }
        }
        rows!.append(row)
    }

    /// The index in `tokenUserPseudonyms` of a token call's user: its token's last user's when the
    /// bytes match (a session's calls share their user), else a new pseudonym, computed here.
    mutating func tokenUserPseudonym(token: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        if let known = tokenUsers.find(token: token, bytes) { return known }
        guard let pseudonymizer = options.rows?.pseudonymizer else { return .max }
        // The user's text as logged: what `TokenKey` gives back of the stored key, too.
        let index = UInt32(tokenUserPseudonyms.count)
        tokenUserPseudonyms.append(pseudonymizer.pseudonym64(bytes))
        tokenUsers.store(token: token, bytes, id: index)
        return index
    }

    /// Notes that the session of `token`, emitted with shape `from`, ends with shape `to`.
    mutating func reshapeRow(token: UInt32, from: UInt32, to: Int) {
        guard let pseudonymizer = options.rows?.pseudonymizer else { return }
        rows!.reshaped[tokenPseudonym(token, pseudonymizer)] = (from, UInt32(to))
    }

    private mutating func tokenPseudonym(_ token: UInt32, _ pseudonymizer: Pseudonymizer) -> UInt64 {
        var text: [UInt8] = []
        swap(&text, &rowText)
        let length = tokens.withBytes(token) { TokenKey.decode($0, into: &text) }
        let pseudonym = text.withUnsafeBytes { pseudonymizer.pseudonym64(UnsafeRawBufferPointer(rebasing: $0[..<length])) }
        swap(&text, &rowText)
        return pseudonym
    }
}

/// How a walk makes `searches.csv`'s rows.
struct SearchRowOptions: Sendable {
    var pseudonymizer: Pseudonymizer
    /// Where rows past `runLength` a walk are spilled (`SearchRowStore`).
    var directory: String
    var runLength = SearchRowStore.defaultRunLength
}

/// The pseudonyms of the walk's user ids, by id: each user's is computed once, though a user's
/// searches spread over the whole log. 8 bytes and a bit a user, beside the user table's 31.
/// Ids are dense from 0, those of keys of the packed width and the others (`KeyTable.otherBit`)
/// each.
struct PseudonymCache {
    private var packed = DenseValues()
    private var other = DenseValues()

    subscript(id: UInt32) -> UInt64? {
        get { id & KeyTable.otherBit == 0 ? packed[Int(id)] : other[Int(id & ~KeyTable.otherBit)] }
        set {
            guard let newValue else { return }
            if id & KeyTable.otherBit == 0 {
                packed[Int(id)] = newValue
            } else {
                other[Int(id & ~KeyTable.otherBit)] = newValue
            }
        }
    }

    private struct DenseValues {
        private var values: [UInt64] = []
        private var known: [UInt64] = []

        subscript(index: Int) -> UInt64? {
            get {
                guard index < values.count, known[index >> 6] >> UInt64(index & 63) & 1 != 0 else { return nil }
                return values[index]
            }
            set {
                guard let newValue else { return }
                if index >= values.count {
                    let count = max(index + 1, values.count * 2, 1024)
                    values += [UInt64](repeating: 0, count: count - values.count)
                    known += [UInt64](repeating: 0, count: (count + 63) / 64 - known.count)
                }
                values[index] = newValue
                known[index >> 6] |= 1 << UInt64(index & 63)
            }
        }
    }
}
