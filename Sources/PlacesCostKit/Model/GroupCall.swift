/// A call as ingest hands it to the Sessions stage: fixed size, with strings as catalog ids or
/// as bytes in its block's arena. Most take part in a token walk or a user walk; a call outside
/// every search (`base`) travels too, only to be checked for duplicates in time order.
///
/// Every call, walked or not, reaches a walk: it is counted there, once, after the duplicate
/// check (`SessionStream.count`).
struct GroupCall: Sendable {
    var time: Int64
    /// Input order: the block's index in the high half, the call's index in the block below.
    var sequence: Int64
    /// `ByteInterner.hash` of the key's bytes (the partition was chosen by it; the walk's cache
    /// of recent keys reuses it).
    var keyHash: UInt64
    /// `Fingerprint` of the record's content: with `time`, what tells an exact duplicate. With the
    /// other words before the 32-bit fields, the call is 72 bytes with no padding.
    var fingerprint: UInt64
    /// The token's bytes (grouped by token) or the user id's (grouped by user) in the arena.
    var keyStart: Int32
    var keyCount: Int32
    /// The user id's bytes for a call grouped by token; `userCount` -1 when there is none.
    var userStart: Int32
    var userCount: Int32
    /// Ids in `CallCatalogs.labels`; 0 for none.
    var project: UInt32
    var platform: UInt32
    /// The label id of an `other` API's name; 0 for the known APIs.
    var otherAPI: UInt32
    /// Id in `CallCatalogs.fieldMasks`; 0 for no mask.
    var fields: UInt32
    /// Characters typed; -1 when not recorded.
    var inputLength: Int32
    var api: APICode
    var generation: APIGeneration?
    /// Grouped by (project, token); otherwise by (project, user). For a `base` call: whether it
    /// carried a token.
    var byToken: Bool
    /// A call outside every search: no key, walked only to be checked for duplicates and counted.
    var base: Bool
}
