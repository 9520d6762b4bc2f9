/// The break-even of the decision tree's question 2 (`docs/billing.md` section 2), from a table's prices.
enum BreakEven {
    /// Autocomplete calls per completed search up to which per-request autocomplete plus one
    /// Geocoding call costs no more than a session ending in Place Details with address-only
    /// fields, at first-tier prices.
    ///
    /// Legacy: a session costs Places Details + Basic Data whatever its length, so the break-even
    /// is (Details + Basic - Geocoding) / Request = (17 - 5) / 2.83 = 4.240283 at list prices.
    /// New: an address-only session ends in Place Details Essentials and bills its first 12 calls
    /// as requests, so per-request costs the same up to 12 calls, plus (Essentials - Geocoding) /
    /// Request beyond; when Geocoding costs more than Essentials, per-request never wins (0).
    static func requests(_ table: PriceTable) -> Double {
        func price(_ role: BillingRole) -> Double {
            table.skus.first { $0.roles.contains(role) }?.tiers[0].usdPer1000 ?? 0
        }
        let request = price(.autocompleteRequest)
        guard request > 0 else { return .infinity }
        switch table.apiVersion {
        case .legacy:
            let session = price(.sessionWithDetails) + price(.placeDetails) + price(.dataBasic)
            return max(0, (session - price(.geocoding)) / request)
        case .new:
            let essentials = price(.detailsEssentials)
            let geocoding = price(.geocoding)
            guard geocoding <= essentials else { return 0 }
            return Double(table.sessionRules?.essentialsRequestCap ?? 0) + (essentials - geocoding) / request
        }
    }
}
