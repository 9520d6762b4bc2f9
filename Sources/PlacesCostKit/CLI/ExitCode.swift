/// The process exit codes of `docs/cli.md` (BSD sysexits).
public enum ExitCode: Int32, Sendable {
    case success = 0
    /// A check the user asked for failed (`compare --fail-if-cost-per-selection-rises` or `-per-search-`).
    case checkFailed = 1
    /// A bad option or argument.
    case usage = 64
    /// Malformed input under `--strict`, or no record readable from any input.
    case dataError = 65
    /// An input file is missing or unreadable.
    case noInput = 66
    /// An output file cannot be created.
    case cannotCreate = 73
    /// Any other I/O error.
    case ioError = 74
}
