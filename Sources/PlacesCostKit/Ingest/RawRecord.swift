/// One record's known keys as read, before any meaning is checked.
///
/// Both the JSON Lines and the CSV parser produce this, so the rules that turn a record into a
/// `Call` (`CallDecoder`) are written once and the two formats cannot drift apart.
package struct RawRecord: Equatable, Sendable {
    /// The keys of `docs/formats.md` section 1, with their aliases folded.
    package enum Key: Int, CaseIterable, Sendable {
        case timestamp, api, sessionToken, input, placeID, fields, apiVersion, userID, project, platform, status
        /// The length of the typed text in code points, logged instead of the text (privacy-first logs).
        case inputLength

        /// The canonical (snake_case) name.
        package var name: String {
            switch self {
            case .timestamp: "timestamp"
            case .api: "api"
            case .sessionToken: "session_token"
            case .input: "input"
            case .placeID: "place_id"
            case .fields: "fields"
            case .apiVersion: "api_version"
            case .userID: "user_id"
            case .project: "project"
            case .platform: "platform"
            case .status: "status"
            case .inputLength: "input_length"
            }
        }

        /// Looks a key up by any spelling logs use: snake_case, or the camelCase aliases.
        package init?(name: String) {
            switch name {
            case "timestamp": self = .timestamp
            case "api": self = .api
            case "session_token", "sessionToken": self = .sessionToken
            case "input": self = .input
            case "place_id", "placeId": self = .placeID
            case "fields": self = .fields
            case "api_version", "apiVersion": self = .apiVersion
            case "user_id", "userId": self = .userID
            case "project": self = .project
            case "platform": self = .platform
            case "status": self = .status
            case "input_length", "inputLength": self = .inputLength
            default: return nil
            }
        }
    }

    /// A value as the input spelled it.
    package indirect enum Value: Equatable, Sendable {
        case null
        case bool(Bool)
        /// A JSON number, kept as its literal text so nothing is lost before the decoder decides.
        case number(String)
        case string(String)
        case array([Value])
        /// A nested object: never a valid value for a known key, so its content is not kept.
        case object

        /// A short name of the value's type, for messages.
        var typeName: String {
            switch self {
            case .null: "null"
            case .bool: "a boolean"
            case .number: "a number"
            case .string: "a string"
            case .array: "an array"
            case .object: "an object"
            }
        }
    }

    /// Whether the record carries typed text: a non-empty `input` string. Only its length is
    /// used; the readers count such records for the notice that `input_length` suffices.
    package var carriesTypedText: Bool {
        if case .string(let text)? = self[.input] { return !text.isEmpty }
        return false
    }

    private var values: [Value?] = Array(repeating: nil, count: Key.allCases.count)

    /// Whether the object had a key of a web server's JSON access log (Caddy, Traefik, nginx
    /// with a JSON `log_format`): a record without `timestamp` or `api` is then named as one.
    /// Only a reason reads it, so it is no part of equality.
    package var hasWebServerKey = false

    /// Keys of web servers' JSON access logs that no call record has.
    package static let webServerKeys: Set<String> = [
        "request", "uri", "request_uri", "request_method", "method", "remote_addr", "remote_ip",
        "http_user_agent", "upstream_addr", "RequestPath", "RequestMethod", "DownstreamStatus", "ClientAddr", "httpRequest",
    ]

    /// Whether this is a web server's access record rather than a call: a web server's key,
    /// and no `timestamp` or no `api` (`JSONAccessRecord` reads it).
    package var isWebServerRecord: Bool {
        hasWebServerKey && (self[.timestamp] == nil || self[.api] == nil)
    }

    package init() {}

    package static func == (lhs: RawRecord, rhs: RawRecord) -> Bool {
        lhs.values == rhs.values
    }

    /// The value of `key`, or `nil` when the record does not have it.
    package subscript(key: Key) -> Value? {
        get { values[key.rawValue] }
        set { values[key.rawValue] = newValue }
    }
}
