@testable import PlacesCostKit

/// The oracle of `SearchesCSVWriter`: `searches.csv` made from whole searches, one `String` a cell,
/// as the report wrote it before its rows were streamed. One row per search, in start order.
///
/// Tokens and user ids are personal or secret: they appear only as keyed pseudonyms
/// (`Pseudonymizer`), enough to group rows and join reports made with the same key. Typed text
/// never reaches this stage (a `Call` keeps only its length).
struct SearchesCSVRenderer: Sendable {
    static let header = SearchesCSVWriter.header

    private let pseudonymizer: Pseudonymizer

    /// - Parameter pseudonymizer: keyed with `PLACESCOST_HASH_KEY` or the user's key.
    init(pseudonymizer: Pseudonymizer) {
        self.pseudonymizer = pseudonymizer
    }

    /// - Parameters:
    ///   - searches: the searches, in report order.
    ///   - listCosts: each search's `current` cost at list prices, in the same order.
    func render(_ searches: [Search], listCosts: [Double]) -> String {
        var text = CSVText.line(SearchesCSVRenderer.header)
        for (index, search) in searches.enumerated() {
            text += CSVText.line([
                String(index + 1),
                search.sessionToken.map(pseudonymizer.pseudonym) ?? "",
                search.userID.map(pseudonymizer.pseudonym) ?? "",
                search.startedAt.rfc3339,
                search.endedAt.rfc3339,
                String(search.requests),
                search.charactersAtSelection.map(String.init) ?? "",
                search.outcome.isCompleted ? "true" : "false",
                DetailsNeed.needsDetails(search).map { $0 ? "true" : "false" } ?? "",
                search.anomalyNames.joined(separator: ";"),
                JSONValue.format(index < listCosts.count ? listCosts[index] : 0),
            ])
        }
        return text
    }
}
