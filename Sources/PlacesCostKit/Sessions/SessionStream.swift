/// Builds searches from a stream of calls, holding only what can still change.
///
/// The streaming twin of `SessionBuilder`, for logs too large to hold: the same walks
/// (`docs/sessions.md` rules 1-5 per token, the user-gap rule per user), fed by a `ReorderBuffer` in
/// time order, so each token's and user's calls are walked in time order (ties in input order)
/// exactly as the builder sorts them. What it keeps:
/// - every token ever seen, as 18 bytes for a UUID (reuse can come at any time later), and a
///   4-byte state (`TokenState`): fresh, spent, waiting (a session past every timeout, counted as abandoned
///   until a later call shows it expired), or an index into the open tokens. Tokens being
///   walked are in a `KeyTable`; every `compactAfter` new tokens, those no call or open session
///   refers to, spent or waiting, move to `SpentTokens` (16 bytes and two bits, a waiting
///   one's state, and half a byte to a byte of filter);
/// - open sessions, spent-token runs and users' open searches, in full, until nothing can
///   extend them;
/// - counts of everything finished, by shape (`SearchTally`).
///
/// The walks for the compared timeouts (60 s, 600 s) run alongside and only count.
///
/// One file per job: `+Keys` (interning, compaction), `+TokenWalk`, `+UserWalk`, `+Duplicates`
/// (the duplicate check, and counting every call kept), `+Tally` (counting searches); the nested
/// types in `+Event`, `+Draft` and `+OpenToken`.
struct SessionStream {
    struct Options {
        var timeout: Duration64
        /// Compared timeouts (at most two): only their expired sessions and searches are counted.
        var alternativeTimeouts: [Duration64] = []
        var userGap: Duration64
        /// The largest priced delay (`LengthProfile`).
        var clip: Int
        /// Keep every search whole (`SearchSummary.keptSearches`), for the tests' comparisons.
        var keepSearches = false
        /// Write every search as a `searches.csv` row (`SearchRowStore`), in bounded memory.
        var rows: SearchRowOptions?
        /// How far out of time order calls may arrive, in microseconds; `nil` holds every call.
        var window: Int64?
        /// Drop exact duplicates (`--dedupe`); they are counted either way.
        var dedupe = false
        /// New tokens a walk keeps in its `KeyTable` before moving finished ones to `SpentTokens`
        /// (tests make it small). A table of 128 Ki tokens is about 4 MB; each move costs a pass
        /// over the compact set, so fewer moves cost less time.
        var compactAfter = Options.defaultCompactAfter
        static let defaultCompactAfter = 1 << 17
        /// `--by`: count every call and search in its group too; `nil` counts none.
        var groupBy: GroupDimension?

        /// The longest a walk waits for a search's next call: the longest timeout or the user gap.
        var longestWait: Int64 {
            ([timeout, userGap] + alternativeTimeouts).map(\.microseconds).max()!
        }
    }

    let options: Options
    let maxTimeout: Int64
    /// The shortest timeout of all the walks: an autocomplete call this soon after its token's
    /// first call leaves every walk's session open (`extendsOpenSession`).
    let minTimeout: Int64
    var calendar: BillingCalendar
    let catalogs: CallCatalogs
    var tally: SearchTally
    private var buffer: ReorderBuffer<Event>

    var tokens = KeyTable()
    var spentTokens = SpentTokens(commonState: TokenState.spent.raw)
    /// `tokens.packedCount` at which the next compaction runs.
    var compactAt: Int
    var openTokens: [OpenToken?] = []
    /// The lengths of drafts whose counts outgrew `LengthProfile.Compact` (a class count past
    /// 255, or delays past 8), by the draft's sequence.
    var asideLengths: [Int64: LengthProfile] = [:]
    /// Every input length of each open draft, by its sequence, when searches are kept.
    var keptLengths: [Int64: [Int?]] = [:]
    var freeOpenTokens: [Int] = []
    var tokenDeadlines = FIFO<(deadline: Int64, token: UInt32)>()
    /// Kept searches of waiting tokens, to mark them expired if a later call shows it.
    var waitingKept: [UInt32: Int] = [:]

    /// Each user's state is its open search's slot in `openUsers` plus one; 0 for none.
    var users = KeyTable()
    var openUsers: [Draft?] = []
    var freeOpenUsers: [Int] = []
    var userDeadlines = FIFO<(deadline: Int64, user: UInt32)>()
    var scratch: [UInt8] = []
    /// `searches.csv`'s rows, when `options.rows` asks for them, and what making them reuses.
    var rows: SearchRowStore?
    var rowText: [UInt8] = []
    var userPseudonyms = PseudonymCache()
    /// With rows, each token's pseudonym by token id, computed when the token is interned: its
    /// bytes as logged are at hand then, while the table's packed copy is far from the CPU's
    /// caches by the time its search ends. Renumbered with the tokens.
    var tokenPseudonyms = PseudonymCache()
    var recentTokens = RecentKeys()
    var recentUsers = RecentKeys()
    var tokenUsers = TokenUsers()
    /// With rows but not whole searches, a token call's `Event.user` is an index here, into the
    /// pseudonyms of the users token calls carried (`SessionStream+Rows`), not a `users` id:
    /// such users are never looked up in the table of every user.
    let tokenUsersArePseudonyms: Bool
    var tokenUserPseudonyms: [UInt64] = []
    /// `tokenUserPseudonyms` is compacted to those still held once it reaches this many
    /// (`compactTokenUserPseudonyms`), so it holds about the open searches' users, not a log's.
    var tokenUserCompactAt: Int
    /// The walk's partition, named in what it publishes (`RowPublication`).
    var partition = 0
    /// The shapes of rows published as they stood that no search had had (`SearchRow.uncountedShape`).
    var uncountedShapes: [SearchTally.ShapeKey] = []
    var uncountedShapeIndices: [SearchTally.ShapeKey: Int] = [:]
    /// The time of the call being walked, or of the last one: later calls come no earlier.
    var walkedTime: Int64 = .min
    /// Closing what is open at the end of the log: runs spilled now are not published.
    var finishing = false

    // The duplicate check's state (`SessionStream+Duplicates.swift`): stored properties stay in the type.
    /// The instant of the calls in `instantFingerprints`: calls come in time order, so an exact
    /// duplicate (same time, same fingerprint) is among the calls of the current instant.
    var instant: Int64 = .min
    /// The first fingerprints of the instant, in `instantFingerprints[..<instantCount]`; past
    /// `instantScanLimit` they go to `instantSet` as well (logs with whole-second times).
    var instantFingerprints = [UInt64](repeating: 0, count: SessionStream.instantScanLimit)
    var instantCount = 0
    var instantSet: Set<UInt64> = []
    static let instantScanLimit = 32

    init(options: Options, calendar: BillingCalendar, catalogs: CallCatalogs) {
        self.options = options
        self.maxTimeout = ([options.timeout] + options.alternativeTimeouts).map(\.microseconds).max()!
        self.minTimeout = ([options.timeout] + options.alternativeTimeouts).map(\.microseconds).min()!
        self.calendar = calendar
        self.catalogs = catalogs
        self.tally = SearchTally(alternatives: options.alternativeTimeouts.count)
        self.buffer = ReorderBuffer(window: options.window)
        self.compactAt = max(1, options.compactAfter)
        self.tokenUserCompactAt = max(1, options.compactAfter)
        self.rows = options.rows.map { SearchRowStore(directory: $0.directory, runLength: $0.runLength) }
        self.tokenUsersArePseudonyms = options.rows != nil && !options.keepSearches
    }

    /// Whether a call arrived later than the window allows: the walk is then not exact.
    var isLate: Bool { buffer.isLate }
    /// How far out of order the calls came, in microseconds.
    var disorder: Int64 { buffer.disorder }

    // MARK: - Input

    /// Interns a partition's calls and walks those the window releases.
    mutating func accept(_ partition: PartitionCalls) {
        // Borrowed for the block, so released calls can be walked (which changes `self`) as the
        // buffer hands them out.
        var buffer = ReorderBuffer<Event>.placeholder
        swap(&buffer, &self.buffer)
        defer { swap(&buffer, &self.buffer) }
        partition.arena.withUnsafeBytes { arena in
            for call in partition.calls {
                guard !buffer.isLate else {
                    // The walk is no longer exact; only learn how far out of order the input is.
                    buffer.observe(call.time)
                    continue
                }
                var key: UInt32 = 0
                var user = UInt32.max
                if !call.base {
                    key = internKey(of: call, arena: arena)
                    if options.keepSearches || options.rows != nil, call.byToken, call.userCount >= 0 {
                        let bytes = UnsafeRawBufferPointer(rebasing: arena[Int(call.userStart) ..< Int(call.userStart + call.userCount)])
                        user = tokenUsersArePseudonyms
                            ? tokenUserPseudonym(token: key, bytes)
                            : internUserOfTokenCall(token: key, project: call.project, bytes)
                    }
                }
                let event = Event(
                    time: call.time, sequence: call.sequence, key: key, user: user, project: call.project,
                    platform: call.platform, fields: call.fields, otherAPI: call.otherAPI, inputLength: call.inputLength, api: call.api,
                    generation: call.generation, byToken: call.byToken, base: call.base, fingerprint: call.fingerprint
                )
                buffer.insert(event) { walk($0) }
                if tokens.packedCount >= compactAt { compactTokens(&buffer) }
                if tokenUserPseudonyms.count >= tokenUserCompactAt { compactTokenUserPseudonyms(&buffer) }
            }
        }
    }

    /// Walks what is still held and closes what is open (rule 5); returns the counts.
    mutating func finish() -> SearchTally {
        var buffer = ReorderBuffer<Event>.placeholder
        swap(&buffer, &self.buffer)
        buffer.flush { walk($0) }
        swap(&buffer, &self.buffer)
        // What is still open ends here: its rows go to the writer after the walks.
        finishing = true
        for index in openTokens.indices {
            guard let open = openTokens[index] else { continue }
            if open.sessionOpen {
                closeSession(open.draft, .abandoned)
            } else if open.hasRun {
                emit(open.draft, .abandoned)
            }
            openTokens[index] = nil
        }
        for index in openUsers.indices {
            if let draft = openUsers[index] { emit(draft, .abandoned) }
            openUsers[index] = nil
        }
        return tally
    }

    // MARK: - Walks

    private mutating func walk(_ event: Event) {
        walkedTime = event.time
        if isDuplicate(event) {
            tally.duplicates += 1
            if options.dedupe {
                tally.duplicatesDropped += 1
                return
            }
        }
        count(event)
        if event.base {
            addBaseCall(event, orphan: false)
            return
        }
        sweep(before: event.time)
        if event.byToken {
            walkToken(event)
        } else {
            walkUser(event)
        }
    }

    /// Retires what no call at `time` or later can extend: sessions past every timeout wait in
    /// compact form; users' searches past the gap are abandoned.
    private mutating func sweep(before time: Int64) {
        while let first = tokenDeadlines.first, first.deadline < time {
            tokenDeadlines.removeFirst()
            retireIfIdle(first.token)
        }
        while let first = userDeadlines.first, first.deadline < time {
            userDeadlines.removeFirst()
            let slot = Int(users[state: first.user]) - 1
            guard slot >= 0, let draft = openUsers[slot], draft.lastAutocompleteAt + options.userGap.microseconds == first.deadline else { continue }
            emit(draft, .abandoned)
            freeUser(first.user)
        }
    }
}
