/// Builds searches from a stream of calls, holding only what can still change.
///
/// The streaming twin of `SessionBuilder`, for logs too large to hold: the same walks
/// (`docs/sessions.md` rules 1-5 per token, the user-gap rule per user), fed by a `ReorderBuffer` in
/// time order, so each token's and user's calls are walked in time order (ties in input order)
/// exactly as the builder sorts them. What it keeps:
/// - every token ever seen, as 18 bytes for a UUID (reuse can come at any time later), and a
///   4-byte state: fresh, spent, waiting (a session past every timeout, counted as abandoned
///   until a later call shows it expired), or an index into the open tokens. Tokens being
///   walked are in a `KeyTable`; every `compactAfter` new tokens, those no call or open session
///   refers to, spent or waiting, move to `SpentTokens` (16 bytes and two bits, a waiting
///   one's state, and half a byte to a byte of filter);
/// - open sessions, spent-token runs and users' open searches, in full, until nothing can
///   extend them;
/// - counts of everything finished, by shape (`SearchTally`).
///
/// The walks for the compared timeouts (60 s, 600 s) run alongside and only count.
struct SessionStream {
    struct Options {
        var timeout: Duration64
        /// Compared timeouts (at most two): only their expired sessions and searches are counted.
        var alternativeTimeouts: [Duration64] = []
        var userGap: Duration64
        /// The largest priced delay (`LengthProfile`).
        var clip: Int
        /// Keep every search for `searches.csv`.
        var keepSearches = false
        /// How far out of time order calls may arrive, in microseconds; `nil` holds every call.
        var window: Int64?
        /// Drop exact duplicates (`--dedupe`); they are counted either way.
        var dedupe = false
        /// New tokens a walk keeps in its `KeyTable` before moving finished ones to `SpentTokens`
        /// (tests make it small). A table of 128 Ki tokens is about 4 MB; each move costs a pass
        /// over the compact set, so fewer moves cost less time.
        var compactAfter = Options.defaultCompactAfter
        static let defaultCompactAfter = 1 << 17
    }

    /// A call after interning, as the walks read it.
    struct Event: Reorderable {
        var time: Int64
        var sequence: Int64
        /// Token or user id in this stream's tables.
        var key: UInt32
        /// The user's id for a call grouped by token, when searches are kept; `UInt32.max` for none.
        var user: UInt32
        var project: UInt32
        var platform: UInt32
        var fields: UInt32
        var inputLength: Int32
        var api: UInt8
        var generation: UInt8
        /// For a `base` call: whether it carried a token.
        var byToken: Bool
        /// A call outside every search; `key` is then its `other` API's label id.
        var base: Bool
        /// Last, after the one-byte fields fill the word before it: 56 bytes with no tail. With
        /// `base` after it (57 bytes) the compiler copied a released call with overlapping
        /// 16-byte moves, whose reload missed store forwarding (an eighth of `accept`'s samples).
        var fingerprint: UInt64

        var isAutocomplete: Bool { api == API.autocompleteCode }
    }

    /// A search being assembled. No field refers to storage, so moving and copying one costs
    /// no reference counting: lengths that outgrow `LengthProfile.Compact` wait in
    /// `asideLengths`, and every length of a kept search in `keptLengths` (`SessionStream.add`).
    struct Draft {
        var kind: Search.Kind
        var sequence: Int64
        var startedAt: Int64
        var lastAutocompleteAt: Int64
        var lengths = LengthProfile.Compact()
        /// The lengths are in `asideLengths` under `sequence` instead.
        var lengthsAside = false
        var generation: UInt8 = 0
        var platform: UInt32 = 0
        var project: UInt32
        var key: UInt32
        var user: UInt32

        /// A draft opened by `opener`; the stream notes the opener's length for a kept search.
        init(kind: Search.Kind, opener: Event, clip: Int) {
            self.kind = kind
            self.sequence = opener.sequence
            self.startedAt = opener.time
            self.lastAutocompleteAt = opener.time
            self.project = opener.project
            self.key = opener.key
            self.user = opener.byToken ? opener.user : opener.key
            let added = addInPlace(opener, clip: clip)
            assert(added, "a first length always fits")
        }

        /// Adds `event` when its length fits in `lengths`; returns `false`, changing nothing,
        /// otherwise (`SessionStream.add` then does).
        @inline(__always)
        mutating func addInPlace(_ event: Event, clip: Int) -> Bool {
            guard !lengthsAside, lengths.add(event.inputLength, clip: clip) else { return false }
            note(event)
            return true
        }

        /// Whether the search has exactly one autocomplete call (`lengths` is not current once
        /// they are aside, which happens from a second call on).
        var hasOneRequest: Bool { !lengthsAside && lengths.requests == 1 }

        /// What an added call tells besides its length.
        @inline(__always)
        mutating func note(_ event: Event) {
            lastAutocompleteAt = event.time
            if generation == 0 { generation = event.generation }
            if platform == 0 { platform = event.platform }
        }
    }

    /// One compared-timeout walk of a token: only its state, for counting.
    enum ShadowPhase: Equatable {
        case open
        case spent(runOpen: Bool)
    }

    /// A token that is not idle: its main walk's session or spent-token run, and the compared
    /// walks' phases. Plain fields rather than an enum with a payload, so a call changes the
    /// draft in place instead of copying it out and back.
    struct OpenToken {
        var start: Int64
        /// The main walk's session is open (`draft` is it); otherwise the token is spent and
        /// `draft` is the run on the spent token when `hasRun`.
        var sessionOpen: Bool
        var hasRun: Bool
        var draft: Draft
        var shadows: ShadowPhases

        /// Spent in every walk with no run open: nothing but the spent mark need be kept.
        @inline(__always)
        var isIdle: Bool {
            !sessionOpen && !hasRun && shadows.allSatisfy { $0 == .spent(runOpen: false) }
        }
    }

    /// The compared-timeout walks' phases: at most two, stored inline (an array here would be
    /// copied on every call of an open token).
    struct ShadowPhases {
        private var first: ShadowPhase
        private var second: ShadowPhase
        let count: Int

        init(repeating phase: ShadowPhase, count: Int) {
            precondition(count <= 2, "at most two compared timeouts")
            first = phase
            second = phase
            self.count = count
        }

        var indices: Range<Int> { 0..<count }

        subscript(index: Int) -> ShadowPhase {
            get { index == 0 ? first : second }
            set { if index == 0 { first = newValue } else { second = newValue } }
        }

        /// Every compared walk has the token's session open.
        var allOpen: Bool {
            (count < 1 || first == .open) && (count < 2 || second == .open)
        }

        func allSatisfy(_ predicate: (ShadowPhase) -> Bool) -> Bool {
            indices.allSatisfy { predicate(self[$0]) }
        }
    }

    private static let spentState: UInt32 = 0xC000_0000
    private static let tagMask: UInt32 = 0xC000_0000
    private static let openTag: UInt32 = 0x4000_0000
    private static let waitingTag: UInt32 = 0x8000_0000
    /// In a waiting state: the main walk's session is already spent, only compared walks wait.
    private static let mainSpentShape: UInt32 = 0x0FFF_FFFF

    let options: Options
    private let maxTimeout: Int64
    /// The shortest timeout of all the walks: an autocomplete call this soon after its token's
    /// first call leaves every walk's session open (`extendsOpenSession`).
    private let minTimeout: Int64
    private var calendar: BillingCalendar
    private let catalogs: CallCatalogs
    private(set) var tally: SearchTally
    private var buffer: ReorderBuffer<Event>

    private var tokens = KeyTable()
    private var spentTokens = SpentTokens(commonState: SessionStream.spentState)
    /// `tokens.packedCount` at which the next compaction runs.
    private var compactAt: Int
    private var openTokens: [OpenToken?] = []
    /// The lengths of drafts whose counts outgrew `LengthProfile.Compact` (a class count past
    /// 255, or delays past 8), by the draft's sequence.
    private var asideLengths: [Int64: LengthProfile] = [:]
    /// Every input length of each open draft, by its sequence, when searches are kept.
    private var keptLengths: [Int64: [Int?]] = [:]
    private var freeOpenTokens: [Int] = []
    private var tokenDeadlines = FIFO<(deadline: Int64, token: UInt32)>()
    /// Kept searches of waiting tokens, to mark them expired if a later call shows it.
    private var waitingKept: [UInt32: Int] = [:]

    /// Each user's state is its open search's slot in `openUsers` plus one; 0 for none.
    private var users = KeyTable()
    private var openUsers: [Draft?] = []
    private var freeOpenUsers: [Int] = []
    private var userDeadlines = FIFO<(deadline: Int64, user: UInt32)>()
    private var scratch: [UInt8] = []
    private var recentTokens = RecentKeys()
    private var recentUsers = RecentKeys()

    init(options: Options, calendar: BillingCalendar, catalogs: CallCatalogs) {
        self.options = options
        self.maxTimeout = ([options.timeout] + options.alternativeTimeouts).map(\.microseconds).max()!
        self.minTimeout = ([options.timeout] + options.alternativeTimeouts).map(\.microseconds).min()!
        self.calendar = calendar
        self.catalogs = catalogs
        self.tally = SearchTally(alternatives: options.alternativeTimeouts.count)
        self.buffer = ReorderBuffer(window: options.window)
        self.compactAt = max(1, options.compactAfter)
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
                var key = call.project  // a base call's `other` API label: its only key
                var user = UInt32.max
                if !call.base {
                    key = internKey(of: call, arena: arena)
                    if options.keepSearches, call.byToken, call.userCount >= 0 {
                        user = internUser(project: call.project, UnsafeRawBufferPointer(rebasing: arena[Int(call.userStart) ..< Int(call.userStart + call.userCount)]))
                    }
                }
                let event = Event(
                    time: call.time, sequence: call.sequence, key: key, user: user, project: call.base ? 0 : call.project,
                    platform: call.platform, fields: call.fields, inputLength: call.inputLength, api: call.api,
                    generation: call.generation, byToken: call.byToken, base: call.base, fingerprint: call.fingerprint
                )
                buffer.insert(event) { walk($0) }
                if tokens.packedCount >= compactAt { compactTokens(&buffer) }
            }
        }
    }

    /// Walks what is still held and closes what is open (rule 5); returns the counts.
    mutating func finish() -> SearchTally {
        var buffer = ReorderBuffer<Event>.placeholder
        swap(&buffer, &self.buffer)
        buffer.flush { walk($0) }
        swap(&buffer, &self.buffer)
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

    /// The id of a walked call's token or user, through the cache of recent keys.
    private mutating func internKey(of call: GroupCall, arena: UnsafeRawBufferPointer) -> UInt32 {
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
    private mutating func internToken(project: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        let (id, inserted, length) = SessionStream.intern(project: project, bytes, in: &tokens, scratch: &scratch)
        if inserted, length == KeyTable.width, spentTokens.count > 0 {
            let state = scratch.withUnsafeBytes { spentTokens.state(of: SpentTokens.Key($0.baseAddress!)) }
            if let state { tokens[state: id] = state }
        }
        return id
    }

    private mutating func internUser(project: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
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
    /// searches waiting for a verdict, and the cache of recent tokens (emptied).
    private mutating func compactTokens(_ buffer: inout ReorderBuffer<Event>) {
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
            held[Int(id) >> 6] >> UInt64(id & 63) & 1 != 0 || state == 0 || state & SessionStream.tagMask == SessionStream.openTag
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
        recentTokens.removeAll()
        // Tokens still held stay; waiting for as many new ones again keeps the work per token bounded.
        compactAt = max(options.compactAfter, 2 * tokens.packedCount)
    }

    // MARK: - Walks

    private mutating func walk(_ event: Event) {
        if isDuplicate(event) {
            tally.duplicates += 1
            if options.dedupe {
                drop(event)
                return
            }
        }
        if event.base {
            addBaseCall(event, otherAPI: event.key, orphan: false)
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

    private mutating func retireIfIdle(_ token: UInt32) {
        let state = tokens[state: token]
        guard state & SessionStream.tagMask == SessionStream.openTag else { return }
        let index = Int(state & ~SessionStream.tagMask)
        guard let open = openTokens[index] else { return }
        var flags: UInt32 = 0
        for shadowIndex in open.shadows.indices {
            switch open.shadows[shadowIndex] {
            case .open: flags |= 1 << UInt32(shadowIndex)
            case .spent(runOpen: true): return
            case .spent(runOpen: false): break
            }
        }
        var shape = SessionStream.mainSpentShape
        if open.sessionOpen {
            // A shape index must fit in the state word; past that the token simply stays open.
            guard tally.shapes.count + 1 < Int(SessionStream.mainSpentShape) else { return }
            let keptIndex = tally.kept.count
            shape = UInt32(closeSession(open.draft, .abandoned))
            if options.keepSearches { waitingKept[token] = keptIndex }
        } else if open.hasRun {
            return
        }
        openTokens[index] = nil
        freeOpenTokens.append(index)
        tokens[state: token] = SessionStream.waitingTag | shape << 2 | flags
    }

    private mutating func walkToken(_ event: Event) {
        let token = event.key
        let state = tokens[state: token]
        if state & SessionStream.tagMask == SessionStream.openTag, event.isAutocomplete,
           extendsOpenSession(event, slot: Int(state & ~SessionStream.tagMask)) {
            return
        }
        var open: OpenToken
        var index: Int?
        switch state & SessionStream.tagMask {
        case 0:
            guard event.isAutocomplete else {
                // Rule 4: a details call on a token no autocomplete call opened spends it.
                tally.anomalies.detailsWithoutAutocomplete += 1
                addBaseCall(event, orphan: true)
                tokens[state: token] = SessionStream.spentState
                return
            }
            let draft = newDraft(.session, opener: event)
            tally.tokenSearches += 1
            for shadow in tally.alternatives.indices { tally.alternatives[shadow].tokenSearches += 1 }
            open = OpenToken(start: event.time, sessionOpen: true, hasRun: false, draft: draft, shadows: ShadowPhases(repeating: .open, count: options.alternativeTimeouts.count))
            tokenDeadlines.append((event.time + maxTimeout, token))
        case SessionStream.openTag:
            index = Int(state & ~SessionStream.tagMask)
            // Moved out of the table (a swap, never a copy: a copy in and out pays reference
            // counting), changed, and moved back by `store`.
            var taken: OpenToken?
            swap(&taken, &openTokens[index!])
            open = (consume taken)!
            stepMain(&open, event)
            stepShadows(&open, event)
        case SessionStream.waitingTag:
            let shape = (state >> 2) & SessionStream.mainSpentShape
            // Every walk still waiting was past its timeout: this call shows the session expired.
            if shape != SessionStream.mainSpentShape {
                tally.anomalies.expired += 1
                _ = tally.reclassify(Int(shape), as: .expired)
                if let kept = waitingKept.removeValue(forKey: token) { tally.kept[kept].search.outcome = .expired }
            }
            open = OpenToken(start: event.time, sessionOpen: false, hasRun: false, draft: Draft(kind: .spentToken, opener: event, clip: 0), shadows: ShadowPhases(repeating: .spent(runOpen: false), count: options.alternativeTimeouts.count))
            for shadow in options.alternativeTimeouts.indices where state & (1 << UInt32(shadow)) != 0 {
                tally.alternatives[shadow].expired += 1
            }
            stepMain(&open, event)
            stepShadows(&open, event)
        default:
            open = OpenToken(start: event.time, sessionOpen: false, hasRun: false, draft: Draft(kind: .spentToken, opener: event, clip: 0), shadows: ShadowPhases(repeating: .spent(runOpen: false), count: options.alternativeTimeouts.count))
            stepMain(&open, event)
            stepShadows(&open, event)
        }
        store(consume open, token: token, at: index)
    }

    /// Adds an autocomplete call to its token's open session in place, when every walk (the
    /// main one and the compared ones) has that session open and within its timeout: then the
    /// call changes nothing but the draft (`stepMain`, `stepShadows`). Most calls are such.
    ///
    /// - Returns: `false`, changing nothing, when the call needs the full step (or its length
    ///   must be kept for `searches.csv`).
    @inline(__always)
    private mutating func extendsOpenSession(_ event: Event, slot: Int) -> Bool {
        guard !options.keepSearches else { return false }
        let clip = options.clip
        let minTimeout = minTimeout
        return openTokens.withUnsafeMutableBufferPointer { open in
            guard open[slot]?.sessionOpen == true, event.time - open[slot]!.start <= minTimeout,
                  event.time - open[slot]!.draft.startedAt <= minTimeout, open[slot]!.shadows.allOpen
            else { return false }
            return open[slot]!.draft.addInPlace(event, clip: clip)
        }
    }

    /// A draft opened by `opener`, its length noted when searches are kept.
    private mutating func newDraft(_ kind: Search.Kind, opener: Event) -> Draft {
        if options.keepSearches { keptLengths[opener.sequence] = [opener.inputLength >= 0 ? Int(opener.inputLength) : nil] }
        return Draft(kind: kind, opener: opener, clip: options.clip)
    }

    /// Adds an autocomplete call to `draft`: in place, or with its lengths aside once they
    /// outgrow it; and to the kept lengths when searches are kept.
    private mutating func add(_ event: Event, to draft: inout Draft) {
        let length = event.inputLength >= 0 ? Int(event.inputLength) : nil
        if !draft.addInPlace(event, clip: options.clip) {
            draft.note(event)
            if !draft.lengthsAside {
                asideLengths[draft.sequence] = LengthProfile(draft.lengths)
                draft.lengthsAside = true
            }
            asideLengths[draft.sequence]!.add(length, clip: options.clip)
        }
        if options.keepSearches { keptLengths[draft.sequence, default: []].append(length) }
    }

    /// The lengths of `draft`, which is being emitted (its lengths aside are let go).
    private mutating func takeLengths(of draft: Draft) -> LengthProfile {
        draft.lengthsAside ? asideLengths.removeValue(forKey: draft.sequence)! : LengthProfile(draft.lengths)
    }

    /// Files the token's state: compact when every walk is spent with no run open.
    ///
    /// Keep it inlined into `walkToken`, its only caller: called, it first copies the 120-byte
    /// token, whose reload of fields just written stalls.
    @inline(__always)
    private mutating func store(_ open: consuming OpenToken, token: UInt32, at index: Int?) {
        if open.isIdle {
            if let index {
                openTokens[index] = nil
                freeOpenTokens.append(index)
            }
            tokens[state: token] = SessionStream.spentState
            return
        }
        let slot: Int
        if let index {
            slot = index
            openTokens[slot] = open
        } else if let free = freeOpenTokens.popLast() {
            slot = free
            openTokens[slot] = open
        } else {
            slot = openTokens.count
            openTokens.append(open)
        }
        tokens[state: token] = SessionStream.openTag | UInt32(slot)
    }

    /// The main walk (`TokenWalk`): rules 1-5 with searches.
    private mutating func stepMain(_ open: inout OpenToken, _ event: Event) {
        guard open.sessionOpen else {
            stepAfterSpent(&open, event)
            return
        }
        if event.time - open.draft.startedAt > options.timeout.microseconds {
            tally.anomalies.expired += 1
            closeSession(open.draft, .expired)
            open.sessionOpen = false
            stepAfterSpent(&open, event)
        } else if event.isAutocomplete {
            add(event, to: &open.draft)
        } else {
            closeSession(open.draft, .completed, selection: event)
            open.sessionOpen = false
        }
    }

    private mutating func stepAfterSpent(_ open: inout OpenToken, _ event: Event) {
        tally.anomalies.tokenReused += 1
        if event.isAutocomplete {
            if open.hasRun {
                add(event, to: &open.draft)
            } else {
                tally.tokenSearches += 1
                open.draft = newDraft(.spentToken, opener: event)
                open.hasRun = true
            }
        } else if open.hasRun {
            emit(open.draft, .completed, selection: event)
            open.hasRun = false
        } else {
            addBaseCall(event, orphan: false)  // a standalone details call
        }
    }

    /// The compared-timeout walks: the same rules, counting expired sessions and searches.
    private mutating func stepShadows(_ open: inout OpenToken, _ event: Event) {
        for index in open.shadows.indices {
            var phase = open.shadows[index]
            if phase == .open {
                if event.time - open.start > options.alternativeTimeouts[index].microseconds {
                    tally.alternatives[index].expired += 1
                    phase = .spent(runOpen: false)
                } else {
                    open.shadows[index] = event.isAutocomplete ? .open : .spent(runOpen: false)
                    continue
                }
            }
            if event.isAutocomplete {
                if phase == .spent(runOpen: false) { tally.alternatives[index].tokenSearches += 1 }
                phase = .spent(runOpen: true)
            } else {
                phase = .spent(runOpen: false)
            }
            open.shadows[index] = phase
        }
    }

    /// The user walk (`UserWalk`): token-less calls of one user, by the gap rule.
    private mutating func walkUser(_ event: Event) {
        let user = event.key
        let slot = Int(users[state: user]) - 1
        var draft = slot >= 0 ? openUsers[slot] : nil
        let withinGap = draft.map { event.time - $0.lastAutocompleteAt <= options.userGap.microseconds } ?? false
        if event.isAutocomplete {
            if withinGap {
                add(event, to: &draft!)
            } else {
                if let old = draft { emit(old, .abandoned) }
                draft = newDraft(.inferred, opener: event)
            }
            userDeadlines.append((event.time + options.userGap.microseconds, user))
            if slot >= 0 {
                openUsers[slot] = draft
            } else if let free = freeOpenUsers.popLast() {
                openUsers[free] = draft
                users[state: user] = UInt32(free + 1)
            } else {
                users[state: user] = UInt32(openUsers.count + 1)
                openUsers.append(draft)
            }
        } else if withinGap {
            emit(draft!, .completed, selection: event)
            freeUser(user)
        } else {
            if let old = draft {
                emit(old, .abandoned)
                freeUser(user)
            }
            addBaseCall(event, orphan: false)
        }
    }

    private mutating func freeUser(_ user: UInt32) {
        let slot = Int(users[state: user]) - 1
        guard slot >= 0 else { return }
        openUsers[slot] = nil
        freeOpenUsers.append(slot)
        users[state: user] = 0
    }

    // MARK: - Counting

    @discardableResult
    private mutating func closeSession(_ session: Draft, _ outcome: Search.Outcome, selection: Event? = nil) -> Int {
        if session.hasOneRequest { tally.anomalies.oneRequestSessions += 1 }
        return emit(session, outcome, selection: selection)
    }

    @discardableResult
    private mutating func emit(_ draft: Draft, _ outcome: Search.Outcome, selection: Event? = nil) -> Int {
        let generation = draft.generation != 0 ? draft.generation : (selection?.generation ?? 0)
        let lengths = takeLengths(of: draft)
        let key = SearchTally.ShapeKey(
            period: calendar.period(of: Timestamp(microseconds: draft.startedAt)), lengths: lengths,
            selectionFields: selection?.fields ?? 0, kind: draft.kind, outcome: outcome, generation: generation,
            selectionAPI: selection?.api ?? 0, selectionGeneration: selection?.generation ?? 0
        )
        let index = tally.add(key, time: draft.startedAt)
        if options.keepSearches {
            let all = keptLengths.removeValue(forKey: draft.sequence) ?? lengths.representativeLengths(clip: options.clip)
            tally.kept.append((search(draft, outcome, lengths: all, selection: selection), draft.sequence))
        }
        return index
    }

    // MARK: - Duplicates

    /// The instant of the calls in `instantFingerprints`: calls come in time order, so an exact
    /// duplicate (same time, same fingerprint) is among the calls of the current instant.
    private var instant: Int64 = .min
    /// The first fingerprints of the instant, in `instantFingerprints[..<instantCount]`; past
    /// `instantScanLimit` they go to `instantSet` as well (logs with whole-second times).
    private var instantFingerprints = [UInt64](repeating: 0, count: SessionStream.instantScanLimit)
    private var instantCount = 0
    private var instantSet: Set<UInt64> = []
    private static let instantScanLimit = 32

    /// Whether `event` repeats an earlier call of its instant; remembers it if not.
    private mutating func isDuplicate(_ event: Event) -> Bool {
        if event.time != instant {
            instant = event.time
            instantFingerprints[0] = event.fingerprint
            if instantCount >= SessionStream.instantScanLimit { instantSet.removeAll(keepingCapacity: true) }
            instantCount = 1
            return false
        }
        if instantCount < SessionStream.instantScanLimit {
            for index in 0..<instantCount where instantFingerprints[index] == event.fingerprint { return true }
            instantFingerprints[instantCount] = event.fingerprint
            instantCount += 1
            if instantCount == SessionStream.instantScanLimit { instantSet = Set(instantFingerprints) }
            return false
        }
        instantCount += 1
        return !instantSet.insert(event.fingerprint).inserted
    }

    /// Takes a dropped duplicate out of the counts made while reading.
    private mutating func drop(_ event: Event) {
        let dropped = SearchTally.DroppedCall(
            api: event.api, otherAPI: event.base ? event.key : 0, platform: event.platform, generation: event.generation
        )
        tally.dropped[dropped, default: 0] += 1
        if event.api == API.autocompleteCode, !event.byToken { tally.anomalies.noTokenRequests -= 1 }
        if event.api == API.placeDetailsCode, event.fields == 0 { tally.anomalies.fieldsUnspecified -= 1 }
    }

    private mutating func addBaseCall(_ event: Event, otherAPI: UInt32 = 0, orphan: Bool) {
        let key = SearchTally.BaseCallKey(
            period: calendar.period(of: Timestamp(microseconds: event.time)), fields: event.fields, otherAPI: otherAPI,
            api: event.api, generation: event.generation, hasToken: event.byToken, orphan: orphan
        )
        tally.addBaseCall(key, time: event.time)
    }

    /// The full search, for `searches.csv`.
    private func search(_ draft: Draft, _ outcome: Search.Outcome, lengths: [Int?], selection: Event?) -> Search {
        let selected = selection.map {
            Selection(api: API(code: $0.api, otherName: ""), time: Timestamp(microseconds: $0.time),
                      fields: catalogs.fieldMasks.value($0.fields), generation: APIGeneration(code: $0.generation))
        }
        let generation = draft.generation != 0 ? draft.generation : (selection?.generation ?? 0)
        let tokenText: String? = draft.kind == .inferred ? nil : TokenKey.decode(tokens.bytes(draft.key))
        let userText: String? = draft.user == UInt32.max ? nil : TokenKey.decode(users.bytes(draft.user))
        return Search(
            kind: draft.kind, outcome: outcome, requestInputLengths: lengths,
            selection: selected, startedAt: Timestamp(microseconds: draft.startedAt),
            endedAt: Timestamp(microseconds: selection?.time ?? draft.lastAutocompleteAt),
            generation: APIGeneration(code: generation), sessionToken: tokenText, userID: userText,
            project: catalogs.labels.value(draft.project),
            platform: catalogs.labels.value(draft.platform != 0 ? draft.platform : (selection?.platform ?? 0))
        )
    }
}

/// A first-in, first-out queue on an array, for deadlines that arrive in time order.
struct FIFO<Element> {
    private var storage: [Element] = []
    private var head = 0

    var first: Element? { head < storage.count ? storage[head] : nil }

    mutating func append(_ element: Element) {
        storage.append(element)
    }

    /// Replaces each queued element by `transform`'s result, dropping those it maps to `nil`.
    mutating func rewrite(_ transform: (Element) -> Element?) {
        storage = storage[head...].compactMap(transform)
        head = 0
    }

    mutating func removeFirst() {
        head += 1
        if head >= 4096, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
    }
}

extension Optional {
    /// The value, leaving `nil` in its place.
    mutating func take() -> Wrapped? {
        defer { self = nil }
        return self
    }
}
