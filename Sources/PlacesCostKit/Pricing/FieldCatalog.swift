/// Which data SKU each Place Details field is billed under (`docs/billing.md` sections 4 and 5).
///
/// Field names are compared without regard to case, in the web service (`formatted_address`), iOS
/// (`formattedAddress`, `coordinate`) and Places API (New) (`displayName`) schemes. A path such as
/// `geometry/location` is billed as its first component.
enum FieldCatalog {
    /// Legacy Places Data SKUs, charged on top of the Places Details base SKU.
    enum LegacyCategory: Int, Sendable, Comparable, CaseIterable {
        case basic, contact, atmosphere

        static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

        var role: BillingRole {
            switch self {
            case .basic: .dataBasic
            case .contact: .dataContact
            case .atmosphere: .dataAtmosphere
            }
        }
    }

    /// Places API (New) Place Details SKUs, from cheapest to dearest.
    enum NewSKU: Int, Sendable, Comparable, CaseIterable {
        case idsOnly, essentials, pro, enterprise, enterpriseAtmosphere

        static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

        var role: BillingRole {
            switch self {
            case .idsOnly: .detailsIDsOnly
            case .essentials: .detailsEssentials
            case .pro: .detailsPro
            case .enterprise: .detailsEnterprise
            case .enterpriseAtmosphere: .detailsEnterpriseAtmosphere
            }
        }
    }

    /// The address-and-location mask strategies cut details calls to (`session_details_basic`).
    static let basicMask = ["formatted_address", "geometry"]

    /// Every known field name, lowercased, with its categories (`SessionSQLWriter` writes these
    /// same lists into SQL).
    static let entries: [String: (LegacyCategory, NewSKU)] = {
        var table: [String: (LegacyCategory, NewSKU)] = [:]
        func add(_ legacy: LegacyCategory, _ new: NewSKU, _ names: String...) {
            for name in names { table[name.lowercased()] = (legacy, new) }
        }
        // In Places API (New) `name` is the resource name (IDs Only); in the legacy APIs it is the
        // business name (Basic). The generation decides which column applies, so one entry serves.
        add(.basic, .idsOnly, "place_id", "placeID", "id", "name", "photos", "attributions", "movedPlace", "movedPlaceId")
        add(.basic, .essentials, "address_components", "addressComponents", "adr_address", "adrFormatAddress",
            "formatted_address", "formattedAddress", "geometry", "location", "coordinate", "viewport", "plus_code",
            "plusCode", "type", "types", "vicinity", "shortFormattedAddress", "postalAddress")
        add(.basic, .pro, "business_status", "businessStatus", "icon", "icon_mask_base_uri", "iconMaskBaseUri",
            "icon_background_color", "iconBackgroundColor", "url", "googleMapsUri", "utc_offset", "utcOffsetMinutes",
            "utcOffset", "timeZone", "wheelchair_accessible_entrance", "wheelchairAccessibleEntrance",
            "accessibilityOptions", "displayName", "primaryType", "primaryTypeDisplayName", "pureServiceAreaBusiness",
            "containingPlaces", "addressDescriptor", "googleMapsLinks", "subDestinations")
        add(.contact, .enterprise, "formatted_phone_number", "international_phone_number", "phoneNumber",
            "nationalPhoneNumber", "internationalPhoneNumber", "opening_hours", "openingHours", "current_opening_hours",
            "currentOpeningHours", "secondary_opening_hours", "regularOpeningHours", "currentSecondaryOpeningHours",
            "regularSecondaryOpeningHours", "website", "websiteUri")
        add(.atmosphere, .enterprise, "price_level", "priceLevel", "priceRange", "rating", "user_ratings_total",
            "userRatingsTotal", "userRatingCount")
        add(.atmosphere, .enterpriseAtmosphere, "reviews", "editorial_summary", "editorialSummary", "generativeSummary",
            "reviewSummary", "takeout", "delivery", "dine_in", "dineIn", "curbside_pickup", "curbsidePickup",
            "reservable", "parkingOptions", "paymentOptions", "outdoorSeating", "liveMusic", "menuForChildren",
            "restroom", "evChargeOptions", "fuelOptions")
        return table
    }()

    /// Places API (New) field masks may name fields as `places.displayName`.
    static let resourcePrefix = "places."

    /// Families of Atmosphere fields known by their start (`servesBeer`, `allowsDogs`, `goodForChildren`).
    static let atmospherePrefixes = ["serves", "allows", "goodfor"]

    /// The categories of one field; `nil` for a name the catalog does not know.
    static func lookup(_ field: String) -> (LegacyCategory, NewSKU)? {
        var name = field.lowercased()
        if let slash = name.firstIndex(of: "/") { name = String(name[..<slash]) }
        if name.hasPrefix(resourcePrefix) { name = String(name.dropFirst(resourcePrefix.count)) }
        if let entry = entries[name] { return entry }
        if atmospherePrefixes.contains(where: { name.hasPrefix($0) }) { return (.atmosphere, .enterpriseAtmosphere) }
        return nil
    }

    /// The legacy data SKUs a details call bills: all three with no mask or `*`.
    ///
    /// An unknown field is billed as Basic, the category of most legacy fields.
    static func legacyCategories(_ fields: [String]?) -> Set<LegacyCategory> {
        guard let fields, !fields.contains("*") else { return Set(LegacyCategory.allCases) }
        return Set(fields.map { lookup($0)?.0 ?? .basic })
    }

    /// The New SKU a details call bills: the highest among its fields; Enterprise + Atmosphere with
    /// no mask or `*`. An unknown field is billed as Pro, the SKU of most unlisted New fields.
    static func newSKU(_ fields: [String]?) -> NewSKU {
        guard let fields, !fields.contains("*") else { return .enterpriseAtmosphere }
        return fields.map { lookup($0)?.1 ?? .pro }.max() ?? .idsOnly
    }
}
