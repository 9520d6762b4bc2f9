/// Problems that stop reading the input.
public enum IngestError: Error, Equatable, CustomStringConvertible {
    /// An input path does not exist or cannot be opened.
    case unreadable(path: String, reason: String)
    /// A read from an open input failed midway; `path` is empty until the reader of the file
    /// names it (`naming(_:)`).
    case readFailed(path: String, reason: String)
    /// `--strict` met a malformed record.
    case malformedRecord(Diagnostic)
    /// No input yielded a single record.
    case noRecords(inputs: [String])
    /// The format of a file could not be told from its content.
    case unknownFormat(path: String)
    /// The billing export file does not exist or cannot be opened.
    case unreadableBillingExport(path: String, reason: String)
    /// A billing export whose layout or rows could not be read; `reason` is a full sentence.
    case invalidBillingExport(path: String, reason: String)

    /// The error with `path` filled in where the reader did not know it.
    func naming(_ path: String) -> IngestError {
        if case .readFailed("", let reason) = self { return .readFailed(path: path, reason: reason) }
        return self
    }

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read \(path): \(reason). Check the path, or pass - to read standard input."
        case .readFailed(let path, let reason):
            "reading \(path.isEmpty ? "the input" : path) failed part-way: \(reason). Check the disk, or what feeds standard input, and run again."
        case .malformedRecord(let diagnostic):
            "\(diagnostic.location): malformed record: \(diagnostic.printableReason) (--strict stops at the first one; drop --strict to skip and count such records)."
        case .noRecords(let inputs):
            "no record could be read from \(inputs.joined(separator: ", ")). Check that the input is a request log (canonical JSON Lines or CSV, an access log or a HAR capture), or pass --format."
        case .unknownFormat(let path):
            "cannot tell the format of \(path) from its content. Pass --format jsonl, csv, access-log or har."
        case .unreadableBillingExport(let path, let reason):
            "cannot read the billing export \(path): \(reason). Check the --billing path."
        case .invalidBillingExport(let path, let reason):
            "\(path): \(reason)"
        }
    }
}
