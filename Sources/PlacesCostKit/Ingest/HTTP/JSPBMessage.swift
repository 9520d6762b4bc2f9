import Foundation

/// A request body of the Maps JavaScript API's Places library (New): a protobuf message written
/// as JSON+protobuf (`application/json+protobuf`), an array with field n at index n - 1 (`null`
/// for unset fields in between, trailing ones left out), sub-messages as nested arrays, and
/// fields past the array's end, when there are any, in a trailing object keyed by number
/// (`["pizza",null,...,{"11":"token"}]`). A body that is a JSON object instead is read by the
/// field's JSON name, as the REST API takes it.
///
/// `AutocompletePlacesRequest`: 1 `input`, 11 `session_token`. `GetPlaceRequest`: 1 `name`
/// (`places/PLACE_ID`), 4 `session_token`. `SearchTextRequest`: 1 `text_query`. The numbers are
/// those of `google/maps/places/v1/places_service.proto` (`docs/formats.md` section 3a).
struct JSPBMessage {
    private let positional: [Any]
    private let named: [String: Any]

    /// `nil` when the text is neither a JSON array nor a JSON object.
    init?(_ text: String) {
        guard let data = text.data(using: .utf8),
              let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        else { return nil }
        if let array = value as? [Any] {
            positional = array
            named = (array.last as? [String: Any]) ?? [:]
        } else if let object = value as? [String: Any] {
            positional = []
            named = object
        } else {
            return nil
        }
    }

    /// The string of field `number` (`jsonName` when the body is a JSON object); `nil` when it
    /// is unset or not a string.
    func string(_ number: Int, jsonName: String) -> String? {
        if positional.isEmpty { return named[jsonName] as? String }
        if number - 1 < positional.count, let value = positional[number - 1] as? String { return value }
        return named[String(number)] as? String
    }
}
