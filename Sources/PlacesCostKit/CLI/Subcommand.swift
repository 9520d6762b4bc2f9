/// One command of `placescost` (`analyze`, `sql`, ...): its option table, its help and how it
/// runs, as `CLI` dispatches to it and `completion` describes it.
struct Subcommand: Sendable {
    let table: OptionTable
    /// One line for the shell's list of commands (zsh, fish).
    let summary: String
    let help: HelpPage
    /// Runs the command with the arguments after its name.
    let run: @Sendable (_ arguments: [String], _ context: CommandContext) throws -> ExitCode

    var name: String { table.command }
}
