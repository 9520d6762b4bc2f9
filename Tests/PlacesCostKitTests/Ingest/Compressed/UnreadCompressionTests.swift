import Foundation
import Testing
@testable import PlacesCostKit

/// Compressions other than gzip are not decompressed, but are told from their first bytes and
/// said: named on the command line (or on standard input) an error (66) with the command that
/// reads the log; listed in a folder, a warning, the folder's other logs read. Never a CSV
/// header hint, never a silently shorter report.
@Suite("Compressions that are not read")
struct UnreadCompressionTests {
    static let text = [ac(0, "t", "ab"), ac(1, "t", "abc"), details(2, "t")].map(\.jsonLine).joined(separator: "\n") + "\n"

    /// Each compression's tool, its arguments compressing standard input to standard output, and
    /// the name its file is given.
    static let tools: [(compression: UnreadCompression, tool: String, arguments: [String], name: String)] = [
        (.xz, "xz", ["-c"], "calls.jsonl.1.xz"),
        (.bzip2, "bzip2", ["-c"], "calls.jsonl.1.bz2"),
        (.zstd, "zstd", ["-q", "-c"], "calls.jsonl.1.zst"),
        (.lz4, "lz4", ["-q", "-c"], "calls.jsonl.1.lz4"),
        (.lzip, "lzip", ["-c"], "calls.jsonl.1.lz"),
    ]

    /// The path of `tool` on this machine, if it is installed.
    static func installed(_ tool: String) -> String? {
        ["/usr/bin/", "/bin/", "/usr/local/bin/", "/opt/homebrew/bin/"].map { $0 + tool }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test("Each is told by its magic number; text that merely starts like one, and gzip, are not")
    func detection() {
        let heads: [(UnreadCompression, [UInt8])] = [
            (.xz, [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0x00, 0x04]),
            (.bzip2, Array("BZh91AY&SY".utf8)),
            (.bzip2, [0x42, 0x5A, 0x68, 0x39, 0x17, 0x72, 0x45, 0x38, 0x50, 0x90]),
            (.zstd, [0x28, 0xB5, 0x2F, 0xFD, 0x24, 0x00]),
            (.lz4, [0x04, 0x22, 0x4D, 0x18, 0x64, 0x40]),
            (.lzip, Array("LZIP\u{1}".utf8)),
            (.unixCompress, [0x1F, 0x9D, 0x90]),
            (.zip, [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00]),
            (.sevenZip, [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C, 0x00, 0x04]),
        ]
        for (compression, head) in heads {
            #expect(UnreadCompression.detect(head + Array(repeating: 0, count: 20)) == compression, "\(compression)")
        }
        for text in ["BZh9 is a line of text\n", "BZh", "LZI", "PK,timestamp\n", Self.text, "timestamp,api\n", ""] {
            #expect(UnreadCompression.detect(Array(text.utf8)) == nil, "\(text)")
        }
        #expect(UnreadCompression.detect([0x1F, 0x8B, 0x08, 0x00]) == nil)
    }

    @Test("Named, it is an error (66) whose command reads the log; listed, a warning, and the folder's other logs are read", arguments: tools.map(\.compression))
    func named(compression: UnreadCompression) throws {
        let entry = try #require(Self.tools.first { $0.compression == compression })
        let directory = TemporaryDirectory()
        let plain = directory.write("calls.jsonl", Self.text)
        // The real tool's output when it is installed; its magic number and noise otherwise.
        let compressed: Data
        if let tool = Self.installed(entry.tool) {
            let output = try ProcessRun.run("/bin/sh", ["-c", "\"$1\" \(entry.arguments.joined(separator: " ")) < \"$2\" > \"$2.out\"", "sh", tool, plain], timeout: 60)
            #expect(output.status == 0, "\(output.stderr)")
            compressed = try Data(contentsOf: URL(fileURLWithPath: plain + ".out"))
            try FileManager.default.removeItem(atPath: plain + ".out")
            #expect(UnreadCompression.detect(compressed) == compression)
        } else {
            let magic: [UInt8] = switch compression {
            case .xz: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]
            case .bzip2: Array("BZh91AY&SY".utf8)
            case .zstd: [0x28, 0xB5, 0x2F, 0xFD]
            case .lz4: [0x04, 0x22, 0x4D, 0x18]
            default: Array("LZIP\u{1}".utf8)
            }
            compressed = Data(magic + (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37) })
        }
        let folder = directory.path + "/logs"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/" + entry.name
        try compressed.write(to: URL(fileURLWithPath: path))

        let run = runCLI(["analyze", path, "--json"])
        #expect(run.code == .noInput)
        let described = compression.described
        #expect(run.stderr == "placescost: error: cannot read \(path): it is \(described), and placescost decompresses only gzip. "
            + "Decompress it on the way in: \(compression.streamCommand) \(path) | placescost analyze -, or save it decompressed next to the other logs and analyze the folder.\n", "\(run.stderr)")
        #expect(!run.stderr.contains("CSV"))

        // The command as printed, when this machine has the tool: the report of the plain log.
        if let tool = Self.installed(entry.tool), let executable = EndToEndTests.executable {
            let command = compression.streamCommand.replacingOccurrences(of: entry.tool, with: tool)
            let piped = try ProcessRun.run("/bin/sh", ["-c", "\(command) \"$1\" | \"$2\" analyze - --json --quiet", "sh", path, executable], timeout: 120)
            #expect(piped.status == 0, "\(piped.stderr)")
            let direct = runCLI(["analyze", plain, "--json"])
            #expect(piped.stdout.replacingOccurrences(of: "<stdin>", with: "FILE") == direct.stdout.replacingOccurrences(of: plain, with: "FILE"))
        }

        // Listed in a folder beside a plain log: warned about, the plain log read.
        directory.write("logs/calls.jsonl", Self.text)
        let listed = runCLI(["analyze", folder, "--json"])
        #expect(listed.code == .success)
        #expect(listed.stderr.split(separator: "\n").contains("\(path): warning: \(described), and placescost decompresses only gzip; skipped: its calls are not in the report. "
            + "Decompress it on the way in: \(compression.streamCommand) \(path) | placescost analyze -, or save it decompressed next to the other logs and analyze the folder."), "\(listed.stderr)")
        let report = try MalformedCorpusTests.object(listed.stdout)
        #expect((report["input"] as? [String: Any])?["files"] as? [String] == [folder + "/calls.jsonl"])
        #expect((report["input"] as? [String: Any])?["records"] as? Int == 3)
    }

    @Test("On standard input, the command names a FILE to pipe through the tool")
    func standardInput() throws {
        let xz: [UInt8] = [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0x00, 0x04, 0xE6, 0xD6, 0xB4, 0x46]
        let run = try ProcessRun.placescost(["analyze", "-", "--json"], stdin: Data(xz), timeout: 60)
        #expect(run.status == ExitCode.noInput.rawValue)
        #expect(run.stderr.hasSuffix("placescost: error: cannot read <stdin>: it is compressed with xz, and placescost decompresses only gzip. Decompress it on the way in: xz -dc FILE | placescost analyze -.\n"), "\(run.stderr)")
    }

    @Test("A file named like a compressed log that holds plain text is read as text: the content decides")
    func plainTextWithCompressedName() throws {
        let directory = TemporaryDirectory()
        directory.write("calls.jsonl.2.xz", Self.text)
        let run = runCLI(["analyze", directory.path, "--json"])
        #expect(run.code == .success && !run.stderr.contains("warning"), "\(run.stderr)")
        #expect((try MalformedCorpusTests.object(run.stdout)["input"] as? [String: Any])?["records"] as? Int == 3)
    }

    @Test("A file name with quotes or spaces is quoted for the shell in the command")
    func quotedName() throws {
        let directory = TemporaryDirectory()
        let path = directory.write("it's a log.jsonl.zst", bytes: [0x28, 0xB5, 0x2F, 0xFD, 0x24, 0x00, 0x01, 0x00])
        let run = runCLI(["analyze", path, "--json"])
        #expect(run.code == .noInput)
        let quoted = "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
        #expect(run.stderr.contains("zstd -dc \(quoted) | placescost analyze -"), "\(run.stderr)")
    }
}
