/// `placescost reconcile [PATH]... --billing FILE`: the estimate against the real bill.
struct ReconcileCommand {
    static let usage = "placescost reconcile [PATH|-]... --billing FILE [--format auto|jsonl|csv|access-log|har] [--log-format STRING] [--route PATH=API]... [--strip-prefix PATH]... [--user-header NAME] [--pricing ID|FILE] [--since DATE] [--until DATE] [--timezone TZ] [--scale X] [--report md|json] [--json] [--out DIR] [--strict] [--dedupe] [--quiet]"

    static let help = """
    placescost reconcile: set the estimate for your logs against a Cloud Billing export, SKU by
    SKU, and flag the SKUs whose counts differ by more than 2%.

    USAGE
      \(usage)

    ARGUMENTS
      PATH                     Request logs, as for `analyze`. With none, the bundled
                               SampleLogs/ are used.

    OPTIONS
      --billing FILE           The billing export: a console cost-table CSV, a reports-page CSV,
                               or a BigQuery billing export as CSV or JSON Lines (required).
      --format FORMAT          auto (default), jsonl, csv, access-log or har: the logs' format.
      --log-format, --route, --strip-prefix, --user-header
                               As for `analyze`: how access logs and captures are read.
      --pricing ID|FILE        The price table for the estimate, as for `analyze`.
      --since DATE, --until DATE
                               Only calls in this period; match them to the bill's dates.
      --timezone TZ            Calendar months for the estimate (default UTC).
      --scale X                Multiply logged volumes by X (a 10% sample: --scale 10).
      --report md|json         What to print on standard output (default md; with --out, nothing
                               unless asked).
      --json                   Same as --report json.
      --out DIR                Write reconciliation.md and reconciliation.json into DIR.
      --strict                 Stop at the first malformed log record (exit 65).
      --dedupe                 Drop log records that repeat an earlier record exactly.
      --quiet                  Print no warnings or notes on standard error (errors still).
      -h, --help               Show this help.

    The estimate is the app's current billing (delay 0). SKU costs are before credits; credits
    are totals of their own. Rows of other services in the export are counted and left out.

    """

    static let scanner = ArgumentScanner(options: AnalysisOptionsParser.options + [
        .init("billing", value: "FILE"), .init("report", value: "md|json"), .init("json"), .init("out", value: "DIR"),
        .init("color", value: "auto|always|never"), .init("help"),
    ], usage: usage)

    let arguments: [String]
    let context: CommandContext

    func run() throws -> ExitCode {
        if arguments.contains("-h") || arguments.contains("--help") {
            context.standardOutput.write(ReconcileCommand.help)
            return .success
        }
        let parsed = try ReconcileCommand.scanner.scan(arguments)
        let shared = AnalysisOptionsParser(usage: ReconcileCommand.usage)
        var options = Analyzer.Options()
        try shared.apply(parsed, to: &options)
        options.temporaryDirectory = context.temporaryDirectory
        options.reader.zlibLibrary = context.zlibLibrary
        guard let billing = parsed["billing"], !billing.isEmpty else {
            throw CLIError.usage(message: "reconcile needs the billing export: --billing FILE.", usage: ReconcileCommand.usage)
        }
        let report: ReconciliationRenderer.Format?
        if parsed.has("json") {
            report = .json
        } else if let value = parsed["report"] {
            guard let format = ReconciliationRenderer.Format(rawValue: value) else {
                throw CLIError.usage(message: "--report takes md or json, not `\(value)`.", usage: ReconcileCommand.usage)
            }
            report = format
        } else {
            report = parsed["out"] == nil ? .md : nil
        }
        let out = try shared.outDirectory(parsed, context: context)
        // The bill is read first: a wrong --billing path should fail before a long log read.
        let billingPath = billing.hasPrefix("/") ? billing : context.workingDirectory + "/" + billing
        let bill = try BillingExportReader().read(path: billingPath, shownAs: billing)
        if !parsed.has("quiet") {
            for warning in bill.warnings { context.writeError("\(warning)") }
            if bill.skippedRows > 0 {
                let shown = bill.skippedRows > bill.warnings.count ? " (the first \(bill.warnings.count) are shown above)" : ""
                context.note(bill.skippedRows == 1
                    ? "1 row of \(billing) was left out of the bill: a number in it could not be used."
                    : "\(bill.skippedRows) rows of \(billing) were left out of the bill: a number in them could not be used\(shown).")
            }
        }
        let (paths, usedSampleLogs) = try shared.inputPaths(parsed, context: context, verb: "reconciling")
        let (analysis, read) = try Analyzer(options: options).analyze(paths: paths, usedSampleLogs: usedSampleLogs)
        shared.reportDiagnostics(read, parsed: parsed, context: context)

        let reconciliation = BillReconciler().reconcile(analysis.pricing, bill: bill)
        let renderer = ReconciliationRenderer()
        if let out {
            let files = renderer.files(reconciliation)
            try ReportDirectoryWriter(directory: out.path).write(files)
            if !parsed.has("quiet") { context.note("wrote \(files.map(\.path).joined(separator: ", ")) to \(out.shown).") }
        }
        let terminal = try TerminalOutput(context: context, color: parsed["color"], usage: ReconcileCommand.usage)
        if terminal.isTerminal, !parsed.has("json"), parsed["report"] == nil {
            context.standardOutput.write(terminal.text.document(renderer.render(reconciliation, as: .md)))
        } else if let report {
            context.standardOutput.write(renderer.render(reconciliation, as: report))
        }
        return .success
    }
}
