/// Which Google endpoint a call went to, normalised from the names and aliases logs use.
package enum API: Sendable, Hashable {
    case autocomplete
    case queryAutocomplete
    case placeDetails
    case geocoding
    case findPlace
    case textSearch
    case addressValidation
    /// A name outside the known list: kept, counted under its own name, priced as unpriced.
    case other(String)

    /// The canonical name used in reports (`input.by_api`).
    package var name: String {
        switch self {
        case .autocomplete: "autocomplete"
        case .queryAutocomplete: "query_autocomplete"
        case .placeDetails: "place_details"
        case .geocoding: "geocoding"
        case .findPlace: "find_place"
        case .textSearch: "text_search"
        case .addressValidation: "address_validation"
        case .other(let name): name
        }
    }

    /// Whether this is a name outside the known list (`APICode.other`).
    package var isOther: Bool {
        if case .other = self { return true }
        return false
    }

    /// Whether the call ends a session in the token walk (`docs/sessions.md` rule 3).
    package var terminatesSession: Bool {
        self == .placeDetails || self == .addressValidation
    }

    /// Every name and alias of `docs/formats.md` a log's `api` value may take, lowercased, with
    /// the API it names and the generation a New-API method name implies. The one table: the
    /// readers (`parse`) and the warehouse SQL (`SessionSQLWriter.apiNames`) both take it from here.
    package static let aliases: [(name: String, api: API, generation: APIGeneration?)] = [
        ("autocomplete", .autocomplete, nil), ("findautocompletepredictions", .autocomplete, nil),
        ("autocompleteplaces", .autocomplete, .new), ("query_autocomplete", .queryAutocomplete, nil),
        ("place_details", .placeDetails, nil), ("fetchplace", .placeDetails, nil), ("getplace", .placeDetails, .new),
        ("geocoding", .geocoding, nil), ("geocode", .geocoding, nil), ("find_place", .findPlace, nil),
        ("text_search", .textSearch, nil), ("address_validation", .addressValidation, .new),
    ]

    private static let byAlias: [String: (api: API, generation: APIGeneration?)] = Dictionary(
        uniqueKeysWithValues: aliases.map { ($0.name, ($0.api, $0.generation)) }
    )

    /// Parses a log's `api` value, case-insensitively, with the aliases of `docs/formats.md`.
    ///
    /// - Returns: the API and, for New-API method names, the generation the name implies.
    package static func parse(_ raw: String) -> (api: API, generation: APIGeneration?) {
        byAlias[raw.lowercased()] ?? (.other(raw), nil)
    }
}
