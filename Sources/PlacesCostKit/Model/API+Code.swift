/// `API` in one byte, for the values the hot path files, walks and counts. An `other` API's
/// name travels beside it as a label id (`CallCatalogs.labels`).
package enum APICode: UInt8, Sendable, Hashable, CaseIterable {
    case autocomplete = 1
    case queryAutocomplete
    case placeDetails
    case geocoding
    case findPlace
    case textSearch
    case addressValidation
    case other

    /// Whether a call of this API carrying a token is walked by its token (`docs/sessions.md`).
    var joinsTokenWalk: Bool { self == .autocomplete || self == .placeDetails || self == .addressValidation }
    /// Whether a call of this API without a token is walked by its user (`docs/sessions.md`).
    var joinsUserWalk: Bool { self == .autocomplete || self == .placeDetails || self == .geocoding }
}

extension API {
    package var code: APICode {
        switch self {
        case .autocomplete: .autocomplete
        case .queryAutocomplete: .queryAutocomplete
        case .placeDetails: .placeDetails
        case .geocoding: .geocoding
        case .findPlace: .findPlace
        case .textSearch: .textSearch
        case .addressValidation: .addressValidation
        case .other: .other
        }
    }

    /// The API of `code`, with the name of an `other` API.
    package init(code: APICode, otherName: @autoclosure () -> String) {
        switch code {
        case .autocomplete: self = .autocomplete
        case .queryAutocomplete: self = .queryAutocomplete
        case .placeDetails: self = .placeDetails
        case .geocoding: self = .geocoding
        case .findPlace: self = .findPlace
        case .textSearch: self = .textSearch
        case .addressValidation: self = .addressValidation
        case .other: self = .other(otherName())
        }
    }
}

extension APIGeneration {
    /// 0 for none, 1 legacy, 2 new: the generation's bits in a packed hash (`SearchTally.ShapeKey.digest`).
    static func code(_ generation: APIGeneration?) -> UInt8 {
        switch generation {
        case nil: 0
        case .legacy?: 1
        case .new?: 2
        }
    }
}
