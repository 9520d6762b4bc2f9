import PlacesCostKit

/// The walk over one user's token-less calls in time order: the inferred searches of `docs/sessions.md`.
///
/// Consecutive autocomplete calls at most `gap` apart form one search; the user's next
/// `place_details` or `geocoding` call at most `gap` after the last autocomplete call ends it.
struct UserWalk {
    let gap: Duration64
    private var open: SearchDraft?
    private(set) var searches: [(search: Search, firstIndex: Int)] = []
    private(set) var baseIndices: [Int] = []

    init(gap: Duration64) {
        self.gap = gap
    }

    mutating func step(_ call: Call, index: Int) {
        let withinGap = open.map { call.time.duration(since: $0.lastAutocompleteAt) <= gap } ?? false
        if call.api == .autocomplete {
            if withinGap {
                open!.add(call)
            } else {
                finish()
                open = SearchDraft(kind: .inferred, opener: call, index: index)
            }
        } else if withinGap {
            searches.append(open!.finished(.completed, selection: call))
            open = nil
        } else {
            finish()
            baseIndices.append(index)
        }
    }

    mutating func finish() {
        if let draft = open {
            searches.append(draft.finished(.abandoned))
            open = nil
        }
    }
}
