import Foundation
import Testing
@testable import PlacesCostKit

/// The option tables: the parser, `--help`, the usage line and short options all made from one
/// declaration per option (`docs/cli.md`).
@Suite("Option tables")
struct OptionTableTests {
    static let tables = CLI.commands.map(\.table)

    /// The `--name` words of `text`.
    static func longOptions(in text: String) -> Set<String> {
        var names: Set<String> = []
        var rest = Substring(text)
        while let range = rest.range(of: "--") {
            let name = rest[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            if let first = name.first, first.isLetter { names.insert(String(name)) }
            rest = rest[range.upperBound...]
        }
        return names
    }

    /// The lines of the section `title` of a help page.
    static func section(_ title: String, of help: String) -> [Substring] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: Substring(title)) else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.isEmpty })
    }

    @Test("--help lists every option of the table with its short name, and names no option the parser lacks", arguments: CLI.commands.map(\.name))
    func helpMatchesTable(command: String) throws {
        let table = try #require(CLI.commands.first { $0.name == command }).table
        let help = runCLI([command, "--help"])
        #expect(help.code == .success)
        let declared = Set(table.options.map(\.name))
        // The OPTIONS section: one entry per option, its left column made from the table.
        let entries = OptionTableTests.section("OPTIONS", of: help.stdout).filter { $0.hasPrefix("  -") || $0.hasPrefix("      --") }
        #expect(entries.count == table.options.count)
        for option in table.options {
            let left = "  " + (option.shortFlag.map { $0 + ", " } ?? "    ") + option.synopsis
            #expect(entries.contains { $0 == left || $0.hasPrefix(left + "  ") }, "\(command): \(left)")
        }
        // Anywhere on the page, the prose included: every --name is an option of this command.
        #expect(OptionTableTests.longOptions(in: help.stdout).subtracting(declared).isEmpty, "\(command)")
    }

    @Test("The usage line names every option of the table but --help and --version, and only those", arguments: CLI.commands.map(\.name))
    func usageMatchesTable(command: String) throws {
        let table = try #require(CLI.commands.first { $0.name == command }).table
        let named = OptionTableTests.longOptions(in: table.usage)
        #expect(named == Set(table.options.map(\.name)).subtracting(["help", "version"]))
        for option in table.options where option.repeats {
            #expect(table.usage.contains("[\(option.synopsis)]..."))
        }
        for option in table.options where option.required {
            #expect(table.usage.contains(" \(option.synopsis)") && !table.usage.contains("[\(option.synopsis)]"))
        }
    }

    @Test("analyze and reconcile take the shared options from one declaration")
    func sharedOptions() {
        for table in [AnalyzeCommand.table, ReconcileCommand.table] {
            for option in AnalysisOptionsParser.options {
                #expect(table.options.contains(option), "\(table.command) --\(option.name)")
            }
        }
    }

    @Test("A short name means the same long option in every command; the common ones have one")
    func shortNamesAgree() {
        var meaning: [Character: String] = [:]
        for table in OptionTableTests.tables {
            for option in table.options {
                if let short = option.short {
                    #expect(meaning[short, default: option.name] == option.name, "-\(short) in \(table.command)")
                    meaning[short] = option.name
                }
            }
        }
        let common: [String: Character] = ["out": "o", "json": "j", "quiet": "q", "format": "f", "pricing": "p", "help": "h", "version": "V"]
        for table in OptionTableTests.tables {
            for option in table.options {
                if let short = common[option.name] { #expect(option.short == short, "\(table.command) --\(option.name)") }
            }
        }
    }

    @Test("Each short option scans as its long option: -o DIR, grouped flags, --name=value")
    func shortScansAsLong() throws {
        for table in OptionTableTests.tables {
            let scanner = ArgumentScanner(table)
            for option in table.options {
                guard let short = option.shortFlag else { continue }
                let value = option.choices?.last ?? "x"
                let long = option.takesValue ? [option.longFlag, value] : [option.longFlag]
                let shortened = option.takesValue ? [short, value] : [short]
                #expect(try scanner.scan(shortened) == scanner.scan(long), "\(table.command) \(short)")
                if option.takesValue {
                    #expect(try scanner.scan(["\(option.longFlag)=\(value)"]) == scanner.scan(long))
                }
            }
        }
        let analyze = ArgumentScanner(AnalyzeCommand.table)
        #expect(try analyze.scan(["-jq", "-o", "out"]) == analyze.scan(["--json", "--quiet", "--out", "out"]))
        #expect(try analyze.scan(["-qo", "out"]) == analyze.scan(["--quiet", "--out", "out"]))
        // `-` alone is standard input; after `--`, nothing is an option.
        #expect(try analyze.scan(["-", "-j"]).positionals == ["-"])
        #expect(try analyze.scan(["--", "-j", "--json"]).positionals == ["-j", "--json"])
        #expect(try analyze.scan(["--route", "/a=autocomplete", "--route", "/b=geocoding"]).all(AnalysisOptionsParser.Key.route) == ["/a=autocomplete", "/b=geocoding"])
    }

    @Test("A short option's value is the next argument, never attached")
    func attachedValues() {
        for (arguments, message) in [
            (["-oreport"], "option -o takes its value as the next argument (-o DIR), not in -oreport."),
            (["-o=report"], "option -o takes its value as the next argument (-o DIR), not in -o=report."),
            (["-out", "report"], "unknown option -out. Did you mean --out?"),
            (["-o"], "option -o needs a value (DIR)."),
        ] {
            let result = runCLI(["analyze"] + arguments)
            #expect(result.code == .usage)
            #expect(result.stderr.hasPrefix("placescost: error: \(message)\nusage: placescost analyze"), "\(arguments): \(result.stderr)")
        }
    }

    @Test("-j, -q, -f and -p give the same report as --json, --quiet, --format and --pricing on SampleLogs")
    func shortOptionsOnSampleLogs() {
        let long = runCLI(["analyze", "SampleLogs", "--json", "--quiet", "--pricing", "legacy-2025", "--format", "auto"], workingDirectory: packageRoot)
        #expect(long.code == .success)
        #expect(long.stdout.hasPrefix("{"))
        let short = runCLI(["analyze", "SampleLogs", "-j", "-q", "-p", "legacy-2025", "-f", "auto"], workingDirectory: packageRoot)
        #expect(short.code == long.code && short.stdout == long.stdout && short.stderr == long.stderr)
        let grouped = runCLI(["analyze", "SampleLogs", "-jqp", "legacy-2025"], workingDirectory: packageRoot)
        #expect(grouped.stdout == long.stdout && grouped.stderr.isEmpty)
        #expect(runCLI(["analyze", "SampleLogs", "-j"], workingDirectory: packageRoot).stdout
            == runCLI(["analyze", "SampleLogs", "--json"], workingDirectory: packageRoot).stdout)
    }

    @Test("-o DIR writes what --out DIR writes")
    func shortOut() throws {
        let directory = TemporaryDirectory()
        let file = directory.write("log.jsonl", [ac(0, "a", "12"), details(1, "a")].map(\.jsonLine).joined(separator: "\n"))
        let environment = ["PLACESCOST_HASH_KEY": String(repeating: "ab", count: 32)]
        #expect(runCLI(["analyze", file, "-q", "-o", directory.path + "/short"], environment: environment).code == .success)
        #expect(runCLI(["analyze", file, "--quiet", "--out", directory.path + "/long"], environment: environment).code == .success)
        for name in ["report.md", "report.html", "report.json", "searches.csv", "costs.csv"] {
            let short = try String(contentsOfFile: directory.path + "/short/" + name, encoding: .utf8)
            let long = try String(contentsOfFile: directory.path + "/long/" + name, encoding: .utf8)
            #expect(short == long, "\(name)")
        }
    }

    @Test("--version and -V after a command print the version; --help wins over a bad option", arguments: CLI.commands.map(\.name))
    func versionAfterCommand(command: String) {
        for flag in ["--version", "-V"] {
            let result = runCLI([command, flag])
            #expect(result.code == .success && result.stdout == "placescost \(CLI.version)\n" && result.stderr.isEmpty, "\(command) \(flag)")
        }
        #expect(runCLI([command, "--no-such-option", "--help"]).code == .success)
        #expect(runCLI(["-V"]).stdout == "placescost \(CLI.version)\n")
        #expect(runCLI(["help", command]).stdout == runCLI([command, "--help"]).stdout)
        #expect(runCLI(["help", "help"]).stdout == CLI.help && runCLI(["help", "help"]).code == .success)
    }

    @Test("An unknown option near a known one is named in the error", arguments: [
        (["analyze", "--jsn"], "unknown option --jsn. Did you mean --json?"),
        (["analyze", "--ouput", "report"], "unknown option --ouput. Did you mean --out?"),
        (["analyze", "--JSON"], "unknown option --JSON. Did you mean --json?"),
        (["analyze", "--tiemzone", "UTC"], "unknown option --tiemzone. Did you mean --timezone?"),
        (["analyze", "--jsn=1"], "unknown option --jsn. Did you mean --json?"),
        (["analyze", "-json"], "unknown option -json. Did you mean --json?"),
        (["analyze", "-J"], "unknown option -J. Did you mean -j?"),
        (["analyze", "-x"], "unknown option -x."),
        (["analyze", "--frobnicate"], "unknown option --frobnicate."),
        (["simulate", "--dely", "3"], "unknown option --dely. Did you mean --delay?"),
        (["sql", "--dialet", "duckdb"], "unknown option --dialet. Did you mean --dialect?"),
        (["reconcile", "--biling", "x.csv"], "unknown option --biling. Did you mean --billing?"),
        (["analyse"], "unknown command `analyse`. Did you mean `analyze`?"),
        (["simualte"], "unknown command `simualte`. Did you mean `simulate`?"),
        (["frobnicate"], "unknown command `frobnicate`."),
        (["--verison"], "unknown option --verison. Did you mean --version?"),
        (["--json", "analyze"], "unknown option --json: options go after the command (placescost analyze --json)."),
        (["completion", "bsh"], "completion takes bash, zsh or fish, not `bsh`. Did you mean bash?"),
    ])
    func didYouMean(arguments: [String], message: String) {
        let result = runCLI(arguments)
        #expect(result.code == .usage)
        let first = result.stderr.split(separator: "\n").first.map(String.init)
        #expect(first == "placescost: error: \(message)", "\(arguments)")
        #expect(result.stderr.contains("\nusage: placescost"))
        #expect(result.stdout.isEmpty)
    }

    @Test("Damerau-Levenshtein distance, and the nearest name within 2 edits (1 for words of 4 letters or fewer)")
    func nameSuggester() {
        #expect(NameSuggester.distance("jsn", "json") == 1)
        #expect(NameSuggester.distance("ouput", "out") == 2)
        #expect(NameSuggester.distance("analzye", "analyze") == 1)
        #expect(NameSuggester.distance("", "sql") == 3)
        #expect(NameSuggester.distance("ca", "abc") == 3)
        #expect(NameSuggester.nearest(to: "dely", among: ["delays", "delay"]) == "delay")
        #expect(NameSuggester.nearest(to: "dys", among: ["days"]) == "days")
        #expect(NameSuggester.nearest(to: "dy", among: ["days"]) == nil)
        #expect(NameSuggester.nearest(to: "seeds", among: ["seed", "searches"]) == "seed")
        #expect(NameSuggester.nearest(to: "frobnicate", among: CLI.commands.map(\.name)) == nil)
    }

    @Test("Choices are checked by the scanner with the table's words; --requests and --chars exclude each other")
    func choicesAndAlternatives() {
        for (arguments, message) in [
            (["analyze", "-f", "xml"], "--format takes auto, jsonl, csv, access-log or har, not `xml`."),
            (["analyze", "--report", "pdf"], "--report takes md, csv or json, not `pdf`."),
            (["reconcile", "--report", "csv"], "--report takes md or json, not `csv`."),
            (["generate", "--format", "auto"], "--format takes jsonl, csv, access-log or har, not `auto`."),
            (["sql", "--dialect", "oracle"], "--dialect takes bigquery or duckdb, not `oracle`."),
            (["simulate", "--requests", "3", "--chars", "4"], "give --requests or --chars, not both."),
            (["simulate", "--fields", "name", "--needs-details", "yes"], "give --fields or --needs-details, not both."),
        ] {
            let result = runCLI(arguments)
            #expect(result.code == .usage)
            #expect(result.stderr.hasPrefix("placescost: error: \(message)\n"), "\(arguments): \(result.stderr)")
        }
        // Shown as yes|no, simulate's --needs-details still takes auto, as before.
        #expect(runCLI(["simulate", "--needs-details", "auto", "-q"]).code == .success)
    }

    @Test("The command list (placescost --help) and each command's help fit 100 columns")
    func helpFitsTheTerminal() {
        for arguments in [["--help"]] + CLI.commands.map { [$0.name, "--help"] } {
            let help = runCLI(arguments, environment: ["COLUMNS": "100"]).stdout
            #expect(!help.isEmpty, "\(arguments)")
            for line in help.split(separator: "\n") {
                // Only a usage part wider than the terminal on its own may overflow.
                #expect(line.count <= 100 || HelpFormatter.usageParts(String(line)).count == 1, "\(arguments): \(line)")
            }
        }
    }

    @Test("Usage lines are wrapped to COLUMNS (100 when unset), continuation lines indented, nothing lost")
    func usageWrapped() throws {
        for columns in [nil, "100", "72", "50"] {
            let width = columns.flatMap { Int($0) } ?? 100
            let environment = columns.map { ["COLUMNS": $0] } ?? [:]
            for table in OptionTableTests.tables {
                let result = runCLI([table.command, "--no-such-option"], environment: environment)
                let lines = result.stderr.split(separator: "\n").dropFirst()
                #expect(lines.first?.hasPrefix("usage: placescost \(table.command)") == true)
                for line in lines {
                    // Only a part wider than the terminal on its own (`[--format ...]` at 50) overflows.
                    let alone = HelpFormatter.usageParts(String(line)).count == 1
                    #expect(line.count <= width || alone, "\(table.command) at \(width): \(line)")
                }
                for line in lines.dropFirst() { #expect(line.hasPrefix("    "), "\(line)") }
                let joined = lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
                #expect(joined == "usage: " + table.usage)

                let help = runCLI([table.command, "--help"], environment: environment).stdout
                for line in OptionTableTests.section("USAGE", of: help) + OptionTableTests.section("OPTIONS", of: help) {
                    let alone = HelpFormatter.usageParts(String(line)).count == 1
                    #expect(line.count <= width || alone, "\(table.command) --help at \(width): \(line)")
                }
            }
        }
        // The longest usage line of all, cut only between its parts.
        let usage = HelpFormatter(width: 100).usage(AnalyzeCommand.usage, prefix: "usage: ")
        #expect(usage.split(separator: "\n").count > 3)
        #expect(usage.contains("[--format auto|jsonl|csv|access-log|har]"))
    }

    @Test("simulate --quiet silences its notes, as analyze's does")
    func simulateQuiet() {
        let noisy = runCLI(["simulate", "--pricing", "places-new-2025", "--json"])
        #expect(noisy.code == .success && noisy.stderr.contains("placescost: note: unconfirmed price used"))
        for quiet in ["--quiet", "-q"] {
            let result = runCLI(["simulate", "--pricing", "places-new-2025", "--json", quiet])
            #expect(result.code == .success && result.stderr.isEmpty && result.stdout == noisy.stdout)
        }
    }

    @Test("reconcile --help shows the formats it reads, access logs and HAR included, and every shared option")
    func reconcileHelp() {
        let help = runCLI(["reconcile", "--help"]).stdout
        #expect(help.contains("-f, --format auto|jsonl|csv|access-log|har"))
        for option in AnalysisOptionsParser.options {
            #expect(help.contains(option.synopsis), "--\(option.name)")
        }
    }
}
