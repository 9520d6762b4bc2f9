/// The knobs of the session rules where Google publishes no number (`docs/sessions.md`).
public struct SessionOptions: Sendable, Equatable {
    /// A session with no selection this long after its start is expired (`--session-timeout`).
    public var timeout: Duration64
    /// Token-less calls of one user this close together form one inferred search (`--user-gap`).
    public var userGap: Duration64

    public static let defaultTimeoutSeconds = 180.0
    public static let defaultUserGapSeconds = 60.0

    public init(timeoutSeconds: Double = defaultTimeoutSeconds, userGapSeconds: Double = defaultUserGapSeconds) {
        self.timeout = Duration64(seconds: timeoutSeconds)
        self.userGap = Duration64(seconds: userGapSeconds)
    }
}
