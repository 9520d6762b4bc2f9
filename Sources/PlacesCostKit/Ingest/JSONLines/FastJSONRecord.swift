/// One JSON Lines record as `FastJSONLineDecoder` read it: the values a `Call` needs, as spans of
/// the line's bytes, for the caller to turn into a `Call` with `CallDecoder`'s rules.
/// `FastCSVRowDecoder` fills it from a CSV row's cells (then `fields` is the cell's text).
package struct FastJSONRecord: Equatable, Sendable {
    /// A record with no values, to be overwritten (`FastJSONLineDecoder.decodeLeadingLine`).
    static let blank = FastJSONRecord(
        time: Timestamp(microseconds: 0), api: ByteSpan(start: 0, count: 0), sessionToken: nil, inputLength: nil, typedText: false,
        fields: nil, apiVersion: nil, userID: nil, project: nil, platform: nil, status: nil
    )

    package var time: Timestamp
    /// The `api` string's content (never empty, no escapes).
    package var api: ByteSpan
    /// `session_token`/`sessionToken` string content; nil when absent or null. May be empty
    /// (count 0) when the value was "" (which means "no token").
    package var sessionToken: ByteSpan?
    /// Unicode scalars in `input`, or `input_length`; nil when both are absent or null.
    package var inputLength: Int32?
    /// Whether the record carries typed text: a non-empty `input` (counted for the notice that
    /// `input_length` suffices; the text itself is never kept).
    package var typedText: Bool
    /// The whole `fields` array text from `[` to `]` inclusive, when the value is an array of plain
    /// strings; nil when absent or null.
    package var fields: ByteSpan?
    /// `api_version`/`apiVersion` string content; nil when absent or null.
    package var apiVersion: ByteSpan?
    /// For user_id/userId, project, platform and status: the string content or, for a JSON number,
    /// the number literal; nil when absent or null. An empty string is a count-0 span, which the
    /// caller treats as absent, as `CallDecoder` does.
    package var userID: ByteSpan?
    package var project: ByteSpan?
    package var platform: ByteSpan?
    /// `Call.status` comes from this key too, so the fast path must return it to build the same
    /// `Call` as the slow one.
    package var status: ByteSpan?
}

extension FastJSONRecord {
    /// The values of a record's known keys as a decoder reads them.
    struct Values {
        var time: Timestamp?
        var api: ByteSpan?
        var sessionToken: ByteSpan?
        var inputLength: Int32?
        var typedText = false
        var fields: ByteSpan?
        var apiVersion: ByteSpan?
        var userID: ByteSpan?
        var project: ByteSpan?
        var platform: ByteSpan?
        var status: ByteSpan?

        /// The record, when it has the two values every call needs.
        @inline(__always)
        var record: FastJSONRecord? {
            guard let time, let api else { return nil }
            return FastJSONRecord(
                time: time, api: api, sessionToken: sessionToken, inputLength: inputLength, typedText: typedText, fields: fields,
                apiVersion: apiVersion, userID: userID, project: project, platform: platform, status: status
            )
        }
    }
}
