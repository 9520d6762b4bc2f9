/// One price list: SKUs with tiers, free caps or a credit, and the session rules of its API
/// generation (`Pricing/*.json`, schema version 1).
struct PriceTable: Sendable, Equatable, Codable {
    static let schemaVersion = 1

    /// Prices a table may hold, in USD per 1000 events (Google's dearest SKU is about 40).
    /// With `CostCalculator.Options.scaleRange` this keeps every cost a finite `Double`.
    static let priceRange: ClosedRange<Double> = 0...100_000
    /// Monthly volumes a table may name (tier bounds, free caps): up to 10^15 events.
    static let volumeRange: ClosedRange<Int> = 0...1_000_000_000_000_000
    /// Monthly credits a table may hold, in USD.
    static let creditRange: ClosedRange<Double> = 0...1_000_000_000
    /// Requests a session may bill before its cap (`essentials_request_cap`).
    static let requestCapRange: ClosedRange<Int> = 0...1_000_000

    var schemaVersion: Int
    var id: String
    var title: String
    var currency: String
    /// First day the prices apply (`YYYY-MM-DD`).
    var effectiveFrom: String
    /// Last day they apply, or `nil` while in force.
    var effectiveTo: String?
    var apiVersion: APIGeneration
    /// A credit against each month's total (legacy 2018 pricing: $200), 0 for none.
    var monthlyCreditUSD: Double
    var notes: [String]
    /// Places API (New) session rules; `nil` for legacy tables.
    var sessionRules: SessionRules?
    var skus: [SKU]

    struct SKU: Sendable, Equatable, Codable {
        /// Google's exact SKU name, as on the bill.
        var name: String
        /// The billable events this SKU bills.
        var roles: [BillingRole]
        /// Events free each month before the first tier is charged (`nil`: all free).
        var freeMonthly: Int?
        /// Graduated tiers on the month's volume, in order; the last has no upper bound.
        var tiers: [Tier]
    }

    struct Tier: Sendable, Equatable, Codable {
        /// The monthly volume where this tier ends (exclusive of the next), `nil` for the last.
        var upTo: Int?
        var usdPer1000: Double
        /// Where the price comes from (`[G]` Google, `[seed]`, `[T]` third-party copies).
        var source: String
        /// Whether the price was confirmed against Google's own page.
        var confirmed: Bool
        var note: String?
        /// Whether Google publishes no price for this band (it quotes by contact with sales) and
        /// the table's price is an estimate (`docs/billing.md`: estimate, and say so).
        var estimate: Bool?

        var isEstimate: Bool { estimate == true }
    }

    struct SessionRules: Sendable, Equatable, Codable {
        /// A session ended by Place Details Essentials bills its first this-many requests.
        var essentialsRequestCap: Int
        /// How the terminating details call of a session ended by Pro or higher is billed.
        var terminatingDetails: TerminatingDetails
    }

    struct TerminatingDetails: Sendable, Equatable, Codable {
        enum Rule: String, Sendable, Codable {
            /// At the SKU of its own field mask.
            case fieldMask = "field_mask"
            /// As Place Details Enterprise + Atmosphere, whatever the field mask.
            case enterpriseAtmosphere = "enterprise_atmosphere"
        }

        var rule: Rule
        /// From this date (`YYYY-MM-DD`) `rule` applies; before it, `before`.
        var effectiveFrom: String
        var before: Rule
        var source: String
        var confirmed: Bool
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case schemaVersion = "schema_version", id, title, currency, effectiveFrom = "effective_from"
        case effectiveTo = "effective_to", apiVersion = "api_version", monthlyCreditUSD = "monthly_credit_usd"
        case notes, sessionRules = "session_rules", skus
    }
}

extension PriceTable.SKU {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, roles, freeMonthly = "free_monthly", tiers
    }
}

extension PriceTable.Tier {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case upTo = "up_to", usdPer1000 = "usd_per_1000", source, confirmed, note, estimate
    }
}

extension PriceTable.SessionRules {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case essentialsRequestCap = "essentials_request_cap", terminatingDetails = "terminating_details"
    }
}

extension PriceTable.TerminatingDetails {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case rule, effectiveFrom = "effective_from", before, source, confirmed
    }
}
