/// Problems that stop reading the input.
package enum IngestError: Error, Equatable, CustomStringConvertible {
    /// An input path does not exist or cannot be opened.
    case unreadable(path: String, reason: String)
    /// An input that is a device other than a terminal (`/dev/zero`, `/dev/urandom`, `/dev/null`):
    /// never a log, and one that may never end.
    case device(path: String)
    /// An input the user running the tool may not read (`EACCES`, `EPERM`).
    case notPermitted(path: String)
    /// A read from an open input failed midway; `path` is empty until the reader of the file
    /// names it (`naming(_:)`).
    case readFailed(path: String, reason: String)
    /// A file was cut short while it was read (log rotation with `copytruncate`): what was past
    /// the cut is no longer in it.
    case cutWhileRead(path: String)
    /// An input that cannot be read twice (a pipe) must be, its calls being out of time order
    /// past the reorder window, and its copy to a temporary file failed (the disk is full, the
    /// directory is missing). `disorder`: how far out of order, in microseconds, when known.
    case readTwiceWithoutCopy(InputSpool.Failure, disorder: Int64?)
    /// `--strict` met a malformed record.
    case malformedRecord(Diagnostic)
    /// No input yielded a single record.
    /// `problems`: what was skipped and why (the first warnings, and the entries of a directory
    /// that are not log files), each a phrase with its file.
    case noRecords(inputs: [String], problems: [String] = [])
    /// Calls were read, but none falls in the period `--since`/`--until` asked for; `span` is when
    /// the calls were made.
    case noCallInPeriod(inputs: [String], calls: Int, span: TimeSpan, period: TimeWindow)
    /// Requests were read (an access log, a HAR capture), but none is a Places call.
    /// `hostsSeen`: the hosts requested most, each with its count (`example.com (812)`).
    /// `prefixes`: the path prefixes seen before Google's API paths, most requests first.
    case noPlacesCall(inputs: [String], requests: Int, rejected: Int, hostsSeen: [String], prefixes: [String] = [])
    /// A file of UTF-16 text: logs are read as UTF-8.
    case utf16(path: String, encoding: UTF16Text)
    /// The format of a file could not be told from its content.
    /// `hint`: what the first line looks like and what to pass, when it looks like something.
    case unknownFormat(path: String, hint: String? = nil)
    /// An input named on the command line is gzip-compressed and zlib could not be loaded.
    case compressedWithoutZLib(path: String)
    /// An input is compressed in a way that is not decompressed (only gzip is).
    case compressedUnread(path: String, compression: UnreadCompression)
    /// The billing export file does not exist or cannot be opened.
    case unreadableBillingExport(path: String, reason: String)
    /// A billing export whose layout or rows could not be read; `reason` is a full sentence.
    case invalidBillingExport(path: String, reason: String)

    /// What to do about a log this user may not read.
    static let permissionAdvice = "Run as a user who may read it (server logs are often readable by the adm group), or analyze a copy you can read."

    /// How to turn the UTF-16 file `path` into UTF-8.
    static func utf8Advice(_ path: String, from encoding: UTF16Text) -> String {
        guard path != "<stdin>" else { return "Convert it on the way: ... | iconv -f \(encoding.iconvName) -t UTF-8 | placescost analyze -." }
        // The copy's name: the file's, `-utf8` before its first dot (`access-utf8.log.1`).
        let name = String(path.split(separator: "/").last ?? "log")
        let dot = name.dropFirst().firstIndex(of: ".") ?? name.endIndex
        let copy = shellQuoted(String(name[..<dot] + "-utf8" + name[dot...]))
        return "Save it as UTF-8 first: iconv -f \(encoding.iconvName) -t UTF-8 \(shellQuoted(path)) > \(copy), or in PowerShell, Get-Content \(shellQuoted(path)) | Set-Content -Encoding utf8 \(copy)."
    }

    /// The command that reads the gzip input `path` without zlib in this process.
    static func decompressCommand(for path: String) -> String {
        path == "<stdin>" ? "zcat FILE.gz | placescost analyze -" : "zcat \(shellQuoted(path)) | placescost analyze -"
    }

    /// `path` as a shell word: unchanged when plain, in single quotes otherwise.
    static func shellQuoted(_ path: String) -> String {
        let plain = path.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || "/._-+,:@%".utf8.contains(byte)
        }
        return plain && !path.isEmpty ? path : "'" + path.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// The error with `path` filled in where the reader did not know it.
    package func naming(_ path: String) -> IngestError {
        if case .readFailed("", let reason) = self { return .readFailed(path: path, reason: reason) }
        return self
    }

    package var description: String {
        switch self {
        case .unreadable(let path, let reason):
            path.isEmpty
                ? "cannot read an input given as an empty argument (\"\"), as an unset shell variable gives: it names no file. Check the arguments, or pass - to read standard input."
                : path == "<stdin>" ? "cannot read \(path): \(reason)." : "cannot read \(path): \(reason). Check the path, or pass - to read standard input."
        case .device(let path):
            "cannot read \(path): it is a device (as /dev/zero and /dev/urandom are), not a log. Pass a log file, a folder of logs, or - with the log piped to standard input."
        case .notPermitted(let path):
            "cannot read \(path): permission denied. \(IngestError.permissionAdvice)"
        case .readFailed(let path, let reason):
            "reading \(path.isEmpty ? "the input" : path) failed part-way: \(reason). Check the disk, or what feeds standard input, and run again."
        case .cutWhileRead(let path):
            "\(path) was cut short while it was read, as log rotation with copytruncate does: the calls past the cut are no longer in it. Analyze it together with the rotated copy (such as \(path).1), or a copy of the log made before the run."
        case .readTwiceWithoutCopy(let failure, let disorder):
            "cannot read \(failure.name) a second time: its calls came "
                + (disorder.map { "up to \(Duration64.spoken(seconds: Double($0) / 1_000_000)) " } ?? "")
                + "out of time order, more than --reorder-window allows, and it is \(failure.kind) whose copy to a temporary file in \(failure.directory) failed (\(failure.reason)). "
                + (disorder.map { "Pass --reorder-window \(Analyzer.singleReadWindow(disorder: $0)) to read it once in order (holding that span of calls in memory), set" } ?? "Set")
                + " TMPDIR to a directory with room, or save the input to a file and pass its path."
        case .malformedRecord(let diagnostic):
            "\(diagnostic.location): malformed record: \(diagnostic.printableReason) (--strict stops at the first one; drop --strict to skip and count such records)."
        case .noRecords(let inputs, let problems):
            // The problems say what to do; without them, say what the reader takes.
            problems.isEmpty
                ? "no record could be read from \(inputs.joined(separator: ", ")). Check that the input is a request log (canonical JSON Lines or CSV, an access log or a HAR capture), or pass --format."
                // A problem may be a sentence of its own: its period would end it mid-list.
                : "no record could be read: \(problems.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }.joined(separator: "; "))."
        case .noCallInPeriod(let inputs, let calls, let span, let period):
            "no call to analyze in the period asked for (\(period.described)): \(inputs.joined(separator: ", ")) hold\(inputs.count == 1 ? "s" : "") \(Money.count(calls)) call\(calls == 1 ? "" : "s")" + (span.first.map { first in " from \(first.rfc3339) to \(span.last!.rfc3339)" } ?? "") + ". Pass --since and --until dates inside that period, or drop them."
        case .noPlacesCall(let inputs, let requests, let rejected, let hostsSeen, let prefixes):
            "no Places call to analyze: none of the \(Money.count(requests)) request\(requests == 1 ? "" : "s") read from \(inputs.joined(separator: ", ")) is a Places Autocomplete, Place Details or Geocoding call"
                + (rejected > 0 ? " (\(Money.count(rejected)) more could not be read)" : "")
                + (hostsSeen.isEmpty ? "; the requests name no host" : "; the hosts requested most: \(hostsSeen.joined(separator: ", "))")
                + (prefixes.first.map { prefix in
                    ". Google's API paths come after \(prefix) in them: pass --strip-prefix \(prefix)" + (prefixes.count > 1 ? " (and --strip-prefix for \(prefixes.dropFirst().prefix(2).joined(separator: ", ")))" : "") + "."
                } ?? ". Check that the capture was made while the app searched for a place, or map your proxy's paths with --route.")
        case .utf16(let path, let encoding):
            "\(path) is UTF-16 text (as Windows PowerShell's `>` writes it), and logs are read as UTF-8. \(IngestError.utf8Advice(path, from: encoding))"
        case .unknownFormat(let path, let hint):
            "cannot tell the format of \(path) from its content" + (hint.map { ": \($0)" } ?? ". Pass --format jsonl, csv, access-log or har.")
        case .compressedWithoutZLib(let path):
            "cannot read \(path): it is gzip-compressed, and zlib (\(ZLib.platformCandidates[0])) could not be loaded to decompress it. Decompress it first: " + IngestError.decompressCommand(for: path)
        case .compressedUnread(let path, let compression):
            "cannot read \(path): it is \(compression.described), and placescost decompresses only gzip. " + compression.advice(for: path == "<stdin>" ? path : IngestError.shellQuoted(path))
        case .unreadableBillingExport(let path, let reason):
            "cannot read the billing export \(path): \(reason). Check the --billing path."
        case .invalidBillingExport(let path, let reason):
            "\(path): \(reason)"
        }
    }
}
