/// Events of one SKU.
struct SKUCount: Sendable, Equatable {
    var sku: String
    var count: Int
    /// True for calls no bundled SKU bills (Find Place, Text Search, Address Validation, unknown
    /// APIs): counted, never priced at zero silently.
    var unpriced: Bool

    init(sku: String, count: Int, unpriced: Bool = false) {
        self.sku = sku
        self.count = count
        self.unpriced = unpriced
    }
}
