#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Errors the command line reports before or around the pipeline's own errors.
enum CLIError: Error, Equatable, CustomStringConvertible {
    /// A bad option, value or argument; `usage` is the command's usage line.
    case usage(message: String, usage: String)
    /// The bundled sample logs could not be found next to the tool.
    case sampleLogsNotFound
    /// An output directory or file could not be created or written.
    case cannotCreate(path: String, reason: String)
    /// The file `generate --out FILE` names could not be created.
    case cannotCreateFile(path: String, reason: String)
    /// A file was opened but a write to it failed part-way (a full disk, an I/O error).
    case cannotWrite(path: String, reason: String)
    /// A file of an `--out` report failed to write (a full disk, a file size limit): nothing of
    /// the report was replaced.
    case cannotWriteReport(path: String, reason: String)
    /// A write to standard output failed (a full disk, an I/O error, a closed descriptor).
    case cannotWriteStandardOutput(reason: String)
    /// The reader of standard output closed it (`placescost ... | head`).
    ///
    /// The reader has seen all it wanted, so the run stops at once and says nothing (`CLI.run()`
    /// prints no line for this case), but it still exits 74: the output was not all delivered,
    /// and a script must not mistake a cut-off report for a whole one.
    case standardOutputClosed

    /// The error for a failed write to standard output with `errno` `code`.
    static func standardOutput(failure code: Int32) -> CLIError {
        code == EPIPE ? .standardOutputClosed : .cannotWriteStandardOutput(reason: String(cString: strerror(code)))
    }

    var description: String {
        switch self {
        case .usage(let message, let usage):
            "\(message)\nusage: \(usage)"
        case .sampleLogsNotFound:
            "no input given, and the bundled SampleLogs/ folder was not found in the current directory or beside the executable. Pass a log file, a directory, or - for standard input."
        case .cannotCreate(let path, let reason):
            "cannot write \(path): \(reason). Choose an --out directory you can create and write to."
        case .cannotCreateFile(let path, let reason):
            "cannot write \(path): \(reason). Choose an --out file in a folder you can write to."
        case .cannotWrite(let path, let reason):
            "cannot write \(path): \(reason)."
        case .cannotWriteReport(let path, let reason):
            "cannot write \(path): \(reason). No file of the report was replaced: the --out folder is as it was before the run."
        case .cannotWriteStandardOutput(let reason):
            "cannot write standard output: \(reason)."
        case .standardOutputClosed:
            "standard output was closed by its reader before the output was complete."
        }
    }
}

extension ExitCode {
    /// The exit code for an error thrown anywhere in a command.
    init(for error: Error) {
        switch error {
        case let error as CLIError:
            switch error {
            case .usage: self = .usage
            case .sampleLogsNotFound: self = .noInput
            case .cannotCreate, .cannotCreateFile: self = .cannotCreate
            case .cannotWrite, .cannotWriteReport, .cannotWriteStandardOutput, .standardOutputClosed: self = .ioError
            }
        case let error as IngestError:
            switch error {
            case .unreadable, .device, .notPermitted, .unreadableBillingExport, .compressedWithoutZLib, .compressedUnread: self = .noInput
            case .readFailed, .cutWhileRead, .readTwiceWithoutCopy: self = .ioError
            case .malformedRecord, .noRecords, .noCallInPeriod, .noPlacesCall, .utf16, .unknownFormat, .invalidBillingExport: self = .dataError
            }
        case let error as CompareError:
            switch error {
            case .notAReport, .invalidReport, .noSearches: self = .dataError
            case .costRose: self = .checkFailed
            }
        case let error as ForecastError:
            switch error {
            case .scenarioUnreadable, .scenarioPricing(_, _, .unreadable): self = .noInput
            default: self = .dataError
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
