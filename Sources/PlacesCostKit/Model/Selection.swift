/// The call that ended a completed search.
package struct Selection: Sendable, Hashable {
    package var api: API
    package var time: Timestamp
    /// The requested fields; `nil` when the call carried no field mask.
    package var fields: [String]?
    package var generation: APIGeneration?

    package init(api: API, time: Timestamp, fields: [String]?, generation: APIGeneration?) {
        self.api = api
        self.time = time
        self.fields = fields
        self.generation = generation
    }
}
