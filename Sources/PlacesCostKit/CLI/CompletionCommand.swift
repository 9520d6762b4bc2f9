/// `placescost completion bash|zsh|fish`: a shell completion script, made from the option tables.
struct CompletionCommand {
    static let table = OptionTable(
        command: "completion",
        arguments: .init(
            CompletionScriptWriter.Shell.allCases.map(\.rawValue).joined(separator: "|"),
            completion: .words(CompletionScriptWriter.Shell.allCases.map(\.rawValue))
        ),
        options: []
    )

    static let usage = table.usage

    static let help = HelpPage(
        intro: """
        placescost completion: print a script that completes placescost's commands, options, their
        values and file names in your shell.
        """,
        arguments: [
            ("bash", "Load it with `source <(placescost completion bash)` in ~/.bashrc."),
            ("zsh", "Load it with `source <(placescost completion zsh)` in ~/.zshrc (after compinit), or save it as _placescost in a folder of $fpath."),
            ("fish", "Save it as ~/.config/fish/completions/placescost.fish, or load it with `placescost completion fish | source`."),
        ]
    )

    let arguments: [String]
    let context: CommandContext

    func run() throws -> ExitCode {
        let parsed = try ArgumentScanner(CompletionCommand.table).scan(arguments)
        let names = CompletionScriptWriter.Shell.allCases.map(\.rawValue)
        guard parsed.positionals.count == 1 else {
            throw CLIError.usage(message: "completion takes one shell: \(CommandOption.listed(names)).", usage: CompletionCommand.usage)
        }
        let name = parsed.positionals[0]
        guard let shell = CompletionScriptWriter.Shell(rawValue: name) else {
            let meant = NameSuggester.nearest(to: name, among: names).map { " Did you mean \($0)?" } ?? ""
            throw CLIError.usage(message: "completion takes \(CommandOption.listed(names)), not `\(name)`.\(meant)", usage: CompletionCommand.usage)
        }
        context.standardOutput.write(CompletionScriptWriter(commands: CLI.commands).script(for: shell))
        return .success
    }
}
