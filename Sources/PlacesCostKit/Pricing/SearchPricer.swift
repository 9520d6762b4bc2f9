/// Counts the billable events of one search, or one call outside every search, under one strategy,
/// delay and price table (`docs/billing.md` sections 3-5, `docs/sessions.md` "Strategies").
struct SearchPricer {
    let table: PriceTable
    /// Days since the epoch from which the table's terminating-details rule applies.
    private let ruleStartDay: Int?
    /// SKUs per field list, worked out once: a few masks recur across thousands of shapes.
    private let memo = FieldMemo()

    /// The last answer is checked first: a search is priced under every strategy and delay in
    /// a row, with the same fields, and comparing an array with itself costs less than hashing it.
    private final class FieldMemo {
        var legacy: [[String]?: RoleCounts] = [:]
        var new: [[String]?: FieldCatalog.NewSKU] = [:]
        var lastLegacy: (fields: [String]?, counts: RoleCounts)?
        var lastNew: (fields: [String]?, sku: FieldCatalog.NewSKU)?
    }

    /// The legacy data SKUs a details call with `fields` adds, one event each, as counts (adding
    /// them beats iterating a `Set` of categories, 28 times a shape).
    private func legacyCategoryCounts(_ fields: [String]?) -> RoleCounts {
        if let last = memo.lastLegacy, last.fields == fields { return last.counts }
        let counts: RoleCounts
        if let known = memo.legacy[fields] {
            counts = known
        } else {
            var made = RoleCounts()
            for category in FieldCatalog.legacyCategories(fields) { made[category.role] += 1 }
            counts = made
            memo.legacy[fields] = counts
        }
        memo.lastLegacy = (fields, counts)
        return counts
    }

    private func newSKU(_ fields: [String]?) -> FieldCatalog.NewSKU {
        if let last = memo.lastNew, last.fields == fields { return last.sku }
        let sku: FieldCatalog.NewSKU
        if let known = memo.new[fields] {
            sku = known
        } else {
            sku = FieldCatalog.newSKU(fields)
            memo.new[fields] = sku
        }
        memo.lastNew = (fields, sku)
        return sku
    }

    init(table: PriceTable) {
        self.table = table
        self.ruleStartDay = table.sessionRules.flatMap { PriceTableLoader.parseDay($0.terminatingDetails.effectiveFrom) }
    }

    /// The events of `search` under `strategy` with `delay`, and the name of an unpriced call in it.
    ///
    /// - Parameter day: the search's day (days since the epoch), for date-bound session rules.
    func events(_ search: Search, strategy: StrategyID, delay: Int, day: Int) -> (RoleCounts, unpriced: String?) {
        var counts = RoleCounts()
        let requests = search.keptRequests(delay: delay)
        let selection = search.outcome.isCompleted ? search.selection : nil
        switch strategy {
        case .current:
            switch (search.kind, selection) {
            case (.session, nil):
                addAbandonedSession(requests: requests, to: &counts)
            case (.session, let selection?):
                guard selection.api == .placeDetails else {
                    addSessionEndedElsewhere(requests: requests, to: &counts)
                    return (counts, SearchPricer.unpricedName(selection.api))
                }
                addCompletedSession(requests: requests, fields: selection.fields, day: day, to: &counts)
            case (.spentToken, _), (.inferred, _):
                counts[.autocompleteRequest] += requests
                if let selection {
                    let unpriced = addPlainSelection(selection, to: &counts)
                    return (counts, unpriced)
                }
            }
        case .sessionDetails, .sessionDetailsBasic:
            if let selection {
                let observed = selection.api == .placeDetails ? selection.fields : FieldCatalog.basicMask
                let fields = strategy == .sessionDetailsBasic ? FieldCatalog.basicMask : observed
                addCompletedSession(requests: requests, fields: fields, day: day, to: &counts)
            } else {
                addAbandonedSession(requests: requests, to: &counts)
            }
        case .perRequestGeocoding:
            counts[.autocompleteRequest] += requests
            if selection != nil { counts[.geocoding] += 1 }
        }
        return (counts, nil)
    }

    /// The events of a call outside every search: the same in every strategy.
    func baseEvents(_ call: Call) -> (RoleCounts, unpriced: String?) {
        var counts = RoleCounts()
        switch call.api {
        case .autocomplete: counts[.autocompleteRequest] += 1
        case .queryAutocomplete: counts[.queryAutocompleteRequest] += 1
        case .placeDetails: addPlainDetails(fields: call.fields, to: &counts)
        case .geocoding: counts[.geocoding] += 1
        case .findPlace, .textSearch, .addressValidation, .other: return (counts, SearchPricer.unpricedName(call.api))
        }
        return (counts, nil)
    }

    /// How an API no bundled table prices appears in reports.
    static func unpricedName(_ api: API) -> String {
        switch api {
        case .findPlace: "Find Place (not priced)"
        case .textSearch: "Text Search (not priced)"
        case .addressValidation: "Address Validation (not priced)"
        default: "\(api.name) (not priced)"
        }
    }

    // MARK: - Billing rules

    /// Legacy: one "without Places Details" session charge; New: each call as a request.
    /// A session whose every call a delay dropped costs nothing.
    private func addAbandonedSession(requests: Int, to counts: inout RoleCounts) {
        guard requests > 0 else { return }
        switch table.apiVersion {
        case .legacy: counts[.sessionWithoutDetails] += 1
        case .new: counts[.autocompleteRequest] += requests
        }
    }

    /// A session ended by a Place Details call with the session's token.
    private func addCompletedSession(requests: Int, fields: [String]?, day: Int, to counts: inout RoleCounts) {
        switch table.apiVersion {
        case .legacy:
            counts[.sessionWithDetails] += 1
            addPlainDetails(fields: fields, to: &counts)
        case .new:
            let sku = newSKU(fields)
            let rules = table.sessionRules!
            switch sku {
            case .idsOnly:
                counts[.autocompleteRequest] += requests
                counts[.detailsIDsOnly] += 1
            case .essentials:
                let billed = min(requests, rules.essentialsRequestCap)
                counts[.autocompleteRequest] += billed
                counts[.sessionUsage] += requests - billed
                counts[.detailsEssentials] += 1
            case .pro, .enterprise, .enterpriseAtmosphere:
                counts[.sessionUsage] += requests
                let rule = ruleStartDay.map { day >= $0 } ?? true ? rules.terminatingDetails.rule : rules.terminatingDetails.before
                counts[rule == .enterpriseAtmosphere ? .detailsEnterpriseAtmosphere : sku.role] += 1
            }
        }
    }

    /// A session ended by a call no table prices (Address Validation): its autocomplete calls are
    /// covered as in a session ended by details (New: $0 each; legacy: the free per-session SKU).
    private func addSessionEndedElsewhere(requests: Int, to counts: inout RoleCounts) {
        switch table.apiVersion {
        case .legacy: counts[.sessionWithDetails] += 1
        case .new: counts[.sessionUsage] += requests
        }
    }

    /// A selection outside a session: Geocoding, or a plain Place Details call.
    private func addPlainSelection(_ selection: Selection, to counts: inout RoleCounts) -> String? {
        switch selection.api {
        case .geocoding: counts[.geocoding] += 1
        case .placeDetails: addPlainDetails(fields: selection.fields, to: &counts)
        default: return SearchPricer.unpricedName(selection.api)
        }
        return nil
    }

    /// Place Details billed on its own: legacy base SKU plus data SKUs; New: the SKU of its fields.
    private func addPlainDetails(fields: [String]?, to counts: inout RoleCounts) {
        switch table.apiVersion {
        case .legacy:
            counts[.placeDetails] += 1
            counts.add(legacyCategoryCounts(fields), times: 1)
        case .new:
            counts[newSKU(fields).role] += 1
        }
    }
}
