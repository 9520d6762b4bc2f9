/// Where a record came from, for diagnostics: `FILE:LINE`.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file as the user named it, or `<stdin>`.
    public var file: String
    /// 1-based physical line number; 0 when the problem concerns the whole file.
    public var line: Int

    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    public var description: String {
        line > 0 ? "\(file):\(line)" : file
    }
}
