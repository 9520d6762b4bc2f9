import Testing
@testable import PlacesCostKit

/// The one table of API names and aliases (`docs/formats.md`), as every reader applies it.
@Suite("API names")
struct APITests {
    @Test("Names and aliases in any case, with the generation a New-API method name implies", arguments: [
        ("autocomplete", "autocomplete", nil), ("FindAutocompletePredictions", "autocomplete", nil),
        ("AutocompletePlaces", "autocomplete", APIGeneration.new), ("query_autocomplete", "query_autocomplete", nil),
        ("PLACE_DETAILS", "place_details", nil), ("fetchPlace", "place_details", nil), ("GetPlace", "place_details", .new),
        ("geocode", "geocoding", nil), ("Geocoding", "geocoding", nil), ("find_place", "find_place", nil),
        ("text_search", "text_search", nil), ("address_validation", "address_validation", .new),
    ] as [(String, String, APIGeneration?)])
    func known(_ raw: String, _ name: String, _ generation: APIGeneration?) {
        let parsed = API.parse(raw)
        #expect(parsed.api.name == name && !parsed.api.isOther)
        #expect(parsed.generation == generation)
    }

    @Test("Any other name is kept as it was written, as an unknown API")
    func other() {
        for raw in ["search_nearby", "Autocomplete ", "", "place-details", "getPlaces", "Nearby Search (New)", "places:searchText"] {
            #expect(API.parse(raw).api == .other(raw) && API.parse(raw).api.isOther, "\(raw)")
            #expect(API.parse(raw).generation == nil)
        }
        #expect(Set(API.aliases.map(\.name)).count == API.aliases.count)
        #expect(API.aliases.allSatisfy { $0.name == $0.name.lowercased() })
    }
}
