/// The API generation of a call: the legacy Places API / SDK, or Places API (New).
package enum APIGeneration: String, Sendable, Hashable, Codable, CaseIterable {
    case legacy
    case new
}
