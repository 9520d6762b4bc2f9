import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads request logs from files, directories and standard input into `Call`s.
///
/// Malformed records become diagnostics (the first `maxStoredDiagnostics` kept, all counted)
/// unless `strict` is set, in which case the first one is thrown.
package struct LogReader {
    package struct Options: Sendable {
        /// `nil` sniffs each file's format from its content.
        package var format: InputFormat?
        package var strict: Bool
        /// Calls outside this window are dropped after decoding (`--since`/`--until`).
        package var window: TimeWindow
        /// The access-log line format (`--log-format`); `nil` reads nginx/Apache combined or common.
        package var logFormat: AccessLogFormat?
        /// Drop exact duplicates (`--dedupe`): a record with the time and fingerprint of an
        /// earlier one. They are counted either way.
        package var dedupe: Bool
        /// The user's own proxy paths (`--route`, `--strip-prefix`).
        package var routes = RequestRoutes()
        /// The request header that carries a user id (`--user-header`), lowercased: read from a
        /// HAR's headers and from an access log's `$http_...` variable of that name.
        package var userHeader = LogReader.defaultUserHeader
        /// The zlib library gzip inputs are decompressed with (`PLACESCOST_ZLIB`): `nil` loads the
        /// platform's own, an empty name none (tests read gzip as on a machine without zlib).
        package var zlibLibrary: String?

        package init(format: InputFormat? = nil, strict: Bool = false, window: TimeWindow = TimeWindow(), logFormat: AccessLogFormat? = nil, dedupe: Bool = false, zlibLibrary: String? = nil) {
            self.format = format
            self.strict = strict
            self.window = window
            self.logFormat = logFormat
            self.dedupe = dedupe
            self.zlibLibrary = zlibLibrary
        }

        /// The parser of access-log lines these options ask for.
        var accessLogParser: AccessLogParser {
            AccessLogParser(format: logFormat ?? .combined, userHeader: userHeader)
        }

        /// The parser of `input`'s access-log lines: in the layout its first line was told to be
        /// in, else as `accessLogParser`.
        func accessLogParser(for input: OpenedInput) -> AccessLogParser {
            input.accessLogLayout.map { AccessLogParser(format: $0, userHeader: userHeader) } ?? accessLogParser
        }
    }

    /// What was read.
    package struct Output: Sendable {
        /// Calls in read order (files in the order given, lines in file order).
        package var calls: [Call] = []
        /// Malformed records skipped.
        package var rejected = 0
        /// Valid calls dropped by `--since`/`--until`.
        package var outsideWindow = 0
        /// When those calls were made: the log's own period, when nothing falls in the one asked for.
        package var outsidePeriod = TimeSpan()
        /// The first diagnostics, in order.
        package var diagnostics: [Diagnostic] = []
        /// All diagnostics, including those not stored.
        package var diagnosticCount = 0
        /// Warnings about a whole file (its compressed data damaged, cut short or followed by
        /// other bytes; its JSON array cut off between elements or holding empty elements): at
        /// most two a file, kept and shown however many record warnings came before, since damage
        /// first shows as the garbage it decodes to. Not in `diagnosticCount`.
        package var fileWarnings: [Diagnostic] = []
        /// Field names of Place Details masks that no field list knows, with their details calls
        /// (`Analyzer.unknownFields`): billed as the categories of most unlisted fields.
        package var unknownFields: [(name: String, calls: Int)] = []
        /// When the calls came a day or more out of time order (`Analyzer.disorderNoted`), past
        /// the reorder window: how far, in microseconds; the log was then read a second time,
        /// holding that much of it. Lesser disorder is read twice too, without a note.
        package var readTwiceForDisorder: Int64?
        /// The files read, as displayed in diagnostics.
        package var files: [String] = []
        /// Access-log lines and HAR entries that are not Places calls (other endpoints, assets).
        package var skippedRequests = 0
        /// Requests to Places endpoints that are not calls (preflights, redirects), also in
        /// `skippedRequests`.
        package var unbilled = UnbilledRequests()
        /// Places API (New) calls whose body the source does not show (an access log's
        /// `POST places:autocomplete`): their token and input are unknown.
        package var bodiesUnknown = 0
        /// Valid canonical records (JSON Lines, CSV) that carry typed text in `input`, and the
        /// files they are in, in reading order: `input_length` would do (the notice says so).
        package var typedTextRecords = 0
        package var typedTextFiles: [String] = []
        /// Records that repeat an earlier record exactly (same time, same content), and how many
        /// of them `dedupe` dropped.
        package var duplicates = 0
        package var duplicatesDropped = 0
        /// Inputs that are not regular files, copied to temporary files to be read (`InputSpool`).
        package var spooled: [InputSpool.Copy] = []
        /// Inputs that are not regular files whose copy failed: each was read once, as it came,
        /// which is exact when its calls are in time order within the reorder window.
        package var spoolFailures: [InputSpool.Failure] = []
        /// Hosts taken as proxies of Google's APIs, and hosts of skipped requests.
        package var hosts = RequestHosts()
        /// Folders inside the directories given, which are not searched (`LogReader.unlisted`).
        package var foldersNotRead: [String] = []
        /// Files of the directories given that hold logs by their first bytes but are not named
        /// as logs are, so were not read (`LogReader.unlisted`).
        package var logsNotNamedAsLogs: [String] = []

        package init() {}

        /// Counts a record with typed text in `file`.
        package mutating func noteTypedText(in file: String, records: Int = 1) {
            guard records > 0 else { return }
            typedTextRecords += records
            if !typedTextFiles.contains(file) { typedTextFiles.append(file) }
        }
    }

    package static let maxStoredDiagnostics = 20
    package static let defaultUserHeader = "x-user-id"

    package var options: Options

    package init(options: Options = Options()) {
        self.options = options
    }

    /// An input file, and whether it came from a directory listing (such files may be other
    /// data: skipped if so).
    package typealias ListedFile = (path: String, listedInDirectory: Bool)

    /// Files named by `paths`, with directories replaced by their log files, each with whether it
    /// came from a directory listing (such files may be other data: skipped if so).
    ///
    /// A directory's logs are read in time order as logrotate names them: sorted by the name the
    /// log is written under (`access.log`), and the rotations of one name oldest first: by date
    /// (`access.log-20261001.gz`), or the highest number first, compared as numbers
    /// (`access.log.10.gz`, `access.log.9.gz`, ..., `access.log.1`), the plain name last
    /// (`RotatedLogName`). Calls then come in time order across the files, so the
    /// walk's reorder window stays small and the log is read once (`docs/formats.md` section 5).
    /// Rotations of one log named one by one are put in that order too, where they stand among
    /// the paths: a shell glob (`access.log*`) lists them by name, `access.log.10.gz` before
    /// `access.log.2.gz`, which would be read out of time order, and twice.
    package static func expand(_ paths: [String]) throws -> [ListedFile] {
        var files = try listed(paths)
        // The named files that are rotations, by folder and log name, where they stand.
        var groups: [String: [(index: Int, name: RotatedLogName)]] = [:]
        for (index, file) in files.enumerated() where !file.listedInDirectory && file.path != "-" {
            let folder = (file.path as NSString).deletingLastPathComponent
            guard let name = RotatedLogName((file.path as NSString).lastPathComponent) else { continue }
            groups[folder + "/" + name.base, default: []].append((index, name))
        }
        let originals = files
        for group in groups.values where group.count > 1 {
            for (slot, member) in zip(group.map(\.index), group.sorted { $0.name < $1.name }) {
                files[slot] = originals[member.index]
            }
        }
        return files
    }

    /// `paths` with each directory replaced by its log files in time order (`expand`).
    private static func listed(_ paths: [String]) throws -> [ListedFile] {
        var files: [ListedFile] = []
        for path in paths {
            if path == "-" {
                files.append((path, false))
                continue
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                // A link that leads nowhere, or round in a loop, is there but names no file.
                var link = stat()
                let reason = lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK
                    ? (stat(path, &link) != 0 && errno == ELOOP ? "a symbolic link in a loop (it leads back to itself)" : "a symbolic link to nothing (broken)")
                    : "no such file or directory"
                throw IngestError.unreadable(path: path, reason: reason)
            }
            if isDirectory.boolValue {
                let names: [String]
                do {
                    names = try FileManager.default.contentsOfDirectory(atPath: path)
                } catch {
                    throw IngestError.unreadable(path: path, reason: "the directory cannot be listed")
                }
                let base = path.hasSuffix("/") ? path : path + "/"
                files += names.compactMap(RotatedLogName.init).sorted().map { (base + $0.name, true) }
            } else {
                files.append((path, false))
            }
        }
        return files
    }

    /// What the directories among `paths` hold that their listing does not read, so a note can
    /// name it rather than leave its logs out unsaid; one listing and one `stat` an entry, by
    /// name, hidden entries and those named as logs left out (a folder named like a log is
    /// warned about as it is listed):
    /// - `folders`: a directory's logs are its files, and its folders are not searched;
    /// - `logs`: files whose first bytes are a log's though their names are not (`looksLikeALog`):
    ///   a call record or a web server's JSON record, a CSV header with `timestamp` and `api`, an
    ///   access-log line or a HAR capture, plain or gzip-compressed (`000000.gz`, as a cloud log
    ///   export names its parts; a `.tar.gz` is not a log). Regular files only (a FIFO is never
    ///   opened); the first `maxFilesSniffed` entries a folder, each its first `sniffedBytes`,
    ///   so a folder of a hundred thousand data files costs a few megabytes of reads.
    package static func unlisted(_ paths: [String]) -> (folders: [String], logs: [String]) {
        var folders: [String] = []
        var logs: [String] = []
        for path in paths {
            guard let names = entries(ofDirectory: path) else { continue }
            let base = path.hasSuffix("/") ? path : path + "/"
            for (index, name) in names.filter({ !$0.hasPrefix(".") && RotatedLogName($0) == nil }).sorted().enumerated() {
                var status = stat()
                guard stat(base + name, &status) == 0 else { continue }
                switch status.st_mode & S_IFMT {
                // A folder of pictures only (a report's charts) holds nothing this run leaves out.
                case S_IFDIR where !holdsOnlyPictures(base + name): folders.append(base + name)
                case S_IFREG where index < maxFilesSniffed && status.st_size > 0 && looksLikeALog(base + name): logs.append(base + name)
                default: continue
                }
            }
        }
        return (folders, logs)
    }

    /// Whether every entry of the folder at `path` (hidden ones aside) is a picture (`.svg`,
    /// `.png`), as the `charts/` of a report written into the logs' folder: no log to leave out.
    static func holdsOnlyPictures(_ path: String) -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return false }
        let visible = names.filter { !$0.hasPrefix(".") }
        return !visible.isEmpty && visible.allSatisfy { $0.lowercased().hasSuffix(".svg") || $0.lowercased().hasSuffix(".png") }
    }

    /// The names in `path` when it is a directory that can be listed (`-`, a file or anything
    /// else: `nil`).
    static func entries(ofDirectory path: String) -> [String]? {
        var isDirectory: ObjCBool = false
        guard path != "-", FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        return try? FileManager.default.contentsOfDirectory(atPath: path)
    }

    /// How many of a folder's entries not named as logs `unlisted` looks into, and how
    /// much of each: a first line of a log record, a CSV header or a HAR's opening.
    static let maxFilesSniffed = 1_000
    static let sniffedBytes = 8 * 1024

    /// Whether the regular file at `path` starts as a log does (`unlisted`).
    private static func looksLikeALog(_ path: String) -> Bool {
        let descriptor = SystemCall.open(path, O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { _ = SystemCall.close(descriptor) }
        var head = [UInt8](repeating: 0, count: sniffedBytes)
        let count = head.withUnsafeMutableBytes { SystemCall.read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        head.removeSubrange(count...)
        return startsAsALog(head)
    }

    /// Whether `head`, the first bytes of a file, is a log's beginning; gzip data is inflated
    /// first (without zlib, it cannot be told).
    private static func startsAsALog(_ head: [UInt8]) -> Bool {
        if GzipDecompressor.isGzip(head) {
            guard let zlib = ZLib.platform, let inflater = Inflater(zlib: zlib) else { return false }
            var plain = [UInt8](repeating: 0, count: 64 * 1024)
            let produced = head.withUnsafeBytes { input in
                plain.withUnsafeMutableBytes { output in inflater.inflate(input, into: output).produced }
            }
            plain.removeSubrange(produced...)
            return !GzipDecompressor.isGzip(plain) && startsAsALog(plain)
        }
        switch InputFormat.sniff(head) {
        case .csv, .accessLog, .har: return true
        case .jsonl:
            // Any `{` sniffs as JSON Lines: only a first line that is a call or a request counts.
            let first = head.split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: true).first.map(Array.init) ?? []
            guard case .success(let record) = first.withUnsafeBufferPointer({ JSONLineParser.parse($0) }) else { return false }
            return record.hasWebServerKey || (record[.timestamp] != nil && record[.api] != nil)
        case nil: return false
        }
    }

    /// `folders` as a message names them: "a, b and c", or the first two "and 4 more".
    package static func listedFolders(_ folders: [String]) -> String {
        switch folders.count {
        case 0...1: folders.joined()
        case 2...3: folders.dropLast().joined(separator: ", ") + " and " + folders.last!
        default: folders.prefix(2).joined(separator: ", ") + " and \(folders.count - 2) more"
        }
    }

    /// Log files in a directory: not hidden, with an extension logs are written with, perhaps
    /// rotated and compressed (`RotatedLogName`).
    static func isLogFileName(_ name: String) -> Bool {
        RotatedLogName(name) != nil
    }

    /// An input opened and sniffed, ready for its records to be read.
    package struct OpenedInput {
        var path: String
        var displayName: String
        var descriptor: Int32
        var reader: LineReader
        var format: InputFormat
        /// An access log's layout told from its first line when no `--log-format` is given (an
        /// AWS load balancer's); `nil` for the options' own (`combined` by default).
        var accessLogLayout: AccessLogFormat?
        /// Whether `close` closes `descriptor` (standard input stays open).
        var ownsDescriptor = true
        /// Set when the input is gzip: `descriptor` is then the read end of the pipe it
        /// decompresses into, and the input's own descriptor is the decompressor's.
        var decompressor: GzipDecompressor?
        /// Set when the input is one JSON array: `descriptor` is then the read end of the pipe
        /// it is unwrapped into, one record a line, and the input's own descriptor (or the
        /// decompressor's) is the unwrapper's.
        var unwrapper: JSONArrayUnwrapper?
        /// Set when the input cannot be read twice and its copy failed: `descriptor` is then
        /// the read end of the pipe it is read once through, and the input's own descriptor is
        /// the replay's.
        var replay: SpoolReplay?

        /// Bytes of the input read so far, for progress: compressed bytes for a gzip input, the
        /// array's own bytes for an array; `nil` when the reader's own count is the input's.
        var sourceBytesRead: Int? {
            decompressor?.compressedBytesRead ?? unwrapper?.bytesRead
        }

        package func close() {
            if ownsDescriptor { _ = SystemCall.close(descriptor) }
            // After the pipe's read end is closed: a thread blocked writing to it stops, and
            // then the decompressor whose pipe it read.
            unwrapper?.stop()
            decompressor?.stop()
            replay?.stop()
        }
    }

    /// Opens one input and tells its format; `nil` when it holds nothing to read (said in a diagnostic).
    ///
    /// An input whose first bytes are gzip's (`1f 8b`), whatever its name, is read through a
    /// `GzipDecompressor` and its format told from the text; without zlib it is an error when
    /// named (`IngestError.compressedWithoutZLib`), and skipped with a warning when listed in a
    /// directory. Call `finishReading` once its records are read.
    ///
    /// An entry of a directory listing that is not a regular file (a directory named like a log,
    /// a FIFO, a socket, a broken symbolic link) is skipped with a warning: it is opened without
    /// blocking, so a FIFO with no writer never stalls the run.
    ///
    /// - Parameters:
    ///   - spool: where inputs that cannot be read twice are copied before they are read
    ///     (`InputSpool`); `nil` reads them as they stream, once.
    ///   - index: the input's position in `expand`'s list: its key in `spool`.
    package func open(_ path: String, listedInDirectory: Bool, spool: InputSpool? = nil, index: Int = 0, into output: inout Output) throws -> OpenedInput? {
        let displayName = path == "-" ? "<stdin>" : path
        var descriptor: Int32
        var ownsDescriptor = true
        let copied = try spool?.reopen(index)
        if let copied {
            descriptor = copied
        } else if path == "-" {
            descriptor = STDIN_FILENO
            ownsDescriptor = false
            // A folder (`< /tmp`) is said as such, before a read fails.
            var status = stat()
            if fstat(STDIN_FILENO, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
                throw IngestError.unreadable(path: displayName, reason: "standard input is a folder; pass the folder's path as an argument instead")
            }
            spool?.rewindStandardInput(index)
        } else if listedInDirectory {
            descriptor = SystemCall.open(path, O_RDONLY | O_NONBLOCK)
            guard descriptor >= 0 else {
                let error = errno
                // One log of a folder this user may not read costs its own calls, not the run.
                if error == EACCES || error == EPERM {
                    try reportSkipped(path, "permission denied; skipped: its calls are not in the report. \(IngestError.permissionAdvice)", into: &output)
                    return nil
                }
                guard error == ENOENT || error == ELOOP || error == ENXIO else {
                    throw IngestError.unreadable(path: path, reason: String(cString: strerror(error)))
                }
                var link = stat()
                guard error != ENOENT || lstat(path, &link) == 0 else {
                    // Listed, then gone: a log rotation removed it while the run read the folder.
                    try reportSkipped(path, "removed from its folder after the run listed it (by a log rotation?); its calls are not in the report", into: &output)
                    return nil
                }
                let what = error == ENXIO ? "a socket" : "a symbolic link to nothing (broken)"
                try reportSkipped(path, LogReader.notALog(what, readable: false), into: &output)
                return nil
            }
            if let what = LogReader.nonRegularKind(descriptor) {
                _ = SystemCall.close(descriptor)
                try reportSkipped(path, LogReader.notALog(what, readable: what != "a device"), into: &output)
                return nil
            }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        } else {
            descriptor = SystemCall.open(path, O_RDONLY)
            guard descriptor >= 0 else {
                if errno == EACCES || errno == EPERM { throw IngestError.notPermitted(path: path) }
                throw IngestError.unreadable(path: path, reason: String(cString: strerror(errno)))
            }
        }
        // A device such as /dev/zero or /dev/urandom never ends: read, it would run (and be
        // copied to $TMPDIR) forever. A terminal is read as typed.
        if copied == nil, !listedInDirectory, LogReader.nonRegularKind(descriptor) == "a device", isatty(descriptor) == 0 {
            if ownsDescriptor { _ = SystemCall.close(descriptor) }
            throw IngestError.device(path: displayName)
        }
        var input = OpenedInput(path: path, displayName: displayName, descriptor: descriptor, reader: LineReader(fileDescriptor: descriptor), format: .jsonl, ownsDescriptor: ownsDescriptor)
        var keep = false
        defer { if !keep { input.close() } }
        output.files.append(displayName)
        var head = try input.reader.peek(LogReader.headBytes)
        var checkedSpool = false
        /// Copies an input that cannot be read twice: before any record is read, even when it
        /// holds nothing (a later read of the run must find the copy, not the drained pipe or a
        /// FIFO without a writer), and before decompression (the copy is of the compressed bytes).
        func spoolIfNeeded() throws {
            defer { checkedSpool = true }
            guard !checkedSpool, let spool, copied == nil, let kind = InputSpool.kindNeedingCopy(descriptor) else { return }
            // The spool closes the input's descriptor when it owns it, or hands it to the replay.
            let spooled = try spool.copy(index, name: displayName, kind: kind, descriptor: descriptor, ownsDescriptor: input.ownsDescriptor, prefix: input.reader.takeBuffered())
            input.descriptor = spooled.descriptor
            input.ownsDescriptor = true
            input.reader = LineReader(fileDescriptor: spooled.descriptor)
            input.replay = spooled.replay
        }
        if GzipDecompressor.isGzip(head) {
            guard let zlib = ZLib.named(options.zlibLibrary) else {
                guard listedInDirectory else { throw IngestError.compressedWithoutZLib(path: displayName) }
                try reportSkipped(displayName, "gzip-compressed, and zlib (\(ZLib.platformCandidates[0])) could not be loaded to decompress it; skipped (decompress it first: \(IngestError.decompressCommand(for: displayName)))", into: &output)
                output.files.removeLast()
                return nil
            }
            try spoolIfNeeded()
            let decompressor = try GzipDecompressor(zlib: zlib, source: input.descriptor, prefix: input.reader.takeBuffered(), ownsSource: input.ownsDescriptor)
            input.descriptor = decompressor.output
            input.ownsDescriptor = true
            input.reader = LineReader(fileDescriptor: decompressor.output)
            input.decompressor = decompressor
            head = try input.reader.peek(LogReader.headBytes)
        }
        if let compression = UnreadCompression.detect(head) {
            guard listedInDirectory else { throw IngestError.compressedUnread(path: displayName, compression: compression) }
            try reportSkipped(displayName, "\(compression.described), and placescost decompresses only gzip; skipped: its calls are not in the report. \(compression.advice(for: IngestError.shellQuoted(displayName)))", into: &output)
            output.files.removeLast()
            return nil
        }
        // Read as UTF-8 it would be a record of zero bytes a character: said once, not line by line.
        if let utf16 = UTF16Text.detect(head) {
            guard listedInDirectory else { throw IngestError.utf16(path: displayName, encoding: utf16) }
            try reportSkipped(displayName, "UTF-16 text, and logs are read as UTF-8; skipped. \(IngestError.utf8Advice(displayName, from: utf16))", into: &output)
            output.files.removeLast()
            return nil
        }
        /// Blank lines before the first record are skipped by every reader: looks past them, or a
        /// log after 64 KiB of them would read as empty. `false` when the input was skipped.
        func lookPastBlank() throws -> Bool {
            guard head.count == LogReader.headBytes, LogReader.isBlank(head) else { return true }
            head = try LogReader.headPastBlank(&input.reader)
            guard head.count == LogReader.blankHeadLimit, LogReader.isBlank(head) else { return true }
            let message = "its first \(LogReader.blankHeadLimit >> 20) MiB are blank (spaces and line breaks), which no log starts with"
            guard listedInDirectory else { throw IngestError.unknownFormat(path: displayName, hint: message) }
            try reportSkipped(displayName, "skipped: \(message)", into: &output)
            output.files.removeLast()
            return false
        }
        guard try lookPastBlank() else { return nil }
        let chosenFormat = options.format ?? (options.logFormat != nil ? .accessLog : nil)
        // `gcloud logging read --format=json` and the console's download write one array.
        if chosenFormat == nil || chosenFormat == .jsonl, JSONArrayUnwrapper.isArray(head) {
            try spoolIfNeeded()
            let unwrapper = try JSONArrayUnwrapper(source: input.descriptor, prefix: input.reader.takeBuffered(), ownsSource: input.ownsDescriptor)
            input.descriptor = unwrapper.output
            input.ownsDescriptor = true
            input.reader = LineReader(fileDescriptor: unwrapper.output)
            input.unwrapper = unwrapper
            head = try input.reader.peek(LogReader.headBytes)
            // The array's blank lines stay, each record on the line it starts on.
            guard try lookPastBlank() else { return nil }
        }
        let holdsNothing = LogReader.isBlank(head)
        var format = holdsNothing ? nil : chosenFormat ?? InputFormat.sniff(head)
        var formatHead = head
        if !holdsNothing, format == nil, let cut = InputFormat.sniffPastCutFirstLine(head) {
            format = cut.format
            formatHead = cut.rest
        }
        if !holdsNothing, format == nil {
            guard listedInDirectory else { throw IngestError.unknownFormat(path: displayName, hint: InputFormat.hint(head)) }
            try reportSkipped(displayName, InputFormat.hint(head).map { "skipped: \($0)" } ?? "not a request log this version reads (JSON Lines, a CSV with timestamp and api columns, an access log or a HAR capture); skipped", into: &output)
            output.files.removeLast()
            return nil
        }
        try spoolIfNeeded()
        guard let format else {
            // Damaged compressed data that gave no line is said as such, not as an empty file.
            if input.decompressor != nil || input.unwrapper != nil, try finishReading(&input, into: &output) { return nil }
            try reportSkipped(displayName, "the file holds no records", into: &output)
            return nil
        }
        input.format = format
        if format == .accessLog, options.logFormat == nil, let layout = AccessLogParser.layout(of: formatHead), layout != .combined {
            input.accessLogLayout = layout
        }
        keep = true
        return input
    }

    /// How much of an input its format is told from.
    static let headBytes = 64 * 1024
    /// How far past blank lines a first record is looked for: a file blank for longer is not a log.
    static let blankHeadLimit = 16 << 20

    /// Whether `bytes` hold only spaces, tabs and line breaks.
    static func isBlank(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
    }

    /// The input's first bytes, read on (4x at a time, up to `blankHeadLimit`) past a head that is
    /// all blank, until they hold something else or the input ends; nothing is consumed.
    static func headPastBlank(_ reader: inout LineReader) throws -> [UInt8] {
        var size = headBytes
        var head = try reader.peek(size)
        while head.count == size, size < blankHeadLimit, isBlank(head) {
            size = min(size * 4, blankHeadLimit)
            head = try reader.peek(size)
        }
        return head
    }

    /// Ends the reading of an input: for a gzip input or a JSON array, reads what its reader left
    /// of the text (so the outcome is known, whichever reader stopped where) and warns, at the
    /// line it was found in, when the compressed data was damaged, cut short or followed by other
    /// bytes, and when the array was cut off between elements or holds empty elements
    /// (`JSONArrayLines.Finding`).
    ///
    /// - Parameter strictLater: keep the warning as a diagnostic even under `strict`, for a
    ///   caller that throws diagnostics in input order itself (`CallPipeline`).
    /// - Returns: whether a warning was given.
    /// - Throws: `IngestError.cutWhileRead` when a gzip file was cut short while it was read;
    ///   `IngestError.readFailed` when reading the compressed input or the array failed; the warning's
    ///   `IngestError.malformedRecord` under `strict`.
    @discardableResult
    package func finishReading(_ input: inout OpenedInput, into output: inout Output, strictLater: Bool = false) throws -> Bool {
        let warned = try finishDecoding(&input, into: &output, strictLater: strictLater)
        // After the decompressor and the unwrapper, which read the replay's pipe to its end.
        if let replay = input.replay, case .readFailed(let reason) = replay.finish() {
            throw IngestError.readFailed(path: "", reason: reason)
        }
        return warned
    }

    /// `finishReading` for a gzip input or a JSON array.
    private func finishDecoding(_ input: inout OpenedInput, into output: inout Output, strictLater: Bool) throws -> Bool {
        var warned = false
        // The gzip data's outcome first: a cut or damage there explains the array's cut.
        var arrayFindings: [JSONArrayLines.Finding] = []
        switch input.unwrapper?.finish() {
        case .readFailed(let reason):
            throw IngestError.readFailed(path: "", reason: reason)
        case .complete(let findings):
            arrayFindings = findings
        case .abandoned, nil:
            break
        }
        if let decompressor = input.decompressor {
            // An unwrapper read the decompressor's pipe to its end: the outcome is final.
            switch input.unwrapper == nil ? decompressor.finish() : decompressor.outcome ?? .abandoned {
            case .complete, .abandoned:
                break
            case .cutWhileRead:
                throw IngestError.cutWhileRead(path: input.displayName)
            case .damaged(let reason, let line):
                try warnOfFile(Diagnostic(location: SourceLocation(file: input.displayName, line: line), reason: reason), into: &output, strictLater: strictLater)
                return true
            case .readFailed(let reason):
                throw IngestError.readFailed(path: "", reason: reason)
            }
        }
        for finding in arrayFindings {
            try warnOfFile(Diagnostic(location: SourceLocation(file: input.displayName, line: finding.line), reason: finding.reason), into: &output, strictLater: strictLater)
            warned = true
        }
        return warned
    }

    /// A warning about a whole file (`Output.fileWarnings`), or under `strict` the error.
    private func warnOfFile(_ diagnostic: Diagnostic, into output: inout Output, strictLater: Bool) throws {
        if !options.strict {
            output.fileWarnings.append(diagnostic)
        } else if strictLater {
            output.diagnosticCount += 1
            if output.diagnostics.count < LogReader.maxStoredDiagnostics { output.diagnostics.append(diagnostic) }
        } else {
            throw IngestError.malformedRecord(diagnostic)
        }
    }

    /// What the directory entry open on `descriptor` is, when it is not a regular file.
    private static func nonRegularKind(_ descriptor: Int32) -> String? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return "not a regular file" }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }

    /// Why an entry of a directory that has a log's name but is not a regular file is skipped.
    ///
    /// - Parameter readable: whether naming the path on its own reads it (a directory's logs, a FIFO's stream).
    private static func notALog(_ what: String, readable: Bool) -> String {
        "\(what), not a log file, though its name looks like one; skipped" + (readable ? " (pass it as an argument of its own to read it)" : "")
    }

    /// Reads an opened input's records, handing each call kept to `deliver` with its record's
    /// `Fingerprint`.
    package func readRecords(_ input: inout OpenedInput, into output: inout Output, deliver: (Call, UInt64) -> Void) throws {
        try withoutActuallyEscaping(deliver) { deliver in
            try readRecords(&input, into: &output, escapingDeliver: deliver)
        }
    }

    private func readRecords(_ input: inout OpenedInput, into output: inout Output, escapingDeliver deliver: @escaping (Call, UInt64) -> Void) throws {
        let displayName = input.displayName
        let format = input.format
        let descriptor = input.descriptor
        var reader = input.reader
        defer { input.reader = reader }
        let sink = RecordSink(file: displayName, decoder: CallDecoder(fieldsAsDelimitedCell: format == .csv), reader: self, deliver: deliver)
        switch format {
        case .jsonl:
            try reader.forEachLine { event in
                switch event {
                case .line(let line, let number):
                    if LineReader.isBlank(line) { return }
                    switch JSONLineParser.parse(line) {
                    case .success(let record) where record.isWebServerRecord:
                        switch JSONAccessRecord.parse(line, userHeader: options.userHeader) {
                        case .request(let request): try sink.accept(request, line: number, into: &output)
                        case .malformed(let reason): try sink.reject(reason, line: number, into: &output)
                        }
                    case .success(let record): try sink.accept(record, line: number, fingerprint: Fingerprint.of(line), into: &output)
                    case .failure(let failure): try sink.reject(failure.reason, line: number, into: &output)
                    }
                case .overlong(let number):
                    try sink.reject(LineReader.overlongReason, line: number, into: &output)
                }
            }
        case .csv:
            try readCSV(&reader, parser: CSVRecordParser(), linesBefore: 0, sink: sink, into: &output)
        case .har:
            // A capture cut off while it was read is no partial capture: the run stops.
            let cut = CutDetector(descriptor: descriptor)
            do {
                try HARReader().forEachEntry(fileDescriptor: descriptor, prefix: reader.takeBuffered()) { entry, line in
                    switch entry {
                    case .request(var request, _):
                        // A capture comes from one device and shows no user id; an app may send one.
                        request.userID = request.headers.first { $0.name.lowercased() == options.userHeader }?.value
                        try sink.accept(request, line: line, into: &output)
                    case .malformed(let reason, let index):
                        // The line is where the entry starts, as for every format; the entry's
                        // number helps find it in a capture written on one line.
                        try sink.reject("entry \(index) of log.entries: \(reason)", line: line, into: &output)
                    }
                }
            } catch let failure as HARReader.PositionedError {
                if cut.wasCut { throw IngestError.cutWhileRead(path: displayName) }
                try report(Diagnostic(location: SourceLocation(file: displayName, line: failure.line), reason: "\(failure.error)"), countAsRejected: true, into: &output)
            }
            if cut.wasCut { throw IngestError.cutWhileRead(path: displayName) }
        case .accessLog:
            let parser = options.accessLogParser(for: input)
            try reader.forEachLine { event in
                switch event {
                case .line(let line, let number):
                    if LineReader.isBlank(line) { return }
                    switch parser.parse(line) {
                    case .request(let request): try sink.accept(request, line: number, into: &output)
                    case .malformed(let reason): try sink.reject(reason, line: number, into: &output)
                    }
                case .overlong(let number):
                    try sink.reject(LineReader.overlongReason, line: number, into: &output)
                }
            }
        }
    }

    /// Reads the rows of a CSV input from where its reader stands, after `linesBefore` lines,
    /// with `columns` read from its header already: the rest of a file whose rows cannot be cut
    /// into blocks within bounded memory (`CSVBlockSplitter.unsplitRest`).
    func readCSVRows(_ input: inout OpenedInput, columns: [RawRecord.Key?], linesBefore: Int, into output: inout Output, deliver: (Call, UInt64) -> Void) throws {
        try withoutActuallyEscaping(deliver) { deliver in
            let sink = RecordSink(file: input.displayName, decoder: CallDecoder(fieldsAsDelimitedCell: true), reader: self, deliver: deliver)
            try readCSV(&input.reader, parser: CSVRecordParser(columns: columns), linesBefore: linesBefore, sink: sink, into: &output)
        }
    }

    private func readCSV(_ reader: inout LineReader, parser: CSVRecordParser, linesBefore: Int, sink: RecordSink, into output: inout Output) throws {
        var parser = parser
        func handle(_ event: CSVRecordParser.Event) throws {
            switch event {
            case .header: break
            case .record(let record, let line, let fingerprint): try sink.accept(record, line: line, fingerprint: fingerprint, into: &output)
            case .malformed(let reason, let line): try sink.reject(reason, line: line, into: &output)
            }
        }
        do {
            try reader.forEachLine { event in
                switch event {
                case .line(let line, let number): try parser.feed(line, number: number + linesBefore, handle)
                case .overlong(let number): try sink.reject(LineReader.overlongReason, line: number + linesBefore, into: &output)
                }
            }
            try parser.finish(handle)
        } catch let failure as CSVRecordParser.HeaderFailure {
            try report(Diagnostic(location: SourceLocation(file: sink.file, line: failure.line), reason: "\(failure.reason); the file is skipped"), countAsRejected: false, into: &output)
        }
    }

    /// A warning about a whole file that is not read, or not all of it: no record is rejected.
    fileprivate func reportSkipped(_ file: String, _ reason: String, into output: inout Output) throws {
        try report(Diagnostic(location: SourceLocation(file: file, line: 0), reason: reason), countAsRejected: false, into: &output)
    }

    fileprivate func report(_ diagnostic: Diagnostic, countAsRejected: Bool, into output: inout Output) throws {
        if options.strict { throw IngestError.malformedRecord(diagnostic) }
        if countAsRejected { output.rejected += 1 }
        output.diagnosticCount += 1
        if output.diagnostics.count < LogReader.maxStoredDiagnostics {
            output.diagnostics.append(diagnostic)
        }
    }
}

/// Decodes records of one file and files them as calls or diagnostics.
private struct RecordSink {
    let file: String
    let decoder: CallDecoder
    let reader: LogReader
    let deliver: (Call, UInt64) -> Void

    func accept(_ record: RawRecord, line: Int, fingerprint: UInt64, into output: inout LogReader.Output) throws {
        switch decoder.decode(record) {
        case .success(let call):
            if record.carriesTypedText { output.noteTypedText(in: file) }
            if reader.options.window.contains(call.time) {
                deliver(call, fingerprint)
            } else {
                output.outsideWindow += 1
                output.outsidePeriod.include(call.time)
            }
        case .failure(let failure):
            try reject(failure.reason, line: line, into: &output)
        }
    }

    /// An HTTP request from an access log or a HAR capture: a call when it is a Places call.
    func accept(_ request: HTTPRequest, line: Int, into output: inout LogReader.Output) throws {
        switch PlacesRequestDecoder.decode(request, routes: reader.options.routes) {
        case .call(let call, let bodyUnknown, let proxyHost):
            if bodyUnknown { output.bodiesUnknown += 1 }
            if let proxyHost { output.hosts.noteProxy(proxyHost) }
            if reader.options.window.contains(call.time) {
                deliver(call, request.fingerprint)
            } else {
                output.outsideWindow += 1
                output.outsidePeriod.include(call.time)
            }
        case .notPlaces(let host):
            output.skippedRequests += 1
            output.hosts.noteSkipped(host)
            output.hosts.notePrefix(ofTarget: request.target)
        case .notBilled(let kind):
            output.skippedRequests += 1
            output.unbilled.count(kind)
        case .malformed(let reason):
            try reject(reason, line: line, into: &output)
        }
    }

    func reject(_ reason: String, line: Int, into output: inout LogReader.Output) throws {
        try reader.report(Diagnostic(location: SourceLocation(file: file, line: line), reason: reason), countAsRejected: true, into: &output)
    }
}
