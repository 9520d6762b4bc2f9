/// One file of a report directory: its path inside the directory and how its bytes come, as
/// text rendered when the file is written, or streamed through a writer in chunks
/// (`searches.csv`, never held whole).
struct ReportFile: Sendable {
    enum Contents: Sendable {
        case text(@Sendable () -> String)
        /// Calls the given function with each chunk, in order; it throws when a write fails.
        case stream(@Sendable (_ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Void)
        /// A file begun before it was started (`searches.csv` written during the walk): it is opened
        /// as it is, and the function calls `resume` once with the offset it goes on from, then
        /// `write` with each chunk; the file ends where the last chunk does.
        case resumed(@Sendable (_ resume: (_ offset: Int) throws -> Void, _ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Void)
    }

    var path: String
    var contents: Contents

    init(path: String, text: String) {
        self.path = path
        self.contents = .text { text }
    }

    init(path: String, render: @escaping @Sendable () -> String) {
        self.path = path
        self.contents = .text(render)
    }

    init(path: String, contents: Contents) {
        self.path = path
        self.contents = contents
    }

    init(path: String, stream: @escaping @Sendable ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) {
        self.path = path
        self.contents = .stream(stream)
    }
}
