/// The prose of a command's `--help`: what `HelpFormatter` puts around the usage line and the
/// OPTIONS section it makes from the command's `OptionTable`.
///
/// The prose parts are text as shown, already indented and wrapped by hand (to 100 columns);
/// none of them names the options one by one: those lines come from the table. The arguments are
/// laid out as the options are, in the same column.
struct HelpPage: Sendable {
    /// The first lines: `placescost analyze: read request logs, ...`.
    let intro: String
    /// Prose shown right after the usage line (what `sql` returns, what `generate` writes).
    let description: String?
    /// The ARGUMENTS section: each argument's name (`PATH`) and its help, wrapped as an option's.
    let arguments: [(name: String, help: String)]
    /// Sections after OPTIONS (EXAMPLE, notes), each with its own title.
    let epilogue: String?

    init(intro: String, description: String? = nil, arguments: [(name: String, help: String)] = [], epilogue: String? = nil) {
        self.intro = intro
        self.description = description
        self.arguments = arguments
        self.epilogue = epilogue
    }
}
