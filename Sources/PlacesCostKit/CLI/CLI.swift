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

    /// Every command, in the order of the help; the completion scripts are made from this list.
    static let commands: [Subcommand] = [
        Subcommand(table: AnalyzeCommand.table, summary: "logs -> sessions -> searches -> costs -> advice", help: AnalyzeCommand.help) {
            try AnalyzeCommand(arguments: $0, context: $1).run()
        },
        Subcommand(table: SimulateCommand.table, summary: "what-if pricing without logs", help: SimulateCommand.help) {
            try SimulateCommand(arguments: $0, context: $1).run()
        },
        Subcommand(table: ReconcileCommand.table, summary: "the estimate against the real bill, SKU by SKU", help: ReconcileCommand.help) {
            try ReconcileCommand(arguments: $0, context: $1).run()
        },
        Subcommand(table: CompareCommand.table, summary: "what changed between two periods or builds, per search", help: CompareCommand.help) {
            try CompareCommand(arguments: $0, context: $1).run()
        },
        Subcommand(table: PricingCommand.table, summary: "the bundled price tables", help: PricingCommand.help) {
            try PricingCommand(arguments: $0, context: $1).run()
        },
        Subcommand(table: GenerateCommand.table, summary: "a realistic made-up log, for tests and benchmarks", help: GenerateCommand.help) {
            try GenerateCommand(arguments: $0, context: $1).run()
        },
        Subcommand(table: SQLCommand.table, summary: "the same analysis as SQL for a warehouse", help: SQLCommand.help) {
            try SQLCommand(arguments: $0, context: $1).run()
        },
        Subcommand(table: CompletionCommand.table, summary: "a completion script for bash, zsh or fish", help: CompletionCommand.help) {
            try CompletionCommand(arguments: $0, context: $1).run()
        },
    ]

    static let usage = "placescost \(commands.map(\.name).joined(separator: "|")) ... | placescost --help | placescost --version"

    static let help = """
    placescost: what your Google Places Autocomplete traffic costs, and how to pay less.

    USAGE
      placescost analyze [PATH|-]... [options]   logs -> sessions -> searches -> costs -> advice
      placescost simulate [options]              what-if pricing without logs
      placescost reconcile [PATH]... --billing FILE   the estimate against the real bill, SKU by SKU
      placescost compare BEFORE AFTER [options]  what changed between two periods or builds
      placescost pricing list | pricing show ID  the bundled price tables
      placescost generate --searches N [options] a realistic made-up log, for tests and benchmarks
      placescost sql --dialect bigquery|duckdb   the same analysis as SQL for a warehouse
      placescost completion bash|zsh|fish        a completion script for your shell
      placescost --help | --version | COMMAND --help | help COMMAND

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
      compare   Compare two periods or two builds of the app (each a log, a directory of logs or
                a report.json): the bill, the cost per 1,000 selections and searches, requests
                per search, completion, each anomaly, the advice, and the saving per selection.
      pricing   List the bundled price tables, or show one with its sources.
      generate  Write a deterministic, realistic log of N user actions (JSON Lines, CSV, an nginx
                access log or a HAR capture) with the usual token anomalies, for tests, benchmarks
                and simulations.
      sql       Print one SQL statement (BigQuery or DuckDB) that applies the same session rules
                to a warehouse table of calls with window functions and returns the searches,
                anomalies and every strategy's list cost, for logs too big for one machine.
      completion
                Print a completion script for bash, zsh or fish: commands, options, their values
                and file names complete with Tab (`source <(placescost completion bash)`).

    Run `placescost COMMAND --help` for a command's options. The common ones have a short form:
    -o (--out), -j (--json), -q (--quiet), -f (--format), -p (--pricing), -h (--help),
    -V (--version).

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
        } catch CLIError.usage(let message, let usage) {
            // The usage line fitted to the terminal: it runs to hundreds of characters.
            let line = HelpFormatter(width: context.terminalWidth).usage(usage, prefix: "usage: ")
            context.standardError.write("placescost: error: \(CommandContext.printable(message))\n\(line)\n")
            return .usage
        } catch {
            // One line even on a terminal (the terminal folds it): scripts and people copying a
            // path from it take the line whole.
            context.standardError.write("placescost: error: \(CommandContext.printable("\(error)"))\n")
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
        case "--help", "-h":
            context.standardOutput.write(CLI.help)
            return .success
        case "help":
            // `placescost help analyze` is `placescost analyze --help`.
            guard let name = rest.first, name != "help" else {
                context.standardOutput.write(CLI.help)
                return .success
            }
            return try dispatch(name, [CommandOption.help.longFlag])
        case "--version", "-V":
            context.standardOutput.write(CLI.versionLine)
            return .success
        default:
            return try dispatch(command, rest)
        }
    }

    /// Runs the command `name` with `arguments`, or answers its `--help` or `--version`.
    private func dispatch(_ name: String, _ arguments: [String]) throws -> ExitCode {
        guard let command = CLI.commands.first(where: { $0.name == name }) else {
            throw CLIError.usage(message: CLI.unknownCommand(name), usage: CLI.usage)
        }
        switch command.table.request(in: arguments) {
        case CommandOption.help?:
            context.standardOutput.write(HelpFormatter(width: context.terminalWidth).page(command.help, table: command.table))
            return .success
        case CommandOption.version?:
            context.standardOutput.write(CLI.versionLine)
            return .success
        default:
            do {
                return try command.run(arguments, context)
            } catch let error as PricingError where ExitCode(for: error) == .usage {
                // `--pricing` naming no table is a bad option: answered with the usage line, as any.
                throw CLIError.usage(message: error.description, usage: command.table.usage)
            }
        }
    }

    static var versionLine: String { "placescost \(version)\n" }

    /// The message for a first argument that is no command, with the one likely meant.
    static func unknownCommand(_ name: String) -> String {
        guard name.hasPrefix("-") else {
            let meant = NameSuggester.nearest(to: name, among: commands.map(\.name) + ["help"])
            return "unknown command `\(name)`." + (meant.map { " Did you mean `\($0)`?" } ?? "")
        }
        let long = name.hasPrefix("--") ? String(name.dropFirst(2).prefix { $0 != "=" }) : nil
        if let long, let meant = NameSuggester.nearest(to: long, among: [CommandOption.help.name, CommandOption.version.name]) {
            return "unknown option \(name). Did you mean --\(meant)?"
        }
        // `placescost --json analyze`: a command's option before the command.
        if let long, let command = commands.first(where: { $0.table.option(named: long) != nil }) {
            return "unknown option \(name): options go after the command (placescost \(command.name) \(name))."
        }
        return "unknown option \(name): give a command first."
    }
}
