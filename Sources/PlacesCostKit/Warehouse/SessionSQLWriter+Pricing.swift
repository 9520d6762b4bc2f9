/// Pricing: identical searches priced once per strategy and delay, by the roles `SearchPricer` bills.
extension SessionSQLWriter {
    // MARK: - Pricing (SearchPricer)

    private var nColumns: [String] { pricedDelays.map { "n_\($0)" } }

    /// Whether the New table's terminating-details rule bills Enterprise + Atmosphere for a search
    /// starting at `start_us` (the rule has a start day; before it, its `before` rule).
    private var terminatorRule: String {
        guard let rules = table.sessionRules else { return "0" }
        let now = rules.terminatingDetails.rule == .enterpriseAtmosphere ? "1" : "0"
        let before = rules.terminatingDetails.before == .enterpriseAtmosphere ? "1" : "0"
        guard let day = PriceTableLoader.parseDay(rules.terminatingDetails.effectiveFrom), now != before else { return now }
        // The engine compares whole days since the epoch, truncated toward zero.
        let threshold = day > 0 ? "start_us >= \(Int64(day) * 86_400_000_000)" : "start_us > \(Int64(day - 1) * 86_400_000_000)"
        return "CASE WHEN \(threshold) THEN \(now) ELSE \(before) END"
    }

    private func monthOf(_ microseconds: String) -> String {
        dialect.monthLabel(microseconds: microseconds, timeZone: options.timeZone)
    }

    func searchShapes() -> [String] {
        var keys = ["kind", "completed", "selection_api", "selection_sku"] + nColumns
        var lines = [
            "-- Searches that bill alike, counted once (the engine's SearchSummary does the same).",
            "search_shapes AS (",
            "  SELECT",
            "    " + keys.joined(separator: ", ") + ",",
        ]
        if table.apiVersion == .new {
            lines.append("    \(terminatorRule) AS terminator_ea,")
            keys.append("terminator_ea")
        }
        if options.byMonth {
            lines.append("    \(monthOf("start_us")) AS month,")
            keys.append("month")
        }
        lines += [
            "    COUNT(*) AS searches",
            "  FROM searches",
            "  GROUP BY " + keys.joined(separator: ", "),
            ")",
        ]
        return lines
    }

    func strategyGrid() -> [String] {
        var rows: [String] = []
        for strategy in StrategyID.allCases {
            for delay in pricedDelays {
                rows.append("SELECT '\(strategy.rawValue)' AS strategy, \(delay) AS delay")
            }
        }
        return ["-- Every strategy at delay 0 and at each priced delay.", "strategy_grid AS ("]
            + rows.enumerated().map { "  " + $0.element + ($0.offset < rows.count - 1 ? " UNION ALL" : "") }
            + [")"]
    }

    func searchPlans() -> [String] {
        var lines = [
            "-- How each strategy bills a search (SearchPricer): n calls kept at the delay, and a plan:",
            "-- per_request (every call a request; `current` for runs and inferred searches, and",
            "-- per_request_geocoding), abandoned_session, completed_session, or session_elsewhere (`current`,",
            "-- a session ended by a call no table prices: address_validation). selection: the call billed",
            "-- after per-request calls; mask: the field mask its details call is billed with.",
            "search_plans AS (",
            "  SELECT",
            "    g.strategy, g.delay, s.searches," + (table.apiVersion == .new ? " s.terminator_ea," : "") + (options.byMonth ? " s.month," : ""),
            "    CASE g.delay",
        ]
        for delay in pricedDelays {
            lines.append("      WHEN \(delay) THEN s.n_\(delay)")
        }
        lines += [
            "    END AS n,",
            "    CASE",
            "      WHEN g.strategy = 'per_request_geocoding' THEN 'per_request'",
            "      WHEN g.strategy = 'current' AND s.kind <> 'session' THEN 'per_request'",
            "      WHEN s.completed = 0 THEN 'abandoned_session'",
            "      WHEN g.strategy = 'current' AND s.selection_api <> 'place_details' THEN 'session_elsewhere'",
            "      ELSE 'completed_session'",
            "    END AS plan,",
            "    CASE",
            "      WHEN s.completed = 0 THEN 'none'",
            "      WHEN g.strategy = 'per_request_geocoding' THEN 'geocoding'",
            "      ELSE s.selection_api",
            "    END AS selection,",
            "    CASE",
            "      WHEN g.strategy = 'session_details_basic' THEN \(basicMaskSKU)",
            "      WHEN g.strategy = 'session_details' AND s.selection_api <> 'place_details' THEN \(basicMaskSKU)",
            "      ELSE s.selection_sku",
            "    END AS mask",
            "  FROM search_shapes AS s",
            "  CROSS JOIN strategy_grid AS g",
            ")",
        ]
        return lines
    }

    /// The billing roles the table's generation bills, in `BillingRole` order.
    private var roles: [BillingRole] { BillingRole.required(for: table.apiVersion) }

    /// The count of `role` one search row of `search_plans` bills (times `searches`), or nil
    /// when searches never bill it (only base calls do).
    private func searchRoleCount(_ role: BillingRole) -> String? {
        let details = "(plan = 'completed_session' OR (plan = 'per_request' AND selection = 'place_details'))"
        switch (table.apiVersion, role) {
        case (.legacy, .autocompleteRequest): return "CASE WHEN plan = 'per_request' THEN n ELSE 0 END"
        case (.legacy, .sessionWithDetails): return "CASE WHEN plan IN ('completed_session', 'session_elsewhere') THEN 1 ELSE 0 END"
        case (.legacy, .sessionWithoutDetails): return "CASE WHEN plan = 'abandoned_session' AND n > 0 THEN 1 ELSE 0 END"
        case (.legacy, .placeDetails): return "CASE WHEN \(details) THEN 1 ELSE 0 END"
        case (.legacy, .dataBasic): return "CASE WHEN \(details) AND (mask & 1) <> 0 THEN 1 ELSE 0 END"
        case (.legacy, .dataContact): return "CASE WHEN \(details) AND (mask & 2) <> 0 THEN 1 ELSE 0 END"
        case (.legacy, .dataAtmosphere): return "CASE WHEN \(details) AND (mask & 4) <> 0 THEN 1 ELSE 0 END"
        case (.new, .autocompleteRequest):
            let cap = table.sessionRules?.essentialsRequestCap ?? 12
            return "CASE WHEN plan IN ('per_request', 'abandoned_session') THEN n"
                + " WHEN plan = 'completed_session' AND mask = 0 THEN n"
                + " WHEN plan = 'completed_session' AND mask = 1 THEN LEAST(n, \(cap)) ELSE 0 END"
        case (.new, .sessionUsage):
            let cap = table.sessionRules?.essentialsRequestCap ?? 12
            return "CASE WHEN plan = 'session_elsewhere' THEN n"
                + " WHEN plan = 'completed_session' AND mask = 1 THEN n - LEAST(n, \(cap))"
                + " WHEN plan = 'completed_session' AND mask >= 2 THEN n ELSE 0 END"
        case (.new, .detailsIDsOnly): return "CASE WHEN \(details) AND mask = 0 THEN 1 ELSE 0 END"
        case (.new, .detailsEssentials): return "CASE WHEN \(details) AND mask = 1 THEN 1 ELSE 0 END"
        case (.new, .detailsPro):
            return "CASE WHEN \(details) AND mask = 2 AND NOT (plan = 'completed_session' AND terminator_ea = 1) THEN 1 ELSE 0 END"
        case (.new, .detailsEnterprise):
            return "CASE WHEN \(details) AND mask = 3 AND NOT (plan = 'completed_session' AND terminator_ea = 1) THEN 1 ELSE 0 END"
        case (.new, .detailsEnterpriseAtmosphere):
            return "CASE WHEN \(details) AND (mask = 4 OR (plan = 'completed_session' AND mask >= 2 AND terminator_ea = 1)) THEN 1 ELSE 0 END"
        case (_, .geocoding): return "CASE WHEN plan = 'per_request' AND selection = 'geocoding' THEN 1 ELSE 0 END"
        default: return nil
        }
    }

    /// The count of `role` one base call bills.
    private func baseRoleCount(_ role: BillingRole) -> String? {
        switch (table.apiVersion, role) {
        case (_, .autocompleteRequest): return "CASE WHEN api = 'autocomplete' THEN 1 ELSE 0 END"
        case (_, .queryAutocompleteRequest): return "CASE WHEN api = 'query_autocomplete' THEN 1 ELSE 0 END"
        case (_, .geocoding): return "CASE WHEN api = 'geocoding' THEN 1 ELSE 0 END"
        case (.legacy, .placeDetails): return "CASE WHEN api = 'place_details' THEN 1 ELSE 0 END"
        case (.legacy, .dataBasic): return "CASE WHEN api = 'place_details' AND (mask_sku & 1) <> 0 THEN 1 ELSE 0 END"
        case (.legacy, .dataContact): return "CASE WHEN api = 'place_details' AND (mask_sku & 2) <> 0 THEN 1 ELSE 0 END"
        case (.legacy, .dataAtmosphere): return "CASE WHEN api = 'place_details' AND (mask_sku & 4) <> 0 THEN 1 ELSE 0 END"
        case (.new, .detailsIDsOnly), (.new, .detailsEssentials), (.new, .detailsPro), (.new, .detailsEnterprise),
             (.new, .detailsEnterpriseAtmosphere):
            let level = [BillingRole.detailsIDsOnly, .detailsEssentials, .detailsPro, .detailsEnterprise, .detailsEnterpriseAtmosphere].firstIndex(of: role)!
            return "CASE WHEN api = 'place_details' AND mask_sku = \(level) THEN 1 ELSE 0 END"
        default: return nil
        }
    }

    private var periodKeys: [String] { options.byMonth ? ["month"] : [] }

    func searchEvents() -> [String] {
        let keys = ["strategy", "delay"] + periodKeys
        var lines = [
            "-- The billable events of the searches per strategy and delay, by billing role.",
            "search_events AS (",
            "  SELECT",
            "    " + keys.joined(separator: ", ") + ",",
        ]
        let counted = roles.compactMap { role in searchRoleCount(role).map { (role, $0) } }
        for (index, (role, count)) in counted.enumerated() {
            lines.append("    SUM(searches * \(count)) AS \(role.rawValue)" + (index < counted.count - 1 ? "," : ""))
        }
        lines += ["  FROM search_plans", "  GROUP BY " + keys.joined(separator: ", "), ")"]
        return lines
    }

    func baseEvents() -> [String] {
        var lines = [
            "-- The billable events of the base calls, the same in every strategy and delay" + (options.byMonth ? ", per month." : "."),
            "-- find_place, text_search, address_validation and unknown apis are not priced.",
            "base_events AS (",
            "  SELECT",
        ]
        if options.byMonth { lines.append("    month,") }
        let counted = roles.compactMap { role in baseRoleCount(role).map { (role, $0) } }
        for (index, (role, count)) in counted.enumerated() {
            lines.append("    COALESCE(SUM(\(count)), 0) AS \(role.rawValue)" + (index < counted.count - 1 ? "," : ""))
        }
        if options.byMonth {
            lines += ["  FROM (SELECT api, mask_sku, \(monthOf("ts_us")) AS month FROM base_calls) AS b", "  GROUP BY month", ")"]
        } else {
            lines += ["  FROM base_calls", ")"]
        }
        return lines
    }

    func events() -> [String] {
        var lines = [
            "-- All events per strategy and delay" + (options.byMonth ? " and month (the months any search or base call falls in)." : "."),
            "events AS (",
            "  SELECT",
            "    " + (["g.strategy", "g.delay"] + periodKeys.map { "m.\($0)" }).joined(separator: ", ") + ",",
        ]
        for (index, role) in roles.enumerated() {
            var terms: [String] = []
            if searchRoleCount(role) != nil { terms.append("COALESCE(e.\(role.rawValue), 0)") }
            if baseRoleCount(role) != nil { terms.append("COALESCE(b.\(role.rawValue), 0)") }
            let sum = terms.isEmpty ? "0" : terms.joined(separator: " + ")
            lines.append("    \(sum) AS \(role.rawValue)" + (index < roles.count - 1 ? "," : ""))
        }
        if options.byMonth {
            lines += [
                "  FROM strategy_grid AS g",
                "  CROSS JOIN (SELECT month FROM search_shapes UNION DISTINCT SELECT month FROM base_events) AS m",
                "  LEFT JOIN search_events AS e ON e.strategy = g.strategy AND e.delay = g.delay AND e.month = m.month",
                "  LEFT JOIN base_events AS b ON b.month = m.month",
                ")",
            ]
        } else {
            lines += [
                "  FROM strategy_grid AS g",
                "  LEFT JOIN search_events AS e ON e.strategy = g.strategy AND e.delay = g.delay",
                "  CROSS JOIN base_events AS b",
                ")",
            ]
        }
        return lines
    }
}
