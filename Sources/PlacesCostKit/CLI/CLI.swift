/// The `placescost` command line: dispatches to a command and maps errors to exit codes.
public struct CLI {
    public static let version = "0.1.0"

    public var arguments: [String]
    public var context: CommandContext

    /// - Parameter arguments: the arguments after the program name.
    public init(arguments: [String], context: CommandContext) {
        self.arguments = arguments
        self.context = context
    }

    static let usage = "placescost analyze [PATH|-]... [options] | placescost --help | placescost --version"

    static let help = """
    placescost: what your Google Places Autocomplete traffic costs, and how to pay less.

    USAGE
      placescost analyze [PATH|-]... [options]   read request logs, group them into sessions and searches
      placescost --help | --version | COMMAND --help

    COMMANDS
      analyze   Read canonical request logs (JSON Lines or CSV), group the calls into sessions
                and searches, and report requests per search and token mistakes. With no PATH
                it analyzes the bundled SampleLogs/.

    Run `placescost analyze --help` for its options.

    """

    /// Runs the command and returns the process exit code; errors go to standard error as one
    /// `placescost: error: ...` line.
    public func run() -> ExitCode {
        do {
            guard let command = arguments.first else {
                context.standardOutput.write(CLI.help)
                return .success
            }
            let rest = Array(arguments.dropFirst())
            switch command {
            case "--help", "-h", "help":
                context.standardOutput.write(CLI.help)
                return .success
            case "--version":
                context.standardOutput.write("placescost \(CLI.version)\n")
                return .success
            case "analyze":
                return try AnalyzeCommand(arguments: rest, context: context).run()
            default:
                throw CLIError.usage(message: "unknown command `\(command)`.", usage: CLI.usage)
            }
        } catch {
            context.standardError.write("placescost: error: \(error)\n")
            return ExitCode(for: error)
        }
    }
}
