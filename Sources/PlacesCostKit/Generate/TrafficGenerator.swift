/// Generates realistic, deterministic Places traffic: users typing searches, a few token mistakes.
///
/// Each of the `searches` user actions is planned like `scripts/make_sample_logs.py` plans them:
/// a typing run of autocomplete calls on growing prefixes of a place's name (debounced, now and
/// then a typo erased by backspace), then usually a Place Details call with a field mask. Small
/// shares of actions are anomalies (reused token, expired session, token-less calls from an old
/// app build ending in a Geocoding call, details without autocomplete or without a token, a new
/// token per keystroke, details without a field mask). Action start times follow the daily
/// activity of users in 13 time zones and are spread over the period in order.
///
/// Calls stream out in time order through a small heap of the calls not yet due, so memory stays
/// bounded by the searches in progress at once (plus one `Int64` per user), whatever `searches`
/// is. With `disorder`, about 1% of records swap with the next one when it is under 2 s later
/// and from another user, like merged server logs; one user's calls are never swapped, so a
/// log with whole-second times (access log) groups into the same sessions. Session timings keep
/// a margin from the analyzer's thresholds (a search spans at most ~2 min against the 180 s
/// timeout, an expiring pause lasts over 250 s, token-less keystrokes are seconds apart against
/// the 60 s user gap, one user's actions are 5 min apart) so truncating times to the second
/// changes no result.
struct TrafficGenerator: Sendable {
    struct Options: Sendable, Equatable {
        /// User actions to generate (each a search, except details-without-autocomplete actions;
        /// a reused-token action is two searches).
        var searches: Int
        var seed: UInt64 = 1
        /// Period start, epoch milliseconds (default 2026-10-01T00:00:00Z).
        var start: Int64 = 1_790_812_800_000
        var days = 30
        var disorder = true

        init(searches: Int, seed: UInt64 = 1) {
            self.searches = searches
            self.seed = seed
        }
    }

    /// What a user action is.
    enum Plan: CaseIterable {
        case completed, completedWithLongPause, abandoned, tokenlessGeocoded, tokenlessAbandoned, reusedToken,
             autocompleteAfterDetails, expired, tokenPerKeystroke, detailsWithoutToken, detailsWithoutAutocomplete

        var share: Double {
            switch self {
            case .completed: 0.745
            case .completedWithLongPause: 0.01
            case .abandoned: 0.14
            case .tokenlessGeocoded: 0.04
            case .tokenlessAbandoned: 0.01
            case .reusedToken, .autocompleteAfterDetails, .tokenPerKeystroke, .detailsWithoutToken, .detailsWithoutAutocomplete: 0.01
            case .expired: 0.005
            }
        }

        var tokenless: Bool { self == .tokenlessGeocoded || self == .tokenlessAbandoned }
    }

    static let platforms = ["ios", "android", "web"]

    var options: Options
    /// The places typed, with place IDs drawn from the seed (what the log writers print).
    let catalog: TrafficCatalog

    init(options: Options) {
        self.options = options
        var random = SeededRandom(seed: options.seed)
        catalog = TrafficCatalog(random: &random)
    }

    /// Calls `emit` with every call, in (nearly) time order; an error `emit` throws stops it.
    func generate(_ emit: (GeneratedCall) throws -> Void) rethrows {
        var state = State(options: options)
        try state.run(emit)
    }
}

extension TrafficGenerator {
    private struct Pending {
        var call: GeneratedCall
        var sequence: Int64

        func precedes(_ other: Pending) -> Bool {
            call.time < other.call.time || (call.time == other.call.time && sequence < other.sequence)
        }
    }

    /// One keystroke that reached the API: an offset from the search start and the text sent.
    private struct Key {
        var offset: Int64
        var bytes: Int32
        var typo: UInt8
        var zeroResults: Bool
    }

    private struct State {
        let options: Options
        var random: SeededRandom
        /// Draws the disorder apart from the traffic, so every format writes the same traffic.
        var orderRandom: SeededRandom
        let catalog: TrafficCatalog
        let userCount: Int
        var busyUntil: [Int64]
        var heap: [Pending] = []
        var sequence: Int64 = 0
        var keys: [Key] = []
        var events: [Key] = []
        var held: GeneratedCall?
        let planCumulative: [(Plan, Double)]
        let maskCumulative: [Double]

        static let minimumGap: Int64 = 5 * 60_000

        init(options: Options) {
            self.options = options
            random = SeededRandom(seed: options.seed)
            orderRandom = SeededRandom(seed: options.seed ^ 0x5DEE_CE66_D1CE_4E5B)
            catalog = TrafficCatalog(random: &random)
            userCount = max(20, options.searches / 8)
            busyUntil = [Int64](repeating: .min / 2, count: userCount)
            var sum = 0.0
            planCumulative = Plan.allCases.map { sum += $0.share; return ($0, sum) }
            sum = 0
            maskCumulative = TrafficCatalog.masks.map { sum += $0.share; return sum }
        }

        // MARK: Users: attributes from a hash of the index, so none are stored

        func userHash(_ user: Int, _ salt: UInt64) -> UInt64 {
            var z = options.seed &+ UInt64(user) &* 0x9E37_79B9_7F4A_7C15 &+ salt
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        func region(of user: Int) -> Int {
            let u = Double(userHash(user, 1) >> 11) * 0x1.0p-53
            var sum = 0.0
            for (index, region) in catalog.regions.enumerated() {
                sum += region.share
                if u < sum { return index }
            }
            return catalog.regions.count - 1
        }

        /// Users of an old app build that sends no session token (10%).
        func isOldBuild(_ user: Int) -> Bool { userHash(user, 2) % 10 == 0 }

        func platform(of user: Int) -> UInt8 {
            let bucket = userHash(user, 3) % 20
            return bucket < 9 ? 0 : bucket < 17 ? 1 : 2
        }

        /// A user of the right build who is not searching around `start`. Heavy users come first:
        /// the index is drawn with a skew so a few users search far more than most.
        mutating func pickUser(oldBuild: Bool, start: Int64) -> Int {
            var candidate = 0
            for _ in 0..<200 {
                let u = random.unit()
                candidate = min(userCount - 1, Int(u * u * Double(userCount)))
                if isOldBuild(candidate) == oldBuild, busyUntil[candidate] <= start { return candidate }
            }
            return candidate
        }

        // MARK: Queries and typing

        mutating func pickQuery(region: Int) -> Int {
            if random.chance(0.005) { return catalog.emoji[random.below(catalog.emoji.count)] }
            if random.chance(0.8) {
                let queries = catalog.regions[region].queries
                return queries[random.below(queries.count)]
            }
            return random.below(catalog.queries.count - catalog.emoji.count)
        }

        func scalarCount(_ query: Int) -> Int { catalog.queries[query].prefixBytes.count }

        mutating func charsAtSelection(_ query: Int) -> Int {
            max(2, min(Int(random.triangular(3, 15, 5).rounded()), scalarCount(query)))
        }

        mutating func charsAtAbandon(_ query: Int) -> Int {
            max(1, min(Int(random.triangular(1, 12, 3).rounded()), scalarCount(query)))
        }

        /// The autocomplete calls typing the first `count` scalars of `query` makes, into `keys`.
        mutating func type(_ query: Int, _ count: Int, allowTypo: Bool = true, longPause: Bool = false) {
            let entry = catalog.queries[query]
            func bytes(_ scalars: Int) -> Int32 { scalars == 0 ? 0 : entry.prefixBytes[scalars - 1] }
            var typoAt = -1
            if allowTypo, count >= 4, random.chance(0.05) {
                // A mistyped ASCII letter at scalar index 2..<count-1.
                let at = 2 + random.below(count - 3)
                let byte = entry.utf8[Int(bytes(at))]
                if (byte | 0x20) >= UInt8(ascii: "a"), (byte | 0x20) <= UInt8(ascii: "z") { typoAt = at }
            }
            let pauseAt = longPause && count > 2 ? 2 + random.below(count - 2) : -1
            events.removeAll(keepingCapacity: true)
            var t: Int64 = 0
            for i in 1...count {
                if i > 1 { t += Int64(random.triangular(0.3, 1.5, 0.6) * 1000) }
                if i == pauseAt + 1 { t += random.milliseconds(45, 100) }
                if i == typoAt + 1 {
                    let right = entry.utf8[Int(bytes(typoAt))] | 0x20
                    var wrong = UInt8(ascii: "a") + UInt8(random.below(25))
                    if wrong >= right { wrong += 1 }
                    events.append(Key(offset: t, bytes: bytes(typoAt), typo: wrong, zeroResults: false))
                    t += random.milliseconds(0.4, 1.2)
                    events.append(Key(offset: t, bytes: bytes(typoAt), typo: 0, zeroResults: false))
                    t += random.milliseconds(0.3, 1.0)
                }
                events.append(Key(offset: t, bytes: bytes(i), typo: 0, zeroResults: false))
            }
            keys.removeAll(keepingCapacity: true)
            for k in events.indices {
                var key = events[k]
                let last = k == events.count - 1
                if !last, events[k + 1].offset - key.offset < 500, random.chance(0.6) { continue }
                if key.typo != 0 { key.zeroResults = random.chance(0.3) } else if !last { key.zeroResults = random.chance(0.01) }
                keys.append(key)
            }
        }

        mutating func newToken() -> (UInt64, UInt64) {
            (random.next(), random.next())
        }

        mutating func pickMask() -> Int8 {
            if random.chance(TrafficCatalog.noMaskShare) { return -1 }
            let u = random.unit() * maskCumulative[maskCumulative.count - 1]
            return Int8(maskCumulative.firstIndex { u < $0 } ?? maskCumulative.count - 1)
        }

        // MARK: Output order

        mutating func push(_ call: GeneratedCall) {
            var call = call
            if call.kind == .autocomplete, random.chance(0.03) { call.sdkSpelling = true }
            if call.kind == .placeDetails, random.chance(0.03) { call.sdkSpelling = true }
            heap.append(Pending(call: call, sequence: sequence))
            sequence += 1
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[child].precedes(heap[parent]) else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        }

        mutating func popMin() -> GeneratedCall {
            let top = heap[0].call
            let last = heap.removeLast()
            if !heap.isEmpty {
                heap[0] = last
                var parent = 0
                while true {
                    let left = 2 * parent + 1
                    guard left < heap.count else { break }
                    var child = left
                    if left + 1 < heap.count, heap[left + 1].precedes(heap[left]) { child = left + 1 }
                    guard heap[child].precedes(heap[parent]) else { break }
                    heap.swapAt(child, parent)
                    parent = child
                }
            }
            return top
        }

        mutating func output(_ call: GeneratedCall, _ emit: (GeneratedCall) throws -> Void) rethrows {
            if let earlier = held {
                held = nil
                if call.time - earlier.time < 2000, call.user != earlier.user {
                    try emit(call)
                    try emit(earlier)
                } else {
                    try emit(earlier)
                    try emit(call)
                }
            } else if options.disorder, orderRandom.chance(0.01) {
                held = call
            } else {
                try emit(call)
            }
        }

        // MARK: The run

        mutating func run(_ emit: (GeneratedCall) throws -> Void) rethrows {
            let hours = options.days * 24
            var cumulative = [Double](repeating: 0, count: hours + 1)
            for hour in 0..<hours {
                cumulative[hour + 1] = cumulative[hour] + catalog.utcHourWeights[hour % 24]
            }
            let total = cumulative[hours]
            var hour = 0
            let count = options.searches
            for action in 0..<count {
                // Stratified draws through the inverse of the activity curve: starts come out
                // sorted and the count is exact, without holding them.
                let target = (Double(action) + random.unit()) / Double(count) * total
                while hour < hours - 1, cumulative[hour + 1] <= target { hour += 1 }
                let within = (target - cumulative[hour]) / (cumulative[hour + 1] - cumulative[hour])
                let start = options.start + Int64(hour) * 3_600_000 + Int64(min(within, 0.999_999) * 3_600_000)
                while let first = heap.first, first.call.time < start {
                    try output(popMin(), emit)
                }
                plan(start: start)
            }
            while !heap.isEmpty {
                try output(popMin(), emit)
            }
            if let last = held { try emit(last) }
        }

        mutating func plan(start: Int64) {
            let u = random.unit() * planCumulative[planCumulative.count - 1].1
            let plan = planCumulative.first { u < $0.1 }?.0 ?? .completed
            let user = pickUser(oldBuild: plan.tokenless, start: start)
            let home = region(of: user)
            let base = GeneratedCall(time: start, kind: .autocomplete, query: 0, user: Int32(user), platform: platform(of: user))
            var end = start

            func ac(_ at: Int64, _ key: Key, _ query: Int, _ token: (UInt64, UInt64)?) -> GeneratedCall {
                var call = base
                call.time = at
                call.query = Int32(query)
                call.inputBytes = key.bytes
                call.typo = key.typo
                call.zeroResults = key.zeroResults
                call.token = token
                return call
            }
            func details(_ at: Int64, _ query: Int, _ token: (UInt64, UInt64)?, mask: Int8) -> GeneratedCall {
                var call = base
                call.time = at
                call.kind = .placeDetails
                call.query = Int32(query)
                call.token = token
                call.mask = mask
                return call
            }
            /// Types `query` with `token` from `at`, then selects it unless `select` is false.
            func search(_ query: Int, _ count: Int, at: Int64, token: (UInt64, UInt64)?, select: Bool,
                        longPause: Bool = false, detailsToken: (UInt64, UInt64)?? = nil) {
                type(query, count, longPause: longPause)
                for key in keys { push(ac(at + key.offset, key, query, token)) }
                end = at + keys[keys.count - 1].offset
                if select {
                    end += random.milliseconds(1, 4)
                    push(details(end, query, detailsToken ?? token, mask: pickMask()))
                }
            }

            switch plan {
            case .completed, .completedWithLongPause:
                let query = pickQuery(region: home)
                search(query, charsAtSelection(query), at: start, token: newToken(), select: true, longPause: plan == .completedWithLongPause)
            case .abandoned:
                let query = pickQuery(region: home)
                search(query, charsAtAbandon(query), at: start, token: newToken(), select: false)
            case .tokenlessGeocoded, .tokenlessAbandoned:
                let query = pickQuery(region: home)
                let selects = plan == .tokenlessGeocoded
                search(query, selects ? charsAtSelection(query) : charsAtAbandon(query), at: start, token: nil, select: false)
                if selects {
                    end += random.milliseconds(1, 4)
                    var call = base
                    call.time = end
                    call.kind = .geocoding
                    call.query = Int32(query)
                    push(call)
                }
            case .reusedToken:
                let token = newToken()
                let first = pickQuery(region: home)
                search(first, charsAtSelection(first), at: start, token: token, select: true)
                let second = pickQuery(region: home)
                search(second, charsAtSelection(second), at: end + random.milliseconds(15, 60), token: token, select: true)
            case .autocompleteAfterDetails:
                // Setting the field to the chosen place fires autocomplete again on the spent token.
                let token = newToken()
                let query = pickQuery(region: home)
                search(query, charsAtSelection(query), at: start, token: token, select: true)
                let full = Int32(catalog.queries[query].utf8.count)
                end += random.milliseconds(0.1, 0.5)
                push(ac(end, Key(offset: 0, bytes: full, typo: 0, zeroResults: false), query, token))
                if random.chance(0.75), scalarCount(query) > 1 {
                    end += random.milliseconds(2, 8)
                    let shorter = catalog.queries[query].prefixBytes[scalarCount(query) - 2]
                    push(ac(end, Key(offset: 0, bytes: shorter, typo: 0, zeroResults: false), query, token))
                }
            case .expired:
                // Types, leaves the app for over four minutes, comes back and selects: same token.
                var query = pickQuery(region: home)
                while scalarCount(query) < 8 { query = pickQuery(region: home) }
                let token = newToken()
                repeat { type(query, max(charsAtSelection(query), 6), allowTypo: false) } while keys.count < 5
                let idle = random.milliseconds(250, 400)
                for (index, key) in keys.enumerated() {
                    end = start + key.offset + (index >= 3 ? idle : 0)
                    push(ac(end, key, query, token))
                }
                end += random.milliseconds(1, 4)
                push(details(end, query, token, mask: pickMask()))
            case .tokenPerKeystroke:
                // A bug: a fresh token on every keystroke; details carry the last one.
                let query = pickQuery(region: home)
                type(query, charsAtSelection(query))
                var token = newToken()
                for key in keys {
                    token = newToken()
                    end = start + key.offset
                    push(ac(end, key, query, token))
                }
                end += random.milliseconds(1, 4)
                push(details(end, query, token, mask: pickMask()))
            case .detailsWithoutToken:
                let query = pickQuery(region: home)
                search(query, charsAtSelection(query), at: start, token: newToken(), select: true, detailsToken: .some(nil))
            case .detailsWithoutAutocomplete:
                // Details for a saved place, on a fresh token no autocomplete call used.
                let query = pickQuery(region: home)
                push(details(start, query, newToken(), mask: 1))
            }
            busyUntil[user] = end + State.minimumGap
        }
    }
}
