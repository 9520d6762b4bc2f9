/// What a billable event is, independent of any price list's SKU names.
///
/// The cost engine counts events by role; a price table says which SKU (name, tiers, free cap)
/// bills each role. That keeps Google's SKU names in data files, where they change, and the
/// billing rules in code, where they are tested.
enum BillingRole: String, Sendable, Hashable, CaseIterable, Codable {
    /// One autocomplete call billed per request.
    case autocompleteRequest = "autocomplete_request"
    /// One Query Autocomplete call (legacy: its own SKU; New: an autocomplete request).
    case queryAutocompleteRequest = "query_autocomplete_request"
    /// Legacy: the autocomplete part of a session ended by Place Details (free, once per session).
    case sessionWithDetails = "autocomplete_session_with_details"
    /// Legacy: a session with no Place Details call, billed once.
    case sessionWithoutDetails = "autocomplete_session_without_details"
    /// New: an autocomplete call inside a session that is not billed as a request.
    case sessionUsage = "autocomplete_session_usage"
    /// Legacy Place Details base SKU.
    case placeDetails = "place_details"
    /// Legacy Places Data SKUs, charged on top of Place Details by field category.
    case dataBasic = "data_basic"
    case dataContact = "data_contact"
    case dataAtmosphere = "data_atmosphere"
    /// New Place Details SKUs, one per call, at the highest SKU among its fields.
    case detailsIDsOnly = "details_ids_only"
    case detailsEssentials = "details_essentials"
    case detailsPro = "details_pro"
    case detailsEnterprise = "details_enterprise"
    case detailsEnterpriseAtmosphere = "details_enterprise_atmosphere"
    case geocoding = "geocoding"

    /// The role's position in `allCases`, by a switch: event counting indexes by it for every
    /// search, strategy and delay, so keep it a switch and never hash the raw string there.
    var ordinal: Int {
        switch self {
        case .autocompleteRequest: 0
        case .queryAutocompleteRequest: 1
        case .sessionWithDetails: 2
        case .sessionWithoutDetails: 3
        case .sessionUsage: 4
        case .placeDetails: 5
        case .dataBasic: 6
        case .dataContact: 7
        case .dataAtmosphere: 8
        case .detailsIDsOnly: 9
        case .detailsEssentials: 10
        case .detailsPro: 11
        case .detailsEnterprise: 12
        case .detailsEnterpriseAtmosphere: 13
        case .geocoding: 14
        }
    }

    /// Roles a table of each generation must bill.
    static func required(for generation: APIGeneration) -> [BillingRole] {
        switch generation {
        case .legacy:
            [.autocompleteRequest, .queryAutocompleteRequest, .sessionWithDetails, .sessionWithoutDetails,
             .placeDetails, .dataBasic, .dataContact, .dataAtmosphere, .geocoding]
        case .new:
            [.autocompleteRequest, .queryAutocompleteRequest, .sessionUsage, .detailsIDsOnly, .detailsEssentials,
             .detailsPro, .detailsEnterprise, .detailsEnterpriseAtmosphere, .geocoding]
        }
    }
}
