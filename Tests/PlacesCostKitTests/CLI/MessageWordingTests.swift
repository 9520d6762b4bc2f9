import Foundation
import Testing
@testable import PlacesCostKit

/// Small things a user meets at the command line: an option's value in another case, JSON where
/// `--json` is asked for, and errors that say what the input is and what to do.
@Suite("Message wording")
struct MessageWordingTests {
    static let consolePreamble = "Invoice number,5012345678\nBilling account ID,01ABCD-234EF5-6789GH\nBilling account name,Example\nInvoice month,2026-10\nCurrency,USD\n\n"
    static let consoleHeader = "Billing account name,Billing account ID,Project name,Project ID,Project hierarchy,Service description,Service ID,SKU description,SKU ID,Consumption model description,Credit type,Cost type,Usage start date,Usage end date,Usage amount,Usage unit,Unrounded Cost ($),Cost ($)\n"

    @Test("An option's choice is taken in any case")
    func choiceCase() {
        let upper = runCLI(["sql", "--dialect", "DuckDB", "--quiet"])
        #expect(upper.code == .success, "\(upper.stderr)")
        #expect(upper.stdout == runCLI(["sql", "--dialect", "duckdb", "--quiet"]).stdout)
        #expect(runCLI(["analyze", "--report", "JSON", "--quiet"]).stdout.hasPrefix("{"))
        #expect(runCLI(["sql", "--dialect", "postgres"]).stderr.hasPrefix("placescost: error: --dialect takes bigquery or duckdb, not `postgres`."))
    }

    @Test("pricing list --json prints the tables as JSON")
    func pricingListJSON() throws {
        let run = runCLI(["pricing", "list", "--json"])
        #expect(run.code == .success)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["id"] as? String } == BundledPriceTables.files.map(\.id))
        #expect(rows.first?["effective_from"] as? String == "2018-07-16")
        #expect(rows.allSatisfy { $0.keys.sorted() == ["api_version", "effective_from", "effective_to", "id", "title"] })
    }

    @Test("simulate: --needs-details takes yes or no, and a file argument is pointed to --from")
    func simulateArguments() {
        for value in ["maybe", "Yes please"] {
            let run = runCLI(["simulate", "--needs-details", value])
            #expect(run.code == .usage)
            #expect(run.stderr.hasPrefix("placescost: error: simulate's --needs-details takes yes or no, not `\(value)`.\n"), "\(run.stderr)")
        }
        let file = runCLI(["simulate", "app.jsonl"])
        #expect(file.code == .usage)
        #expect(file.stderr.hasPrefix("placescost: error: simulate takes no file arguments (found `app.jsonl`); to start from a log or a report.json, pass it with --from.\n"))
    }

    @Test("reconcile names a folder given as the bill, a bill saved with semicolons, and a bill with no Places row")
    func billMessages() throws {
        let directory = TemporaryDirectory()
        let folder = runCLI(["reconcile", "SampleLogs/ios-app.jsonl", "--billing", directory.path], workingDirectory: packageRoot)
        #expect(folder.code == .noInput)
        #expect(folder.stderr == "placescost: error: cannot read the billing export \(directory.path): it is a folder; pass the export file itself. Check the --billing path.\n")
        let semicolons = directory.write("semicolon.csv", (Self.consolePreamble + Self.consoleHeader).replacingOccurrences(of: ",", with: ";"))
        let saved = runCLI(["reconcile", "SampleLogs/ios-app.jsonl", "--billing", semicolons], workingDirectory: packageRoot)
        #expect(saved.code == .dataError)
        #expect(saved.stderr.contains("its rows are text separated by semicolons, as a spreadsheet set to another language saves a CSV."), "\(saved.stderr)")
        let empty = directory.write("empty.csv", Self.consolePreamble + Self.consoleHeader)
        let run = runCLI(["reconcile", "SampleLogs/ios-app.jsonl", "--billing", empty, "--report", "md", "--quiet"], workingDirectory: packageRoot)
        #expect(run.code == .success, "\(run.stderr)")
        #expect(run.stdout.contains("**The export holds no Places usage row**: every SKU of the estimate shows as not in the bill."), "\(run.stdout)")
        let full = runCLI(["reconcile", "SampleLogs/ios-app.jsonl", "--billing", "SampleLogs/billing/cost-table-2026-10.csv", "--report", "md", "--quiet"], workingDirectory: packageRoot)
        #expect(!full.stdout.contains("holds no Places usage row"))
    }

    @Test("simulate with a delay at or past the characters typed says what that prices")
    func delayPastTyping() {
        let past = runCLI(["simulate", "--chars", "8", "--delay", "8"])
        #expect(past.code == .success)
        #expect(past.stderr.contains("placescost: note: --delay 8 waits past the 8 characters users type: no prediction shows before they select"), "\(past.stderr)")
        #expect(!runCLI(["simulate", "--chars", "8", "--delay", "7"]).stderr.contains("waits past"))
        #expect(!runCLI(["simulate", "--requests", "1", "--delay", "9"]).stderr.contains("waits past"))
    }

    @Test("A symbolic link in a loop or to nothing, and a folder on standard input, are named for what they are")
    func oddInputs() throws {
        let directory = TemporaryDirectory()
        let loop = directory.path + "/a.jsonl", other = directory.path + "/b.jsonl", broken = directory.path + "/c.jsonl"
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: other)
        try FileManager.default.createSymbolicLink(atPath: other, withDestinationPath: loop)
        try FileManager.default.createSymbolicLink(atPath: broken, withDestinationPath: directory.path + "/missing.jsonl")
        let looped = runCLI(["analyze", loop])
        #expect(looped.code == .noInput)
        #expect(looped.stderr == "placescost: error: cannot read \(loop): a symbolic link in a loop (it leads back to itself). Check the path, or pass - to read standard input.\n")
        #expect(runCLI(["analyze", broken]).stderr == "placescost: error: cannot read \(broken): a symbolic link to nothing (broken). Check the path, or pass - to read standard input.\n")
        #expect(runCLI(["analyze", directory.path + "/none.jsonl"]).stderr.contains(": no such file or directory."))
        let executable = try #require(EndToEndTests.executable)
        let folder = try ProcessRun.run("/bin/bash", ["-c", "exec \"$0\" analyze - < \"$1\"", executable, directory.path], timeout: 60)
        #expect(folder.status == 66)
        #expect(folder.stderr == "placescost: error: cannot read <stdin>: standard input is a folder; pass the folder's path as an argument instead.\n", "\(folder.stderr)")
    }

    @Test("When every bill is $0 the ranking says it is by list price, and why its first row is not the recommendation")
    func allZeroRanking() {
        let free = runCLI(["analyze", "--report", "md", "-q"], workingDirectory: packageRoot).stdout
        #expect(free.contains(MarkdownReportRenderer.allZeroRanking))
        let billed = runCLI(["analyze", "--report", "md", "-q", "--scale", "40"], workingDirectory: packageRoot).stdout
        #expect(billed.contains("## Strategies ranked by the bill") && !billed.contains(MarkdownReportRenderer.allZeroRanking))
    }
}
