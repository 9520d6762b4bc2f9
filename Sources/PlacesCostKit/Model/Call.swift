/// One API call read from a log: the unit every later stage works on.
///
/// Typed text is kept only as its length in Unicode scalars: that is all the delay strategies
/// need, and it keeps personal data out of every later stage by construction.
package struct Call: Sendable, Hashable {
    package var time: Timestamp
    package var api: API
    /// The session token; `nil` when absent, null or empty.
    package var sessionToken: String?
    /// Characters typed when an autocomplete call was made, in Unicode scalars; `nil` when unrecorded.
    package var inputLength: Int?
    /// The requested fields; `nil` when the call carried no field mask.
    package var fields: [String]?
    package var generation: APIGeneration?
    package var userID: String?
    package var project: String?
    package var platform: String?
    package var status: String?

    package init(
        time: Timestamp, api: API, sessionToken: String? = nil, inputLength: Int? = nil,
        fields: [String]? = nil, generation: APIGeneration? = nil, userID: String? = nil,
        project: String? = nil, platform: String? = nil, status: String? = nil
    ) {
        self.time = time
        self.api = api
        self.sessionToken = sessionToken
        self.inputLength = inputLength
        self.fields = fields
        self.generation = generation
        self.userID = userID
        self.project = project
        self.platform = platform
        self.status = status
    }
}
