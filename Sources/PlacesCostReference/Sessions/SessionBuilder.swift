import PlacesCostKit

/// Groups calls into sessions and searches and counts the anomalies, by the rules of `docs/sessions.md`.
///
/// Calls with a token are grouped by (project, token) and walked in time order (ties keep input
/// order), so the input need not be sorted. Token-less calls with a user id are grouped by
/// (project, user) and walked with the user-gap rule. Everything else is a base call.
struct SessionBuilder: Sendable {
    var options: SessionOptions

    init(options: SessionOptions = SessionOptions()) {
        self.options = options
    }

    private struct GroupKey: Hashable {
        var project: String?
        var id: String
    }

    /// Builds searches from calls given in input order.
    func build(_ calls: [Call]) -> SessionAnalysis {
        var tokenGroups: [GroupKey: [Int]] = [:]
        var tokenOrder: [GroupKey] = []
        var userGroups: [GroupKey: [Int]] = [:]
        var userOrder: [GroupKey] = []
        var analysis = SessionAnalysis()
        var baseIndices: [Int] = []
        var orphanIndices: [Int] = []

        for (index, call) in calls.enumerated() {
            if call.api == .autocomplete, call.sessionToken == nil { analysis.anomalies.noTokenRequests += 1 }
            if call.api == .placeDetails, call.fields == nil { analysis.anomalies.fieldsUnspecified += 1 }
            if let token = call.sessionToken, call.api == .autocomplete || call.api.terminatesSession {
                let key = GroupKey(project: call.project, id: token)
                if tokenGroups[key] == nil { tokenOrder.append(key) }
                tokenGroups[key, default: []].append(index)
            } else if call.sessionToken == nil, let user = call.userID,
                      [.autocomplete, .placeDetails, .geocoding].contains(call.api) {
                let key = GroupKey(project: call.project, id: user)
                if userGroups[key] == nil { userOrder.append(key) }
                userGroups[key, default: []].append(index)
            } else {
                baseIndices.append(index)
            }
        }

        var finished: [(search: Search, firstIndex: Int)] = []
        for key in tokenOrder {
            var walk = TokenWalk(timeout: options.timeout)
            for index in timeOrdered(tokenGroups[key]!, in: calls) {
                walk.step(calls[index], index: index)
            }
            walk.finish()
            finished += walk.searches
            baseIndices += walk.baseIndices
            orphanIndices += walk.orphanDetailsIndices
            analysis.anomalies = analysis.anomalies + walk.anomalies
        }
        for key in userOrder {
            var walk = UserWalk(gap: options.userGap)
            for index in timeOrdered(userGroups[key]!, in: calls) {
                walk.step(calls[index], index: index)
            }
            walk.finish()
            finished += walk.searches
            baseIndices += walk.baseIndices
        }

        finished.sort { ($0.search.startedAt, $0.firstIndex) < ($1.search.startedAt, $1.firstIndex) }
        analysis.searches = finished.map(\.search)
        analysis.baseCalls = baseIndices.sorted().map { calls[$0] }
        analysis.detailsWithoutAutocomplete = orphanIndices.sorted().map { calls[$0] }
        return analysis
    }

    /// The indices sorted by call time; ties keep input order.
    private func timeOrdered(_ indices: [Int], in calls: [Call]) -> [Int] {
        indices.sorted { (calls[$0].time, $0) < (calls[$1].time, $1) }
    }
}
