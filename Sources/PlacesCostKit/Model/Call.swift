/// One API call read from a log: the unit every later stage works on.
///
/// Typed text is kept only as its length in Unicode scalars: that is all the delay strategies
/// need, and it keeps personal data out of every later stage by construction.
public struct Call: Sendable, Hashable {
    public var time: Timestamp
    public var api: API
    /// The session token; `nil` when absent, null or empty.
    public var sessionToken: String?
    /// Characters typed when an autocomplete call was made, in Unicode scalars; `nil` when unrecorded.
    public var inputLength: Int?
    /// The requested fields; `nil` when the call carried no field mask.
    public var fields: [String]?
    public var generation: APIGeneration?
    public var userID: String?
    public var project: String?
    public var platform: String?
    public var status: String?

    public init(
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
