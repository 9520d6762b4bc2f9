/// Splits a command's arguments into options and positional arguments.
///
/// Accepts `--name value`, `--name=value`, boolean flags, and `--` to end options; `-` alone is
/// a positional argument (standard input). Anything else that starts with `-` and is not a
/// declared option is a usage error, so a typo never silently changes a result.
struct ArgumentScanner: Sendable {
    struct Option: Sendable {
        var name: String
        /// `nil` for a flag; otherwise the value's placeholder in help, e.g. `SECONDS`.
        var valueName: String?

        init(_ name: String, value valueName: String? = nil) {
            self.name = name
            self.valueName = valueName
        }
    }

    struct Parsed: Sendable, Equatable {
        /// Each option's values in the order given; an option read once takes its last.
        var repeated: [String: [String]] = [:]
        var flags: Set<String> = []
        var positionals: [String] = []

        func has(_ flag: String) -> Bool { flags.contains(flag) }
        subscript(name: String) -> String? { repeated[name]?.last }
        /// Every value of an option that may be given more than once (`--route`).
        func all(_ name: String) -> [String] { repeated[name] ?? [] }
    }

    var options: [Option]
    /// The usage line shown with usage errors.
    var usage: String

    init(options: [Option], usage: String) {
        self.options = options
        self.usage = usage
    }

    func scan(_ arguments: [String]) throws -> Parsed {
        var parsed = Parsed()
        var index = 0
        var optionsEnded = false
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
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = options.first(where: { "--" + $0.name == name }) else {
                throw CLIError.usage(message: "unknown option \(name).", usage: usage)
            }
            if option.valueName == nil {
                guard inlineValue == nil else {
                    throw CLIError.usage(message: "option \(name) takes no value.", usage: usage)
                }
                parsed.flags.insert(option.name)
            } else if let inlineValue {
                parsed.repeated[option.name, default: []].append(inlineValue)
            } else {
                guard index < arguments.count else {
                    throw CLIError.usage(message: "option \(name) needs a value (\(option.valueName!)).", usage: usage)
                }
                parsed.repeated[option.name, default: []].append(arguments[index])
                index += 1
            }
        }
        return parsed
    }
}
