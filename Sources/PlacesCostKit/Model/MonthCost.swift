/// One calendar month of one strategy and delay.
struct MonthCost: Sendable, Equatable {
    /// `YYYY-MM`, or `month N` in simulations.
    var month: String
    /// The price table each line was billed with.
    var tableIDs: [String]
    var lines: [Line]
    /// The monthly credit used (legacy 2018 pricing), as a positive number.
    var creditUSD: Double
    var listCostUSD: Double
    var costUSD: Double

    struct Line: Sendable, Equatable {
        var sku: String
        var tableID: String
        var count: Int
        var listCostUSD: Double
        var costUSD: Double
        var unpriced: Bool
    }
}
