import Foundation
import Testing
@testable import PlacesCostKit

/// The sample outputs in `docs/examples/` are what the commands write now, byte for byte.
///
/// This list is the one place the examples are made from: `scripts/examples/regenerate.sh`
/// runs this suite with `RECORD_GOLDEN=1`, which rewrites them (review the diff before
/// committing it). Each example runs in the package root with a fixed pseudonym key, so
/// `searches.csv` is the same on every machine.
@Suite("Example outputs")
struct ExampleOutputsTests {
    /// One command and where its output goes under `docs/examples/`.
    struct Example: Sendable, CustomTestStringConvertible {
        enum Output: Sendable {
            /// Standard output, into this file.
            case standardOutput(file: String)
            /// `--out` into this folder: every file the command writes.
            case directory(String)
        }

        let arguments: [String]
        let output: Output

        var testDescription: String { "placescost " + arguments.joined(separator: " ") }
    }

    static let root = packageRoot + "/docs/examples"
    static let recording = ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1"

    static let examples: [Example] = [
        // The web report, the daily charts and the cost by day: every file --out writes.
        Example(arguments: ["analyze", "SampleLogs", "--by", "day"], output: .directory("report")),
        // The cost by platform, as a product manager reads it: beside the web report, whose charts
        // of the same log are the ones it links (`--by` adds charts only by day).
        Example(arguments: ["analyze", "SampleLogs", "--by", "platform", "--report", "md"], output: .standardOutput(file: "report/by-platform.md")),
        // The README's before and after: the sample log and the same app with its token mistakes fixed.
        Example(arguments: ["compare", "SampleLogs/ios-app.jsonl", "docs/examples/after-fix/ios-app.jsonl"], output: .directory("compare")),
    ]

    /// Every file below `directory`, by path relative to it.
    static func files(under directory: String) throws -> [String: String] {
        guard let paths = FileManager.default.subpaths(atPath: directory) else { return [:] }
        var files: [String: String] = [:]
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            files[path] = try String(contentsOfFile: directory + "/" + path, encoding: .utf8)
        }
        return files
    }

    /// What `example` writes now, by path relative to docs/examples/.
    static func render(_ example: Example) throws -> [String: String] {
        let environment = [Pseudonymizer.keyVariable: "examples"]
        switch example.output {
        case .standardOutput(let file):
            let result = runCLI(example.arguments + ["--quiet"], workingDirectory: packageRoot, environment: environment)
            #expect(result.code == .success, "\(result.stderr)")
            return [file: result.stdout]
        case .directory(let folder):
            let out = TemporaryDirectory()
            let result = runCLI(example.arguments + ["--out", out.path, "--quiet"], workingDirectory: packageRoot, environment: environment)
            #expect(result.code == .success, "\(result.stderr)")
            return Dictionary(uniqueKeysWithValues: try files(under: out.path).map { (folder + "/" + $0.key, $0.value) })
        }
    }

    @Test("Every file or chart a Markdown example links is in docs/examples/", arguments: examples)
    func linksResolve(_ example: Example) throws {
        for (path, contents) in try ExampleOutputsTests.render(example) where path.hasSuffix(".md") {
            let folder = (path as NSString).deletingLastPathComponent
            for match in contents.matches(of: /\]\(([^)#:\s]+)\)/) {
                let target = ExampleOutputsTests.root + "/" + (folder.isEmpty ? "" : folder + "/") + match.1
                #expect(FileManager.default.fileExists(atPath: target), "docs/examples/\(path) links \(match.1), which is not there")
            }
        }
    }

    @Test("docs/examples/ holds what each example command writes now", arguments: examples)
    func example(_ example: Example) throws {
        let rendered = try ExampleOutputsTests.render(example)
        #expect(!rendered.isEmpty)
        if case .directory(let folder) = example.output {
            // A file the command no longer writes must not linger in the examples.
            // Files other examples write into the folder (standard output saved beside it) are theirs.
            let others = Set(ExampleOutputsTests.examples.compactMap { other -> String? in
                if case .standardOutput(let file) = other.output { file } else { nil }
            })
            let kept = try ExampleOutputsTests.files(under: ExampleOutputsTests.root + "/" + folder).keys.map { folder + "/" + $0 }.filter { !others.contains($0) }
            if ExampleOutputsTests.recording {
                for path in kept where rendered[path] == nil { try FileManager.default.removeItem(atPath: ExampleOutputsTests.root + "/" + path) }
            } else {
                #expect(Set(kept) == Set(rendered.keys), "docs/examples/\(folder) holds other files than the command writes: run scripts/examples/regenerate.sh")
            }
        }
        for (path, contents) in rendered.sorted(by: { $0.key < $1.key }) {
            let file = ExampleOutputsTests.root + "/" + path
            if ExampleOutputsTests.recording {
                try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try contents.write(toFile: file, atomically: true, encoding: .utf8)
                continue
            }
            let expected = try? String(contentsOfFile: file, encoding: .utf8)
            #expect(contents == expected, "docs/examples/\(path) is not what `\(example.testDescription)` writes now: run scripts/examples/regenerate.sh and review the diff")
        }
    }
}
