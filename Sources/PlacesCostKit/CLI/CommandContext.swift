import Foundation

/// What a command needs from its environment, passed in so tests can run commands in-process.
public struct CommandContext {
    var standardOutput: OutputSink
    var standardError: OutputSink
    /// The directory relative paths are resolved against (for finding the bundled sample logs).
    var workingDirectory: String
    /// The running executable's path, when known (for finding files shipped beside it).
    var executablePath: String?
    /// Environment variables (`PLACESCOST_HASH_KEY`).
    var environment: [String: String]
    /// Whether standard input is a terminal: `-` then waits for typing, and a note says so.
    var standardInputIsTerminal: Bool

    public init(
        standardOutput: OutputSink, standardError: OutputSink, workingDirectory: String, executablePath: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment, standardInputIsTerminal: Bool = false
    ) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.workingDirectory = workingDirectory
        self.executablePath = executablePath
        self.environment = environment
        self.standardInputIsTerminal = standardInputIsTerminal
    }

    /// Where temporary files go: `TMPDIR`, else `/tmp`.
    var temporaryDirectory: String {
        guard let directory = environment["TMPDIR"], !directory.isEmpty else { return "/tmp" }
        return directory
    }

    /// The zlib library to decompress gzip inputs with, `PLACESCOST_ZLIB`, when set: a path or a
    /// name `dlopen` finds; empty for none (gzip is then read as on a machine without zlib).
    var zlibLibrary: String? {
        environment["PLACESCOST_ZLIB"]
    }

    /// The width usage lines and help are laid out for: `COLUMNS` when it holds a width (at
    /// least 40 is used), else 100.
    var terminalWidth: Int {
        guard let text = environment["COLUMNS"], let columns = Int(text.trimmingCharacters(in: .whitespaces)), columns > 0 else {
            return 100
        }
        return max(columns, 40)
    }

    /// The input an argument names: `-` (standard input) and absolute paths as given, others
    /// from `workingDirectory`. An empty argument (an unset shell variable) stays empty: it names no
    /// file and is refused as a missing one (66, as `analyze ""`), never read as the working
    /// directory, which appending it to `workingDirectory + "/"` would name.
    func path(of argument: String) -> String {
        argument.isEmpty || argument == "-" || argument.hasPrefix("/") ? argument : workingDirectory + "/" + argument
    }

    /// Writes `placescost: note: ...` to standard error.
    func note(_ message: String) {
        writeError("placescost: note: \(message)")
    }

    /// `message` as one line that cannot drive a terminal: a file name or argument in it may hold
    /// line breaks, escape sequences or bidirectional overrides, which are written as `\n`,
    /// `\u{1B}`, `\u{202E}`. Other format characters (joiners in emoji and scripts) stay.
    static func printable(_ message: String) -> String {
        var text = String.UnicodeScalarView()
        for scalar in message.unicodeScalars {
            let breaksOrDrives = [.control, .lineSeparator, .paragraphSeparator].contains(scalar.properties.generalCategory) || scalar.properties.isBidiControl
            if breaksOrDrives {
                text += scalar.escaped(asASCII: true).unicodeScalars
            } else {
                text.append(scalar)
            }
        }
        return String(text)
    }

    /// Writes a message and a line break to standard error. On a terminal each line wider than the
    /// screen is wrapped at spaces, its continuation indented 4 columns past the line's own
    /// indentation, so no message runs past the screen's edge; lines that fit are left as they are.
    func writeError(_ message: String) {
        let message = CommandContext.printable(message)
        guard standardError.isTerminal else { return standardError.write(message + "\n") }
        let text = TerminalText(width: TerminalOutput.width(of: standardError, environment: environment), color: false)
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [String] in
            guard line.unicodeScalars.count > text.width else { return [String(line)] }
            let indentation = line.prefix { $0 == " " }.count
            return text.wrapped(String(line), indent: indentation + 4, firstIndent: indentation)
        }
        standardError.write(lines.joined(separator: "\n") + "\n")
    }
}
