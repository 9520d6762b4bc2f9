import Foundation
import Testing
@testable import PlacesCostKit
@testable import PlacesCostReference

/// Reading log files end to end: malformed records, line ends, huge lines, directories, formats.
@Suite("LogReader")
struct LogReaderTests {
    /// A valid record `second` seconds after 2026-10-01T09:00:00Z.
    private func valid(_ second: Int, input: String = "a") -> String {
        #"{"timestamp":"2026-10-01T09:00:\#(second < 10 ? "0" : "")\#(second)Z","api":"autocomplete","session_token":"t","input":"\#(input)"}"#
    }

    private static let nine = Timestamp(microseconds: 1_790_845_200 * 1_000_000)

    @Test("Each kind of malformed record is skipped and counted at its FILE:LINE; the records around it are kept")
    func malformedRecords() throws {
        let directory = TemporaryDirectory()
        let lines: [[UInt8]] = [
            Array(valid(1).utf8),
            Array(#"{"timestamp":"2026-10-01T09:00:02Z","api":"autoc"#.utf8),
            Array(#"{"timestamp":"2026-10-01T09:00:03Z","api":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8),
            Array(#"{"timestamp":"2026-10-01T09:00:04Z","api":"a"#.utf8) + [0x00] + Array(#""}"#.utf8),
            Array(#"{"timestamp":true,"api":"autocomplete"}"#.utf8),
            Array(valid(5).utf8),
            Array(#"{"timestamp":"2026-10-01T09:00:06Z","api":5}"#.utf8),
            Array(#"{"timestamp":"2026-10-01T09:00:07Z","api":"autocomplete","session_token":123}"#.utf8),
            Array(#"{"timestamp":"2026-10-01T09:00:08Z","api":"place_details","fields":"a"}"#.utf8),
            Array(#"{"timestamp":"2026-10-01T09:00:09Z","api":"autocomplete","input":7}"#.utf8),
            Array(#"{"timestamp":"2026-10-01T09:00:10Z","api":"autocomplete","user_id":{}}"#.utf8),
            Array(#"{"timestamp":"2026-10-01T09:00:11Z","session_token":"t"}"#.utf8),
            Array(#"{"api":"autocomplete","session_token":"t"}"#.utf8),
            Array(#"{"timestamp":"2026-13-01T09:00:13Z","api":"autocomplete"}"#.utf8),
            Array(#"{"timestamp":"2026-10-01T09:00:14","api":"autocomplete"}"#.utf8),
            Array(valid(15).utf8),
        ]
        let file = directory.write("log.jsonl", bytes: Array(lines.joined(separator: [0x0A])) + [0x0A])
        let output = try LogReader().read([file])

        #expect(output.calls.count == 3)
        #expect(output.calls.map(\.time.microseconds) == [1, 5, 15].map { LogReaderTests.nine.microseconds + Int64($0) * 1_000_000 })
        #expect(output.rejected == 13)
        #expect(output.diagnosticCount == 13)
        #expect(output.files == [file])
        #expect(output.diagnostics.map(\.location.line) == [2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15])
        #expect(output.diagnostics.allSatisfy { $0.location.file == file })
        #expect(output.diagnostics.first?.description.hasPrefix("\(file):2: warning: invalid JSON: ") == true)
        let reasons = output.diagnostics.map(\.reason)
        #expect(reasons[0].hasPrefix("invalid JSON: a string is cut off"))
        #expect(reasons[1].hasPrefix("invalid JSON: invalid UTF-8"))
        #expect(reasons[2].hasPrefix("invalid JSON: a NUL byte in a string"))
        #expect(Array(reasons[3...]) == [
            "`timestamp` must be an RFC 3339 string or epoch milliseconds, found a boolean",
            "`api` must be a non-empty string, found a number",
            "`session_token` must be a string or null, found a number",
            "`fields` must be an array of strings or null, found a string",
            "`input` must be a string or null, found a number",
            "`user_id` must be a string, a number or null, found an object",
            "missing required key `api`",
            "missing required key `timestamp`",
            "the timestamp's month is out of range (01 to 12)",
            "the timestamp has no UTC offset (end it with Z or ±hh:mm)",
        ])
    }

    @Test("Access logs and HAR captures: a malformed line or entry is counted at its position, other requests are skipped, the rest kept")
    func requestLogs() throws {
        let directory = TemporaryDirectory()
        let good = #"203.0.113.7 - u1 [01/Oct/2026:09:00:03 +0000] "GET /maps/api/place/autocomplete/json?input=ab&sessiontoken=t&key=AIzaSECRET HTTP/1.1" 200 10 "-" "-""#
        let access = directory.write("access.log", [
            good,
            #"203.0.113.7 - u1 [99/Xyz/2026:09:00:03 +0000] "GET /maps/api/place/autocomplete/json?key=AIzaSECRET HTTP/1.1" 200 10 "-" "-""#,
            #"203.0.113.7 - - [01/Oct/2026:09:00:04 +0000] "GET /static/app.js HTTP/1.1" 200 10 "-" "-""#,
            good.replacingOccurrences(of: "09:00:03", with: "09:00:05"),
        ].joined(separator: "\n") + "\n")
        let read = try LogReader().read([access])
        #expect(read.calls.count == 2 && read.rejected == 1 && read.skippedRequests == 1)
        #expect(read.diagnostics.count == 1 && read.diagnostics[0].description.hasPrefix("\(access):2: warning: "))
        #expect(!read.diagnostics[0].description.contains("AIza"))

        let entry = #"{"startedDateTime":"2026-10-01T09:00:03.000Z","request":{"method":"GET","url":"https://maps.googleapis.com/maps/api/place/autocomplete/json?input=ab&sessiontoken=t","headers":[]},"response":{"status":200}}"#
        let har = directory.write("capture.har", #"{"log":{"version":"1.2","entries":["# + [
            entry, #"{"request":{"method":"GET","url":"https://maps.googleapis.com/maps/api/place/details/json?key=AIzaSECRET"}}"#,
            entry.replacingOccurrences(of: "maps.googleapis.com/maps/api/place/autocomplete/json", with: "example.com/api"), entry,
        ].joined(separator: ",") + "]}}")
        let captured = try LogReader().read([har])
        #expect(captured.calls.count == 2 && captured.rejected == 1 && captured.skippedRequests == 1)
        #expect(captured.diagnostics.count == 1 && captured.diagnostics[0].description.hasPrefix("\(har):1: warning: entry 2 of log.entries: "))  // a capture on one line: every entry starts on line 1
        #expect(!captured.diagnostics[0].description.contains("AIza"))
    }

    @Test("A log cut at its start (split or tailed) is told by its next line: its first line is rejected at line 1, the rest read", arguments: [
        "jsonl/clean.jsonl", "access-log/clean.log",
    ])
    func cutFirstLine(_ name: String) throws {
        let text = try String(contentsOfFile: MalformedCorpusTests.folder + "/" + name, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let directory = TemporaryDirectory()
        let rest = directory.write("rest", lines.dropFirst().joined(separator: "\n"))
        let expected = try LogReader().read([rest])
        var tested = 0
        for cut in [1, 7, lines[0].utf8.count / 2, lines[0].utf8.count - 1] {
            let bytes = Array(Array(text.utf8).dropFirst(cut))
            // An access-log line without its first bytes may still be a line (`03.0.113.4 - ...`).
            guard InputFormat.sniff(bytes) == nil else { continue }
            tested += 1
            let path = directory.write("cut-\(cut)", bytes: bytes)
            let read = try LogReader().read([path])
            #expect(read.calls == expected.calls, "cut \(cut)")
            #expect(read.diagnostics.map(\.location.line) == [1], "cut \(cut)")
            let run = runCLI(["analyze", path, "--json", "--quiet"])
            #expect(run.code == .success, "\(run.stderr)")
            let restRun = runCLI(["analyze", rest, "--json", "--quiet"])
            let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
            let restJSON = try JSONSerialization.jsonObject(with: Data(restRun.stdout.utf8)) as? [String: Any]
            #expect((json?["input"] as? [String: Any])?["rejected"] as? Int == 1)
            #expect(json?["searches"] as? NSDictionary == restJSON?["searches"] as? NSDictionary)
        }
        #expect(tested >= 2)
    }

    @Test("A UTF-8 byte-order mark, CRLF line ends and a last line without a newline")
    func bomCRLFAndLastLine() throws {
        let directory = TemporaryDirectory()
        let text = valid(1) + "\r\n" + valid(2) + "\r\n" + valid(3, input: "abc")
        let file = directory.write("log.jsonl", bytes: [0xEF, 0xBB, 0xBF] + Array(text.utf8))
        let output = try LogReader().read([file])
        #expect(output.rejected == 0)
        #expect(output.diagnosticCount == 0)
        #expect(output.calls.map(\.time.microseconds) == [1, 2, 3].map { LogReaderTests.nine.microseconds + Int64($0) * 1_000_000 })
        #expect(output.calls.last?.inputLength == 3)
    }

    @Test("A byte-order mark is sniffed past, and CSV files take CRLF too")
    func bomCSV() throws {
        let directory = TemporaryDirectory()
        let file = directory.write("log.csv", bytes: [0xEF, 0xBB, 0xBF] + Array("timestamp,api\r\n1790845200000,autocomplete\r\n1790845201000,geocoding".utf8))
        let output = try LogReader().read([file])
        #expect(output.calls.map(\.api) == [.autocomplete, .geocoding])
        #expect(output.rejected == 0)
    }

    @Test("Blank lines are skipped without being counted, and line numbers still count them")
    func blankLines() throws {
        let directory = TemporaryDirectory()
        let file = directory.write("log.jsonl", "\n   \n\t\n" + valid(1) + "\n\n" + "{}" + "\n \r\n")
        let output = try LogReader().read([file])
        #expect(output.calls.count == 1)
        #expect(output.rejected == 1)
        #expect(output.diagnostics.map(\.location.line) == [6])
        #expect(output.diagnostics.map(\.reason) == ["missing required key `timestamp`"])
    }

    @Test("A line of 1 MiB or more (a 5 MB record, 17 MB of junk) is rejected as overlong; a line just under is read")
    func hugeLines() throws {
        let directory = TemporaryDirectory()
        let big = valid(1, input: String(repeating: "a", count: 5_000_000))
        let garbage = [UInt8](repeating: UInt8(ascii: "x"), count: 17_000_000)
        let justUnder = valid(4, input: String(repeating: "b", count: LineReader.maxRecordLength - 200))
        let bytes = Array((big + "\n").utf8) + garbage + [0x0A] + Array((valid(3) + "\n" + justUnder).utf8)
        let file = directory.write("log.jsonl", bytes: bytes)
        let output = try LogReader().read([file])
        #expect(output.calls.map(\.inputLength) == [1, LineReader.maxRecordLength - 200])
        #expect(output.rejected == 2)
        #expect(output.diagnostics == [1, 2].map { Diagnostic(location: SourceLocation(file: file, line: $0), reason: LineReader.overlongReason) })
    }

    @Test("An empty file gets a diagnostic but no rejection")
    func emptyFile() throws {
        let directory = TemporaryDirectory()
        let empty = directory.write("empty.jsonl", "")
        let blank = directory.write("blank.jsonl", " \n\r\n\t")
        let output = try LogReader().read([empty, blank])
        #expect(output.calls.isEmpty)
        #expect(output.rejected == 0)
        #expect(output.diagnosticCount == 2)
        #expect(output.diagnostics.map(\.description) == ["\(empty): warning: the file holds no records", "\(blank): warning: the file holds no records"])
    }

    @Test("Only the first 20 diagnostics are stored; all are counted")
    func diagnosticLimit() throws {
        let directory = TemporaryDirectory()
        let text = (1...25).map { _ in #"{"api":"autocomplete"}"# }.joined(separator: "\n") + "\n" + valid(1) + "\n"
        let file = directory.write("log.jsonl", text)
        let output = try LogReader().read([file])
        #expect(LogReader.maxStoredDiagnostics == 20)
        #expect(output.diagnostics.count == 20)
        #expect(output.diagnostics.map(\.location.line) == Array(1...20))
        #expect(output.diagnosticCount == 25)
        #expect(output.rejected == 25)
        #expect(output.calls.count == 1)
    }

    @Test("Strict mode throws at the first malformed line")
    func strict() throws {
        let directory = TemporaryDirectory()
        let file = directory.write("log.jsonl", [valid(1), "", #"{"timestamp":true,"api":"x"}"#, "{"].joined(separator: "\n"))
        let error = #expect(throws: IngestError.self) { try LogReader(options: LogReader.Options(strict: true)).read([file]) }
        #expect(error == .malformedRecord(Diagnostic(location: SourceLocation(file: file, line: 3), reason: "`timestamp` must be an RFC 3339 string or epoch milliseconds, found a boolean")))
        #expect(error?.description.hasPrefix("\(file):3: malformed record: ") == true)
    }

    @Test("A directory is read as its log files sorted by name, skipping README.md and hidden files")
    func directory() throws {
        let directory = TemporaryDirectory()
        directory.write("b.jsonl", valid(2) + "\n")
        directory.write("a.csv", "timestamp,api\n1790845201000,geocoding\n")
        directory.write("c.jsonl", valid(3) + "\n")
        directory.write("README.md", "# not a log\n")
        directory.write(".hidden.jsonl", valid(9) + "\n")
        let output = try LogReader().read([directory.path])
        #expect(output.files == ["a.csv", "b.jsonl", "c.jsonl"].map { directory.path + "/" + $0 })
        #expect(output.calls.map(\.time.microseconds) == [1, 2, 3].map { LogReaderTests.nine.microseconds + Int64($0) * 1_000_000 })
        #expect(output.calls.map(\.api) == [.geocoding, .autocomplete, .autocomplete])
        #expect(output.rejected == 0)
        #expect(output.diagnosticCount == 0)
        let slashed = try LogReader().read([directory.path + "/"])
        #expect(slashed.files == output.files)
    }

    @Test("A missing path is unreadable")
    func missingPath() {
        let directory = TemporaryDirectory()
        let path = directory.path + "/nope.jsonl"
        #expect(throws: IngestError.unreadable(path: path, reason: "no such file or directory")) { try LogReader().read([path]) }
    }

    @Test("A format given on the command line overrides sniffing: a CSV read as JSON Lines rejects every line")
    func formatOverride() throws {
        let directory = TemporaryDirectory()
        let file = directory.write("log.csv", "timestamp,api\n1790845200000,autocomplete\n1790845201000,geocoding\n")
        let output = try LogReader(options: LogReader.Options(format: .jsonl)).read([file])
        #expect(output.calls.isEmpty)
        #expect(output.rejected == 3)
        #expect(output.diagnostics.map(\.location.line) == [1, 2, 3])
        #expect(output.diagnostics.first?.reason == "not a JSON object (a record must be one object per line)")
        #expect(try LogReader().read([file]).calls.count == 2)
    }

    @Test("Sniffing: JSON Lines, a CSV header, and anything else")
    func sniff() {
        #expect(InputFormat.sniff(Array(" \r\n\t{\"timestamp\":1}".utf8)) == .jsonl)
        #expect(InputFormat.sniff(Array("timestamp,api,session_token\n1,a,t\n".utf8)) == .csv)
        #expect(InputFormat.sniff(Array("\n\"Timestamp\", \"API\"\r\n".utf8)) == .csv)
        #expect(InputFormat.sniff(Array("sessionToken,placeId,timestamp,api".utf8)) == .csv)
        #expect(InputFormat.sniff(Array("hello world\n{\"timestamp\":1}\n".utf8)) == nil)
        // A header naming `timestamp` is a CSV: the reader then names the missing `api` column.
        #expect(InputFormat.sniff(Array("timestamp,endpoint\n".utf8)) == .csv)
        #expect(InputFormat.sniff(Array("when,endpoint\n".utf8)) == .csv)
        #expect(InputFormat.sniff(Array("alpha,beta\n".utf8)) == nil)
        #expect(InputFormat.sniff([0xFF, 0xFE, 0x00, 0x7B]) == nil)
        #expect(InputFormat.sniff([]) == nil)
        #expect(InputFormat.sniff(Array(" \n\t".utf8)) == nil)
    }

    @Test("A file whose content is neither format cannot be read without --format")
    func unknownFormat() {
        let directory = TemporaryDirectory()
        let file = directory.write("notes.txt", "hello world\n")
        #expect(throws: IngestError.unknownFormat(path: file)) { try LogReader().read([file]) }
    }
}

@Suite("LogReader directories")
struct LogReaderDirectoryTests {
    @Test("Reports written into the logs' folder are skipped with one warning each on the next run, never read as malformed records")
    func ownOutputsInTheFolder() throws {
        let directory = TemporaryDirectory()
        let logs = directory.path + "/logs"
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: packageRoot + "/SampleLogs/ios-app.jsonl", toPath: logs + "/ios-app.jsonl")
        let first = runCLI(["analyze", logs, "--json", "--quiet"])
        #expect(runCLI(["analyze", logs, "--out", logs, "--quiet"]).code == .success)
        let second = runCLI(["analyze", logs, "--json"])
        #expect(second.code == .success, "\(second.stderr)")
        #expect(second.stdout == first.stdout)
        let warnings = second.stderr.split(separator: "\n").filter { $0.contains("warning") }
        #expect(warnings.map { $0.split(separator: ":")[0] }.sorted() == ["\(logs)/costs.csv", "\(logs)/report.json", "\(logs)/searches.csv"], "\(second.stderr)")
        #expect(warnings.allSatisfy { $0.contains("that placescost writes (analyze --out), not a log") }, "\(second.stderr)")
        // Its charts/ folder holds pictures only: no note of a folder left out.
        #expect(!second.stderr.contains("charts"), "\(second.stderr)")
        // Named on its own, such a file is an error that says what it is.
        let named = runCLI(["analyze", logs + "/report.json"])
        #expect(named.code == .dataError)
        #expect(named.stderr.contains("it is a report.json that placescost writes"), "\(named.stderr)")
    }

    @Test("A file of another kind inside a directory is skipped with a warning; named directly, it is an error")
    func otherDataInDirectory() throws {
        let directory = TemporaryDirectory()
        directory.write("a.jsonl", ac(0, "t").jsonLine + "\n")
        let billing = directory.write("billing.csv", "Invoice number,123\nCurrency,USD\n")
        let output = try LogReader().read([directory.path])
        #expect(output.calls.count == 1)
        #expect(output.rejected == 0)
        #expect(output.files == [directory.path + "/a.jsonl"])
        let hint = "it looks like a Google Cloud billing export, not a request log. Compare it with the estimate from a log: placescost reconcile LOG --billing FILE."
        #expect(output.diagnostics.map(\.description) == ["\(billing): warning: skipped: \(hint)"])
        #expect(throws: IngestError.unknownFormat(path: billing, hint: hint)) { try LogReader().read([billing]) }
    }

    @Test("UTF-16 text is told by its byte order mark or its zero bytes, never plain UTF-8")
    func utf16Sniffing() {
        let line = "{\"timestamp\":\"2026-10-01T09:00:00Z\",\"api\":\"autocomplete\"}\n"
        let little = Array(line.utf16).flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] }
        let big = Array(line.utf16).flatMap { [UInt8($0 >> 8), UInt8(truncatingIfNeeded: $0)] }
        #expect(UTF16Text.detect([0xFF, 0xFE] + little) == .byteOrderMarked)
        #expect(UTF16Text.detect([0xFE, 0xFF] + big) == .byteOrderMarked)
        #expect(UTF16Text.detect(little) == .littleEndian)
        #expect(UTF16Text.detect(big) == .bigEndian)
        #expect([UTF16Text.byteOrderMarked, .littleEndian, .bigEndian].map(\.iconvName) == ["UTF-16", "UTF-16LE", "UTF-16BE"])
        for utf8 in [line, "timestamp,api\n", "ü,ß\n{\"a\":\"\u{4E2D}\u{6587}\"}\n", "ab", ""] {
            #expect(UTF16Text.detect(Array(utf8.utf8)) == nil, "\(utf8)")
        }
        // A UTF-8 byte order mark is UTF-8.
        #expect(UTF16Text.detect([0xEF, 0xBB, 0xBF] + Array(line.utf8)) == nil)
    }

    @Test("A UTF-16 log named is an error (65) whose iconv command makes the UTF-8 log; listed in a folder, it is skipped")
    func utf16Files() throws {
        let directory = TemporaryDirectory()
        let text = [ac(0, "t", "ab"), ac(1, "t", "abc"), details(2, "t")].map(\.jsonLine).joined(separator: "\n") + "\n"
        let utf8 = directory.write("calls.jsonl", text)
        let folder = directory.path + "/logs"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let utf16 = folder + "/calls.jsonl.1"
        try Data([0xFF, 0xFE] + Array(text.utf16).flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] }).write(to: URL(fileURLWithPath: utf16))
        let named = runCLI(["analyze", utf16, "--json"])
        #expect(named.code == .dataError)
        let copy = directory.path + "/calls-utf8.jsonl.1"
        #expect(named.stderr == "placescost: error: \(utf16) is UTF-16 text (as Windows PowerShell's `>` writes it), and logs are read as UTF-8. "
            + "Save it as UTF-8 first: iconv -f UTF-16 -t UTF-8 \(utf16) > calls-utf8.jsonl.1, or in PowerShell, Get-Content \(utf16) | Set-Content -Encoding utf8 calls-utf8.jsonl.1.\n", "\(named.stderr)")
        // The command as printed, when this system has iconv: the same calls as the UTF-8 log.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/iconv") {
            let run = try ProcessRun.run("/bin/sh", ["-c", "cd \"$1\" && iconv -f UTF-16 -t UTF-8 \"$2\" > calls-utf8.jsonl.1", "sh", directory.path, utf16], timeout: 60)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == Data(contentsOf: URL(fileURLWithPath: utf8)))
        }
        directory.write("logs/calls.jsonl", text)
        let listed = runCLI(["analyze", folder, "--json"])
        #expect(listed.code == .success)
        #expect(listed.stderr.hasPrefix("\(utf16): warning: UTF-16 text, and logs are read as UTF-8; skipped. Save it as UTF-8 first: iconv -f UTF-16 -t UTF-8 \(utf16) > calls-utf8.jsonl.1"), "\(listed.stderr)")
    }

    @Test("A header separated by semicolons or tabs is named, with a conversion that makes the comma CSV", arguments: [";", "\t"])
    func otherSeparators(separator: String) throws {
        let directory = TemporaryDirectory()
        let rows = [["timestamp", "api", "session_token", "input"], ["2026-10-01T09:00:00Z", "autocomplete", "t", "a;b,c"], ["2026-10-01T09:00:02Z", "place_details", "t", ""]]
        // The other separator, its cells quoted as a spreadsheet quotes them.
        let quoted = { (cell: String) in cell.contains(separator) || cell.contains(",") ? "\"\(cell)\"" : cell }
        let path = directory.write("calls.csv", rows.map { $0.map(quoted).joined(separator: separator) }.joined(separator: "\r\n") + "\r\n")
        let run = runCLI(["analyze", path, "--json"])
        #expect(run.code == .dataError)
        let name = separator == ";" ? "semicolons" : "tabs"
        #expect(run.stderr.contains("its first line is a header of cells separated by \(name), and CSV logs are separated by commas (RFC 4180). Convert it: python3 -c"), "\(run.stderr)")
        // The command as printed, on this file: a CSV that reads as the rows written with commas.
        guard let start = run.stderr.range(of: "Convert it: "), let end = run.stderr.range(of: " < FILE > calls.csv.") else {
            Issue.record("no command in \(run.stderr)")
            return
        }
        let command = String(run.stderr[start.upperBound..<end.lowerBound]) + " < \"$1\" > \"$2\""
        guard try ProcessRun.run("/bin/sh", ["-c", "command -v python3"], timeout: 60).status == 0 else { return }
        let converted = directory.path + "/converted.csv"
        let conversion = try ProcessRun.run("/bin/sh", ["-c", command, "sh", path, converted], timeout: 60)
        #expect(conversion.status == 0, "\(conversion.stderr)")
        let commas = directory.write("commas.csv", rows.map { $0.map { $0.contains(",") || $0.contains(";") ? "\"\($0)\"" : $0 }.joined(separator: ",") }.joined(separator: "\n") + "\n")
        let report = { (file: String) in runCLI(["analyze", file, "--json"]).stdout.replacingOccurrences(of: file, with: "FILE") }
        #expect(runCLI(["analyze", converted, "--json"]).code == .success)
        #expect(report(converted) == report(commas))
    }

    @Test("A JSON array of records is read, one of other values is named, and pretty-printed records are named with the jq command that makes JSON Lines")
    func jsonThatIsNotJSONLines() {
        let directory = TemporaryDirectory()
        let records = [ac(0, "t", "ab"), ac(1, "t", "abc"), details(2, "t")].map(\.jsonLine)
        let lines = runCLI(["analyze", directory.write("calls.jsonl", records.joined(separator: "\n") + "\n"), "--json"])
        for text in ["[" + records.joined(separator: ",") + "]\n", "[\n  " + records.joined(separator: ",\n  ") + "\n]\n"] {
            let path = directory.write("array.json", text)
            for format in [[], ["--format", "jsonl"]] {
                let run = runCLI(["analyze", path, "--json"] + format)
                #expect(run.code == .success, "\(run.stderr)")
                #expect(run.stdout.replacingOccurrences(of: "array.json", with: "calls.jsonl") == lines.stdout)
            }
        }
        let values = directory.write("values.json", "[\"2026-10-01\", \"autocomplete\"]\n")
        let run = runCLI(["analyze", values, "--json"])
        #expect(run.code == .dataError)
        #expect(run.stderr == "placescost: error: cannot tell the format of \(values) from its content: it is a JSON array whose first element is not an object, and a log's records are JSON objects, one a line (JSON Lines) or the elements of one array.\n", "\(run.stderr)")
        // Pretty-printed, as `jq .` prints: each record opens with a line of `{` alone.
        let pretty = directory.write("pretty.jsonl", records.map { $0.replacingOccurrences(of: "{", with: "{\n  ").replacingOccurrences(of: ",\"", with: ",\n  \"").replacingOccurrences(of: "}", with: "\n}") }.joined(separator: "\n") + "\n")
        let prettyRun = runCLI(["analyze", pretty, "--json"])
        #expect(prettyRun.code == .dataError)
        #expect(prettyRun.stderr.hasPrefix("placescost: error: no record could be read: \(pretty):1: a line of `{` alone: the records span several lines, as pretty-printed JSON does, and a log holds one object per line (jq -c . writes them so); "), "\(prettyRun.stderr)")
    }

    @Test("A web server's JSON access log is read as its requests, not as records missing `timestamp`")
    func jsonAccessLog() throws {
        let directory = TemporaryDirectory()
        let caddy = #"{"level":"info","ts":1759309213.875,"logger":"http.log.access","request":{"method":"GET","uri":"/maps/api/place/autocomplete/json?input=Pa"},"status":200}"#
        let traefik = #"{"ClientAddr":"10.0.0.1:5000","RequestMethod":"GET","RequestPath":"/maps/api/place/details/json","DownstreamStatus":200,"time":"2026-10-01T09:00:00Z"}"#
        let nginx = #"{"time":"2026-10-01T09:00:00+00:00","remote_addr":"10.0.0.1","request":"GET /maps/api/geocode/json HTTP/1.1","status":"200"}"#
        let path = directory.write("access.json", [caddy, traefik, nginx].joined(separator: "\n") + "\n")
        let run = runCLI(["analyze", path, "--json"])
        #expect(run.code == .success)
        // Each is the request it logs: an autocomplete call, and two Places requests that lack their place.
        #expect(run.stderr == "\(path):2: warning: a legacy Place Details request without a placeid or place_id parameter\n"
            + "\(path):3: warning: a Geocoding request without a place_id, address, latlng or components parameter\n", "\(run.stderr)")
        #expect((try MalformedCorpusTests.object(run.stdout)["input"] as? [String: Any])?["records"] as? Int == 1)
        // A call record with such a key besides its own is a call.
        let call = directory.write("calls.jsonl", #"{"timestamp":"2026-10-01T09:00:00Z","api":"autocomplete","session_token":"t","method":"GET"}"# + "\n")
        #expect(runCLI(["analyze", call, "--json"]).code == .success)
    }
}

/// Blank lines before the first record, however many, are skipped as every reader skips them:
/// the log after them is read whole, in every format, plain, gzip and piped.
@Suite("Blank lines before the first record")
struct LeadingBlankTests {
    /// The report of `log` with the input's name taken out, for comparing inputs of other names.
    static func report(_ arguments: [String], stdin: Data? = nil) throws -> String {
        let run = try ProcessRun.placescost(["analyze"] + arguments + ["--json", "--quiet", "--pricing", "legacy-list"], stdin: stdin, timeout: 120)
        try #require(run.status == 0, "\(run.stderr)")
        var object = try MalformedCorpusTests.object(run.stdout)
        var input = try #require(object["input"] as? [String: Any])
        input["files"] = nil
        object["input"] = input
        return MalformedCorpusTests.json(object)
    }

    @Test("A log after 64 KiB and more of blank lines or spaces is read whole", arguments: ["jsonl", "csv", "access-log", "har", "array"])
    func readWhole(_ format: String) throws {
        let directory = TemporaryDirectory()
        var text = GenerateCommandTests.generate(format == "array" ? "jsonl" : format)
        if format == "array" {
            text = "[" + text.split(separator: "\n").joined(separator: ",\n") + "]\n"
        }
        let plain = directory.write("plain.log", text)
        let expected = try Self.report([plain])
        for blank in [String(repeating: "\n", count: 65_536), String(repeating: " ", count: 70_000) + "\r\n", String(repeating: "\n", count: 300_000)] {
            let padded = directory.write("padded.log", blank + text)
            #expect(try Self.report([padded]) == expected, "\(format), \(blank.utf8.count) blank bytes")
            #expect(try Self.report(["-"], stdin: Data((blank + text).utf8)) == expected, "\(format) piped")
            #expect(try ProcessRun.run("/bin/bash", ["-c", "gzip -kf \"$0\"", padded], timeout: 60).status == 0)
            #expect(try Self.report([padded + ".gz"]) == expected, "\(format) gzip")
        }
    }

    @Test("A file blank for its first 16 MiB is named as such: an error when named, skipped with a warning in a folder")
    func blankForLong() throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path + "/logs", withIntermediateDirectories: true)
        let path = directory.write("logs/blank.jsonl", String(repeating: "\n", count: 16 << 20) + #"{"timestamp":"2026-10-01T00:00:00Z","api":"autocomplete"}"# + "\n")
        let named = runCLI(["analyze", path, "--json"])
        #expect(named.code == .dataError)
        #expect(named.stderr.contains("its first 16 MiB are blank (spaces and line breaks), which no log starts with"), "\(named.stderr)")
        directory.write("logs/good.jsonl", try String(contentsOfFile: MalformedCorpusTests.folder + "/jsonl/clean.jsonl", encoding: .utf8))
        let listed = runCLI(["analyze", directory.path + "/logs", "--json"])
        #expect(listed.code == .success, "\(listed.stderr)")
        #expect(listed.stderr.contains("\(path): warning: skipped: its first 16 MiB are blank"), "\(listed.stderr)")
    }
}

/// What a log's `api` and field-mask values may hold when an exporter is wired wrong (the
/// request's URL with its key, token and typed text; control characters): no report repeats it.
@Suite("Secrets in api and field-mask values")
struct SecretValuesTests {
    @Test("An unknown api value is shown as a name, as a URL without its query, or not at all")
    func otherNames() {
        #expect(API.parse("findplacefromtext").api == .other("findplacefromtext"))
        #expect(API.parse("Nearby Search (New)").api == .other("Nearby Search (New)"))
        #expect(API.parse("https://maps.googleapis.com/maps/api/place/nearbysearch/json?location=1,2&key=AIzaSyFAKEKEY").api
            == .other("https://maps.googleapis.com/maps/api/place/nearbysearch/json (its query left out)"))
        #expect(API.parse("/maps/api/place/photo").api == .other("/maps/api/place/photo"))
        #expect(API.parse("AIzaSyA1234567890abcdefghijklmnopqrstuv").api == .other(API.unreadableName))
        #expect(FieldCatalog.shownName("AIzaSyA1234567890abcdefghijklmnopqrstuv") == FieldCatalog.notAFieldName)
        #expect(FieldCatalog.shownName("displayName") == "displayName" && FieldCatalog.shownName("*") == "*")
        for hostile in ["x\u{202E}gnp.exe\u{0}\n2026-10,current,0,Autocomplete - Per Request,999999,1,1", "key=AIzaSyFAKEKEY",
                        String(repeating: "a", count: 65), "tipo de búsqueda", "https://h/p\n?q", "a,b", "\"quoted\""] {
            #expect(API.parse(hostile).api == .other(API.unreadableName), "\(hostile.debugDescription)")
        }
    }

    @Test("A log whose api values are request URLs and whose masks name keys: no output file, warning or error repeats a secret",
          arguments: ["jsonl", "csv"])
    func noSecretInReports(_ format: String) throws {
        let url = "https://maps.googleapis.com/maps/api/place/nearbysearch/json?input=TYPEDTEXTXYZ&sessiontoken=SECRETTOKEN123&key=AIzaSyFAKEKEY"
        let control = "x\u{202E}gnp.exe\u{0}\n2026-10,current,0,Autocomplete - Per Request,999999,1,1"
        let records: [(api: String, fields: String?)] = [
            ("autocomplete", nil), (url, nil), (control, nil), ("place_details", "formatted_address,key=AIzaSyFAKEKEY,USERIDQQQ typed"),
            // A bare key, as a name would be: never repeated either.
            ("AIzaSyBAREKEY0123456789abcdefghijklmn", nil), ("place_details", "formatted_address,AIzaSyMASKKEY0123456789abcdefghijklmn"),
        ]
        let text: String
        if format == "jsonl" {
            text = records.enumerated().map { index, record in
                let api = String(decoding: try! JSONEncoder().encode(record.api), as: UTF8.self)
                let fields = record.fields.map { #","fields":"\#($0)""# } ?? ""
                return #"{"timestamp":"2026-10-01T00:00:0\#(index)Z","api":\#(api),"session_token":"t1"\#(fields)}"#
            }.joined(separator: "\n") + "\n"
        } else {
            text = "timestamp,api,session_token,fields\n" + records.enumerated().map { index, record in
                "2026-10-01T00:00:0\(index)Z,\"\(record.api.replacingOccurrences(of: "\"", with: "\"\""))\",t1,\"\(record.fields ?? "")\""
            }.joined(separator: "\n") + "\n"
        }
        let directory = TemporaryDirectory()
        let log = directory.write("log.\(format)", text)
        let run = runCLI(["analyze", log, "--out", directory.path + "/out"])
        #expect(run.code == .success, "\(run.stderr)")
        let written = try FileManager.default.subpathsOfDirectory(atPath: directory.path + "/out").filter { !$0.hasSuffix("charts") }
        #expect(written.count >= 5)
        for name in written {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: directory.path + "/out/" + name))
            let contents = String(decoding: bytes, as: UTF8.self)
            for secret in ["AIzaSyFAKEKEY", "SECRETTOKEN123", "TYPEDTEXTXYZ", "USERIDQQQ", "999999", "\u{202E}", "BAREKEY", "MASKKEY"] {
                #expect(!contents.contains(secret), "\(name) repeats \(secret.debugDescription)")
            }
            #expect(!bytes.contains(0), "\(name) holds a NUL byte")
        }
        for secret in ["AIzaSyFAKEKEY", "SECRETTOKEN123", "TYPEDTEXTXYZ", "USERIDQQQ", "BAREKEY", "MASKKEY"] {
            #expect(!run.stderr.contains(secret), "stderr repeats \(secret)")
        }
        // The report still prices from its traffic: the masks' unknown names bill as they did.
        let whatIf = runCLI(["simulate", "--from", directory.path + "/out/report.json", "--json"])
        #expect(whatIf.code == .success, "\(whatIf.stderr)")
    }
}
