/// One access-log line as `FastAccessLogLineDecoder` read it: the request's parts as spans of the
/// line's bytes, and what the request is.
package struct FastAccessLogRecord: Equatable, Sendable {
    package var time: Timestamp
    /// The method and target as written (the fingerprint covers them).
    var method: ByteSpan
    var target: ByteSpan
    /// `$remote_user`, when it is neither empty nor `-`.
    package var user: ByteSpan?
    /// `$status`: three digits, the first not 0; `nil` when the format has none or the line says `-`.
    package var status: ByteSpan?
    /// The Places call the request is; `nil` when it is not one (counted as a skipped request).
    package var call: Places?
    /// Whether `time` has whole seconds only (`HTTPRequest.wholeSecondTime`).
    package var wholeSecondTime: Bool
    /// The host of an absolute target as written (`RequestTarget.host` is it in lowercase);
    /// `nil` for an origin-form target.
    package var host: ByteSpan? = nil

    /// A Places call's properties, as `PlacesRequestDecoder` reads them from the URL.
    package struct Places: Equatable, Sendable {
        /// Never `other`: the fast path leaves `other` APIs to the slow one.
        package var api: APICode
        package var generation: APIGeneration?
        /// A Places API (New) call whose token and input travel in a body the log does not show.
        package var bodyUnknown: Bool
        /// Never empty, and free of `%` and `+`: its bytes are the decoded token's.
        package var sessionToken: ByteSpan?
        /// Unicode scalars of the decoded `input`; `nil` when there is no `input` parameter.
        package var inputLength: Int32?
        /// The field list's value as written, still URL-encoded; `fieldNames(_:)` decodes it.
        package var fields: ByteSpan?
    }

    /// Whether a Places request is not a call (`PlacesRequestDecoder.NotBilled`), for the slow
    /// path to count: an `OPTIONS` method (a CORS preflight) or a redirect's status. Runs for
    /// every call: it allocates nothing and looks further only at a 7-letter method or a 3xx.
    @inline(__always)
    func isNotBilled(in line: UnsafePointer<UInt8>) -> Bool {
        if let status, status.count == 3, line[Int(status.start)] == UInt8(ascii: "3") {
            let value = 300 + (Int(line[Int(status.start) + 1]) - 48) * 10 + Int(line[Int(status.start) + 2]) - 48
            if PlacesRequestDecoder.NotBilled.redirectStatuses.contains(value) { return true }
        }
        guard method.count == 7 else { return false }
        return (0..<7).allSatisfy { line[Int(method.start) + $0] & 0xDF == FastAccessLogRecord.options[$0] }
    }

    /// `OPTIONS`, in capitals.
    private static let options: [UInt8] = Array("OPTIONS".utf8)

    /// `HTTPRequest.fingerprint` of the request the slow path makes of this line, from the
    /// line's bytes: the same words in the same order (the time in decimal, the method, the
    /// target, `\0` for the absent body, the user or `\0`, the status or `\0`); for a time of
    /// whole seconds, `Fingerprint.unrepeatable`.
    package func fingerprint(in line: UnsafeBufferPointer<UInt8>) -> UInt64 {
        fingerprint(in: line) { _ in }
    }

    /// The fingerprint of a request that logs headers: `headers` adds them (name, then value,
    /// sorted by name) between the target and the body, as `HTTPRequest.fingerprint` does.
    @inline(__always)
    func fingerprint(in line: UnsafeBufferPointer<UInt8>, headers: (inout Fingerprint) -> Void) -> UInt64 {
        guard !wholeSecondTime else { return Fingerprint.unrepeatable }
        let raw = UnsafeRawBufferPointer(line)
        func bytes(_ span: ByteSpan) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: raw[Int(span.start) ..< Int(span.start) + Int(span.count)])
        }
        var fingerprint = Fingerprint()
        // `String(time.microseconds)` written into a stack buffer, right-aligned.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var magnitude = time.microseconds.magnitude
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if time.microseconds < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            fingerprint.combine(UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
        fingerprint.combine(bytes(method))
        fingerprint.combine(bytes(target))
        headers(&fingerprint)
        withUnsafeBytes(of: UInt8(0)) { none in
            fingerprint.combine(none)  // no body
            if let user { fingerprint.combine(bytes(user)) } else { fingerprint.combine(none) }
            if let status { fingerprint.combine(bytes(status)) } else { fingerprint.combine(none) }
        }
        return fingerprint.value
    }
}
