/// What one user did once: the autocomplete calls of one search and how it ended.
///
/// A session (one token, opened by an autocomplete call) is one kind of search; runs of calls
/// made after a token was spent, and token-less runs inferred from a user id, are the others
/// (`docs/sessions.md`, "Sessions, searches and anomalies").
package struct Search: Sendable, Hashable {
    package enum Kind: String, Sendable, Hashable {
        /// A proper session: a fresh token opened by an autocomplete call.
        case session
        /// Calls made after the token was spent (reused or expired token), billed as without a token.
        case spentToken = "spent_token"
        /// Token-less calls of one user grouped by the user-gap rule.
        case inferred

        /// A small number per kind, for packed keys.
        package var code: UInt8 {
            switch self {
            case .session: 0
            case .spentToken: 1
            case .inferred: 2
            }
        }
    }

    package enum Outcome: String, Sendable, Hashable {
        /// Ended by a selection (details, address validation or, for inferred searches, geocoding).
        case completed
        /// Ended with no selection: at the end of the log.
        case abandoned
        /// A session closed by the timeout: billed as abandoned.
        case expired

        package var isCompleted: Bool { self == .completed }

        /// A small number per outcome, for packed keys.
        package var code: UInt8 {
            switch self {
            case .completed: 0
            case .abandoned: 1
            case .expired: 2
            }
        }
    }

    package var kind: Kind
    package var outcome: Outcome
    /// Input length (Unicode scalars) of each autocomplete call, in order; `nil` where unrecorded.
    package var requestInputLengths: [Int?]
    /// The call that ended the search, when it was completed.
    package var selection: Selection?
    package var startedAt: Timestamp
    package var endedAt: Timestamp
    /// The API generation of the search's calls, when any call said.
    package var generation: APIGeneration?
    /// The session token for sessions and spent-token runs (hashed before any report).
    package var sessionToken: String?
    package var userID: String?
    package var project: String?
    package var platform: String?

    package init(
        kind: Kind, outcome: Outcome, requestInputLengths: [Int?], selection: Selection?,
        startedAt: Timestamp, endedAt: Timestamp, generation: APIGeneration? = nil,
        sessionToken: String? = nil, userID: String? = nil, project: String? = nil, platform: String? = nil
    ) {
        self.kind = kind
        self.outcome = outcome
        self.requestInputLengths = requestInputLengths
        self.selection = selection
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.generation = generation
        self.sessionToken = sessionToken
        self.userID = userID
        self.project = project
        self.platform = platform
    }

    /// Autocomplete calls in the search.
    package var requests: Int { requestInputLengths.count }

    /// Characters typed at selection: the input length of the last autocomplete call of a
    /// completed search, when recorded.
    package var charactersAtSelection: Int? {
        guard outcome.isCompleted, let last = requestInputLengths.last else { return nil }
        return last
    }

    /// Autocomplete calls the search keeps when the app waits for more than `delay` characters
    /// (`docs/sessions.md`, "Strategies"): those whose input is longer, or unrecorded; a completed
    /// search keeps at least one (the user types on until predictions appear), an abandoned one
    /// may keep none.
    package func keptRequests(delay: Int) -> Int {
        guard delay > 0 else { return requests }
        var kept = 0
        for length in requestInputLengths where length.map({ $0 > delay }) ?? true {
            kept += 1
        }
        return outcome.isCompleted ? max(kept, 1) : kept
    }

    /// The anomalies this search carries, under their `report.json` names (`searches.csv`).
    package var anomalyNames: [String] {
        var names: [String] = []
        switch kind {
        case .spentToken: names.append("token_reused")
        case .inferred: names.append("no_token_requests")
        case .session:
            if outcome == .expired { names.append("expired") }
            if requests == 1 { names.append("one_request_sessions") }
        }
        if outcome.isCompleted, let selection, selection.api == .placeDetails, selection.fields == nil {
            names.append("fields_unspecified")
        }
        return names
    }
}
