// libFuzzer entry points for PlacesCost's parsers and price-table loading.
//
// Compiled together with every file of PlacesCostKit into one module by `scripts/fuzz.sh`
// (`swiftc -sanitize=fuzzer,address`), so the targets reach internal types. The target is
// chosen by the environment variable `PLACESCOST_FUZZ_TARGET`:
//
//   jsonl-line   one JSON Lines record: the fast decoder must agree with the slow parser
//   jsonl        a whole JSON Lines log through `analyze` (blocks, sessions, pricing, reports)
//   csv          a canonical CSV log through `analyze`
//   access-log   an nginx/Apache access log through `analyze`
//   har          an HTTP Archive through `analyze`
//   billing      a Cloud Billing export through `BillingExportReader`
//   pricing      a user price table through `simulate --pricing FILE`
//
// A crash, a trap, an address-sanitizer report or a hang (libFuzzer's -timeout) is a finding;
// so is the fast JSON decoder disagreeing with the slow one.

import Foundation
@testable import PlacesCostKit

enum FuzzTarget: String, CaseIterable {
    case jsonlLine = "jsonl-line"
    case jsonl
    case csv
    case accessLog = "access-log"
    case har
    case billing
    case pricing
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

/// Every input is written to this file for the commands that read a path.
private let scratchPath = "/tmp/placescost-fuzz-\(getpid())"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    switch target {
    case .jsonlLine:
        if let problem = JSONLineTwins.disagreement(bytes) {
            fatalError("the fast JSON decoder disagrees with the slow parser: \(problem)")
        }
    case .jsonl, .csv, .accessLog, .har:
        write(bytes)
        run(["analyze", scratchPath, "--format", target.rawValue, "--threads", "1", "--report", "json", "--quiet"])
        // A second run cut into tiny blocks on two threads must give the same report.
        var options = Analyzer.Options()
        options.threads = 2
        options.blockSize = 64
        options.maxLineLength = 4096
        options.reader.format = InputFormat(rawValue: target.rawValue)
        _ = try? Analyzer(options: options).analyze(paths: [scratchPath])
    case .billing:
        _ = try? BillingExportReader().parse(String(decoding: bytes, as: UTF8.self), file: "fuzz.csv")
    case .pricing:
        write(bytes)
        run(["simulate", "--pricing", scratchPath, "--report", "json"])
        run(["simulate", "--pricing", scratchPath, "--chars", "12", "--delay", "2", "--completion-rate", "0.3", "--months", "3", "--searches", "5000000"])
    }
    return 0
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
