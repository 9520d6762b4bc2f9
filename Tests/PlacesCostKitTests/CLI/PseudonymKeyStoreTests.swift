import Foundation
import Testing
@testable import PlacesCostKit

/// searches.csv's pseudonyms are keyed with `PLACESCOST_HASH_KEY` or a random per-user key,
/// never with anything derived from the log.
@Suite("Pseudonym key")
struct PseudonymKeyStoreTests {
    /// A token-less log of guessable user ids: the case a key derived from the data gave away.
    static let log = (1...30).map { ac(Double($0) * 1_000, nil, "ab", user: "u-\($0)").jsonLine }.joined(separator: "\n")

    static func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    static func pseudonyms(_ out: String) throws -> [String] {
        try String(contentsOfFile: out + "/searches.csv", encoding: .utf8).split(separator: "\n").dropFirst()
            .map { String($0.split(separator: ",", omittingEmptySubsequences: false)[2]) }
    }

    @Test("The first --out makes an owner-only random key; later runs reuse it, so reports join; another user's key gives other pseudonyms")
    func randomKeyPerUser() throws {
        let directory = TemporaryDirectory()
        let file = directory.write("log.jsonl", Self.log)
        let config = directory.path + "/config"
        let first = runCLI(["analyze", file, "--out", directory.path + "/a"], environment: ["XDG_CONFIG_HOME": config])
        #expect(first.code == .success)
        let keyPath = config + "/placescost/" + PseudonymKeyStore.fileName
        #expect(first.stderr.contains("made a random key for searches.csv's pseudonyms in \(keyPath) (owner-only)"))
        #expect(try Self.mode(keyPath) == 0o600)
        #expect(try Self.mode(config + "/placescost") == 0o700)
        let key = try String(contentsOfFile: keyPath, encoding: .utf8)
        #expect(key.count == 65 && PseudonymKeyStore.bytes(hex: Array(key.utf8.dropLast())) != nil)

        let second = runCLI(["analyze", file, "--out", directory.path + "/b"], environment: ["XDG_CONFIG_HOME": config])
        #expect(!second.stderr.contains("made a random key"))
        #expect(try Self.pseudonyms(directory.path + "/a") == Self.pseudonyms(directory.path + "/b"))
        #expect(try String(contentsOfFile: keyPath, encoding: .utf8) == key)

        // Same log, another user's key: the pseudonyms are not a function of the log.
        #expect(runCLI(["analyze", file, "--out", directory.path + "/c"], environment: ["XDG_CONFIG_HOME": directory.path + "/other"]).code == .success)
        let mine = try Self.pseudonyms(directory.path + "/a")
        let theirs = try Self.pseudonyms(directory.path + "/c")
        #expect(mine.count == 30 && zip(mine, theirs).allSatisfy { $0 != $1 })
        // Nor are they the keyed hash under any key made of the ids themselves.
        let ids = (1...30).map { "u-\($0)" }
        for guess in [ids.joined(), ids.joined(separator: "\n"), "", "placescost"] {
            let guessed = Pseudonymizer(key: SHA256.digest(Array(guess.utf8)))
            #expect(!mine.contains(guessed.pseudonym("u-1")))
        }
    }

    @Test("PLACESCOST_HASH_KEY wins and no key file is made")
    func environmentKey() throws {
        let directory = TemporaryDirectory()
        let file = directory.write("log.jsonl", Self.log)
        let config = directory.path + "/config"
        let run = runCLI(["analyze", file, "--out", directory.path + "/a"], environment: ["XDG_CONFIG_HOME": config, Pseudonymizer.keyVariable: "team"])
        #expect(run.code == .success)
        #expect(!FileManager.default.fileExists(atPath: config))
        #expect(try Self.pseudonyms(directory.path + "/a").first == Pseudonymizer(key: Array("team".utf8)).pseudonym("u-1"))
    }

    @Test("Runs that make the key at once all get the one key that was kept")
    func concurrentCreation() throws {
        let directory = TemporaryDirectory()
        let store = PseudonymKeyStore(environment: ["XDG_CONFIG_HOME": directory.path + "/nested/config"])
        let lock = NSLock()
        nonisolated(unsafe) var all: [([UInt8], PseudonymKeyStore.Source)] = []
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            let result = try? store.key()
            lock.withLock { all.append(result.map { ($0.key, $0.source) } ?? ([], .environment)) }
        }
        #expect(Set(all.map(\.0)).count == 1)
        #expect(all.filter { if case .file(_, created: true) = $0.1 { true } else { false } }.count == 1)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path + "/nested/config/placescost")
        #expect(files == [PseudonymKeyStore.fileName])
    }

    @Test("A key readable by others is made owner-only; a malformed or unreadable key file is an error that prints no key")
    func badKeyFiles() throws {
        let directory = TemporaryDirectory()
        let file = directory.write("log.jsonl", Self.log)
        let folder = directory.path + "/config/placescost"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let keyPath = folder + "/" + PseudonymKeyStore.fileName
        let hex = String(repeating: "ab", count: 32)
        _ = directory.write("config/placescost/" + PseudonymKeyStore.fileName, hex + "\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keyPath)
        let environment = ["XDG_CONFIG_HOME": directory.path + "/config"]
        #expect(runCLI(["analyze", file, "--out", directory.path + "/a"], environment: environment).code == .success)
        #expect(try Self.mode(keyPath) == 0o600)
        #expect(try Self.pseudonyms(directory.path + "/a").first == Pseudonymizer(key: [UInt8](repeating: 0xAB, count: 32)).pseudonym("u-1"))

        _ = directory.write("config/placescost/" + PseudonymKeyStore.fileName, "secret-ish but not hex")
        let malformed = runCLI(["analyze", file, "--out", directory.path + "/b"], environment: environment)
        #expect(malformed.code == .dataError)
        #expect(malformed.stderr.contains("is not 64 hex digits") && !malformed.stderr.contains("secret-ish"))
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/b"))

        try FileManager.default.removeItem(atPath: keyPath)
        try FileManager.default.createDirectory(atPath: keyPath, withIntermediateDirectories: false)
        let folderInTheWay = runCLI(["analyze", file, "--out", directory.path + "/c"], environment: environment)
        #expect(folderInTheWay.code == .noInput)
        #expect(folderInTheWay.stderr.contains("cannot read the pseudonym key"))
    }

    @Test("Without a folder for the key, the pseudonyms use a key for this run only, and say so")
    func noHome() throws {
        let directory = TemporaryDirectory()
        let file = directory.write("log.jsonl", Self.log)
        var environment = testEnvironment
        environment["HOME"] = nil
        environment["XDG_CONFIG_HOME"] = nil
        let context = CommandContext(standardOutput: StringSink(), standardError: StringSink(), workingDirectory: directory.path, environment: environment)
        #expect(CLI(arguments: ["analyze", file, "--out", directory.path + "/a"], context: context).run() == .success)
        #expect((context.standardError as! StringSink).text.contains("use a key for this run only"))
        _ = runCLI(["analyze", file, "--out", directory.path + "/b", "--quiet"])
        #expect(try Self.pseudonyms(directory.path + "/a") != Self.pseudonyms(directory.path + "/b"))
    }
}
