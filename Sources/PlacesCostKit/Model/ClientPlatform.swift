/// Where the app makes its Places calls, told from the log's `platform` value and API generation:
/// the next steps name that platform's own session-token and field-mask API.
enum ClientPlatform: String, Sendable, Hashable, CaseIterable {
    /// Places SDK for iOS.
    case ios
    /// Places SDK for Android.
    case android
    /// Maps JavaScript API in a browser.
    case javascript
    /// The HTTP web service (a backend, a proxy, or an app calling it directly).
    case webService = "web_service"

    /// The platform of a log's `platform` value; anything unrecognised (or absent) is the web service.
    init(logValue: String?) {
        switch logValue?.lowercased() {
        case "ios", "iphone", "ipad", "ipados", "macos", "catalyst": self = .ios
        case "android": self = .android
        case "web", "js", "javascript", "browser": self = .javascript
        default: self = .webService
        }
    }
}
