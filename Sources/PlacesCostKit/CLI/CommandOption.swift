/// One option of a command, declared once: the scanner, `--help`, the usage line and the shell
/// completion scripts are all made from this declaration (`OptionTable`).
///
/// An option is also the key its value is read by (`parsed[Key.out]`, `parsed.has(Key.json)`),
/// so an option read is always one declared: a misspelled key does not compile.
struct CommandOption: Sendable, Hashable {
    /// What follows the option's name.
    enum Value: Sendable, Hashable {
        /// No value: the option is present or not (`--json`).
        case flag
        /// A value shown as `placeholder` (`DIR`, `SECONDS`), completed as `completion` says.
        case text(placeholder: String, completion: Completion)
        /// One of fixed words (`md|csv|json`); the scanner refuses any other with the list.
        case choice([String])
    }

    /// What a shell offers for an option's value or a command's arguments.
    enum Completion: Sendable, Hashable {
        case nothing
        case files
        case directories
        /// These words, or a file (`--pricing ID|FILE`: the bundled tables' ids or your own).
        case wordsOrFiles([String])
        /// These words, never checked by the scanner (`simulate --needs-details yes|no`, whose
        /// command also takes `auto`).
        case words([String])
    }

    /// The long name, without `--`.
    let name: String
    /// The one-letter short name, without `-`.
    let short: Character?
    let value: Value
    /// Whether the option may be given several times, each value kept (`Parsed.all`).
    let repeats: Bool
    /// Shown with the usage line but without brackets: the command refuses to run without it.
    let required: Bool
    /// The help line: plain sentences, wrapped to the terminal by `HelpFormatter`; a newline in
    /// it starts a new line (for an example that must not be broken).
    let help: String

    init(
        _ name: String, short: Character? = nil, _ value: Value = .flag, repeats: Bool = false, required: Bool = false,
        help: String
    ) {
        self.name = name
        self.short = short
        self.value = value
        self.repeats = repeats
        self.required = required
        self.help = help
    }

    /// A value option: `CommandOption("out", short: "o", value: "DIR", completion: .directories, help: ...)`.
    init(
        _ name: String, short: Character? = nil, value placeholder: String, completion: Completion = .nothing,
        repeats: Bool = false, required: Bool = false, help: String
    ) {
        self.init(name, short: short, .text(placeholder: placeholder, completion: completion), repeats: repeats, required: required, help: help)
    }

    /// A value option that takes one of `choices`.
    init(_ name: String, short: Character? = nil, choices: [String], required: Bool = false, help: String) {
        self.init(name, short: short, .choice(choices), required: required, help: help)
    }

    var takesValue: Bool {
        if case .flag = value { return false }
        return true
    }

    /// `--name`.
    var longFlag: String { "--" + name }

    /// `-x`, when the option has a short name.
    var shortFlag: String? { short.map { "-\($0)" } }

    /// The value as shown in usage and help: `DIR`, `md|csv|json`; nil for a flag.
    var placeholder: String? {
        switch value {
        case .flag: nil
        case .text(let placeholder, _): placeholder
        case .choice(let words): words.joined(separator: "|")
        }
    }

    /// What a shell offers after the option.
    var completion: Completion {
        switch value {
        case .flag: .nothing
        case .text(_, let completion): completion
        case .choice(let words): .words(words)
        }
    }

    /// `--name VALUE`, as in the usage line (without brackets).
    var synopsis: String {
        placeholder.map { "\(longFlag) \($0)" } ?? longFlag
    }

    /// The words the scanner accepts, when the option takes one of fixed words.
    var choices: [String]? {
        if case .choice(let words) = value { return words }
        return nil
    }

    /// "md, csv or json", as usage errors name the choices.
    static func listed(_ words: [String]) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
    }

    // The options every command takes. They are answered before its other options are read, so
    // `placescost analyze --bogus --help` still shows the help.
    static let help = CommandOption("help", short: "h", help: "Show this help.")
    static let version = CommandOption("version", short: "V", help: "Print the version of placescost.")

    // Options several commands take with the same meaning, declared once.
    /// `-j`, `--json`: the JSON form of what `--report` prints.
    static let reportJSON = CommandOption("json", short: "j", help: "Same as --report json.")
    /// `--max-delay K`, for the commands that recommend.
    static let maxDelay = CommandOption("max-delay", value: "K", help: "The largest delay the recommendation may choose (default 4).")
}
