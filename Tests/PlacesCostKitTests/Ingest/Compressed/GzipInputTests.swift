import Foundation
import Testing
@testable import PlacesCostKit
@testable import PlacesCostReference

/// gzip input, told by its first bytes, gives the report of the same text uncompressed: in every
/// format, from a file of any name, a directory, standard input or a pipe, in one member or many,
/// read once or twice. Damaged data keeps the records before the damage and warns at its line;
/// nothing hangs, nothing secret is printed. The fixtures (`Fixtures/Compressed/manifest.json`)
/// are written by `scripts/make_compressed_fixtures.py`.
@Suite("Gzip input", .enabled(if: ZLib.platform != nil, "zlib is not on this machine"))
struct GzipInputTests {
    static let fixtures = packageRoot + "/Tests/PlacesCostKitTests/Fixtures/Compressed"
    static let arguments = ["--json", "--pricing", "legacy-list", "--threads", "2"]

    struct Case: Decodable, CustomTestStringConvertible, Sendable {
        struct Warning: Decodable, Sendable {
            var line: Int
            var reason: String
        }

        var file: String
        var format: String
        var clean: String
        /// Lines of the clean log the fixture must read: the records before any damage.
        var lines: Int
        var warning: Warning?
        var testDescription: String { file }
    }

    static let cases: [Case] = {
        struct Manifest: Decodable { var cases: [Case] }
        let data = FileManager.default.contents(atPath: fixtures + "/manifest.json") ?? Data()
        return (try? JSONDecoder().decode(Manifest.self, from: data))?.cases ?? []
    }()

    /// The report as canonical JSON without the input's file names.
    static func comparable(_ stdout: String) throws -> String {
        MalformedCorpusTests.withoutInputFiles(try MalformedCorpusTests.object(stdout))
    }

    /// The report of `text` read from a plain file.
    static func plainReport(_ text: String, arguments: [String] = arguments) throws -> String {
        let directory = TemporaryDirectory()
        let run = runCLI(["analyze", directory.write("plain", text)] + arguments)
        try #require(run.code == .success, "\(run.stderr)")
        return try comparable(run.stdout)
    }

    @Test("The fixtures cover every format, several members, and each kind of damage")
    func manifestCoversEveryFormat() {
        #expect(Set(Self.cases.map(\.format)) == Set(InputFormat.allCases.map(\.rawValue)))
        #expect(Self.cases.filter { $0.warning != nil }.count >= 4)
    }

    @Test("Each fixture gives the report of the clean lines it holds, and only its damage is warned, at the damage's line", arguments: cases)
    func fixture(_ fixture: Case) throws {
        let path = Self.fixtures + "/" + fixture.file
        let run = runCLI(["analyze", path] + Self.arguments)
        #expect(run.code == .success, "\(run.stderr)")
        let clean = try String(contentsOfFile: MalformedCorpusTests.folder + "/" + fixture.clean, encoding: .utf8)
        let lines = clean.split(separator: "\n", omittingEmptySubsequences: false)
        let kept = fixture.lines == lines.count - 1 && clean.hasSuffix("\n") ? clean : lines[0..<fixture.lines].joined(separator: "\n") + "\n"
        #expect(try Self.comparable(run.stdout) == Self.plainReport(kept))
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains("warning") }
        if let warning = fixture.warning {
            #expect(warnings.count == 1, "\(run.stderr)")
            #expect(warnings.first?.hasPrefix("\(path):\(warning.line): warning: \(warning.reason)") == true, "\(run.stderr)")
        } else {
            #expect(warnings.isEmpty, "\(run.stderr)")
        }
        // The whole-read twin reads the same calls and gives the same warning.
        let read = try LogReader().read([path])
        let directory = TemporaryDirectory()
        let plain = try LogReader().read([directory.write("plain", kept)])
        #expect(read.calls == plain.calls)
        #expect(read.diagnostics.isEmpty)
        #expect(read.fileWarnings.map(\.location.line) == fixture.warning.map { [$0.line] } ?? [])
    }

    @Test("The damage warning is shown even after more garbage lines than the warnings shown")
    func damageAfterAFlood() throws {
        // Two dozen malformed lines, then a bad check: the record warnings pass the cap of 20, the
        // damage warning, which explains them, is still shown.
        let clean = try String(contentsOfFile: MalformedCorpusTests.folder + "/jsonl/clean.jsonl", encoding: .utf8).split(separator: "\n")
        let text = ([String(clean[0])] + (0..<24).map { "garbage \($0)" } + clean.dropFirst().map(String.init)).joined(separator: "\n") + "\n"
        var bytes = StoredGzipWriter.member(text)
        bytes[bytes.count - 8] ^= 0xFF  // the CRC-32
        let directory = TemporaryDirectory()
        let path = directory.write("log.gz", bytes: bytes)
        let run = runCLI(["analyze", path] + Self.arguments)
        #expect(run.code == .success, "\(run.stderr)")
        let warnings = run.stderr.split(separator: "\n").filter { $0.hasPrefix(path + ":") }
        #expect(warnings.count == LogReader.maxStoredDiagnostics + 1, "\(run.stderr)")
        #expect(warnings.last?.contains("the gzip data is damaged") == true, "\(run.stderr)")
        #expect(run.stderr.contains("4 more malformed records or problems not shown (24 in all)"), "\(run.stderr)")
    }

    @Test("The sample logs gzip-compressed, under a name that says nothing, give the same report", arguments: [
        "ios-app.jsonl", "proxy/access.log", "har/web-app.har",
    ])
    func sampleLogs(_ name: String) throws {
        let text = try String(contentsOfFile: packageRoot + "/SampleLogs/" + name, encoding: .utf8)
        let directory = TemporaryDirectory()
        let path = directory.write("log", bytes: StoredGzipWriter.member(text))
        let run = runCLI(["analyze", path] + Self.arguments)
        #expect(run.code == .success, "\(run.stderr)")
        #expect(try Self.comparable(run.stdout) == Self.plainReport(text))
        // --format names the text's format: the content is still told to be gzip.
        let format = name.hasSuffix(".jsonl") ? "jsonl" : name.hasSuffix(".har") ? "har" : "access-log"
        let formatted = runCLI(["analyze", path, "--format", format] + Self.arguments)
        #expect(formatted.stdout == run.stdout)
    }

    @Test("Generated logs compressed by gzip(1) at levels 1 and 9, and concatenated as `cat a.gz b.gz`, give the same report",
          .enabled(if: GzipInputTests.gzipExecutable != nil, "no gzip(1) on this machine"),
          arguments: ["jsonl", "csv", "access-log"])
    func gzipTool(_ format: String) throws {
        let tool = try #require(Self.gzipExecutable)
        let text = GenerateCommandTests.generate(format)
        let directory = TemporaryDirectory()
        let plain = directory.write("log", text)
        let expected = try Self.plainReport(text)
        for level in ["-1", "-9"] {
            let compressed = directory.path + "/log\(level).gz"
            let run = try ProcessRun.run("/bin/sh", ["-c", "\"$0\" -c \(level) \"$1\" > \"$2\"", tool, plain, compressed], timeout: 120)
            try #require(run.status == 0, "\(run.stderr)")
            let report = runCLI(["analyze", compressed] + Self.arguments)
            #expect(report.code == .success, "\(report.stderr)")
            #expect(try Self.comparable(report.stdout) == expected, "gzip \(level)")
        }
        // Two members, cut at a line end (a CSV's second part is rows without a header).
        let lines = text.split(separator: "\n").map(String.init)
        let first = directory.write("first", lines[..<(lines.count / 2)].joined(separator: "\n") + "\n")
        let second = directory.write("second", lines[(lines.count / 2)...].joined(separator: "\n") + "\n")
        let joined = directory.path + "/joined.gz"
        let run = try ProcessRun.run("/bin/sh", ["-c", "\"$0\" -c \"$1\" > \"$3\" && \"$0\" -c \"$2\" >> \"$3\"", tool, first, second, joined], timeout: 120)
        try #require(run.status == 0, "\(run.stderr)")
        let report = runCLI(["analyze", joined] + Self.arguments)
        #expect(try Self.comparable(report.stdout) == expected)
    }

    static let gzipExecutable: String? = ["/bin/gzip", "/usr/bin/gzip"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test("An out-of-order gzip log read twice (a file, standard input from a pipe, standard input from a file) gives the plain file's report",
          arguments: PipedInputTests.formats)
    func readTwice(_ format: InputFormat) throws {
        let text = try PipedInputTests.reversed(format)
        let expected = try Self.plainReport(text, arguments: PipedInputTests.arguments)
        let directory = TemporaryDirectory()
        let gzip = StoredGzipWriter.member(text)
        let path = directory.write("reversed.gz", bytes: gzip)
        let file = runCLI(["analyze", path] + PipedInputTests.arguments)
        #expect(file.code == .success, "\(file.stderr)")
        #expect(try Self.comparable(file.stdout) == expected)
        #expect(!file.stderr.contains("spooled"), "a regular gzip file is read again, not copied")

        let piped = try ProcessRun.placescost(["analyze", "-"] + PipedInputTests.arguments, stdin: Data(gzip), timeout: 120)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(try Self.comparable(piped.stdout) == expected)
        // The copy is of the compressed bytes.
        #expect(piped.stderr.contains("placescost: note: <stdin> is a pipe, which cannot be read twice: it was spooled to a temporary file (\(gzip.count) bytes)"))

        let executable = try #require(EndToEndTests.executable)
        let script = "exec \"$0\" analyze - " + PipedInputTests.arguments.joined(separator: " ") + " < \"$1\""
        let redirected = try ProcessRun.run("/bin/bash", ["-c", script, executable, path], timeout: 120)
        #expect(redirected.status == 0, "\(redirected.stderr)")
        #expect(try Self.comparable(redirected.stdout) == expected)
        #expect(!redirected.stderr.contains("is a pipe"))
    }

    @Test("Runs of lines over the limit, each longer than a block, the last one without its newline: the file, its gzip and the line reader warn of each at its line",
          arguments: [false, true])
    func overlongRuns(_ endsWithNewline: Bool) throws {
        let records = GenerateCommandTests.generate("jsonl").split(separator: "\n").prefix(40).map(String.init)
        // Longer than a 4 MiB block, so that the splitters skip them as they read.
        let long = String(repeating: "x", count: 5 << 20)
        var lines: [String] = Array(records[..<10])
        lines += [long, long]
        lines += records[10..<20]
        lines.append(long)
        lines += records[20...]
        lines += [long, long + "y", long]
        if endsWithNewline { lines.append("") }
        let text = lines.joined(separator: "\n")
        let directory = TemporaryDirectory()
        let plain = directory.write("log.jsonl", text)
        let compressed = directory.write("log.jsonl.gz", bytes: StoredGzipWriter.member(text))
        let twin = try LogReader(options: LogReader.Options(format: .jsonl)).read([plain])
        #expect(twin.rejected == 6)
        #expect(twin.diagnostics.map { $0.location.line } == [11, 12, 23, 44, 45, 46])
        var options = Analyzer.Options()
        options.pricing = "legacy-list"
        let (expected, expectedRead) = try Analyzer(options: options).analyze(paths: [plain])
        let (actual, actualRead) = try Analyzer(options: options).analyze(paths: [compressed])
        for read in [expectedRead, actualRead] {
            #expect(read.rejected == twin.rejected)
            #expect(read.diagnostics.map { "\($0.location.line): \($0.reason)" } == twin.diagnostics.map { "\($0.location.line): \($0.reason)" })
        }
        #expect(expected.input.records == twin.calls.count)
        #expect(JSONReportRenderer().document(actual).removingFiles() == JSONReportRenderer().document(expected).removingFiles())
    }

    @Test("`cat x.gz | placescost analyze -` reads gzip on standard input; a FIFO of gzip too")
    func standardInput() throws {
        let text = try String(contentsOfFile: MalformedCorpusTests.folder + "/jsonl/clean.jsonl", encoding: .utf8)
        let gzip = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/clean.jsonl.gz")))
        let run = try ProcessRun.placescost(["analyze", "-"] + Self.arguments, stdin: Data(gzip), timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.comparable(run.stdout) == Self.plainReport(text))
        let directory = TemporaryDirectory()
        let fifo = directory.path + "/log.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = FIFOWriter(path: fifo, bytes: gzip)
        defer { writer.release() }
        let fromFIFO = try ProcessRun.placescost(["analyze", fifo] + Self.arguments, timeout: 120)
        #expect(!fromFIFO.timedOut)
        #expect(try Self.comparable(fromFIFO.stdout) == Self.plainReport(text))
    }

    @Test("Cut short anywhere: the records before the cut are kept, one warning, exit 0 (65 when no record is left), no hang")
    func cutAnywhere() throws {
        let gzip = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/clean.log.gz")))
        let directory = TemporaryDirectory()
        for length in stride(from: 0, to: gzip.count, by: 37) {
            let path = directory.write("cut-\(length)", bytes: Array(gzip[0..<length]))
            let run = runCLI(["analyze", path] + Self.arguments)
            if run.code == .success {
                // The records before the cut are kept: the cut is warned, at its line.
                #expect(run.stderr.contains("\(path):") && run.stderr.contains(": warning: the gzip data ends before its last member does"), "\(length): \(run.stderr)")
            } else {
                // Cut before its first line (or before gzip's magic number is whole): nothing to read.
                #expect(run.code == .dataError, "\(length): \(run.stderr)")
                #expect(run.stderr.hasPrefix("placescost: error: no record could be read") || run.stderr.hasPrefix("placescost: error: cannot tell the format"), "\(length): \(run.stderr)")
            }
            #expect(!run.stderr.contains("AIza"))
        }
        // One through the built command, with a deadline: a hang fails instead of stalling.
        let path = directory.write("cut", bytes: Array(gzip[0..<(gzip.count / 2)]))
        let run = try ProcessRun.placescost(["analyze", path] + Self.arguments, timeout: 60)
        #expect(!run.timedOut)
        #expect(run.status == 0)
    }

    @Test("Damaged under --strict is an error at the damage's line (65)")
    func strict() throws {
        let path = Self.fixtures + "/cut-short.log.gz"
        let run = runCLI(["analyze", path, "--strict"] + Self.arguments)
        #expect(run.code == .dataError)
        let line = try #require(Self.cases.first { $0.file == "cut-short.log.gz" }?.warning?.line)
        #expect(run.stderr.hasPrefix("placescost: error: \(path):\(line): malformed record: the gzip data ends before its last member does"))
    }

    @Test("No warning about compressed data quotes the log: the API keys in the access log's URLs stay out")
    func noSecret() throws {
        let clean = try String(contentsOfFile: MalformedCorpusTests.folder + "/access-log/clean.log", encoding: .utf8)
        #expect(clean.contains("key=AIza"))
        let directory = TemporaryDirectory()
        let whole = StoredGzipWriter.member(clean)
        // Cut inside a line holding a key; a block header damaged; trailing bytes that are a key.
        let keyAt = try #require(clean.utf8.firstRange(of: "key=AIza".utf8)).lowerBound
        let offset = clean.utf8.distance(from: clean.utf8.startIndex, to: keyAt)
        var damaged = whole
        damaged[10] = 0x07  // BTYPE 11: reserved, "invalid block type"
        let inputs = [
            directory.write("cut.log.gz", bytes: Array(whole[0..<(15 + offset + 12)])),
            directory.write("damaged.log.gz", bytes: damaged),
            directory.write("trailing.log.gz", bytes: whole + Array("key=AIzaSyTRAILING".utf8)),
        ]
        let run = runCLI(["analyze"] + inputs + Self.arguments)
        #expect(run.code == .success, "\(run.stderr)")
        #expect(run.stderr.contains("warning: the gzip data ends before"))
        #expect(run.stderr.contains("warning: the gzip data is damaged (zlib: invalid block type)"))
        #expect(run.stderr.contains("warning: the file goes on after its gzip data"))
        #expect(!run.stderr.contains("AIza"))
        #expect(!run.stdout.contains("AIza"))
        let absent = runCLI(["analyze", directory.path] + Self.arguments, environment: ["PLACESCOST_ZLIB": ""])
        #expect(!absent.stderr.contains("AIza"))
    }
}

/// Without zlib (`PLACESCOST_ZLIB` empty, or naming no library), gzip input cannot be read: named
/// on the command line it is an error, exit 66; in a directory it is skipped with a warning; both
/// say how to read it with `zcat`. Plain logs are read as ever.
@Suite("Gzip input without zlib")
struct GzipWithoutZLibTests {
    static let absent = ["PLACESCOST_ZLIB": "/nonexistent/libz.so.1"]

    @Test("A gzip file named on the command line is an error (66) naming it and the zcat command to read it")
    func named() throws {
        let directory = TemporaryDirectory()
        let path = directory.write("access.log.2.gz", bytes: StoredGzipWriter.member("x\n"))
        for environment in [Self.absent, ["PLACESCOST_ZLIB": ""]] {
            let run = runCLI(["analyze", path, "--json"], environment: environment)
            #expect(run.code == .noInput)
            #expect(run.stdout.isEmpty)
            #expect(run.stderr == "placescost: error: cannot read \(path): it is gzip-compressed, and zlib (\(ZLib.platformCandidates[0])) could not be loaded to decompress it. Decompress it first: zcat \(path) | placescost analyze -\n")
        }
        let spaced = directory.write("my log.gz", bytes: StoredGzipWriter.member("x\n"))
        #expect(runCLI(["analyze", spaced], environment: Self.absent).stderr.hasSuffix("zcat '\(spaced)' | placescost analyze -\n"))
    }

    @Test("Gzip on standard input is an error (66) that says to decompress before the pipe")
    func standardInput() throws {
        let run = try ProcessRun.placescost(["analyze", "-", "--json"], stdin: Data(StoredGzipWriter.member("x\n")), environment: Self.absent, timeout: 120)
        #expect(run.status == 66)
        #expect(run.stderr.hasSuffix("placescost: error: cannot read <stdin>: it is gzip-compressed, and zlib (\(ZLib.platformCandidates[0])) could not be loaded to decompress it. Decompress it first: zcat FILE.gz | placescost analyze -\n"))
    }

    @Test("A gzip file in a directory is skipped with a warning; the plain logs beside it are read")
    func directory() throws {
        let directory = TemporaryDirectory()
        let clean = try String(contentsOfFile: MalformedCorpusTests.folder + "/access-log/clean.log", encoding: .utf8)
        directory.write("access.log", clean)
        directory.write("access.log.1", bytes: StoredGzipWriter.member(clean))
        let run = runCLI(["analyze", directory.path, "--json", "--pricing", "legacy-list"], environment: Self.absent)
        #expect(run.code == .success, "\(run.stderr)")
        let file = directory.path + "/access.log.1"
        #expect(run.stderr.split(separator: "\n").contains("\(file): warning: gzip-compressed, and zlib (\(ZLib.platformCandidates[0])) could not be loaded to decompress it; skipped (decompress it first: zcat \(file) | placescost analyze -)"))
        let report = try MalformedCorpusTests.object(run.stdout)
        #expect((report["input"] as? [String: Any])?["files"] as? [String] == [directory.path + "/access.log"])
        let plain = runCLI(["analyze", directory.path + "/access.log", "--json", "--pricing", "legacy-list"])
        #expect(MalformedCorpusTests.withoutInputFiles(report) == MalformedCorpusTests.withoutInputFiles(try MalformedCorpusTests.object(plain.stdout)))
    }
}
