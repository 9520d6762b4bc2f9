/// How a command writes to a terminal: whether it gets the terminal form of a report (a summary
/// that fits the screen, Markdown made readable) rather than the report's own bytes, how wide,
/// and in colour or not.
///
/// Only a terminal gets the terminal form: piped or redirected output, and any `--report`, keep
/// the report's exact bytes (`analyze log > report.md`). Colour is on for a terminal unless
/// `NO_COLOR` is set (<https://no-color.org>) or `--color never`; `--color always` forces it.
struct TerminalOutput {
    enum ColorChoice: String, CaseIterable {
        case auto, always, never
    }

    /// Whether standard output is a terminal that gets the terminal form.
    let isTerminal: Bool
    let text: TerminalText

    /// The widest terminal form: 100 columns.
    static let maxWidth = 100

    /// `--color`, taken by every command that has a terminal form.
    static let option = CommandOption(
        "color", choices: ColorChoice.allCases.map(\.rawValue),
        help: "Colour on a terminal (default auto: off when NO_COLOR is set or output is not a terminal)."
    )

    /// `color` is `--color`'s value, which the scanner has checked; nil is `auto`.
    init(context: CommandContext, color: String?) {
        let choice = color.flatMap(ColorChoice.init(rawValue:)) ?? .auto
        isTerminal = context.standardOutput.isTerminal
        let noColor = !(context.environment["NO_COLOR"] ?? "").isEmpty
        let colored = choice == .always || (choice == .auto && isTerminal && !noColor)
        text = TerminalText(width: TerminalOutput.width(of: context.standardOutput, environment: context.environment), color: colored)
    }

    /// The width the terminal form takes on `sink`: `COLUMNS` when set, else the terminal's own
    /// width, at most `maxWidth` and at least 60; `maxWidth` when neither is known.
    static func width(of sink: OutputSink, environment: [String: String]) -> Int {
        let columns = environment["COLUMNS"].flatMap(Int.init) ?? sink.terminalColumns ?? maxWidth
        return max(60, min(maxWidth, columns))
    }
}
