/// Where a record came from, for diagnostics: `FILE:LINE`.
package struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file as the user named it, or `<stdin>`.
    package var file: String
    /// 1-based physical line number; 0 when the problem concerns the whole file.
    package var line: Int

    package init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    package var description: String {
        line > 0 ? "\(file):\(line)" : file
    }
}
