import PlacesCostKit

/// The walk over one token's calls in time order (`docs/sessions.md` rules 1-5).
struct TokenWalk {
    private enum State {
        /// No autocomplete or details call has used the token yet.
        case fresh
        case open(SearchDraft)
        /// Completed, used by a details call, or expired: later calls are billed as without a token.
        case spent
    }

    let timeout: Duration64
    private var state = State.fresh
    /// Calls after the token was spent, up to a details call: one search billed as without a token.
    private var spentRun: SearchDraft?
    private(set) var searches: [(search: Search, firstIndex: Int)] = []
    private(set) var baseIndices: [Int] = []
    /// Details calls on a fresh token (also in `baseIndices`).
    private(set) var orphanDetailsIndices: [Int] = []
    private(set) var anomalies = Anomalies()

    init(timeout: Duration64) {
        self.timeout = timeout
    }

    mutating func step(_ call: Call, index: Int) {
        switch state {
        case .fresh:
            if call.api == .autocomplete {
                state = .open(SearchDraft(kind: .session, opener: call, index: index))
            } else {
                // Rule 4: a details call on a token no autocomplete call opened; it spends the token.
                anomalies.detailsWithoutAutocomplete += 1
                baseIndices.append(index)
                orphanDetailsIndices.append(index)
                state = .spent
            }
        case .open(var session):
            if call.time.duration(since: session.startedAt) > timeout {
                // Rules 2 and 3: closed as expired; this call and every later one are expired-token calls.
                anomalies.expired += 1
                close(session, .expired)
                state = .spent
                stepAfterSpent(call, index: index)
            } else if call.api == .autocomplete {
                session.add(call)
                state = .open(session)
            } else {
                close(session, .completed, selection: call)
                state = .spent
            }
        case .spent:
            stepAfterSpent(call, index: index)
        }
    }

    private mutating func stepAfterSpent(_ call: Call, index: Int) {
        anomalies.tokenReused += 1
        if call.api == .autocomplete {
            if spentRun == nil {
                spentRun = SearchDraft(kind: .spentToken, opener: call, index: index)
            } else {
                spentRun!.add(call)
            }
        } else if let run = spentRun {
            searches.append(run.finished(.completed, selection: call))
            spentRun = nil
        } else {
            baseIndices.append(index)  // a standalone details call
        }
    }

    /// Rule 5: what is still open at the end of the token's calls is abandoned.
    mutating func finish() {
        if case .open(let session) = state {
            close(session, .abandoned)
            state = .spent
        }
        if let run = spentRun {
            searches.append(run.finished(.abandoned))
            spentRun = nil
        }
    }

    private mutating func close(_ session: SearchDraft, _ outcome: Search.Outcome, selection: Call? = nil) {
        if session.lengths.count == 1 { anomalies.oneRequestSessions += 1 }
        searches.append(session.finished(outcome, selection: selection))
    }
}
