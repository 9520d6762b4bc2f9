/// One anomaly of the log: how often it happened, what it cost, and the fix.
struct AnomalyAdvice: Sendable, Equatable {
    var cost: AnomalyCost
    /// What to change so it stops costing money.
    var fix: String

    init(cost: AnomalyCost, fix: String) {
        self.cost = cost
        self.fix = fix
    }

    /// Whether doing it right bills less than the mistake did (at list prices); an anomaly whose
    /// right way has no single price (an expired session, details without the token) always does.
    var fixSavesMoney: Bool {
        cost.count > 0 && (cost.excessListUSD.map { $0 >= 0.005 } ?? true)
    }
}
