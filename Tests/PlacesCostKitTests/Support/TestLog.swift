import Foundation
@testable import PlacesCostKit

/// One hand-made log record, written as JSON Lines or CSV for tests.
struct TestRecord {
    /// Seconds after 2026-10-01T09:00:00Z.
    var at: Double
    var api: String
    var token: String?
    var input: String?
    var fields: [String]?
    var user: String?
    var project: String?
    var version: String?

    static let base = 1_790_845_200_000  // 2026-10-01T09:00:00Z in epoch milliseconds

    var epochMilliseconds: Int { TestRecord.base + Int((at * 1000).rounded()) }

    var jsonLine: String {
        var members = ["\"timestamp\":\(epochMilliseconds)", "\"api\":\(quoted(api))"]
        if let token { members.append("\"session_token\":\(quoted(token))") }
        if let input { members.append("\"input\":\(quoted(input))") }
        if let fields { members.append("\"fields\":[\(fields.map(quoted).joined(separator: ","))]") }
        if let user { members.append("\"user_id\":\(quoted(user))") }
        if let project { members.append("\"project\":\(quoted(project))") }
        if let version { members.append("\"api_version\":\(quoted(version))") }
        return "{" + members.joined(separator: ",") + "}"
    }

    static let csvHeader = "timestamp,api,session_token,input,fields,user_id,project,api_version"

    var csvLine: String {
        [String(epochMilliseconds), api, token ?? "", input ?? "", fields?.joined(separator: "|") ?? "", user ?? "", project ?? "", version ?? ""]
            .map(csvCell).joined(separator: ",")
    }

    private func quoted(_ text: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
        let array = String(decoding: data, as: UTF8.self)
        return String(array.dropFirst().dropLast())
    }

    private func csvCell(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// Shorthands for the records of session-rule tests.
func ac(_ at: Double, _ token: String?, _ input: String? = nil, user: String? = nil, project: String? = nil) -> TestRecord {
    TestRecord(at: at, api: "autocomplete", token: token, input: input, user: user, project: project)
}

func details(_ at: Double, _ token: String?, fields: [String]? = ["formattedAddress"], user: String? = nil, project: String? = nil) -> TestRecord {
    TestRecord(at: at, api: "place_details", token: token, fields: fields, user: user, project: project)
}

func geocode(_ at: Double, _ token: String? = nil, user: String? = nil) -> TestRecord {
    TestRecord(at: at, api: "geocoding", token: token, user: user)
}

/// A temporary directory removed when the value is released, or at the latest when the test
/// process exits (one a static property holds is never released).
final class TemporaryDirectory: Sendable {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "placescost-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        RemovedAtExit.add(path)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes `contents` to `name` inside the directory and returns its path.
    @discardableResult
    func write(_ name: String, _ contents: String) -> String {
        let file = path + "/" + name
        try! contents.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    @discardableResult
    func write(_ name: String, bytes: [UInt8]) -> String {
        let file = path + "/" + name
        precondition(FileManager.default.createFile(atPath: file, contents: Data(bytes)), "could not create \(file)")
        return file
    }
}

/// Paths the test process removes when it exits: what outlives every test.
enum RemovedAtExit {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var paths: Set<String> = []
    /// Registers the handler once, the first time a path is added.
    private static let handler: Void = { atexit { RemovedAtExit.removeAll() } }()

    static func add(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        _ = handler
        paths.insert(path)
    }

    private static func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        for path in paths { try? FileManager.default.removeItem(atPath: path) }
    }
}

/// Reads records through the real ingest path (JSON Lines) and builds sessions.
func analyze(_ records: [TestRecord], timeout: Double = 180, userGap: Double = 60, asCSV: Bool = false) throws -> Analysis {
    let directory = TemporaryDirectory()
    let text = asCSV
        ? ([TestRecord.csvHeader] + records.map(\.csvLine)).joined(separator: "\n") + "\n"
        : records.map(\.jsonLine).joined(separator: "\n") + "\n"
    let file = directory.write(asCSV ? "log.csv" : "log.jsonl", text)
    var options = Analyzer.Options()
    options.sessions = SessionOptions(timeoutSeconds: timeout, userGapSeconds: userGap)
    options.keepSearches = true
    return try Analyzer(options: options).analyze(paths: [file]).0
}

/// Runs the CLI in-process and returns its exit code and outputs.
func runCLI(
    _ arguments: [String], workingDirectory: String = FileManager.default.currentDirectoryPath, environment: [String: String] = [:]
) -> (code: ExitCode, stdout: String, stderr: String) {
    let out = StringSink()
    let err = StringSink()
    let context = CommandContext(
        standardOutput: out, standardError: err, workingDirectory: workingDirectory,
        environment: testEnvironment.merging(environment) { $1 }
    )
    let code = CLI(arguments: arguments, context: context).run()
    return (code, out.text, err.text)
}

/// The process's environment for commands run in tests, with the pseudonym key's folder in a
/// temporary directory of this test run (never the user's own) and no `PLACESCOST_HASH_KEY`.
let testEnvironment: [String: String] = {
    var environment = ProcessInfo.processInfo.environment
    environment[Pseudonymizer.keyVariable] = nil
    let configuration = NSTemporaryDirectory() + "placescost-tests-config-\(getpid())"
    RemovedAtExit.add(configuration)
    environment["XDG_CONFIG_HOME"] = configuration
    // Help and usage lines are laid out for 100 columns unless a test sets COLUMNS.
    environment["COLUMNS"] = nil
    return environment
}()

/// The package root, found from this file's path.
let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
    }
    fatalError("Package.swift not found above \(#filePath)")
}()

extension SearchSummary {
    /// The calls outside every search, each representative repeated by its count.
    var expandedBaseCalls: [Call] { baseCalls.flatMap { Array(repeating: $0.call, count: $0.count) } }
}
