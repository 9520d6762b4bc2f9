import Foundation
import Testing
@testable import PlacesCostKit

/// `placescost completion bash|zsh|fish`: scripts made from the option tables.
@Suite("Completion scripts")
struct CompletionScriptTests {
    /// The path of `name` on PATH, when installed.
    static func installed(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `executable` with `arguments`; its exit status and standard output and error together.
    static func run(_ executable: String, _ arguments: [String], in directory: String? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test("Each script is made, and names every command, every option (long and short) and every choice", arguments: CompletionScriptWriter.Shell.allCases)
    func everyOption(shell: CompletionScriptWriter.Shell) {
        let result = runCLI(["completion", shell.rawValue])
        #expect(result.code == .success && result.stderr.isEmpty)
        let script = result.stdout
        #expect(script.hasSuffix("\n"))
        for command in CLI.commands {
            #expect(script.contains(command.name), "\(shell): \(command.name)")
            for option in command.table.options {
                // fish names options without their dashes: `-l out -s o`.
                let long = shell == .fish ? "-l \(option.name)" : option.longFlag
                #expect(script.contains(long), "\(shell): \(command.name) --\(option.name)")
                if let short = option.short {
                    #expect(script.contains(shell == .fish ? "-s \(short)" : "-\(short)"), "\(shell): \(command.name) -\(short)")
                }
                if let choices = option.choices {
                    #expect(script.contains(choices.joined(separator: " ")), "\(shell): \(command.name) --\(option.name)")
                }
            }
        }
        for id in BundledPriceTables.files.map(\.id) { #expect(script.contains(id)) }
    }

    @Test("bash: the script parses, and completes commands, options, choices and files")
    func bash() throws {
        guard let bash = CompletionScriptTests.installed("bash") else { return }
        let directory = TemporaryDirectory()
        let script = directory.write("placescost.bash", runCLI(["completion", "bash"]).stdout)
        #expect(try CompletionScriptTests.run(bash, ["-n", script]).status == 0)
        // Each line is completed as bash would: the words so far, the last one being typed.
        let cases: [([String], String)] = [
            (["an"], "analyze"),
            (["analyze", "--js"], "--json"),
            (["analyze", "-f", ""], "auto jsonl csv access-log har"),
            (["analyze", "--format", "=", "c"], "csv"),
            (["reconcile", "--report", ""], "md json"),
            (["sql", "--dialect", "d"], "duckdb"),
            (["analyze", "-p", "places"], "places-new-2025"),
            (["analyze", "--since", ""], ""),
            (["analyze", "Sample"], "SampleLogs"),
            (["analyze", "-o", "Sample"], "SampleLogs"),
            (["completion", ""], "bash zsh fish"),
            (["help", "s"], "simulate sql"),
        ]
        var lines = ["source \(script)"]
        for (words, _) in cases {
            let quoted = (["placescost"] + words).map { "'\($0)'" }.joined(separator: " ")
            lines.append("COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count); _placescost; echo \"${COMPREPLY[*]}\"")
        }
        let test = directory.write("test.bash", lines.joined(separator: "\n") + "\n")
        let result = try CompletionScriptTests.run(bash, [test], in: packageRoot)
        #expect(result.status == 0)
        let answers = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (index, (words, expected)) in cases.enumerated() {
            #expect(index < answers.count && answers[index] == expected, "\(words): \(index < answers.count ? answers[index] : "nothing")")
        }
    }

    @Test("zsh and fish: the scripts parse, when the shell is installed")
    func zshAndFish() throws {
        for shell in [CompletionScriptWriter.Shell.zsh, .fish] {
            guard let binary = CompletionScriptTests.installed(shell.rawValue) else { continue }
            let directory = TemporaryDirectory()
            let script = directory.write("placescost.\(shell.rawValue)", runCLI(["completion", shell.rawValue]).stdout)
            let result = try CompletionScriptTests.run(binary, ["-n", script])
            #expect(result.status == 0, "\(shell): \(result.output)")
        }
    }

    @Test("completion takes one shell; --help lists the shells; the main help lists completion")
    func usage() {
        #expect(runCLI(["completion"]).code == .usage)
        #expect(runCLI(["completion", "bash", "zsh"]).code == .usage)
        #expect(runCLI(["completion", "tcsh"]).stderr.hasPrefix("placescost: error: completion takes bash, zsh or fish, not `tcsh`.\n"))
        let help = runCLI(["completion", "--help"])
        #expect(help.code == .success && help.stdout.contains("placescost completion bash|zsh|fish"))
        #expect(runCLI(["--help"]).stdout.contains("placescost completion bash|zsh|fish"))
    }

    @Test("An option's summary is its help's first sentence")
    func summary() {
        #expect(CompletionScriptWriter.summary("Same as --report json.") == "Same as --report json")
        #expect(CompletionScriptWriter.summary("A prefix (/google). Google's paths are read.") == "A prefix (/google)")
        #expect(CompletionScriptWriter.summary("Calls of API, e.g. --route /a=b. May be repeated.") == "Calls of API, e.g. --route /a=b")
    }
}
