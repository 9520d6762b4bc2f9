/// `placescost reconcile [PATH]... --billing FILE`: the estimate against the real bill.
struct ReconcileCommand {
    /// The options only `reconcile` takes; the rest are `AnalysisOptionsParser`'s.
    enum Key {
        static let billing = CommandOption(
            "billing", value: "FILE", completion: .files, required: true,
            help: "The billing export: a console cost-table CSV, a reports-page CSV, or a BigQuery billing export as CSV or JSON Lines (required)."
        )
        static let report = CommandOption(
            "report", choices: ReconciliationRenderer.Format.allCases.map(\.rawValue),
            help: "What to print on standard output (default md; with --out, nothing unless asked)."
        )
        static let json = CommandOption.reportJSON
        static let out = CommandOption(
            "out", short: "o", value: "DIR", completion: .directories, help: "Write reconciliation.md and reconciliation.json into DIR."
        )
    }

    /// The bill, what it writes, then the options it shares with `analyze`.
    static let table = OptionTable(
        command: "reconcile", arguments: .init("[PATH|-]...", completion: .files),
        options: [Key.billing, Key.report, Key.json, Key.out, TerminalOutput.option] + AnalysisOptionsParser.options
            + [AnalyzeCommand.Key.sessionTimeout, AnalyzeCommand.Key.userGap]
    )

    static let usage = table.usage

    static let help = HelpPage(
        intro: """
        placescost reconcile: set the estimate for your logs against a Cloud Billing export, SKU by
        SKU, and flag the SKUs whose counts differ by more than 2%.
        """,
        arguments: [("PATH", "Request logs, as for `analyze`. With none, the bundled SampleLogs/ are used.")],
        epilogue: """
        The estimate is the app's current billing (delay 0). SKU costs are before credits; credits
        are totals of their own. Rows of other services in the export are counted and left out.
        """
    )

    let arguments: [String]
    let context: CommandContext

    func run() throws -> ExitCode {
        let parsed = try ArgumentScanner(ReconcileCommand.table).scan(arguments)
        let shared = AnalysisOptionsParser(usage: ReconcileCommand.usage)
        var options = Analyzer.Options()
        try shared.apply(parsed, to: &options)
        options.temporaryDirectory = context.temporaryDirectory
        options.reader.zlibLibrary = context.zlibLibrary
        // The estimate of an analyze run with other session rules is reproduced with the same.
        options.sessions = try AnalyzeCommand.sessionOptions(parsed, OptionValues(usage: ReconcileCommand.usage))
        guard let billing = parsed[Key.billing], !billing.isEmpty else {
            throw CLIError.usage(message: "reconcile needs the billing export: --billing FILE.", usage: ReconcileCommand.usage)
        }
        let report: ReconciliationRenderer.Format?
        if parsed.has(Key.json) {
            report = .json
        } else if let value = parsed[Key.report] {
            guard let format = ReconciliationRenderer.Format(rawValue: value) else {
                throw CLIError.usage(message: "--report takes md or json, not `\(value)`.", usage: ReconcileCommand.usage)
            }
            report = format
        } else {
            report = parsed[Key.out] == nil ? .md : nil
        }
        let out = try shared.outDirectory(parsed[Key.out], context: context)
        // The bill is read first: a wrong --billing path should fail before a long log read.
        let billingPath = billing.hasPrefix("/") ? billing : context.workingDirectory + "/" + billing
        let bill = try BillingExportReader().read(path: billingPath, shownAs: billing)
        // Under --strict a row of the bill left out is an error, as a malformed log record is.
        if parsed.has(AnalysisOptionsParser.Key.strict), let first = bill.warnings.first {
            throw IngestError.malformedRecord(first)
        }
        if !parsed.has(AnalysisOptionsParser.Key.quiet) {
            for warning in bill.warnings { context.writeError("\(warning)") }
            if bill.skippedRows > 0 {
                let shown = bill.skippedRows > bill.warnings.count ? " (the first \(bill.warnings.count) are shown above)" : ""
                context.note(bill.skippedRows == 1
                    ? "1 row of \(billing) was left out of the bill: it could not be read as a row of costs (the warning above says why)."
                    : "\(bill.skippedRows) rows of \(billing) were left out of the bill: they could not be read as rows of costs\(shown).")
            }
        }
        let (paths, usedSampleLogs) = try shared.inputPaths(parsed, context: context, verb: "reconciling")
        // The estimate counts the bill's days unless --since/--until choose others.
        let zone = options.costs.timeZone
        let billDays = bill.period.coveredDays
        var period = EstimatePeriod.wholeLog(billDays: billDays, timeZone: zone)
        if parsed[AnalysisOptionsParser.Key.since] != nil || parsed[AnalysisOptionsParser.Key.until] != nil {
            period = EstimatePeriod(source: .options, window: options.reader.window, billDays: billDays, timeZone: zone)
        } else if let billDays {
            period = EstimatePeriod(source: .bill, window: EstimatePeriod.window(billDays, in: zone), billDays: billDays, timeZone: zone)
            options.reader.window = period.window
        }
        var analyzed: (Analysis, diagnostics: LogReader.Output)
        do {
            analyzed = try Analyzer(options: options).analyze(paths: paths, usedSampleLogs: usedSampleLogs)
        } catch IngestError.noCallInPeriod where period.source == .bill {
            // A log that shares no day with the bill is priced whole, and said to be of another period.
            options.reader.window = TimeWindow()
            period = .wholeLog(billDays: billDays, timeZone: zone)
            analyzed = try Analyzer(options: options).analyze(paths: paths, usedSampleLogs: usedSampleLogs)
        }
        let (analysis, read) = analyzed
        period.leftOut(read.outsideWindow, span: read.outsidePeriod)
        shared.reportDiagnostics(read, parsed: parsed, context: context)
        shared.noteTypedText(records: read.typedTextRecords, files: read.typedTextFiles, parsed: parsed, context: context)

        let reconciliation = BillReconciler().reconcile(analysis.pricing, bill: bill, period: period)
        if !parsed.has(AnalysisOptionsParser.Key.quiet) {
            if reconciliation.periodsOverlap == false {
                context.note(BillReconciler.disjointPeriods(bill: bill.period, months: reconciliation.estimateMonths))
            }
            for sentence in reconciliation.periodNotes { context.note(sentence) }
        }
        let renderer = ReconciliationRenderer()
        if let out {
            let files = renderer.files(reconciliation)
            try ReportDirectoryWriter(directory: out.path).write(files)
            if !parsed.has(AnalysisOptionsParser.Key.quiet) { context.note("wrote \(files.map(\.path).joined(separator: ", ")) to \(out.shown).") }
        }
        let terminal = TerminalOutput(context: context, color: parsed[TerminalOutput.option])
        if terminal.isTerminal, !parsed.has(Key.json), parsed[Key.report] == nil {
            context.standardOutput.write(terminal.text.document(renderer.markdown(reconciliation, brief: true)))
        } else if let report {
            context.standardOutput.write(renderer.render(reconciliation, as: report))
        }
        return .success
    }
}
