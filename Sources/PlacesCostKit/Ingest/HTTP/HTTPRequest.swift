/// One HTTP request seen in a proxy's access log or a HAR capture, before it is known to be a
/// Places call. `PlacesRequestDecoder` turns it into a `Call`.
///
/// Secrets (`key=`, `X-Goog-Api-Key`) may be inside `target` and `headers`: this value must
/// never be printed, logged or stored beyond decoding.
package struct HTTPRequest: Sendable, Equatable {
    package var time: Timestamp
    /// `GET`, `POST`, ...
    package var method: String
    /// The request target: an absolute URL (`https://places.googleapis.com/v1/places:autocomplete`)
    /// or an origin-form path with its query (`/maps/api/place/details/json?place_id=...`).
    package var target: String
    /// Request headers as sent (names compared without regard to case).
    package var headers: [(name: String, value: String)]
    /// The request body as text (HAR `postData.text`); `nil` when the source does not show it.
    package var body: String?
    /// The authenticated user of an access log line (`$remote_user`), or another per-user id.
    package var userID: String?
    /// The HTTP response status, when known.
    package var status: Int?
    /// Whether `time` has whole seconds only (`$time_local`, `$time_iso8601`): identical
    /// requests of one second are then real repeated calls as much as retries, so none is taken
    /// as a duplicate (`Fingerprint.unrepeatable`).
    package var wholeSecondTime = false

    package init(time: Timestamp, method: String, target: String, headers: [(name: String, value: String)] = [],
                body: String? = nil, userID: String? = nil, status: Int? = nil) {
        self.time = time
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.userID = userID
        self.status = status
    }

    package static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.time == rhs.time && lhs.method == rhs.method && lhs.target == rhs.target
            && lhs.headers.map(\.name) == rhs.headers.map(\.name) && lhs.headers.map(\.value) == rhs.headers.map(\.value)
            && lhs.body == rhs.body && lhs.userID == rhs.userID && lhs.status == rhs.status
            && lhs.wholeSecondTime == rhs.wholeSecondTime
    }
}
