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
        byAlias[raw.lowercased()] ?? (.other(otherName(raw)), nil)
    }

    /// The name an unknown `api` value is counted and shown under: the value when it reads as a
    /// name (up to 64 letters, digits, spaces and `_-.:/()`); a URL or path without its query
    /// and fragment, which is where keys, tokens and typed text go (`...autocomplete/json?key=`,
    /// as an exporter that logs the request's URL writes); anything else, one name that quotes
    /// nothing. A report repeats no secret and no character that could break its lines.
    static func otherName(_ raw: String) -> String {
        func isName(_ text: Substring, limit: Int) -> Bool {
            text.unicodeScalars.count <= limit && text.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || " _-.:/()".unicodeScalars.contains($0)
            }
        }
        if isName(raw[...], limit: 64), !API.looksLikeKey(raw) { return raw }
        if raw.contains("://") || raw.hasPrefix("/") {
            let address = raw.prefix { $0 != "?" && $0 != "#" }
            if isName(address, limit: 120) { return address + (address.count < raw.count ? " (its query left out)" : "") }
        }
        return unreadableName
    }

    /// Whether `text` holds what a Google API key looks like (`AIza` and 35 letters, digits, `-`
    /// or `_`): never repeated, whatever field it came in.
    package static func looksLikeKey(_ text: String) -> Bool {
        guard let start = text.range(of: "AIza") else { return false }
        return text[start.upperBound...].prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }.count >= 30
    }

    /// The name of every unknown `api` value that is not a name (`otherName`).
    static let unreadableName = "an api value that is not a name"
}
