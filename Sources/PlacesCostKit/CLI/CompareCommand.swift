import Foundation

/// `placescost compare BEFORE AFTER`: what changed between two periods or two builds of an app.
struct CompareCommand {
    /// The options only `compare` takes; the log options are `analyze`'s.
    enum Key {
        static let report = CommandOption(
            "report", choices: ComparisonRenderer.printed.map(\.rawValue),
            help: "What to print on standard output: comparison.md (default) or comparison.json; comparison.html is written by --out only, as analyze's report.html. With --out, nothing is printed unless asked. On a terminal, without --report, the Markdown is made readable for the screen."
        )
        static let json = CommandOption.reportJSON
        static let out = CommandOption(
            "out", short: "o", value: "DIR", completion: .directories, help: "Write comparison.md, comparison.json and comparison.html into DIR (created if needed)."
        )
        static let failIfCostPerSearchRises = CommandOption(
            "fail-if-cost-per-search-rises", value: "PCT",
            help: "Exit 1, with one line on standard error, when the list cost per search rose by more than PCT percent (0 or more; 0: any rise), for CI."
        )
        static let failIfCostPerSelectionRises = CommandOption(
            "fail-if-cost-per-selection-rises", value: "PCT",
            help: "The same per selection (a search that ended with a place chosen), which a token per keystroke cannot hide: exit 1 when the list cost per selection rose by more than PCT percent, or the after side has no selection where the before side had."
        )
    }

    static let table = OptionTable(
        command: "compare", arguments: .init("BEFORE AFTER", completion: .files),
        options: [Key.report, Key.json, Key.out, Key.failIfCostPerSearchRises, Key.failIfCostPerSelectionRises, TerminalOutput.option]
            + AnalysisOptionsParser.options
            + [AnalyzeCommand.Key.sessionTimeout, AnalyzeCommand.Key.userGap, AnalyzeCommand.Key.needsDetails, AnalyzeCommand.Key.maxDelay]
    )

    static let usage = table.usage

    /// The largest `--fail-if-cost-per-search-rises` (and per selection): any larger rise is a
    /// factor of ten thousand.
    static let maxRisePercent = 1_000_000.0

    static let help = HelpPage(
        intro: """
        placescost compare: what changed between two periods or two builds of the app: the bill,
        the cost per 1,000 selections and searches, requests per search, completion, each anomaly,
        the advice, and the saving normalised by volume.
        """,
        arguments: [
            ("BEFORE", "A log, a directory of logs, - for standard input, or a report.json written by `placescost analyze --json` or `--out`."),
            ("AFTER", "The same, for the period or build after the change."),
        ],
        epilogue: """
        The log options apply to each side that is a log; a report.json is read as analyze wrote it.
        To compare two periods of one log, write each period's report with `analyze --since/--until
        --json` and compare the two reports. The saving is (before − after list cost per
        selection) × the after side's selections a month, a selection being a search that ended
        with a place chosen (per search when a side has none; docs/cli.md).
        """
    )

    let arguments: [String]
    let context: CommandContext

    func run() throws -> ExitCode {
        let parsed = try ArgumentScanner(CompareCommand.table).scan(arguments)
        let shared = AnalysisOptionsParser(usage: CompareCommand.usage)
        let values = OptionValues(usage: CompareCommand.usage)
        var options = Analyzer.Options()
        try shared.apply(parsed, to: &options)
        options.temporaryDirectory = context.temporaryDirectory
        options.reader.zlibLibrary = context.zlibLibrary
        options.sessions = try AnalyzeCommand.sessionOptions(parsed, values)
        options.needsDetails = try values.yesNoAuto(parsed[AnalyzeCommand.Key.needsDetails], option: "--needs-details")
        options.maxDelay = try values.wholeNumber(parsed[AnalyzeCommand.Key.maxDelay], option: "--max-delay", range: 0...100) ?? options.maxDelay
        let allowedRise = try values.number(
            parsed[Key.failIfCostPerSearchRises], option: "--fail-if-cost-per-search-rises", range: 0...CompareCommand.maxRisePercent,
            meaning: "a percentage"
        )
        let allowedSelectionRise = try values.number(
            parsed[Key.failIfCostPerSelectionRises], option: "--fail-if-cost-per-selection-rises", range: 0...CompareCommand.maxRisePercent,
            meaning: "a percentage"
        )
        guard parsed.positionals.count == 2 else {
            throw values.error("compare takes two inputs, BEFORE and AFTER, not \(parsed.positionals.count).")
        }
        let (before, after) = (parsed.positionals[0], parsed.positionals[1])
        if before == "-", after == "-" { throw values.error("only one side of compare can be standard input (-).") }
        let report: ComparisonRenderer.Format?
        if parsed.has(Key.json) {
            report = .json
        } else if let value = parsed[Key.report] {
            report = ComparisonRenderer.Format(rawValue: value)
        } else {
            report = parsed[Key.out] == nil ? .md : nil
        }
        let out = try shared.outDirectory(parsed[Key.out], context: context)

        // Both sides' typed text, for one notice (`AnalysisOptionsParser.noteTypedText`).
        var typedText: (records: Int, files: [String]) = (0, [])
        var comparison = Comparison(
            before: try figures(before, options: options, shared: shared, parsed: parsed, typedText: &typedText),
            after: try figures(after, options: options, shared: shared, parsed: parsed, typedText: &typedText)
        )
        shared.noteTypedText(records: typedText.records, files: typedText.files, parsed: parsed, context: context)
        comparison.beforeInput = before
        comparison.afterInput = after
        let renderer = ComparisonRenderer()
        if let out {
            let files = renderer.files(comparison)
            try ReportDirectoryWriter(directory: out.path).write(files)
            if !parsed.has(AnalysisOptionsParser.Key.quiet) { context.note("wrote \(files.map(\.path).joined(separator: ", ")) to \(out.shown).") }
        }
        let terminal = TerminalOutput(context: context, color: parsed[TerminalOutput.option])
        if terminal.isTerminal, !parsed.has(Key.json), parsed[Key.report] == nil {
            context.standardOutput.write(terminal.text.document(renderer.render(comparison, as: .md)))
        } else if let report {
            context.standardOutput.write(renderer.render(comparison, as: report))
        }
        if let allowedRise, comparison.costPerSearchRises(moreThan: allowedRise) {
            throw CompareError.costRose(
                per: .searches, risePercent: comparison.costPerSearchChangePercent, before: comparison.before.listCostPerSearchUSD,
                after: comparison.after.listCostPerSearchUSD, allowedPercent: allowedRise
            )
        }
        if let allowedSelectionRise, comparison.costPerSelectionRises(moreThan: allowedSelectionRise), let before = comparison.before.listCostPerSelectionUSD {
            throw CompareError.costRose(
                per: .selections, risePercent: comparison.costPerSelectionChangePercent, before: before,
                after: comparison.after.listCostPerSelectionUSD, allowedPercent: allowedSelectionRise
            )
        }
        return .success
    }

    /// One side's figures: read from its `report.json`, or analyzed from its logs and read from
    /// the report `analyze --json` would print for them, so that both give the same figures.
    private func figures(
        _ input: String, options: Analyzer.Options, shared: AnalysisOptionsParser, parsed: ArgumentScanner.Parsed,
        typedText: inout (records: Int, files: [String])
    ) throws -> PeriodFigures {
        let path = context.path(of: input)
        if input != "-", let document = try ReportDocument.read(path: path, shownAs: input) {
            return try PeriodFigures(document, file: input)
        }
        let (analysis, read) = try Analyzer(options: options).analyze(paths: [path])
        shared.reportDiagnostics(read, parsed: parsed, context: context)
        typedText.records += read.typedTextRecords
        typedText.files += read.typedTextFiles
        let document = try ReportDocument.decode(Data(JSONReportRenderer().render(analysis).utf8), file: input)
        return try PeriodFigures(document, file: input)
    }
}
