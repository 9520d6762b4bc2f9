/// The `placescost` command line: dispatches to a command and maps errors to exit codes.
public struct CLI {
    /// The one place the version is written: `--version` and the header of `placescost sql`
    /// print it; the golden SQL files are compared with it substituted (`SessionSQLWriterTests`).
    static let version = "0.1.0"

    var arguments: [String]
    var context: CommandContext

    /// - Parameter arguments: the arguments after the program name.
    public init(arguments: [String], context: CommandContext) {
        self.arguments = arguments
        self.context = context
    }

    static let usage = "placescost analyze|simulate|reconcile|pricing|generate|sql ... | placescost --help | placescost --version"

    static let help = """
    placescost: what your Google Places Autocomplete traffic costs, and how to pay less.

    USAGE
      placescost analyze [PATH|-]... [options]   logs -> sessions -> searches -> costs -> advice
      placescost simulate [options]              what-if pricing without logs
      placescost reconcile [PATH]... --billing FILE   the estimate against the real bill, SKU by SKU
      placescost pricing list | pricing show ID  the bundled price tables
      placescost generate --searches N [options] a realistic made-up log, for tests and benchmarks
      placescost sql --dialect bigquery|duckdb   the same analysis as SQL for a warehouse
      placescost --help | --version | COMMAND --help

    COMMANDS
      analyze   Read request logs (canonical JSON Lines or CSV, proxy access logs, HAR captures),
                group the calls into sessions and searches, price every strategy at every delay,
                walk Google's decision tree and write the report (Markdown, CSV, JSON, charts).
                With no PATH it analyzes the bundled SampleLogs/.
      simulate  Price a scenario (searches a month, characters typed, completion rate, fields)
                under every strategy, without logs.
      reconcile Set the estimate for the logs against a Cloud Billing export (console CSV,
                reports-page CSV, BigQuery CSV or JSON Lines) and flag SKUs whose counts differ
                by more than 2%.
      pricing   List the bundled price tables, or show one with its sources.
      generate  Write a deterministic, realistic log of N searches (JSON Lines, CSV or an nginx
                access log) with the usual token anomalies, for tests, benchmarks and simulations.
      sql       Print one SQL statement (BigQuery or DuckDB) that applies the same session rules
                to a warehouse table of calls with window functions and returns the searches,
                anomalies and every strategy's list cost, for logs too big for one machine.

    Run `placescost COMMAND --help` for a command's options.

    """

    /// Runs the command and returns the process exit code; errors go to standard error as one
    /// `placescost: error: ...` line.
    ///
    /// Every command's writes to standard output are checked here once it returns: a failed
    /// write is exit 74 with one line, a closed pipe is exit 74 with none
    /// (`CLIError.standardOutputClosed`). Writes to standard error that fail are not reported:
    /// there is nowhere left to report them.
    public func run() -> ExitCode {
        do {
            let code = try dispatch()
            if let failure = context.standardOutput.failure { throw CLIError.standardOutput(failure: failure) }
            return code
        } catch CLIError.standardOutputClosed {
            return .ioError
        } catch {
            context.writeError("placescost: error: \(error)")
            return ExitCode(for: error)
        }
    }

    private func dispatch() throws -> ExitCode {
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
        case "simulate":
            return try SimulateCommand(arguments: rest, context: context).run()
        case "reconcile":
            return try ReconcileCommand(arguments: rest, context: context).run()
        case "pricing":
            return try PricingCommand(arguments: rest, context: context).run()
        case "generate":
            return try GenerateCommand(arguments: rest, context: context).run()
        case "sql":
            return try SQLCommand(arguments: rest, context: context).run()
        default:
            throw CLIError.usage(message: "unknown command `\(command)`.", usage: CLI.usage)
        }
    }
}
