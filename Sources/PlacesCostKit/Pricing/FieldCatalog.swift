/// Which data SKU each Place Details field is billed under (`docs/billing.md` sections 4 and 5).
///
/// Field names are compared without regard to case or underscores (`key(_:)`), so one entry
/// serves the web service (`formatted_address`), iOS (`formattedAddress`, `coordinate`), Places
/// API (New) (`displayName`) and its field masks' proto paths (`display_name`). A path such as
/// `geometry/location` is billed as its first component. The legacy service's older singular
/// names (`address_component`, `photo`, `review`), which Google's own clients still send, are
/// listed beside the plural ones.
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

    /// Every known field name as Google spells it, with its categories.
    static let names: [(name: String, legacy: LegacyCategory, new: NewSKU)] = {
        var names: [(name: String, legacy: LegacyCategory, new: NewSKU)] = []
        func add(_ legacy: LegacyCategory, _ new: NewSKU, _ spelled: String...) {
            names += spelled.map { ($0, legacy, new) }
        }
        // In Places API (New) `name` is the resource name (IDs Only); in the legacy APIs it is the
        // business name (Basic). The generation decides which column applies, so one entry serves.
        add(.basic, .idsOnly, "place_id", "placeID", "id", "name", "photos", "photo", "attributions", "movedPlace", "movedPlaceId")
        add(.basic, .essentials, "address_components", "address_component", "addressComponents", "adr_address", "adrFormatAddress",
            "formatted_address", "formattedAddress", "geometry", "location", "coordinate", "viewport", "plus_code",
            "plusCode", "type", "types", "vicinity", "shortFormattedAddress", "postalAddress")
        add(.basic, .pro, "business_status", "businessStatus", "permanently_closed", "icon", "icon_mask_base_uri", "iconMaskBaseUri",
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
        add(.atmosphere, .enterpriseAtmosphere, "reviews", "review", "editorial_summary", "editorialSummary", "generativeSummary",
            "reviewSummary", "takeout", "delivery", "dine_in", "dineIn", "curbside_pickup", "curbsidePickup",
            "reservable", "parkingOptions", "paymentOptions", "outdoorSeating", "liveMusic", "menuForChildren",
            "restroom", "evChargeOptions", "fuelOptions")
        return names
    }()

    /// Every known field name as `key(_:)` writes it, with its categories (`SessionSQLWriter`
    /// writes these same lists into SQL, and its key the same way).
    static let entries: [String: (LegacyCategory, NewSKU)] = Dictionary(
        names.map { (key($0.name), ($0.legacy, $0.new)) }, uniquingKeysWith: { _, last in last }
    )

    /// Places API (New) field masks may name fields as `places.displayName`.
    static let resourcePrefix = "places."

    /// Families of Atmosphere fields known by their start (`servesBeer`, `allowsDogs`, `goodForChildren`).
    static let atmospherePrefixes = ["serves", "allows", "goodfor"]

    /// A field name as the catalog compares it: lowercased, a path (`geometry/location`) cut to
    /// its first part, `places.` dropped, and without underscores, so that `display_name`,
    /// `displayName` and `places.displayName` are one field.
    ///
    /// By bytes, never Foundation's search and replace: the pricing and the needs-details count
    /// ask it for every field of every search shape.
    static func key(_ field: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(field.utf8.count)
        for byte in field.utf8 {
            if byte == UInt8(ascii: "/") { break }
            if byte == UInt8(ascii: "_") { continue }
            bytes.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte)
        }
        var name = String(decoding: bytes, as: UTF8.self)
        // Non-ASCII letters are lowered as `lowercased()` lowers them.
        if bytes.contains(where: { $0 >= 0x80 }) { name = name.lowercased() }
        if name.hasPrefix(resourcePrefix) { name.removeFirst(resourcePrefix.count) }
        return name
    }

    /// Whether `name` is shaped as a field name (letters, digits, `_ . /`, a letter first, at most
    /// 64 characters): such names may be quoted in a note, anything else is only counted.
    /// `name` as a report may repeat it: itself when it looks like a field name or is `*`, else
    /// `notAFieldName`, which the catalog does not know either, so it bills as `name` does.
    static func shownName(_ name: String) -> String {
        name == "*" || looksLikeFieldName(name) && !API.looksLikeKey(name) ? name : notAFieldName
    }

    /// What `shownName` writes for a name no field could have.
    static let notAFieldName = "not_a_field_name"

    static func looksLikeFieldName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 64,
              ("a"..."z").contains(first) || ("A"..."Z").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "_./".unicodeScalars.contains($0) }
    }

    /// The categories of one field; `nil` for a name the catalog does not know.
    static func lookup(_ field: String) -> (LegacyCategory, NewSKU)? {
        let name = key(field)
        if let entry = entries[name] { return entry }
        if atmospherePrefixes.contains(where: { name.hasPrefix($0) }) { return (.atmosphere, .enterpriseAtmosphere) }
        return nil
    }

    /// Whether a field mask asks for every field (`*`), which bills like no mask at all.
    static func isWildcard(_ fields: [String]) -> Bool {
        fields.contains("*")
    }

    /// The legacy data SKUs a details call bills: all three with no mask or `*`.
    ///
    /// An unknown field is billed as Basic, the category of most legacy fields.
    static func legacyCategories(_ fields: [String]?) -> Set<LegacyCategory> {
        guard let fields, !isWildcard(fields) else { return Set(LegacyCategory.allCases) }
        return Set(fields.map { lookup($0)?.0 ?? .basic })
    }

    /// The New SKU a details call bills: the highest among its fields; Enterprise + Atmosphere with
    /// no mask or `*`. An unknown field is billed as Pro, the SKU of most unlisted New fields.
    static func newSKU(_ fields: [String]?) -> NewSKU {
        guard let fields, !isWildcard(fields) else { return .enterpriseAtmosphere }
        return fields.map { lookup($0)?.1 ?? .pro }.max() ?? .idsOnly
    }
}
