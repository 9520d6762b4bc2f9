/// What `searches.csv` takes from a search's shape (`SearchRows.ShapeFigures`): the shape's
/// representative search at its period's time, priced as made at list prices. One per thread:
/// its calculator's pricers are not shared.
struct ShapeDescriber {
    let calculator: CostCalculator
    let catalogs: CallCatalogs
    let clip: Int

    init(plan: PricingPlan, options: CostCalculator.Options, catalogs: CallCatalogs, clip: Int) {
        calculator = CostCalculator(plan: plan, options: options)
        self.catalogs = catalogs
        self.clip = clip
    }

    /// - Parameter time: the time of the shape's period (`SearchTally.periodTimes`).
    func figures(_ key: SearchTally.ShapeKey, at time: Int64) -> SearchRows.ShapeFigures {
        let search = SearchSummary.representative(of: key, at: Timestamp(microseconds: time), catalogs: catalogs, clip: clip)
        return SearchRows.ShapeFigures(
            completed: search.outcome.isCompleted, needsDetails: DetailsNeed.needsDetails(search),
            anomalies: search.anomalyNames, listCostUSD: calculator.listCost(of: search)
        )
    }
}
