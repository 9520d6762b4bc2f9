/// Whether the app needs Place Details, or only what Geocoding returns (`docs/sessions.md`).
struct DetailsNeed: Sendable, Equatable {
    enum Source: String, Sendable {
        /// From the field masks of the selections in the log.
        case measured
        /// No selection carried a field mask: "yes" is assumed.
        case assumed
        /// `--needs-details yes|no`.
        case override
        /// The field mask of a `simulate` scenario.
        case scenario
    }

    var needsDetails: Bool
    var source: Source
    /// Selections (details calls ending a search) that carried a field mask.
    var selectionsWithMask: Int
    /// Of those, the ones asking for more than address and location.
    var selectionsNeedingDetails: Int
    /// Of those, the ones asking for every field with `*`, which tells nothing of what the app
    /// reads (`docs/sessions.md`).
    var selectionsWithWildcard = 0

    /// The share of masked selections that need details; 0 when none carried a mask.
    var share: Double {
        selectionsWithMask == 0 ? 0 : Double(selectionsNeedingDetails) / Double(selectionsWithMask)
    }

    /// Fields Geocoding also returns, as `FieldCatalog.key` writes them, which covers the legacy
    /// (and its older singular `address_component`), iOS and New API spellings.
    static let addressAndLocationFields: Set<String> = Set([
        "place_id", "id", "formatted_address", "address_components", "address_component", "geometry",
        "location", "coordinate", "viewport", "plus_code", "types", "type",
    ].map(FieldCatalog.key))

    /// Whether a field mask asks for more than Geocoding returns; `nil` for no mask (it says nothing).
    static func needsDetails(fields: [String]?) -> Bool? {
        guard let fields else { return nil }
        return fields.contains { !addressAndLocationFields.contains(FieldCatalog.key($0)) }
    }

    /// Whether one search's selection needs details; `nil` when it has no masked details selection.
    static func needsDetails(_ search: Search) -> Bool? {
        guard let selection = search.selection, selection.api.terminatesSession else { return nil }
        return needsDetails(fields: selection.fields)
    }

    /// The answer as a report states it (`needs_details` of report.json).
    init(needsDetails: Bool, source: Source, selectionsWithMask: Int, selectionsNeedingDetails: Int, selectionsWithWildcard: Int = 0) {
        self.needsDetails = needsDetails
        self.source = source
        self.selectionsWithMask = selectionsWithMask
        self.selectionsNeedingDetails = selectionsNeedingDetails
        self.selectionsWithWildcard = selectionsWithWildcard
    }

    /// The answer for a simulated field mask.
    init(scenarioFields fields: [String]) {
        let needs = DetailsNeed.needsDetails(fields: fields) ?? true
        self.needsDetails = needs
        self.source = .scenario
        self.selectionsWithMask = 1
        self.selectionsNeedingDetails = needs ? 1 : 0
    }

    /// The app-level answer from every search's selection, unless `override` is given.
    init(searches: [Search], override: Bool? = nil) {
        self.init(weighted: searches.map { SearchSummary.WeightedSearch(search: $0, count: 1) }, override: override)
    }

    /// The app-level answer from searches given as representatives with counts.
    init(weighted searches: [SearchSummary.WeightedSearch], override: Bool? = nil) {
        var withMask = 0
        var needing = 0
        var wildcard = 0
        for entry in searches {
            guard let needs = DetailsNeed.needsDetails(entry.search) else { continue }
            withMask += entry.count
            if needs { needing += entry.count }
            if let fields = entry.search.selection?.fields, FieldCatalog.isWildcard(fields) { wildcard += entry.count }
        }
        self.selectionsWithMask = withMask
        self.selectionsNeedingDetails = needing
        self.selectionsWithWildcard = wildcard
        if let override {
            self.needsDetails = override
            self.source = .override
        } else if withMask == 0 {
            self.needsDetails = true
            self.source = .assumed
        } else {
            self.needsDetails = needing > 0
            self.source = .measured
        }
    }
}
