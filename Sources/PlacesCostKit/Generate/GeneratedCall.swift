/// One call of generated traffic, in a compact form the log writers turn into bytes.
///
/// Text is held as indexes into `TrafficCatalog` (the query typed, how many of its UTF-8 bytes,
/// a mistyped letter) so that generating 8 M calls allocates nothing per call.
struct GeneratedCall: Sendable {
    enum Kind: UInt8, Sendable {
        case autocomplete, placeDetails, geocoding
    }

    /// Epoch milliseconds.
    var time: Int64
    var kind: Kind
    /// Whether the `api` value is spelled as the iOS SDK method (`findAutocompletePredictions`,
    /// `fetchPlace`), as some apps log it.
    var sdkSpelling = false
    /// The session token as 128 bits (written as a UUID v4); `nil` for no token.
    var token: (UInt64, UInt64)?
    /// Index of the place in `TrafficCatalog.queries`.
    var query: Int32
    /// UTF-8 bytes of the query typed so far (autocomplete only).
    var inputBytes: Int32 = 0
    /// A wrong ASCII letter typed after those bytes (0 = none).
    var typo: UInt8 = 0
    /// Index in `TrafficCatalog.masks` of a details call's field mask; -1 = no mask.
    var mask: Int8 = -1
    /// Index of the user (`u-000123`).
    var user: Int32
    var platform: UInt8
    var zeroResults = false
}
