import Foundation
import Testing
@testable import PlacesCostKit

/// The version is written once, as `CLI.version`; everything that shows it reads it from there.
@Suite("Version")
struct VersionTests {
    /// Text the project writes by hand: sources, docs, scripts, the sample logs' README. The
    /// golden files are left out: they are output, and `SessionSQLWriterTests` compares the SQL
    /// header's version with `CLI.version` substituted.
    static let searched = ["Sources", "docs", "scripts", "SampleLogs/README.md", "README.md", "CONTRIBUTING.md", "Package.swift", ".ci"]
    static let textExtensions: Set<String> = ["swift", "md", "py", "sh", "json", "sql", "txt", ""]

    @Test("no file but CLI.swift spells out the version")
    func writtenOnce() throws {
        let files = VersionTests.searched.flatMap { VersionTests.textFiles(under: packageRoot + "/" + $0) }
        #expect(files.count > 100, "the search found the project's files")
        let version = CLI.version
        var spelledOut: [String] = []
        for file in files where !file.hasSuffix("/Sources/PlacesCostKit/CLI/CLI.swift") {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
            var searchRange = text.startIndex..<text.endIndex
            while let found = text.range(of: version, range: searchRange) {
                let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
                let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
                // A longer number (10.1.0, 0.1.01, 0.1.0.2) is not the version.
                let partOfNumber = { (character: Character?) in character.map { $0.isNumber || $0 == "." } ?? false }
                if !partOfNumber(before), !partOfNumber(after) {
                    spelledOut.append(String(file.dropFirst(packageRoot.count + 1)))
                    break
                }
                searchRange = found.upperBound..<text.endIndex
            }
        }
        #expect(spelledOut.isEmpty, "\(spelledOut): read CLI.version instead of writing \(version)")
    }

    @Test("--version and the SQL header print CLI.version")
    func printed() {
        #expect(runCLI(["--version"]).stdout == "placescost \(CLI.version)\n")
        #expect(runCLI(["sql", "--dialect", "duckdb", "--quiet"]).stdout.hasPrefix("-- placescost \(CLI.version): "))
    }

    @Test("the SQL golden files are compared with the current version in their header, and only there")
    func goldenHeader() {
        let golden = "-- placescost 9.9.9-beta: the analysis\n-- placescost 9.9.9-beta: kept\nSELECT 1;\n"
        #expect(SessionSQLWriterTests.withCurrentVersion(golden) == "-- placescost \(CLI.version): the analysis\n-- placescost 9.9.9-beta: kept\nSELECT 1;\n")
        #expect(SessionSQLWriterTests.withCurrentVersion("SELECT 1; -- placescost 1: x\n") == "SELECT 1; -- placescost 1: x\n")
        #expect(SessionSQLWriterTests.withCurrentVersion("-- placescost reads: x\n") == "-- placescost reads: x\n")
    }

    static func textFiles(under path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return [path] }
        let enumerator = FileManager.default.enumerator(atPath: path)
        var files: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            let file = path + "/" + relative
            let name = (relative as NSString).lastPathComponent
            guard VersionTests.textExtensions.contains((name as NSString).pathExtension) else { continue }
            var directory: ObjCBool = false
            if FileManager.default.fileExists(atPath: file, isDirectory: &directory), !directory.boolValue { files.append(file) }
        }
        return files
    }
}
