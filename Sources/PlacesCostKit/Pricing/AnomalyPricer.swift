/// Prices what each anomaly of `docs/sessions.md` cost: the affected calls as billed, and the same
/// calls made the right way where there is one (`docs/billing.md` section 6).
struct AnomalyPricer {
    var calculator: CostCalculator

    init(calculator: CostCalculator) {
        self.calculator = calculator
    }

    /// One entry per anomaly, in `Anomalies.named` order, then `fields_wildcard` when a details
    /// call asked for every field with `*` (not a `report.json` `anomalies` count: that list is
    /// the contract's).
    func price(_ summary: SearchSummary) -> [AnomalyCost] {
        let searches = summary.searches
        let counts = Dictionary(uniqueKeysWithValues: summary.anomalies.named.map { ($0.name, $0.count) })
        func sum(_ selected: some Sequence<SearchSummary.WeightedSearch>, _ strategy: StrategyID) -> Double {
            selected.reduce(0) { $0 + Double($1.count) * calculator.listCost(of: $1.search, strategy: strategy) }
        }
        func sum(_ calls: some Sequence<SearchSummary.WeightedCall>) -> Double {
            calls.reduce(0) { $0 + Double($1.count) * calculator.listCost(of: $1.call) }
        }

        // Details calls on a spent token that ended no run are billed as plain details calls;
        // they are the token's details calls outside every search, less the fresh-token ones.
        let spentRuns = searches.filter { $0.search.kind == .spentToken }
        let tokenDetails = summary.baseCalls.filter { $0.hasToken && $0.call.api.terminatesSession }
        let reusedDetailsCost = sum(tokenDetails) - sum(summary.detailsWithoutAutocomplete)
        let reused = AnomalyCost(
            name: "token_reused", count: counts["token_reused"] ?? 0,
            billedListUSD: sum(spentRuns, .current) + reusedDetailsCost,
            alternativeListUSD: sum(spentRuns, .sessionDetails) + reusedDetailsCost,
            alternative: "each run on a spent token as a session of its own"
        )

        let expired = AnomalyCost(
            name: "expired", count: counts["expired"] ?? 0,
            billedListUSD: sum(searches.lazy.filter { $0.search.outcome == .expired }, .current)
        )

        let orphans = AnomalyCost(
            name: "details_without_autocomplete", count: counts["details_without_autocomplete"] ?? 0,
            billedListUSD: sum(summary.detailsWithoutAutocomplete)
        )

        let inferred = searches.filter { $0.search.kind == .inferred }
        let looseRequests = summary.baseCalls.filter { $0.call.api == .autocomplete && !$0.hasToken }
        let looseCost = sum(looseRequests)
        let noToken = AnomalyCost(
            name: "no_token_requests", count: counts["no_token_requests"] ?? 0,
            billedListUSD: sum(inferred, .current) + looseCost,
            alternativeListUSD: sum(inferred, .sessionDetails) + looseCost,
            alternative: "a session per search of each user; calls without a user id stay per request"
        )

        // The count of `fields_unspecified` is the walk's, the figure the contract names (the
        // summary's is the same: `AdvisorTests` holds them to each other).
        var fields = maskCost(summary, name: "fields_unspecified") { $0 == nil }
        fields.count = counts["fields_unspecified"] ?? 0
        // `*` bills like no mask; its calls are counted here, as `fields_unspecified` counts
        // only the calls with no mask at all.
        let wildcard = maskCost(summary, name: "fields_wildcard") { $0.map(FieldCatalog.isWildcard) ?? false }

        // Billed per request with Geocoding is their right way only for an app that needs no
        // Place Details: one that does would need the searches the tokens split, which the log
        // cannot give back, so no right way is priced then.
        let single = searches.filter { $0.search.kind == .session && $0.search.requests == 1 }
        let perRequestServes = !calculator.options.needsDetails
        let oneRequest = AnomalyCost(
            name: "one_request_sessions", count: counts["one_request_sessions"] ?? 0,
            billedListUSD: sum(single, .current),
            alternativeListUSD: perRequestServes ? sum(single, .perRequestGeocoding) : nil,
            alternative: perRequestServes ? "the same requests billed per request, with Geocoding for a selection" : nil
        )
        let named = [reused, expired, orphans, noToken, fields, oneRequest]
        return (wildcard.count > 0 ? named + [wildcard] : named).map(explained)
    }

    /// The details calls whose field mask `matches` (each search's selection and each call
    /// outside every search, by the calls each stands for) as the anomaly `name`: how many, what
    /// they were billed at list prices, and the same calls with an address-and-location mask.
    func maskCost(_ summary: SearchSummary, name: String, matching matches: ([String]?) -> Bool) -> AnomalyCost {
        let searches = summary.searches.filter {
            $0.search.outcome.isCompleted && $0.search.selection?.api == .placeDetails && matches($0.search.selection?.fields)
        }
        let calls = summary.baseCalls.filter { $0.call.api == .placeDetails && matches($0.call.fields) }
        var billed = 0.0
        var masked = 0.0
        for var entry in searches {
            billed += Double(entry.count) * calculator.listCost(of: entry.search, strategy: .current)
            entry.search.selection?.fields = FieldCatalog.basicMask
            masked += Double(entry.count) * calculator.listCost(of: entry.search, strategy: .current)
        }
        for var entry in calls {
            billed += Double(entry.count) * calculator.listCost(of: entry.call)
            entry.call.fields = FieldCatalog.basicMask
            masked += Double(entry.count) * calculator.listCost(of: entry.call)
        }
        let count = searches.reduce(0) { $0 + $1.count } + calls.reduce(0) { $0 + $1.count }
        return AnomalyCost(
            name: name, count: count, billedListUSD: billed, alternativeListUSD: masked,
            alternative: "the same calls with an address-and-location field mask"
        )
    }

    /// `cost` with the reason its right way bills more than the mistake, when it does (to the
    /// micro-dollar, as `report.json` gives `excess_list_usd`): a difference the table's cents
    /// hide is still a fix that does not pay, and the row says so.
    func explained(_ cost: AnomalyCost) -> AnomalyCost {
        guard let alternative = cost.alternativeListUSD, Money.micros(alternative) > Money.micros(cost.billedListUSD) else { return cost }
        var cost = cost
        switch cost.name {
        case "fields_unspecified", "fields_wildcard":
            cost.alternativeCostsMoreBecause = "With an address-and-location mask each session ends with Place Details Essentials, which bills the session's autocomplete requests (up to 12), while a details call billed at a higher SKU makes them free: the mask still avoids returning every field, but here it does not lower the bill."
        case "token_reused", "no_token_requests":
            cost.alternativeCostsMoreBecause = "As sessions, runs that end without a selection are billed as abandoned sessions, which costs more than their few requests: the fix is about correctness here, not money."
        case "one_request_sessions":
            cost.alternativeCostsMoreBecause = "Billed per request, each selection needs a Geocoding call, which costs more here than the session did."
        default:
            cost.alternativeCostsMoreBecause = "The right way bills more than the mistake at list prices for these calls."
        }
        return cost
    }
}
