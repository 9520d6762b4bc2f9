import Foundation
import Testing
@testable import PlacesCostKit

/// A directory of rotated logs (`access.log`, `access.log.1`, `access.log.2.gz`, ...,
/// `access.log-20261001.gz` with logrotate's `dateext`) is read whole and in time order: the
/// rotations of one name oldest first (by date, or the highest number first, compared as
/// numbers), the plain name last; different names in name order.
@Suite("Rotated logs in a directory")
struct RotatedLogsTests {
    @Test("A log name may be followed by a rotation number or date and a compression suffix; a rotation counts only after a log extension")
    func names() {
        for name in ["access.log", "access.log.1", "access.log.2.gz", "access.log.10.gz", "app.jsonl.gz", "x.har.gz",
                     "events.csv.3.gz", "API.LOG.7.GZ", "b.ndjson.0", "trace.txt.123456789", "x.log.gz",
                     // logrotate's dateext and its dateformats; Apache's names on Red Hat.
                     "access.log-20261001", "access.log-20261001.gz", "access.log-2026100114", "access.log-20261001-1759276800.gz",
                     "app.jsonl.2026-10-01", "app.jsonl_2026-10-01_14", "access.log.20261001", "access_log", "ssl_request_log-20261001",
                     "access_log.3.gz",
                     // Listed to be warned about: their compression is not read.
                     "access.log.1.bz2", "access.log-20261001.xz", "app.jsonl.zst", "x.log.Z", "calls.csv.zip", "a.log.7z", "a.log.2.lz4"] {
            #expect(LogReader.isLogFileName(name), "\(name)")
        }
        for name in [".access.log.1", ".x.jsonl.gz", "report.2024", "a.gz", "access.log.gz.1", "access.log.x",
                     "access.log.", "access.log.1234567890", "access.log.-1", "log.1", "gz", ".gz", "access.log.1.gz.gz",
                     "access.log-1", "access.log-2026", "access.log-20261301", "access.log-20261000", "access.log-18991231",
                     "access.log-20261001T14", "access.log-20261001-", "_log", "catalog", "access.log.xz.gz", "notes.md.xz", "x.bz2"] {
            #expect(!LogReader.isLogFileName(name), "\(name)")
        }
        let named = { (name: String) in RotatedLogName(name).map { ($0.base, $0.rotation) } }
        #expect(named("access.log.2.gz")! == ("access.log", .numbered(2)))
        #expect(named("app.jsonl.gz")! == ("app.jsonl", nil))
        #expect(named("access.log")! == ("access.log", nil))
        #expect(named("access.log-20261001.gz")! == ("access.log", .dated("20261001")))
        #expect(named("access.log.20261001")! == ("access.log", .dated("20261001")))
        #expect(named("app.jsonl_2026-10-01_14")! == ("app.jsonl", .dated("2026100114")))
        #expect(named("access.log-20261001-1759276800")! == ("access.log", .dated("202610011759276800")))
        #expect(named("a.log.json")! == ("a.log.json", nil))
        #expect(named("access_log.3.gz")! == ("access_log", .numbered(3)))
    }

    @Test("Rotations are read oldest first, .10 before .9, the plain name last; other names keep name order")
    func order() throws {
        let directory = TemporaryDirectory()
        let names = ["access.log", "access.log.1", "access.log.2.gz", "access.log.10.gz", "access.log.9", "error.log.1", "error.log",
                     "app.jsonl.gz", "access.log.0", "notes.md", "a.gz",
                     "api.log-20261103.gz", "api.log", "api.log-20261010", "api.log-20260930.gz", "access_log-20261001", "access_log"]
        for name in names { directory.write(name, "") }
        let files = try LogReader.expand([directory.path]).map { URL(fileURLWithPath: $0.path).lastPathComponent }
        #expect(files == [
            "access.log.10.gz", "access.log.9", "access.log.2.gz", "access.log.1", "access.log.0", "access.log",
            "access_log-20261001", "access_log",
            "api.log-20260930.gz", "api.log-20261010", "api.log-20261103.gz", "api.log",
            "app.jsonl.gz", "error.log.1", "error.log",
        ])
    }

    @Test("Rotations named one by one are put in time order where they stand; other files keep their place")
    func namedRotationsInTimeOrder() throws {
        let directory = TemporaryDirectory()
        let other = TemporaryDirectory()
        for name in ["access.log", "access.log.1", "access.log.10.gz", "access.log.2.gz", "error.log", "error.log.1", "app.jsonl"] { directory.write(name, "") }
        other.write("access.log.1", "")
        let paths = ["access.log", "app.jsonl", "access.log.1", "error.log", "access.log.10.gz", "error.log.1", "access.log.2.gz"].map { directory.path + "/" + $0 }
            + [other.path + "/access.log.1"]
        let files = try LogReader.expand(paths).map(\.path)
        // A log's rotations fill the places they were named at, oldest first; the same name in
        // another folder is another log.
        #expect(files == ["access.log.10.gz", "app.jsonl", "access.log.2.gz", "error.log.1", "access.log.1", "error.log", "access.log"].map { directory.path + "/" + $0 } + [other.path + "/access.log.1"])
    }

    @Test("A log rotated by logrotate into four files, two compressed, gives the whole log's report, its files in time order",
          .enabled(if: ZLib.platform != nil, "zlib is not on this machine"))
    func rotatedAccessLog() throws {
        let clean = try String(contentsOfFile: MalformedCorpusTests.folder + "/access-log/clean.log", encoding: .utf8)
        let lines = clean.split(separator: "\n").map { $0 + "\n" }
        let quarter = lines.count / 4
        let parts = [lines[..<quarter], lines[quarter..<2 * quarter], lines[2 * quarter..<3 * quarter], lines[(3 * quarter)...]].map { $0.joined() }
        let directory = TemporaryDirectory()
        // Oldest first: logrotate gave the oldest the highest number.
        directory.write("access.log.10.gz", bytes: StoredGzipWriter.member(parts[0]))
        directory.write("access.log.2.gz", bytes: StoredGzipWriter.member(parts[1]))
        directory.write("access.log.1", parts[2])
        directory.write("access.log", parts[3])
        try FileManager.default.createDirectory(atPath: directory.path + "/x.log.1", withIntermediateDirectories: false)
        let arguments = ["--json", "--pricing", "legacy-list", "--reorder-window", "1"]
        let run = runCLI(["analyze", directory.path] + arguments)
        #expect(run.code == .success, "\(run.stderr)")
        let elsewhere = TemporaryDirectory()
        let whole = runCLI(["analyze", elsewhere.write("access.log", clean)] + arguments)
        let report = try MalformedCorpusTests.object(run.stdout)
        #expect(MalformedCorpusTests.withoutInputFiles(report) == MalformedCorpusTests.withoutInputFiles(try MalformedCorpusTests.object(whole.stdout)))
        #expect((report["input"] as? [String: Any])?["files"] as? [String] == ["access.log.10.gz", "access.log.2.gz", "access.log.1", "access.log"].map { directory.path + "/" + $0 })
        // Named one by one in a shell glob's order (`access.log*`: by name), the rotations are read
        // as the folder's are: the same report, read once (no note of a second read).
        let globbed = ["access.log", "access.log.1", "access.log.10.gz", "access.log.2.gz"].map { directory.path + "/" + $0 }
        let named = runCLI(["analyze"] + globbed + arguments)
        #expect(named.code == .success && !named.stderr.contains("read a second time"), "\(named.stderr)")
        let namedReport = try MalformedCorpusTests.object(named.stdout)
        #expect(MalformedCorpusTests.withoutInputFiles(namedReport) == MalformedCorpusTests.withoutInputFiles(report))
        #expect((namedReport["input"] as? [String: Any])?["files"] as? [String] == ["access.log.10.gz", "access.log.2.gz", "access.log.1", "access.log"].map { directory.path + "/" + $0 })
        // A sub-directory named like a rotated log is skipped, as any sub-directory.
        #expect(run.stderr.split(separator: "\n").contains("\(directory.path)/x.log.1: warning: a directory, not a log file, though its name looks like one; skipped (pass it as an argument of its own to read it)"))

        // The same log rotated with logrotate's dateext: every file is read, oldest first.
        let dated = TemporaryDirectory()
        dated.write("access.log-20261102.gz", bytes: StoredGzipWriter.member(parts[0]))
        dated.write("access.log-20261103.gz", bytes: StoredGzipWriter.member(parts[1]))
        dated.write("access.log-20261104", parts[2])
        dated.write("access.log", parts[3])
        let byDate = runCLI(["analyze", dated.path] + arguments)
        #expect(byDate.code == .success && byDate.stderr.isEmpty, "\(byDate.stderr)")
        let datedReport = try MalformedCorpusTests.object(byDate.stdout)
        #expect(MalformedCorpusTests.withoutInputFiles(datedReport) == MalformedCorpusTests.withoutInputFiles(report))
        #expect((datedReport["input"] as? [String: Any])?["files"] as? [String] == ["access.log-20261102.gz", "access.log-20261103.gz", "access.log-20261104", "access.log"].map { dated.path + "/" + $0 })
    }

    @Test("Folders inside a folder given are not searched, and a note names them; a folder of folders only is an error that names them")
    func foldersInside() throws {
        let directory = TemporaryDirectory()
        let log = [ac(0, "t", "ab"), details(1, "t")].map(\.jsonLine).joined(separator: "\n").replacing(/"input":"([^"]*)"/) { "\"input_length\":\($0.1.count)" } + "\n"
        let root = directory.path + "/logs"
        for day in ["2026-10-01", "2026-10-02", "2026-10-03", "2026-10-04"] {
            try FileManager.default.createDirectory(atPath: root + "/" + day, withIntermediateDirectories: true)
            directory.write("logs/\(day)/app.jsonl", log)
        }
        // Named like a log, a folder is warned about as it is listed; hidden ones are not named.
        try FileManager.default.createDirectory(atPath: root + "/old.log.1", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/.cache", withIntermediateDirectories: true)
        #expect(LogReader.unlisted([root, "-", directory.path + "/missing"]).folders == ["2026-10-01", "2026-10-02", "2026-10-03", "2026-10-04"].map { root + "/" + $0 })

        let nothing = runCLI(["analyze", root, "--json"])
        #expect(nothing.code == .dataError)
        #expect(nothing.stderr.contains("\(root)/2026-10-01, \(root)/2026-10-02 and 2 more are folders inside \(root), and folders inside a folder are not searched: name them as inputs."), "\(nothing.stderr)")

        directory.write("logs/app.jsonl", log)
        let run = runCLI(["analyze", root, "--json"])
        #expect(run.code == .success)
        #expect(run.stderr.split(separator: "\n").contains("placescost: note: \(root)/2026-10-01, \(root)/2026-10-02 and 2 more are folders inside a folder given, and folders inside a folder are not searched: their logs are not in this report. Name them as inputs to read them too."), "\(run.stderr)")
        #expect((try MalformedCorpusTests.object(run.stdout)["input"] as? [String: Any])?["records"] as? Int == 2)
        #expect(!runCLI(["analyze", root, "--json", "--quiet"]).stderr.contains("folder"))
        // Named as inputs, they are read, and no note is left.
        let named = runCLI(["analyze", root + "/2026-10-01", root + "/2026-10-02", "--json"])
        #expect(named.code == .success && !named.stderr.contains("folder"), "\(named.stderr)")
        #expect((try MalformedCorpusTests.object(named.stdout)["input"] as? [String: Any])?["records"] as? Int == 4)
        #expect(LogReader.listedFolders(["a"]) == "a" && LogReader.listedFolders(["a", "b", "c"]) == "a, b and c")
        // One folder is named in the singular.
        let single = runCLI(["analyze", root + "/2026-10-01", directory.path + "/logs/app.jsonl", "--json"])
        #expect(!single.stderr.contains("folder"))
        let one = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: one.path + "/old", withIntermediateDirectories: true)
        one.write("app.jsonl", log)
        #expect(runCLI(["analyze", one.path, "--json"]).stderr == "placescost: note: \(one.path)/old is a folder inside a folder given, and folders inside a folder are not searched: its logs are not in this report. Name it as an input to read it too.\n")
    }

    @Test("Files that start as logs do but are not named as logs are named in a note; other files, FIFOs and hidden files are not",
          .enabled(if: ZLib.platform != nil, "zlib is not on this machine"))
    func logsUnderOtherNames() throws {
        let directory = TemporaryDirectory()
        let line = ac(0, "t", "ab").jsonLine.replacing(/"input":"([^"]*)"/) { "\"input_length\":\($0.1.count)" }
        try FileManager.default.createDirectory(atPath: directory.path + "/logs", withIntermediateDirectories: true)
        directory.write("logs/app.jsonl", line + "\n")
        // A cloud log export's part, an extension-less CSV export, a proxy's JSON log: logs by content.
        directory.write("logs/000000.gz", bytes: StoredGzipWriter.member(line + "\n"))
        directory.write("logs/export", "timestamp,api,session_token\n2026-10-01T09:00:00Z,autocomplete,t\n")
        directory.write("logs/access", #"{"time_iso8601":"2026-10-01T09:00:00Z","request":"GET /maps/api/place/autocomplete/json?input=a HTTP/1.1"}"# + "\n")
        // Not logs: prose, a JSON that is no call, an empty file, a hidden gzip, a FIFO (never
        // opened), gzip of something else (a .tar.gz's first block).
        directory.write("logs/README.md", "# Logs\n")
        directory.write("logs/backup.tgz", bytes: StoredGzipWriter.member("app.jsonl" + String(repeating: "\0", count: 503)))
        directory.write("logs/settings.conf", #"{"name":"proxy","port":8080}"# + "\n")
        directory.write("logs/empty", "")
        directory.write("logs/.old.gz", bytes: StoredGzipWriter.member(line + "\n"))
        #expect(mkfifo(directory.path + "/logs/pipe", 0o600) == 0)
        let root = directory.path + "/logs"
        #expect(LogReader.unlisted([root, "-"]).logs == ["000000.gz", "access", "export"].map { root + "/" + $0 })
        let run = runCLI(["analyze", root, "--json"])
        #expect(run.code == .success)
        #expect(run.stderr == "placescost: note: \(root)/000000.gz, \(root)/access and \(root)/export start as a log does but are not named as logs are "
            + "(.jsonl, .csv, .log, ..., docs/formats.md section 5), so they were not read. Name them as inputs to read them too.\n", "\(run.stderr)")
        #expect(runCLI(["analyze", root, "--json", "--quiet"]).stderr.isEmpty)

        // A folder of many other files: only the first maxFilesSniffed by name are looked at.
        let many = TemporaryDirectory()
        for index in 0..<LogReader.maxFilesSniffed { many.write(String(format: "data-%05d", index), "# not a log\n") }
        many.write("zz-export", "timestamp,api\n2026-10-01T09:00:00Z,autocomplete\n")
        many.write("data-00000-export", "timestamp,api\n2026-10-01T09:00:00Z,autocomplete\n")
        #expect(LogReader.unlisted([many.path]).logs == [many.path + "/data-00000-export"])
    }
}
