/// Errors the command line reports before or around the pipeline's own errors.
public enum CLIError: Error, Equatable, CustomStringConvertible {
    /// A bad option, value or argument; `usage` is the command's usage line.
    case usage(message: String, usage: String)
    /// The bundled sample logs could not be found next to the tool.
    case sampleLogsNotFound
    /// An output directory or file could not be created or written.
    case cannotCreate(path: String, reason: String)

    public var description: String {
        switch self {
        case .usage(let message, let usage):
            "\(message)\nusage: \(usage)"
        case .sampleLogsNotFound:
            "no input given, and the bundled SampleLogs/ folder was not found in the current directory or beside the executable. Pass a log file, a directory, or - for standard input."
        case .cannotCreate(let path, let reason):
            "cannot write \(path): \(reason). Choose an --out directory you can create and write to."
        }
    }
}

extension ExitCode {
    /// The exit code for an error thrown anywhere in a command.
    public init(for error: Error) {
        switch error {
        case let error as CLIError:
            switch error {
            case .usage: self = .usage
            case .sampleLogsNotFound: self = .noInput
            case .cannotCreate: self = .cannotCreate
            }
        case let error as IngestError:
            switch error {
            case .unreadable, .unreadableBillingExport: self = .noInput
            case .readFailed, .spoolFailed: self = .ioError
            case .malformedRecord, .noRecords, .noCallInPeriod, .noPlacesCall, .unknownFormat, .invalidBillingExport: self = .dataError
            }
        case let error as PseudonymKeyError:
            switch error {
            case .unreadable: self = .noInput
            case .malformed: self = .dataError
            }
        case let error as PricingError:
            switch error {
            case .unknownTable: self = .usage
            case .invalidTable: self = .dataError
            case .unreadable: self = .noInput
            }
        default:
            self = .ioError
        }
    }
}
