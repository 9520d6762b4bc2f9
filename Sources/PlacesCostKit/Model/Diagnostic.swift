/// A recoverable problem found while reading input: reported, counted, and skipped.
public struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    public var location: SourceLocation
    public var reason: String

    public init(location: SourceLocation, reason: String) {
        self.location = location
        self.reason = reason
    }

    /// `FILE:LINE: warning: reason`, the form compilers use, so editors can jump to it.
    public var description: String {
        "\(location): warning: \(reason)"
    }
}
