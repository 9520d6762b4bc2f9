extension API {
    /// A one-byte code for the known APIs (`other` names are kept apart, in a `LabelCatalog`).
    package var code: UInt8 {
        switch self {
        case .autocomplete: 1
        case .queryAutocomplete: 2
        case .placeDetails: 3
        case .geocoding: 4
        case .findPlace: 5
        case .textSearch: 6
        case .addressValidation: 7
        case .other: 8
        }
    }

    /// The API of `code`, with the name of an `other` API.
    package init(code: UInt8, otherName: @autoclosure () -> String) {
        switch code {
        case 1: self = .autocomplete
        case 2: self = .queryAutocomplete
        case 3: self = .placeDetails
        case 4: self = .geocoding
        case 5: self = .findPlace
        case 6: self = .textSearch
        case 7: self = .addressValidation
        default: self = .other(otherName())
        }
    }

    static let autocompleteCode: UInt8 = 1
    static let placeDetailsCode: UInt8 = 3
    static let geocodingCode: UInt8 = 4
    static let addressValidationCode: UInt8 = 7
    static let otherCode: UInt8 = 8
}

extension APIGeneration {
    /// 0 for none, 1 legacy, 2 new.
    package static func code(_ generation: APIGeneration?) -> UInt8 {
        switch generation {
        case nil: 0
        case .legacy?: 1
        case .new?: 2
        }
    }

    package init?(code: UInt8) {
        switch code {
        case 1: self = .legacy
        case 2: self = .new
        default: return nil
        }
    }
}
