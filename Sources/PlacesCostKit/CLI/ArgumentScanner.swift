/// Splits a command's arguments into options and positional arguments, by the command's
/// `OptionTable`.
///
/// Accepts `--name value`, `--name=value`, boolean flags, and `--` to end options; `-` alone is
/// a positional argument (standard input). A short option is `-o DIR`, its value always the next
/// argument (never attached: `-oDIR` and `-o=DIR` are errors, so that `-out` cannot quietly mean
/// `-o ut`); short flags may be grouped (`-jq` is `-j -q`), a short option that takes a value
/// only last in a group (`-qo DIR`). Anything else that starts with `-` and is not a declared
/// option is a usage error, so a typo never silently changes a result; the error names the
/// option it most likely meant (`NameSuggester`).
struct ArgumentScanner: Sendable {
    /// The options and positional arguments given, read by the options themselves.
    struct Parsed: Sendable, Equatable {
        /// Each option's values in the order given, by long name; an option read once takes its last.
        private var values: [String: [String]] = [:]
        private var flags: Set<String> = []
        /// The names of the table's options, so that reading an option the command does not
        /// declare is caught in tests.
        private let declared: Set<String>
        var positionals: [String] = []

        init(declared: Set<String>) {
            self.declared = declared
        }

        func has(_ flag: CommandOption) -> Bool {
            assert(declared.contains(flag.name) && !flag.takesValue, "--\(flag.name) is not a flag of this command")
            return flags.contains(flag.name)
        }

        /// The option's value, the last one given if it was given more than once.
        subscript(option: CommandOption) -> String? {
            all(option).last
        }

        /// Every value of an option that may be given more than once (`--route`).
        func all(_ option: CommandOption) -> [String] {
            assert(declared.contains(option.name) && option.takesValue, "--\(option.name) is not a value option of this command")
            return values[option.name] ?? []
        }

        fileprivate mutating func add(_ option: CommandOption, value: String?) {
            if let value {
                values[option.name, default: []].append(value)
            } else {
                flags.insert(option.name)
            }
        }

        /// Whether the option was given, flag or value.
        func given(_ option: CommandOption) -> Bool {
            flags.contains(option.name) || values[option.name] != nil
        }
    }

    let table: OptionTable

    init(_ table: OptionTable) {
        self.table = table
    }

    private var usage: String { table.usage }

    private func error(_ message: String) -> CLIError {
        .usage(message: message, usage: usage)
    }

    func scan(_ arguments: [String]) throws -> Parsed {
        var parsed = Parsed(declared: Set(table.options.map(\.name)))
        var index = 0
        var optionsEnded = false

        /// The next argument, the value of `option` given as `spelled`.
        func nextValue(of option: CommandOption, spelled: String) throws -> String {
            guard index < arguments.count else {
                throw error("option \(spelled) needs a value (\(option.placeholder!)).")
            }
            index += 1
            return arguments[index - 1]
        }

        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument.hasPrefix("--") {
                var name = argument
                var inlineValue: String?
                if let equals = argument.firstIndex(of: "=") {
                    name = String(argument[..<equals])
                    inlineValue = String(argument[argument.index(after: equals)...])
                }
                guard let option = table.option(named: String(name.dropFirst(2))) else {
                    throw error("unknown option \(name).\(suggestion(forLong: String(name.dropFirst(2))))")
                }
                if !option.takesValue {
                    guard inlineValue == nil else { throw error("option \(name) takes no value.") }
                    parsed.add(option, value: nil)
                } else {
                    parsed.add(option, value: try checked(inlineValue ?? nextValue(of: option, spelled: name), option))
                }
                continue
            }
            // A group of short options: `-j`, `-jq`, `-qo DIR`.
            let letters = Array(argument.dropFirst())
            for (position, letter) in letters.enumerated() {
                guard let option = table.option(short: letter) else {
                    throw error(unknownShort(letter, in: argument))
                }
                if !option.takesValue {
                    parsed.add(option, value: nil)
                } else if position == letters.count - 1 {
                    parsed.add(option, value: try checked(nextValue(of: option, spelled: "-\(letter)"), option))
                } else {
                    // `-out`: a long option written with one dash, not `-o ut`.
                    if table.option(named: String(argument.dropFirst())) != nil {
                        throw error("unknown option \(argument). Did you mean -\(argument)?")
                    }
                    throw error("option -\(letter) takes its value as the next argument (-\(letter) \(option.placeholder!)), not in \(argument).")
                }
            }
        }
        for group in table.alternatives where group.filter({ parsed.given($0) }).count > 1 {
            throw error("give " + CommandOption.listed(group.map(\.longFlag)) + ", not both.")
        }
        return parsed
    }

    /// `value`, when `option` takes it; a choice in any case is that choice (`DuckDB`: `duckdb`).
    private func checked(_ value: String, _ option: CommandOption) throws -> String {
        guard let choices = option.choices else { return value }
        guard let choice = choices.first(where: { $0.lowercased() == value.lowercased() }) else {
            throw error("\(option.longFlag) takes \(CommandOption.listed(choices)), not `\(value)`.")
        }
        return choice
    }

    /// " Did you mean --json?" for `jsn`, or nothing.
    private func suggestion(forLong name: String) -> String {
        NameSuggester.nearest(to: name, among: table.options.map(\.name)).map { " Did you mean --\($0)?" } ?? ""
    }

    /// The message for an unknown letter in a group of short options.
    private func unknownShort(_ letter: Character, in argument: String) -> String {
        // `-json`, `-quiet`: a long option written with one dash.
        if let meant = longNamed(argument) { return "unknown option \(argument). Did you mean \(meant)?" }
        let spelled = argument.count == 2 ? argument : "-\(letter) (in \(argument))"
        // One letter is near every other: only another case of the same letter is suggested.
        let sameLetter = table.options.compactMap(\.short).first { $0 != letter && $0.lowercased() == letter.lowercased() }
        return "unknown option \(spelled)." + (sameLetter.map { " Did you mean -\($0)?" } ?? "")
    }

    /// `--json` for `-json` or `-jsn`: a group of letters that is (nearly) a long option's name.
    private func longNamed(_ argument: String) -> String? {
        let word = String(argument.dropFirst())
        guard word.count > 2 else { return nil }
        return NameSuggester.nearest(to: word, among: table.options.map(\.name)).map { "--\($0)" }
    }
}
