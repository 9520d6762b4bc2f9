// libFuzzer entry points for PlacesCost's parsers and price-table loading.
//
// Compiled together with every file of PlacesCostKit into one module by `scripts/fuzz.sh`
// (`swiftc -sanitize=fuzzer,address`), so the targets reach internal types. The target is
// chosen by the environment variable `PLACESCOST_FUZZ_TARGET`:
//
//   jsonl-line   one JSON Lines record: the fast decoder must agree with the slow parser; and
//                the input's lines in turn, decoded by the layouts of the lines before, must
//                give what the general walk gives
//   jsonl        a whole JSON Lines log: the line reader and the streamed pipeline (blocks, fast
//                decoder, sessions on two threads) must read the same records
//   csv          the same for a canonical CSV log (cut into blocks at safe cuts, with the same
//                warnings at the same lines), and every row the fast row decoder accepts must
//                give the slow path's call
//   access-log   the same for an nginx/Apache access log
//   access-log-line  one access-log line in four formats (combined, common, a custom one with
//                $msec and $request_method $request_uri, one with $time_iso8601): the fast
//                decoder must agree with the slow parser
//   json-access-record  one web server's JSON access record (nginx, Traefik, Caddy), read with
//                the default user header and with a team's own and a stripped prefix: the fast
//                decoder must agree with the slow parser
//   har          the same for an HTTP Archive
//   analyze      a log of any format through the whole of `analyze` (pricing, advice, reports)
//   sessions     a JSON Lines log through `analyze` with spent tokens moved to the compact set
//                after every new token and after every third: report.json and searches.csv must
//                be the same as with no move (reuse and expiry found in the set as in the table,
//                each token's pseudonym kept through the renumbering)
//   billing      a Cloud Billing export through `BillingExportReader`
//   pricing      a user price table through `simulate --pricing FILE`
//   numbers      one user number in a numeric option, a price table or a billing export cell
//                (NumberFuzz.swift): no trap, a documented exit code, finite JSON
//   request      one HTTP request (the first line a target's query or path, the rest a body and
//                a field mask header) under the Maps JavaScript API's legacy and New paths, a
//                proxy's host and a routed path: no trap, and no reason quoting the input
//
// A crash, a trap, an address-sanitizer report or a hang (libFuzzer's -timeout) is a finding;
// so is a fast decoder disagreeing with its slow twin.

import Foundation
@testable import PlacesCostKit

enum FuzzTarget: String, CaseIterable {
    case jsonlLine = "jsonl-line"
    case jsonl
    case csv
    case accessLog = "access-log"
    case accessLogLine = "access-log-line"
    case jsonAccessRecord = "json-access-record"
    case har
    case billing
    case pricing
    case analyze
    case sessions
    case numbers
    case request
}

private let target: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["PLACESCOST_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        fputs("set PLACESCOST_FUZZ_TARGET to one of: \(names)\n", stderr)
        exit(2)
    }
    return target
}()

/// The formats `access-log-line` reads each input with.
private let accessLogFormats: [AccessLogFormat] = [
    .combined, .common,
    try! AccessLogFormat(#"${msec} $host $request_method $request_uri $status $request_time "$http_user_agent" $upstream_response_time"#),
    try! AccessLogFormat(#"$remote_addr [$time_iso8601] "$request" $status "$remote_user" $uri$is_args$args"#),
]

/// The user headers and routes `json-access-record` reads each input with.
private let jsonAccessSettings: [(String, RequestRoutes)] = {
    var routes = RequestRoutes()
    try! routes.addStrippedPrefix("/proxy")
    return [(LogReader.defaultUserHeader, RequestRoutes()), ("x-account", routes)]
}()

/// Every input is written to this file for the commands that read a path. It, and what targets
/// write beside it (the `analyze` target's report directory, `numbers`' log, table and bill), are
/// removed when the fuzzer exits (libFuzzer ends a run with `exit`, which runs `atexit`
/// handlers; a crash keeps them beside the finding).
private let scratchPath: String = {
    atexit {
        for suffix in ["", "-out", ".jsonl", "-table.json", "-bill.csv"] {
            try? FileManager.default.removeItem(atPath: scratchPath + suffix)
        }
    }
    return "/tmp/placescost-fuzz-\(getpid())"
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    switch target {
    case .jsonlLine:
        if let problem = JSONLineTwins.disagreement(bytes) {
            fatalError("the fast JSON decoder disagrees with the slow parser: \(problem)")
        }
        if let problem = JSONLineTwins.layoutDisagreement(lines: bytes) {
            fatalError("decoding by layouts disagrees with the general walk: \(problem)")
        }
    case .accessLogLine:
        for format in accessLogFormats {
            if let problem = AccessLogTwins.disagreement(bytes, format: format) {
                fatalError("the fast access-log decoder disagrees with the slow parser: \(problem)")
            }
        }
    case .jsonAccessRecord:
        for (userHeader, routes) in jsonAccessSettings {
            if let problem = AccessLogTwins.jsonDisagreement(bytes, userHeader: userHeader, routes: routes) {
                fatalError("the fast JSON access record decoder disagrees with the slow parser: \(problem)")
            }
        }
    case .jsonl, .csv, .accessLog, .har:
        write(bytes)
        readBothWays(format: InputFormat(rawValue: target.rawValue)!)
        if target == .csv { compareCSVRows(bytes) }
    case .analyze:
        write(bytes)
        run(["analyze", scratchPath, "--threads", "2", "--report", "json", "--quiet", "--out", scratchPath + "-out"])
    case .sessions:
        write(bytes)
        compareCompaction()
    case .billing:
        _ = try? BillingExportReader().parse(String(decoding: bytes, as: UTF8.self), file: "fuzz.csv")
    case .pricing:
        write(bytes)
        run(["simulate", "--pricing", scratchPath, "--report", "json"])
        run(["simulate", "--pricing", scratchPath, "--chars", "12", "--delay", "2", "--completion-rate", "0.3", "--months", "3", "--searches", "5000000"])
    case .request:
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        let target = String(parts[0])
        let body = parts.count > 1 ? String(parts[1]) : ""
        var routes = RequestRoutes()
        try? routes.addRoute("/geo/suggest=autocomplete")
        try? routes.addRoute("/geo/details=place_details:new")
        try? routes.addStrippedPrefix("/google")
        for prefix in [
            "", "https://maps.googleapis.com/maps/api/place/js/AutocompletionService.GetPredictions?",
            "https://maps.googleapis.com/maps/api/place/js/PlaceService.GetPlaceDetails?",
            "https://maps.googleapis.com/maps/api/js/PlaceService.FindPlaceFromText?",
            "https://places.googleapis.com/$rpc/google.maps.places.v1.Places/AutocompletePlaces?",
            "https://places.googleapis.com/$rpc/google.maps.places.v1.Places/GetPlace?",
            "http://proxy.example/geo/suggest?", "http://proxy.example/google/maps/api/place/details/json?",
        ] {
            let request = HTTPRequest(time: Timestamp(microseconds: 0), method: "POST", target: prefix + target,
                                      headers: [(name: "X-Goog-FieldMask", value: body)], body: body.isEmpty ? nil : body)
            for chosen in [RequestRoutes(), routes] {
                // The reasons hold no digit: a request text with one (a token, a key) in a reason
                // was quoted.
                if case .malformed(let reason) = PlacesRequestDecoder.decode(request, routes: chosen),
                   target.count >= 4, target.contains(where: \.isNumber) {
                    precondition(!reason.contains(target), "a reason quotes the request")
                }
            }
        }
    case .numbers:
        guard let selector = bytes.first else { return 0 }
        let slot = NumberFuzz.Slot.allCases[Int(selector) % NumberFuzz.Slot.allCases.count]
        let text = String(decoding: bytes.dropFirst().prefix(64), as: UTF8.self)
        if let problem = NumberFuzz.check(slot: slot, text: text, scratch: scratchPath) {
            fatalError("numbers: \(problem)")
        }
    }
    return 0
}

/// Reads the scratch file with the line reader (every call in memory) and with the streamed
/// pipeline cut into 64-byte blocks on two threads (read again, as `analyze` does, when the walk
/// was not exact): they must count the same records, rejections and duplicates.
private func readBothWays(format: InputFormat) {
    let readerOptions = LogReader.Options(format: format)
    guard let slow = try? LogReader(options: readerOptions).read([scratchPath]) else { return }
    var options = CallPipeline.Options(
        threads: 2, reader: readerOptions,
        sessions: SessionStream.Options(timeout: Duration64(seconds: 180), userGap: Duration64(seconds: 60), clip: 6, window: 600_000_000),
        calendar: BillingCalendar(), progress: nil, blockSize: 64, maxLineLength: LineReader.maxRecordLength
    )
    guard var streamed = try? CallPipeline(options: options, catalogs: CallCatalogs()).run([scratchPath]) else {
        fatalError("the streamed pipeline failed where the line reader did not")
    }
    if streamed.late {
        // As `Analyzer` does: read again with a window that covers the disorder seen.
        options.sessions.window = streamed.disorder + 2_000_000
        guard let again = try? CallPipeline(options: options, catalogs: CallCatalogs()).run([scratchPath]) else {
            fatalError("the second read failed where the first did not")
        }
        precondition(!again.late, "the second read was late too")
        streamed = again
    }
    precondition(streamed.tally.calls.records == slow.calls.count, "records: streamed \(streamed.tally.calls.records), line reader \(slow.calls.count)")
    precondition(streamed.read.rejected == slow.rejected, "rejected: streamed \(streamed.read.rejected), line reader \(slow.rejected)")
    precondition(streamed.read.duplicates == slow.duplicates, "duplicates differ")
    if format == .csv {
        // Blocks end only where the line reader holds no open record: the same warnings, at the
        // same lines, in the same order.
        precondition(streamed.read.diagnosticCount == slow.diagnosticCount, "diagnostics: streamed \(streamed.read.diagnosticCount), line reader \(slow.diagnosticCount)")
        precondition(streamed.read.diagnostics == slow.diagnostics, "warnings differ: streamed \(streamed.read.diagnostics), line reader \(slow.diagnostics)")
        precondition(streamed.read.outsideWindow == slow.outsideWindow, "outside the window differ")
    }
}

/// Under the input's header, when it is one plain line, each later line as a row: where the fast
/// row decoder answers, its call must be the slow path's.
private func compareCSVRows(_ bytes: UnsafeBufferPointer<UInt8>) {
    var body = bytes
    if body.count >= 3, body[0] == 0xEF, body[1] == 0xBB, body[2] == 0xBF { body = UnsafeBufferPointer(rebasing: body[3...]) }
    guard case .found(let header) = CSVBlockSplitter.header(in: body, atEnd: true, maxLineLength: LineReader.maxRecordLength) else { return }
    for line in body[header.bodyOffset...].split(separator: 0x0A, omittingEmptySubsequences: false) {
        let row = line.last == 0x0D ? line.dropLast() : line
        if let problem = CSVRowTwins.disagreement(UnsafeBufferPointer(rebasing: row), columns: header.columns) {
            fatalError("the fast CSV row decoder disagrees with the slow path: \(problem)")
        }
    }
}

/// Analyzes the scratch file (as JSON Lines, 64-byte blocks, two threads) with the compact token
/// set used after every new token, after every third, and not at all: the reports must agree,
/// and so must `searches.csv`, whose token pseudonyms are kept by token id and renumbered, and
/// whose token calls' user pseudonyms are compacted on the same count.
private func compareCompaction() {
    func report(compactAfter: Int) -> String? {
        var options = Analyzer.Options()
        options.reader.format = .jsonl
        options.threads = 2
        options.blockSize = 64
        options.compactAfter = compactAfter
        options.searchRows = SearchRowOptions(pseudonymizer: Pseudonymizer(key: [7]), directory: "/tmp", runLength: 3)
        guard let (analysis, _) = try? Analyzer(options: options).analyze(paths: [scratchPath]),
              let rows = analysis.searchRows
        else { return nil }
        var searches: [UInt8] = []
        guard (try? SearchesCSVWriter().write(rows, flush: { searches += $0 })) != nil else { return nil }
        return ReportBundle().render(analysis, as: .json) + String(decoding: searches, as: UTF8.self)
    }
    let reference = report(compactAfter: Int.max)
    for compactAfter in [1, 3] {
        precondition(report(compactAfter: compactAfter) == reference, "compacting after \(compactAfter) new tokens changes the report or searches.csv")
    }
}

private func write(_ bytes: UnsafeBufferPointer<UInt8>) {
    let descriptor = open(scratchPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    precondition(descriptor >= 0, "cannot write \(scratchPath)")
    var offset = 0
    while offset < bytes.count {
        let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        precondition(written > 0, "cannot write \(scratchPath)")
        offset += written
    }
    close(descriptor)
}

private func run(_ arguments: [String]) {
    let context = CommandContext(standardOutput: StringSink(), standardError: StringSink(), workingDirectory: "/tmp")
    let code = CLI(arguments: arguments, context: context).run()
    // Every failure must be one of the documented exit codes, reached by a thrown error.
    precondition([.success, .usage, .dataError, .noInput, .cannotCreate, .ioError].contains(code))
}
