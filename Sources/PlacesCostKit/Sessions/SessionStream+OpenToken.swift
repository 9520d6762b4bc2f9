/// A token being walked, in plain inline fields so a call changes its draft in place, never copied.
extension SessionStream {
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
}
