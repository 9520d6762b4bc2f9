/// A command's syntax, declared once: its name, its arguments and its options.
///
/// The scanner (`ArgumentScanner`), the usage line, the OPTIONS section of `--help`
/// (`HelpFormatter`) and the completion scripts (`CompletionScriptWriter`) are all made from
/// it, so none of them can name an option another does not. `--help` and `--version` (`-h`,
/// `-V`) are added to every table.
struct OptionTable: Sendable {
    /// What a command takes besides options.
    struct Arguments: Sendable {
        /// As the usage line shows them: `[PATH|-]...`, `list | show ID|FILE`.
        let synopsis: String
        let completion: CommandOption.Completion

        init(_ synopsis: String, completion: CommandOption.Completion = .nothing) {
            self.synopsis = synopsis
            self.completion = completion
        }
    }

    /// The command's name after `placescost` (`analyze`).
    let command: String
    let arguments: Arguments?
    /// Every option, in the order of the usage line and the help, `--help` and `--version` last.
    let options: [CommandOption]
    /// Options of which at most one may be given (`--requests` or `--chars`); the scanner
    /// refuses two, and the usage line shows them as `[--requests R | --chars C]`. The options
    /// of one group are next to each other in the table.
    let alternatives: [[CommandOption]]

    init(command: String, arguments: Arguments? = nil, options: [CommandOption], alternatives: [[CommandOption]] = []) {
        self.command = command
        self.arguments = arguments
        self.options = options + [CommandOption.help, CommandOption.version]
        self.alternatives = alternatives
        for option in self.options {
            precondition(self.options.filter { $0.name == option.name }.count == 1, "--\(option.name) is declared twice for \(command)")
            precondition(option.short == nil || self.options.filter { $0.short == option.short }.count == 1, "-\(option.short!) is declared twice for \(command)")
        }
    }

    func option(named name: String) -> CommandOption? {
        options.first { $0.name == name }
    }

    func option(short: Character) -> CommandOption? {
        options.first { $0.short == short }
    }

    /// The usage line on one line: `placescost analyze [PATH|-]... [--format auto|jsonl|...] ...`
    /// (`HelpFormatter.wrap` fits it to the terminal). `--help` and `--version` are left out, as
    /// every command takes them.
    var usage: String {
        var parts = ["placescost", command]
        if let arguments { parts.append(arguments.synopsis) }
        var shown: Set<String> = []
        for option in options where option != .help && option != .version && !shown.contains(option.name) {
            if let group = alternatives.first(where: { $0.contains(option) }) {
                parts.append("[" + group.map(\.synopsis).joined(separator: " | ") + "]")
                shown.formUnion(group.map(\.name))
            } else if option.required {
                parts.append(option.synopsis)
            } else {
                parts.append("[\(option.synopsis)]" + (option.repeats ? "..." : ""))
            }
            shown.insert(option.name)
        }
        return parts.joined(separator: " ")
    }

    /// What the arguments ask before anything else is read: `--help` or `--version` (or `-h`,
    /// `-V`, also within a group of short flags such as `-qh`), the first given wins. Arguments
    /// after `--` are not options.
    func request(in arguments: [String]) -> CommandOption? {
        for argument in arguments {
            if argument == "--" { return nil }
            if argument == CommandOption.help.longFlag { return .help }
            if argument == CommandOption.version.longFlag { return .version }
            guard argument.hasPrefix("-"), !argument.hasPrefix("--"), argument.count > 1 else { continue }
            let letters = argument.dropFirst()
            let group = letters.map { option(short: $0) }
            guard group.allSatisfy({ $0 != nil && !$0!.takesValue }) else { continue }
            if let asked = group.first(where: { $0 == .help || $0 == .version }) { return asked }
        }
        return nil
    }
}
