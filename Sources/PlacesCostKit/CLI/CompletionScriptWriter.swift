/// Writes the shell completion scripts of `placescost completion bash|zsh|fish` from the
/// commands' option tables: the commands, each command's options (long and short), the values
/// of options that take one of fixed words, file and directory names where a value or an
/// argument is one.
///
/// The scripts hold no rule of their own: an option added to a table is completed as soon as the
/// script is made again.
struct CompletionScriptWriter {
    enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    let commands: [Subcommand]

    func script(for shell: Shell) -> String {
        switch shell {
        case .bash: bash()
        case .zsh: zsh()
        case .fish: fish()
        }
    }

    /// The options and commands of `placescost` itself, before a command.
    private var topLevel: [CommandOption] { [.help, .version] }

    /// An option's help cut to its first sentence, on one line, for the shells that show one.
    /// A sentence ends at a full stop before a capital letter (`e.g. --route` goes on).
    static func summary(_ help: String) -> String {
        let line = help.split(whereSeparator: \.isNewline).joined(separator: " ")
        var end = line.endIndex
        var search = line.startIndex
        while let stop = line.range(of: ". ", range: search..<line.endIndex) {
            if stop.upperBound < line.endIndex, line[stop.upperBound].isUppercase {
                end = stop.lowerBound
                break
            }
            search = stop.upperBound
        }
        var sentence = String(line[..<end])
        if sentence.hasSuffix(".") { sentence.removeLast() }
        return sentence
    }

    // MARK: bash

    private func bash() -> String {
        var lines = [
            "# bash completion for placescost, made by `placescost completion bash` from its option tables.",
            "# Load it with: source <(placescost completion bash)",
            "",
            "_placescost_files() {",
            "    local IFS=$'\\n'",
            "    COMPREPLY+=($(compgen \"$@\"))",
            "}",
            "",
            "_placescost() {",
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}",
            "    COMPREPLY=()",
            "    # --format=csv: bash cuts the word at =, so the option is the word before it.",
            "    if [[ $cur == = ]]; then",
            "        cur=",
            "    elif [[ $prev == = ]]; then",
            "        prev=${COMP_WORDS[COMP_CWORD-2]}",
            "    fi",
            "    if (( COMP_CWORD == 1 )); then",
            "        COMPREPLY=($(compgen -W \(bashWords(commands.map(\.name) + ["help"] + topLevel.flatMap(flags))) -- \"$cur\"))",
            "        return",
            "    fi",
            "    case ${COMP_WORDS[1]} in",
        ]
        for command in commands {
            lines.append("    \(command.name))")
            let valued = command.table.options.filter(\.takesValue)
            if !valued.isEmpty {
                lines.append("        case $prev in")
                for option in valued where option.completion != .nothing {
                    lines.append("        \(flags(option).joined(separator: "|"))) \(bashCompletion(option.completion)) return ;;")
                }
                // A value to type (a number, a date): nothing to offer.
                let typed = valued.filter { $0.completion == .nothing }.flatMap(flags)
                if !typed.isEmpty { lines.append("        \(typed.joined(separator: "|"))) return ;;") }
                lines.append("        esac")
            }
            let options = bashWords(command.table.options.flatMap(flags))
            if let arguments = command.table.arguments {
                lines.append("        if [[ $cur == -* ]]; then")
                lines.append("            COMPREPLY=($(compgen -W \(options) -- \"$cur\"))")
                lines.append("        else")
                lines.append("            \(bashCompletion(arguments.completion))")
                lines.append("        fi")
            } else {
                lines.append("        COMPREPLY=($(compgen -W \(options) -- \"$cur\"))")
            }
            lines.append("        ;;")
        }
        lines += [
            "    help)",
            "        COMPREPLY=($(compgen -W \(bashWords(commands.map(\.name))) -- \"$cur\"))",
            "        ;;",
            "    esac",
            "}",
            "",
            "complete -o filenames -F _placescost placescost",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `--out` and `-o`.
    private func flags(_ option: CommandOption) -> [String] {
        [option.longFlag] + (option.shortFlag.map { [$0] } ?? [])
    }

    /// A word list for `compgen -W`, quoted. The words are option names and values from the
    /// tables: letters, digits, `-` and `.`, nothing the shell would read.
    private func bashWords(_ words: [String]) -> String {
        "'" + words.joined(separator: " ") + "'"
    }

    /// The statement that fills COMPREPLY for a value or an argument.
    private func bashCompletion(_ completion: CommandOption.Completion) -> String {
        switch completion {
        case .nothing: ":;"
        case .files: "_placescost_files -f -- \"$cur\";"
        case .directories: "_placescost_files -d -- \"$cur\";"
        case .words(let words): "COMPREPLY=($(compgen -W \(bashWords(words)) -- \"$cur\"));"
        case .wordsOrFiles(let words): "COMPREPLY=($(compgen -W \(bashWords(words)) -- \"$cur\")); _placescost_files -f -- \"$cur\";"
        }
    }

    // MARK: zsh

    private func zsh() -> String {
        var lines = [
            "#compdef placescost",
            "# zsh completion for placescost, made by `placescost completion zsh` from its option tables.",
            "# Load it with: source <(placescost completion zsh), or save it as _placescost in a folder of $fpath.",
            "",
            "_placescost_tables() {",
            "    _alternative \(zshQuoted("tables:price table:(" + BundledPriceTables.files.map(\.id).joined(separator: " ") + ")")) 'files:price table file:_files'",
            "}",
            "",
            "_placescost() {",
            "    local curcontext=$curcontext state line",
            "    local -a commands",
            "    commands=(",
        ]
        for command in commands {
            lines.append("        " + zshQuoted(command.name + ":" + zshEscaped(command.summary, colons: true)))
        }
        lines += [
            "    )",
            "    _arguments -C \\",
        ]
        lines += topLevel.flatMap { zshSpecs($0) }.map { "        \($0) \\" }
        lines += [
            "        '1: :->command' \\",
            "        '*:: :->argument'",
            "    case $state in",
            "    (command)",
            "        _describe -t commands 'placescost command' commands",
            "        ;;",
            "    (argument)",
            "        case $words[1] in",
        ]
        for command in commands {
            lines.append("        (\(command.name))")
            lines.append("            _arguments -s -S \\")
            var specs = command.table.options.flatMap { zshSpecs($0, in: command.table) }
            if let arguments = command.table.arguments {
                let message = zshEscaped(arguments.synopsis, colons: true)
                switch arguments.completion {
                case .words, .nothing: specs.append(zshQuoted("1:\(message):" + zshAction(arguments.completion)))
                default: specs.append(zshQuoted("*:\(message):" + zshAction(arguments.completion)))
                }
            }
            lines += specs.enumerated().map { index, spec in "                \(spec)" + (index == specs.count - 1 ? "" : " \\") }
            lines.append("            ;;")
        }
        lines += [
            "        (help)",
            "            _describe -t commands 'placescost command' commands",
            "            ;;",
            "        esac",
            "        ;;",
            "    esac",
            "}",
            "",
            "if [[ $funcstack[1] == _placescost ]]; then",
            "    _placescost \"$@\"",
            "else",
            "    compdef _placescost placescost",
            "fi",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `_arguments` specs of an option: one for its long name, one for its short name, each
    /// excluding the other and the options of its group of alternatives (a repeated option
    /// excludes nothing); `--help` and `--version` exclude everything.
    private func zshSpecs(_ option: CommandOption, in table: OptionTable? = nil) -> [String] {
        let names = flags(option)
        let exclusion: String
        if option == .help || option == .version {
            exclusion = "(- *)"
        } else if option.repeats {
            exclusion = "*"
        } else {
            let others = table?.alternatives.first { $0.contains(option) }?.filter { $0 != option }.flatMap(flags) ?? []
            exclusion = names.count + others.count > 1 ? "(\((names + others).joined(separator: " ")))" : ""
        }
        let description = "[" + zshEscaped(CompletionScriptWriter.summary(option.help), colons: false) + "]"
        var value = ""
        if let placeholder = option.placeholder {
            value = ":" + zshEscaped(placeholder, colons: true) + ":" + zshAction(option.completion)
        }
        return names.map { name in
            // A long option's value may follow `=` or be the next word; a short one's is the next word.
            let spelled = option.takesValue && name.hasPrefix("--") ? name + "=" : name
            return zshQuoted(exclusion + spelled + description + value)
        }
    }

    /// The action of an `_arguments` spec.
    private func zshAction(_ completion: CommandOption.Completion) -> String {
        switch completion {
        case .nothing: " "
        case .files: "_files"
        case .directories: "_files -/"
        case .words(let words): "(" + words.joined(separator: " ") + ")"
        case .wordsOrFiles: "_placescost_tables"
        }
    }

    /// `text` in an `_arguments` description or message: brackets, and colons where they would
    /// end a field, behind a backslash.
    private func zshEscaped(_ text: String, colons: Bool) -> String {
        var escaped = ""
        for character in text {
            if character == "\\" || character == "[" || character == "]" || (colons && character == ":") { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// `text` in single quotes for zsh.
    private func zshQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    // MARK: fish

    private func fish() -> String {
        let names = commands.map(\.name) + ["help"]
        var lines = [
            "# fish completion for placescost, made by `placescost completion fish` from its option tables.",
            "# Load it with: placescost completion fish | source, or save it as ~/.config/fish/completions/placescost.fish",
            "",
            "complete -c placescost -f",
            "set -l placescost_commands \(names.joined(separator: " "))",
        ]
        let before = "-n \"not __fish_seen_subcommand_from $placescost_commands\""
        for command in commands {
            lines.append("complete -c placescost \(before) -a \(command.name) -d \(fishQuoted(command.summary))")
        }
        lines.append("complete -c placescost \(before) -a help -d \(fishQuoted("a command's help"))")
        for option in topLevel {
            lines.append("complete -c placescost \(before) \(fishOption(option))")
        }
        for command in commands {
            let condition = "-n \"__fish_seen_subcommand_from \(command.name)\""
            for option in command.table.options {
                lines.append("complete -c placescost \(condition) \(fishOption(option))")
            }
            if let arguments = command.table.arguments {
                lines.append("complete -c placescost \(condition) \(fishArguments(arguments.completion))")
            }
        }
        lines.append("complete -c placescost -n \"__fish_seen_subcommand_from help\" -a \(fishQuoted(commands.map(\.name).joined(separator: " ")))")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `-s o -l out -x -a ... -d ...`.
    private func fishOption(_ option: CommandOption) -> String {
        var parts: [String] = []
        if let short = option.short { parts.append("-s \(short)") }
        parts.append("-l \(option.name)")
        if option.takesValue { parts.append(fishValues(option.completion)) }
        parts.append("-d " + fishQuoted(CompletionScriptWriter.summary(option.help)))
        return parts.joined(separator: " ")
    }

    /// What fish offers for a value or an argument: `-r` (a value is needed) with the values;
    /// `-F` where file names are offered, `-x` where they are not.
    private func fishValues(_ completion: CommandOption.Completion) -> String {
        switch completion {
        case .nothing: "-x"
        case .files: "-r -F"
        case .directories: "-x -a \"(__fish_complete_directories (commandline -ct))\""
        case .words(let words): "-x -a " + fishQuoted(words.joined(separator: " "))
        case .wordsOrFiles(let words): "-r -F -a " + fishQuoted(words.joined(separator: " "))
        }
    }

    /// What fish offers for a command's arguments.
    private func fishArguments(_ completion: CommandOption.Completion) -> String {
        switch completion {
        case .nothing: ""
        case .files: "-F"
        case .directories: "-a \"(__fish_complete_directories (commandline -ct))\""
        case .words(let words): "-a " + fishQuoted(words.joined(separator: " "))
        case .wordsOrFiles(let words): "-F -a " + fishQuoted(words.joined(separator: " "))
        }
    }

    /// `text` in single quotes for fish.
    private func fishQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
