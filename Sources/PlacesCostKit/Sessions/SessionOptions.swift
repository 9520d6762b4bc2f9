/// The knobs of the session rules where Google publishes no number (`docs/sessions.md`).
package struct SessionOptions: Sendable, Equatable {
    /// A session with no selection this long after its start is expired (`--session-timeout`).
    package var timeout: Duration64
    /// Token-less calls of one user this close together form one inferred search (`--user-gap`).
    package var userGap: Duration64

    package static let defaultTimeoutSeconds = 180.0
    package static let defaultUserGapSeconds = 60.0

    package init(timeoutSeconds: Double = defaultTimeoutSeconds, userGapSeconds: Double = defaultUserGapSeconds) {
        self.timeout = Duration64(seconds: timeoutSeconds)
        self.userGap = Duration64(seconds: userGapSeconds)
    }
}
