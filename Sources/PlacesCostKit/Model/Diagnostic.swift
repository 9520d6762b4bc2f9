/// A recoverable problem found while reading input: reported, counted, and skipped.
package struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    package var location: SourceLocation
    package var reason: String

    package init(location: SourceLocation, reason: String) {
        self.location = location
        self.reason = reason
    }

    /// `FILE:LINE: warning: reason`, the form compilers use, so editors can jump to it.
    package var description: String {
        "\(location): warning: \(printableReason)"
    }

    /// The reason on one line of bounded length: a reason may quote a value from the input (a
    /// timestamp that does not parse), which may hold line breaks, escapes or a megabyte of text.
    /// A reason about a whole file (line 0) quotes no record, only paths, which the system
    /// bounds; it is given whole, so the command it ends with can be copied.
    package var printableReason: String {
        var text = ""
        var length = 0
        let limit = location.line > 0 ? Diagnostic.maxReasonLength : Int.max
        for scalar in reason.unicodeScalars {
            if length >= limit {
                text += "…"
                break
            }
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}" {
                let escaped = scalar.escaped(asASCII: true)
                text += escaped
                length += escaped.unicodeScalars.count
            } else {
                text.unicodeScalars.append(scalar)
                length += 1
            }
        }
        return text
    }

    static let maxReasonLength = 300
}
