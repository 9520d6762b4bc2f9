/// Why a record is malformed, as a sentence fragment for `FILE:LINE: warning:`.
package struct DecodeFailure: Error, Equatable {
    package var reason: String

    package init(reason: String) {
        self.reason = reason
    }
}
