import PlacesCostKit

/// The Sessions stage's result: searches, the calls outside every search, and the anomalies.
struct SessionAnalysis: Sendable {
    /// Every search, ordered by start time (ties by the order of their first call in the input).
    var searches: [Search]
    /// Calls that belong to no search (standalone details, geocoding outside a search, token-less
    /// calls without a user id, other APIs): priced the same in every strategy.
    var baseCalls: [Call]
    var anomalies: Anomalies
    /// The details calls on a fresh token (`details_without_autocomplete`), also in `baseCalls`.
    var detailsWithoutAutocomplete: [Call] = []

    init(searches: [Search] = [], baseCalls: [Call] = [], anomalies: Anomalies = Anomalies()) {
        self.searches = searches
        self.baseCalls = baseCalls
        self.anomalies = anomalies
    }
}
