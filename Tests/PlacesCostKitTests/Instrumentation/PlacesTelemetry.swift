// The iOS recipe of docs/instrumentation.md, compiled here against a stand-in for the Places SDK
// for iOS: the code between the markers is the recipe, word for word (InstrumentationRecipeTests
// checks that the document holds it).
import Foundation

// recipe: ios-legacy begin
/// What the wrapper needs of `GMSPlacesClient` (Places SDK for iOS). In the app:
///
///     extension GMSPlacesClient: PlacesCalls {}
///
/// with `Token = GMSAutocompleteSessionToken`, `Filter = GMSAutocompleteFilter`,
/// `Fields = GMSPlaceField`, `Prediction = GMSAutocompletePrediction`, `Place = GMSPlace`.
protocol PlacesCalls {
    associatedtype Token
    associatedtype Filter
    associatedtype Fields
    associatedtype Prediction
    associatedtype Place
    func findAutocompletePredictions(
        fromQuery query: String, filter: Filter?, sessionToken: Token?,
        callback: @escaping ([Prediction]?, (any Error)?) -> Void
    )
    func fetchPlace(
        fromPlaceID placeID: String, placeFields: Fields, sessionToken: Token?,
        callback: @escaping (Place?, (any Error)?) -> Void
    )
}

/// One search: the SDK's token, and a random id of our own that stands for it in the log (the
/// SDK's token is opaque; the id is not sent to Google, so logging it reveals nothing).
struct PlacesSearch<Token> {
    let token: Token
    let id = UUID().uuidString.lowercased()
}

/// Calls the Places SDK and writes one line of PlacesCost's canonical log per call: the API,
/// the session, the length of what was typed (never the text), the fields asked for.
final class LoggedPlaces<Client: PlacesCalls> {
    private let client: Client
    private let fieldNames: (Client.Fields) -> [String]
    private let write: (String) -> Void
    private let platform = "ios"

    /// - Parameters:
    ///   - fieldNames: the names of the fields in a mask (`GMSPlaceField.formattedAddress` is
    ///     `formatted_address`), so the log says what a details call was billed for.
    ///   - write: where a line goes: a file, your analytics pipeline, `os_log`.
    init(_ client: Client, fieldNames: @escaping (Client.Fields) -> [String], write: @escaping (String) -> Void) {
        self.client = client
        self.fieldNames = fieldNames
        self.write = write
    }

    /// Starts a search: call it when the user starts typing, not per keystroke.
    func newSearch(_ token: Client.Token) -> PlacesSearch<Client.Token> {
        PlacesSearch(token: token)
    }

    func autocomplete(
        _ query: String, filter: Client.Filter? = nil, in search: PlacesSearch<Client.Token>,
        callback: @escaping ([Client.Prediction]?, (any Error)?) -> Void
    ) {
        log(["api": "autocomplete", "session_token": search.id, "input_length": query.unicodeScalars.count])
        client.findAutocompletePredictions(fromQuery: query, filter: filter, sessionToken: search.token, callback: callback)
    }

    /// Ends the search: after this call its token is spent; start a new search for the next one.
    func fetchPlace(
        _ placeID: String, fields: Client.Fields, in search: PlacesSearch<Client.Token>,
        callback: @escaping (Client.Place?, (any Error)?) -> Void
    ) {
        log(["api": "place_details", "session_token": search.id, "fields": fieldNames(fields)])
        client.fetchPlace(fromPlaceID: placeID, placeFields: fields, sessionToken: search.token, callback: callback)
    }

    private func log(_ record: [String: Any]) {
        var record = record
        record["timestamp"] = Int64(Date().timeIntervalSince1970 * 1000)  // epoch milliseconds
        record["platform"] = platform
        record["api_version"] = "legacy"
        guard let data = try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]) else { return }
        write(String(decoding: data, as: UTF8.self))
    }
}
// recipe: ios-legacy end
