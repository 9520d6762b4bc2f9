/// Renders `searches.csv` (`spec/cli.md`): one row per search, in start order.
///
/// Tokens and user ids are personal or secret: they appear only as the first 16 hex digits of
/// their SHA-256, enough to group rows and join with other exports hashed the same way. Typed
/// text never reaches this stage (a `Call` keeps only its length).
public struct SearchesCSVRenderer: Sendable {
    public static let header = [
        "search_id", "session_token_hash", "user_id_hash", "started_at", "ended_at", "requests",
        "chars_at_selection", "completed", "needs_details", "anomaly", "current_cost_usd",
    ]

    public init() {}

    /// - Parameters:
    ///   - searches: the searches, in report order.
    ///   - listCosts: each search's `current` cost at list prices, in the same order.
    public func render(_ searches: [Search], listCosts: [Double]) -> String {
        var text = CSVText.line(SearchesCSVRenderer.header)
        for (index, search) in searches.enumerated() {
            text += CSVText.line([
                String(index + 1),
                search.sessionToken.map(SearchesCSVRenderer.pseudonym) ?? "",
                search.userID.map(SearchesCSVRenderer.pseudonym) ?? "",
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

    /// The first 16 hex digits of the value's SHA-256.
    static func pseudonym(_ value: String) -> String {
        String(SHA256.hex(value).prefix(16))
    }
}
