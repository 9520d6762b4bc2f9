#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `placescost generate`: a deterministic, realistic request log for tests, benchmarks and simulations.
struct GenerateCommand {
    enum Key {
        static let searches = CommandOption(
            "searches", value: "N", required: true,
            help: "User actions to generate (required); `analyze` counts about 1.08 N searches (a reused token splits an action in two, a token per keystroke makes a search of every call). 1 M writes about 1.6 GB of JSON Lines, 7.6 M calls."
        )
        static let seed = CommandOption("seed", value: "S", help: "Random seed, a whole number (default 1).")
        static let format = CommandOption(
            "format", short: "f", choices: GeneratedLogWriter.Format.allCases.map(\.rawValue),
            help: "jsonl: canonical JSON Lines (default); csv: the same columns; access-log: an nginx combined access log of legacy web-service URLs (the user id in $remote_user, a fake key=AIzaSyGENERATED-not-a-key); har: a browser's HAR capture of web pages on the Maps JavaScript API, half the users on the legacy Places library, half on the Places library (New), with map tiles between (no user ids: a browser sends none)."
        )
        static let start = CommandOption(
            "start", value: "DATE", help: "Period start, 2026-10-01 or an RFC 3339 time (default 2026-10-01T00:00:00Z)."
        )
        static let days = CommandOption("days", value: "D", help: "Period length in days (default 30).")
        static let out = CommandOption("out", short: "o", value: "FILE", completion: .files, help: "Write to FILE instead of standard output.")
        static let privacy = CommandOption(
            "privacy",
            help: "Write a privacy-first log (jsonl and csv only): input_length (code points) in place of the typed text, and each session token hashed (SHA-256, hex). It analyzes to the same figures as the log without --privacy."
        )
    }

    static let table = OptionTable(
        command: "generate", options: [Key.searches, Key.seed, Key.format, Key.start, Key.days, Key.privacy, Key.out]
    )

    static let usage = table.usage

    static let help = HelpPage(
        intro: "placescost generate: write a realistic, made-up log of Places calls.",
        description: """
        The log holds N user actions spread over the period by the daily rhythm of users in 13 time
        zones: typing runs of autocomplete calls on growing prefixes of place names (non-ASCII and
        the odd emoji included), about 80% ending in a Place Details call with a field mask, the
        rest abandoned, and small shares of every token anomaly `analyze` reports (reused token,
        expired session, token-less calls ending in Geocoding, details without autocomplete or
        without a token, a new token per keystroke, details without a field mask). Records come
        in time order, with about 1% of neighbouring records of different users swapped (under
        2 s apart) as in merged server logs; the access log is in strict order with whole-second
        times. The same seed writes the same bytes. Nothing in the log comes from real users.
        """,
        epilogue: """
        EXAMPLE
          placescost generate --searches 10000 --seed 7 | placescost analyze -
        """
    )

    let arguments: [String]
    let context: CommandContext
    /// Where the hidden file of `--out FILE` registers its removal for an interruption; tests
    /// pass one of their own to interrupt at each moment a signal could be acted on.
    var interruptCleanup = InterruptCleanup.shared

    func run() throws -> ExitCode {
        let parsed = try ArgumentScanner(GenerateCommand.table).scan(arguments)
        let values = OptionValues(usage: GenerateCommand.usage)
        guard parsed.positionals.isEmpty else {
            throw values.error("generate takes no file arguments (found `\(parsed.positionals[0])`); use --out FILE.")
        }
        guard let searches = try values.wholeNumber(parsed[Key.searches], option: "--searches", range: 1...1_000_000_000) else {
            throw values.error("give the number of searches to generate with --searches N.")
        }
        var options = TrafficGenerator.Options(searches: searches)
        if let seed = parsed[Key.seed] {
            guard let value = UInt64(seed) else { throw values.error("--seed takes a whole number from 0 to \(UInt64.max), not `\(seed)`.") }
            options.seed = value
        }
        let format: GeneratedLogWriter.Format
        if let name = parsed[Key.format] {
            guard let known = GeneratedLogWriter.Format(rawValue: name) else {
                throw values.error("--format takes jsonl, csv, access-log or har, not `\(name)`.")
            }
            format = known
        } else {
            format = .jsonl
        }
        let privacy = parsed.has(Key.privacy)
        if privacy, format != .jsonl, format != .csv {
            throw values.error("--privacy writes canonical logs (--format jsonl or csv): an access log or a HAR capture carries the typed text in its URLs and bodies by nature, as Google's APIs receive it.")
        }
        options.days = try values.wholeNumber(parsed[Key.days], option: "--days", range: 1...3660) ?? 30
        if let start = parsed[Key.start] {
            let text = start.count == 10 ? start + "T00:00:00Z" : start
            let bounds = GenerateCommand.startRange(days: options.days)
            let range = "from 1970-01-01T00:00:00.000Z to \(Timestamp(epochMilliseconds: bounds.upperBound).rfc3339) (with --days \(options.days), so that every time generated is one analyze reads: none before 1970 or past year 9999)"
            guard case .success(let time) = TimestampParser.parse(text) else {
                throw values.error("--start takes a date like 2026-10-01 or a time like 2026-10-01T00:00:00Z \(range), not `\(start)`.")
            }
            let milliseconds = time.microseconds / 1000
            guard bounds.contains(milliseconds) else {
                throw values.error("--start takes a date or time \(range), not `\(start)`.")
            }
            options.start = milliseconds
        }
        // An access log and a browser's capture are written as requests happen, in order; merged
        // app telemetry is not.
        options.disorder = format == .jsonl || format == .csv

        // --out FILE, when FILE is a regular file or new, is written under a hidden name beside
        // it and renamed over FILE once whole: a failure part-way leaves FILE as it was, never a
        // cut-off log. A device or FIFO (`/dev/full`, a pipe) is written as it is.
        let sink: OutputSink
        var descriptor: Int32 = -1
        var partial: (path: String, final: String)?
        /// The hidden file's entry in `interruptCleanup`, while it exists.
        var cleanupID: Int?
        if let out = parsed[Key.out] {
            let path = out.hasPrefix("/") ? out : context.workingDirectory + "/" + out
            var status = stat()
            if stat(path, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG {
                descriptor = open(path, O_WRONLY | O_CLOEXEC)
            } else {
                let slash = path.lastIndex(of: "/")!
                let hidden = String(path[...slash]) + "." + String(path[path.index(after: slash)...]) + ".placescost-XXXXXX"
                var template = Array(hidden.utf8CString)
                // Made and registered for removal at once: an interruption between the two would leave it.
                interruptCleanup.withoutInterruption {
                    descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
                    guard descriptor >= 0 else { return }
                    _ = fchmod(descriptor, 0o644)
                    let made = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    partial = (made, path)
                    cleanupID = interruptCleanup.register { unlink(made) }
                }
            }
            guard descriptor >= 0 else {
                throw CLIError.cannotCreateFile(path: out, reason: String(cString: strerror(errno)))
            }
            sink = FileDescriptorSink(descriptor: descriptor)
        } else {
            sink = context.standardOutput
        }
        var finished = false
        defer {
            // Unlinked before its cleanup is dropped, with interruptions held off: a signal in
            // between would find nothing to remove and end the run with the hidden file there.
            interruptCleanup.withoutInterruption {
                if descriptor >= 0 { close(descriptor) }
                if !finished, let partial { unlink(partial.path) }
                if let cleanupID { interruptCleanup.unregister(cleanupID) }
            }
        }

        // A failed write stops generating at once: what follows would be lost too, and a full
        // disk must not cost the rest of a gigabyte log in CPU time.
        let stopIfFailed = {
            guard let failure = sink.failure else { return }
            guard let out = parsed[Key.out] else { throw CLIError.standardOutput(failure: failure) }
            throw CLIError.cannotWrite(path: out, reason: String(cString: strerror(failure)))
        }
        let generator = TrafficGenerator(options: options)
        var writer = GeneratedLogWriter(format: format, privacy: privacy, catalog: generator.catalog) { sink.write(bytes: $0) }
        try generator.generate { call in
            writer.write(call)
            try stopIfFailed()
        }
        writer.finish()
        try stopIfFailed()
        if let partial, let out = parsed[Key.out] {
            guard fsync(descriptor) == 0 else { throw CLIError.cannotWrite(path: out, reason: String(cString: strerror(errno))) }
            guard rename(partial.path, partial.final) == 0 else { throw CLIError.cannotCreateFile(path: out, reason: String(cString: strerror(errno))) }
        }
        finished = true
        return .success
    }

    /// The `--start` times, in epoch milliseconds, for a period of `days`: from the epoch (the
    /// writers print times from there, and analyze reads epoch milliseconds from there) until the
    /// period and a day's margin for the searches still typing at its end fit before 10000-01-01,
    /// where RFC 3339's four-digit years end: every time written is one `analyze` accepts.
    static func startRange(days: Int) -> ClosedRange<Int64> {
        let lastDay = Int64(CivilDate.daysSinceEpoch(year: 9999, month: 12, day: 31))
        return 0...((lastDay - Int64(days)) * 86_400_000)
    }
}
