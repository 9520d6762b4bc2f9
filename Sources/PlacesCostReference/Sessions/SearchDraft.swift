import PlacesCostKit

/// A search being assembled during a walk over one token's or one user's calls.
struct SearchDraft {
    let kind: Search.Kind
    let firstIndex: Int
    let startedAt: Timestamp
    var lastAutocompleteAt: Timestamp
    var lengths: [Int?] = []
    var generation: APIGeneration?
    var platform: String?
    let sessionToken: String?
    let userID: String?
    let project: String?

    init(kind: Search.Kind, opener call: Call, index: Int) {
        self.kind = kind
        self.firstIndex = index
        self.startedAt = call.time
        self.lastAutocompleteAt = call.time
        self.sessionToken = call.sessionToken
        self.userID = call.userID
        self.project = call.project
        add(call)
    }

    mutating func add(_ call: Call) {
        lengths.append(call.inputLength)
        lastAutocompleteAt = call.time
        generation = generation ?? call.generation
        platform = platform ?? call.platform
    }

    func finished(_ outcome: Search.Outcome, selection call: Call? = nil) -> (search: Search, firstIndex: Int) {
        let selection = call.map { Selection(api: $0.api, time: $0.time, fields: $0.fields, generation: $0.generation) }
        let search = Search(
            kind: kind, outcome: outcome, requestInputLengths: lengths, selection: selection,
            startedAt: startedAt, endedAt: call?.time ?? lastAutocompleteAt,
            generation: generation ?? call?.generation, sessionToken: sessionToken, userID: userID,
            project: project, platform: platform ?? call?.platform
        )
        return (search, firstIndex)
    }
}
