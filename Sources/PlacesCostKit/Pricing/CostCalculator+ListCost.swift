extension CostCalculator {
    /// One search's cost under `strategy` at `delay`, every event at its SKU's first-tier price
    /// with the table in force for the search (times `--scale`): the anomaly costs' figure
    /// (`price` gives every search's `current` cost as it goes). Unpriced calls add nothing.
    func listCost(of search: Search, strategy: StrategyID = .current, delay: Int = 0) -> Double {
        let table = plan.table(generation: search.generation, monthIndex: monthIndex(of: search.startedAt))
        let day = Int(search.startedAt.microseconds / 86_400_000_000)
        let (events, _) = pricer(for: table).events(search, strategy: strategy, delay: delay, day: day)
        return listCost(events, table: table)
    }

    /// A call outside every search, at list prices (times `--scale`).
    func listCost(of call: Call) -> Double {
        let table = plan.table(generation: call.generation, monthIndex: monthIndex(of: call.time))
        let (events, _) = pricer(for: table).baseEvents(call)
        return listCost(events, table: table)
    }

    /// One pricer per table for the calculator's life, so field masks are looked up once.
    func pricer(for table: PriceTable) -> SearchPricer {
        if let pricer = pricerCache.pricers[table.id] { return pricer }
        let pricer = SearchPricer(table: table)
        pricerCache.pricers[table.id] = pricer
        return pricer
    }

    /// Events at their SKUs' first-tier prices (times `--scale`).
    func listCost(_ events: RoleCounts, table: PriceTable) -> Double {
        var cost = 0.0
        for sku in table.skus {
            let count = sku.roles.reduce(0) { $0 + events[$1] }
            if count > 0 { cost += Double(count) * options.scale * sku.tiers[0].usdPer1000 / 1000 }
        }
        return cost
    }
}
