/// Why `searches.csv`'s rows could not be read back.
enum SearchRowsError: Error, CustomStringConvertible {
    case unreadable(reason: String)
    case notKept(directory: String, reason: String)

    var description: String {
        switch self {
        case .unreadable(let reason):
            "its rows could not be read back from their temporary file: \(reason)"
        case .notKept(let directory, let reason):
            "its rows could not be kept in a temporary file in \(directory): \(reason); free space there, or set TMPDIR to a directory with room"
        }
    }
}
