/// The call as the walks read it: 56 bytes with no tail, so keep `fingerprint` the last field.
extension SessionStream {
    /// A call after interning, as the walks read it.
    struct Event: Reorderable {
        var time: Int64
        var sequence: Int64
        /// Token or user id in this stream's tables.
        var key: UInt32
        /// The user's id for a call grouped by token, when searches are kept; `UInt32.max` for none.
        var user: UInt32
        var project: UInt32
        var platform: UInt32
        var fields: UInt32
        /// The label id of an `other` API's name; 0 for the known APIs.
        var otherAPI: UInt32
        var inputLength: Int32
        var api: APICode
        var generation: APIGeneration?
        /// For a `base` call: whether it carried a token.
        var byToken: Bool
        /// A call outside every search (no key): walked only to be checked for duplicates and counted.
        var base: Bool
        /// Last, after the one-byte fields fill the word before it: 56 bytes with no tail. With
        /// `base` after it (57 bytes) the compiler copied a released call with overlapping
        /// 16-byte moves, whose reload missed store forwarding (an eighth of `accept`'s samples).
        var fingerprint: UInt64

        var isAutocomplete: Bool { api == .autocomplete }
    }
}
