import Foundation
import Testing
@testable import PlacesCostKit
@testable import PlacesCostReference

/// The CSV block path (`CSVBlockSplitter` cutting at `CSVBoundaryFinder`'s safe cuts, workers'
/// `CSVBlockParser` with `FastCSVRowDecoder`) against its slow twin, the line reader
/// (`LogReader` with `CSVRecordParser`): the same calls filed (fingerprints included), the same
/// rejections and warnings at the same lines, in the same order.
@Suite("CSV cut into blocks")
struct CSVBlockTests {
    /// A call as filed for its walk, without what depends on the block it came in.
    struct Filed: Equatable, CustomStringConvertible {
        var time: Int64
        var api: APICode
        var generation: APIGeneration?
        var fields: UInt32
        var project: UInt32
        var platform: UInt32
        var otherAPI: UInt32
        var inputLength: Int32
        var fingerprint: UInt64
        var byToken: Bool
        var base: Bool
        var key: [UInt8]
        var user: [UInt8]?

        var description: String {
            "\(time) api \(api)/\(generation.map { "\($0)" } ?? "none") fields \(fields) project \(project) platform \(platform) other API \(otherAPI) input \(inputLength) "
                + "fp \(fingerprint) \(byToken ? "token" : "user") \(base ? "base " : "")key \(String(decoding: key, as: UTF8.self))"
        }
    }

    /// Everything one read of a file produced.
    struct Read: Equatable {
        var filed: [Filed] = []
        var rejected = 0
        var outsideWindow = 0
        var diagnosticCount = 0
        /// The first `LogReader.maxStoredDiagnostics`, in order.
        var diagnostics: [Diagnostic] = []
        var blocks = 0
        /// Bytes the blocks held (read through a pipe; a mapped file's blocks hold none).
        var blockBytes = 0
    }

    static func filed(_ block: CallBlock) -> [Filed] {
        block.partitions.flatMap { partition in
            partition.calls.map { call in
                Filed(
                    time: call.time, api: call.api, generation: call.generation, fields: call.fields, project: call.project,
                    platform: call.platform, otherAPI: call.otherAPI, inputLength: call.inputLength, fingerprint: call.fingerprint, byToken: call.byToken,
                    base: call.base, key: Array(partition.arena[Int(call.keyStart)..<Int(call.keyStart + call.keyCount)]),
                    user: call.userCount < 0 ? nil : Array(partition.arena[Int(call.userStart)..<Int(call.userStart + call.userCount)])
                )
            }
        }
    }

    static func builder(index: Int, name: String, catalogs: CallCatalogs, window: TimeWindow) -> CallBlockBuilder {
        CallBlockBuilder(
            block: CallBlock(index: index, fileIndex: 0, fileName: name, partitions: [PartitionCalls()]),
            catalogs: catalogs, window: window, keepUsers: true
        )
    }

    /// The slow twin: `LogReader` reads the file line by line; its calls are filed one by one.
    static func lineReader(_ path: String, catalogs: CallCatalogs, window: TimeWindow = TimeWindow()) throws -> Read {
        let reader = LogReader(options: LogReader.Options(format: .csv, window: window))
        var output = LogReader.Output()
        var read = Read()
        guard var input = try reader.open(path, listedInDirectory: false, into: &output) else { return read }
        defer { input.close() }
        var builder = builder(index: 0, name: input.displayName, catalogs: catalogs, window: window)
        var caches = CallBlockBuilder.Caches()
        try reader.readRecords(&input, into: &output) { call, fingerprint in
            builder.add(call, fingerprint: fingerprint, caches: &caches)
        }
        read.filed = filed(builder.finish(lineCount: 0))
        read.rejected = output.rejected
        read.outsideWindow = output.outsideWindow
        read.diagnosticCount = output.diagnosticCount
        read.diagnostics = output.diagnostics
        return read
    }

    /// The block path on `input`, as `CallPipeline` runs it but on one thread and with every
    /// block kept; `nil` when the header is not the plain case (the pipeline then uses the line reader).
    static func blocks(
        _ input: inout LogReader.OpenedInput, blockSize: Int, maxLineLength: Int = LineReader.maxRecordLength,
        catalogs: CallCatalogs, window: TimeWindow = TimeWindow()
    ) throws -> Read? {
        guard let header = try CSVBlockSplitter.header(of: &input, maxLineLength: maxLineLength) else { return nil }
        var splitter = CSVBlockSplitter(&input, header: header, blockSize: blockSize, maxLineLength: maxLineLength)
        var layout = CSVBlockParser.Layout(columns: header.columns, linesBefore: header.lines)
        var caches = CallBlockBuilder.Caches()
        var read = Read()
        var lineOffset = 0
        while let block = try splitter.next() {
            var raw = RawBlock(index: read.blocks, fileIndex: 0, fileName: input.displayName, bytes: block.bytes)
            raw.mapped = block.mapped
            raw.csv = layout
            var builder = builder(index: read.blocks, name: input.displayName, catalogs: catalogs, window: window)
            let lines = CSVBlockParser.parse(raw, layout: layout, maxLineLength: maxLineLength, into: &builder, caches: &caches)
            layout.linesBefore = 0
            let done = builder.finish(lineCount: lines)
            read.filed += filed(done)
            read.rejected += done.rejected
            read.outsideWindow += done.outsideWindow
            read.diagnosticCount += done.diagnosticCount
            for var diagnostic in done.diagnostics where read.diagnostics.count < LogReader.maxStoredDiagnostics {
                diagnostic.location.line += lineOffset
                read.diagnostics.append(diagnostic)
            }
            lineOffset += lines
            read.blocks += 1
            read.blockBytes += block.bytes.count
        }
        return read
    }

    /// The block path on a mapped file.
    static func mappedBlocks(_ path: String, blockSize: Int, catalogs: CallCatalogs, window: TimeWindow = TimeWindow()) throws -> Read? {
        var output = LogReader.Output()
        guard var input = try LogReader(options: LogReader.Options(format: .csv)).open(path, listedInDirectory: false, into: &output) else { return Read() }
        defer { input.close() }
        return try blocks(&input, blockSize: blockSize, catalogs: catalogs, window: window)
    }

    /// The block path on the same bytes through a pipe, written a few bytes at a time so that
    /// reads come short.
    static func streamedBlocks(_ bytes: [UInt8], name: String, blockSize: Int, catalogs: CallCatalogs, window: TimeWindow = TimeWindow()) throws -> Read? {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw IngestError.unreadable(path: name, reason: "no pipe") }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let writer = Thread {
            var offset = 0
            var step = 1
            while offset < bytes.count {
                let count = min(step, bytes.count - offset)
                let written = bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress! + offset, count) }
                guard written > 0 else { break }
                offset += written
                step = step * 3 % 7919 + 1
            }
            close(writeEnd)
        }
        writer.start()
        defer { close(readEnd) }
        var input = LogReader.OpenedInput(path: "-", displayName: name, descriptor: readEnd, reader: LineReader(fileDescriptor: readEnd), format: .csv)
        _ = try input.reader.peek(64 << 10)
        let read = try blocks(&input, blockSize: blockSize, catalogs: catalogs, window: window)
        // Drain, so the writer ends even when the header sent the file to the line reader.
        var sink = [UInt8](repeating: 0, count: 1 << 16)
        while sink.withUnsafeMutableBytes({ SystemCall.read(readEnd, $0.baseAddress!, $0.count) }) > 0 {}
        return read
    }

    /// Checks the block path on `bytes` against the line reader, at each block size, mapped and
    /// through a pipe.
    static func expectAgreement(
        _ bytes: [UInt8], blockSizes: [Int], window: TimeWindow = TimeWindow(), pipeEvery: Int = 1,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> [Int] {
        let directory = TemporaryDirectory()
        let path = directory.write("log.csv", bytes: bytes)
        let catalogs = CallCatalogs()
        let expected = try lineReader(path, catalogs: catalogs, window: window)
        var blockCounts: [Int] = []
        for (index, blockSize) in blockSizes.enumerated() {
            guard var mapped = try mappedBlocks(path, blockSize: blockSize, catalogs: catalogs, window: window) else {
                Issue.record("the header of a generated log is not the plain case", sourceLocation: sourceLocation)
                return []
            }
            blockCounts.append(mapped.blocks)
            mapped.blocks = 0
            if mapped != expected { report(mapped, expected, "mapped, block size \(blockSize)", bytes: bytes, sourceLocation: sourceLocation) }
            guard index % pipeEvery == 0 else { continue }
            if var streamed = try streamedBlocks(bytes, name: path, blockSize: blockSize, catalogs: catalogs, window: window) {
                streamed.blocks = 0
                streamed.blockBytes = 0
                if streamed != expected { report(streamed, expected, "piped, block size \(blockSize)", bytes: bytes, sourceLocation: sourceLocation) }
            } else {
                Issue.record("piped, the header was not found", sourceLocation: sourceLocation)
            }
        }
        return blockCounts
    }

    static func report(_ actual: Read, _ expected: Read, _ context: String, bytes: [UInt8], sourceLocation: Testing.SourceLocation) {
        var lines = ["\(context): the block path differs from the line reader"]
        if actual.filed != expected.filed {
            let index = actual.filed.indices.first { $0 >= expected.filed.count || actual.filed[$0] != expected.filed[$0] } ?? actual.filed.count
            lines.append("calls: \(actual.filed.count) against \(expected.filed.count); first difference at \(index):")
            lines.append("  blocks: \(index < actual.filed.count ? actual.filed[index].description : "none")")
            lines.append("  lines:  \(index < expected.filed.count ? expected.filed[index].description : "none")")
        }
        lines.append("rejected \(actual.rejected)/\(expected.rejected), outside \(actual.outsideWindow)/\(expected.outsideWindow), diagnostics \(actual.diagnosticCount)/\(expected.diagnosticCount)")
        if actual.diagnostics != expected.diagnostics {
            lines.append("blocks' warnings:\n" + actual.diagnostics.map { "  \($0)" }.joined(separator: "\n"))
            lines.append("line reader's warnings:\n" + expected.diagnostics.map { "  \($0)" }.joined(separator: "\n"))
        }
        if bytes.count < 3000 { lines.append("log: \(String(decoding: bytes, as: UTF8.self).debugDescription)") }
        Issue.record(Comment(rawValue: lines.joined(separator: "\n")), sourceLocation: sourceLocation)
    }

    // MARK: - Agreement

    @Test("Random logs with every kind of damage: the block path files the line reader's calls and warnings at every block size", arguments: 0..<24)
    func randomLogs(seed: Int) throws {
        var maker = CSVLogMaker(seed: UInt64(seed) &* 7919 &+ 11, damage: [0.0, 0.03, 0.08, 0.3][seed % 4])
        let bytes = maker.log(rows: 80 + seed * 10)
        let blocks = try Self.expectAgreement(bytes, blockSizes: [60, 61, 97, 200, 1000, 4096, 4 << 20])
        // Small blocks cut the log often (a block holds at least a record, which may be long).
        #expect(blocks.first ?? 0 > bytes.count / 2000, "\(blocks) blocks of \(bytes.count) bytes")
        #expect(blocks.last == 1)
    }

    @Test("Every block boundary: a small damaged log cut at every size from 60 to 300 bytes")
    func everyBoundary() throws {
        for seed in 100..<104 {
            var maker = CSVLogMaker(seed: UInt64(seed), damage: 0.25)
            let bytes = maker.log(rows: 30)
            _ = try Self.expectAgreement(bytes, blockSizes: Array(60...300), pipeEvery: seed == 100 ? 1 : 13)
        }
    }

    @Test("Calls outside --since/--until are counted the same way")
    func window() throws {
        var maker = CSVLogMaker(seed: 5, damage: 0.05)
        let bytes = maker.log(rows: 300)
        let since = Timestamp(microseconds: 1_790_845_200_000_000 + 100_000_000)
        let window = TimeWindow(start: since, end: Timestamp(microseconds: since.microseconds + 300_000_000))
        _ = try Self.expectAgreement(bytes, blockSizes: [60, 777, 4 << 20], window: window)
    }

    /// Hand-made logs for the parser's recoveries, each at every block size that cuts it somewhere new.
    static let adversarial: [(String, String)] = [
        ("a quote left open mid-file: its row is rejected, the rows after it are read again",
         "timestamp,api,input\n1790845200000,autocomplete,ok\n1790845201000,autocomplete,\"never closed\n1790845202000,autocomplete,x\n\n1790845203000,autocomplete,y\n1790845204000,autocomplete,z\n"),
        ("a quote left open on the last line", "timestamp,api,input\n1790845200000,autocomplete,a\n1790845201000,autocomplete,\"b\n"),
        ("even quotes, yet a cell left open: text quote, then an opening one",
         "timestamp,api,input\n1790845200000,autocomplete,a\"b\n1790845201000,autocomplete,\"c\n1790845202000,autocomplete,d\",\n1790845203000,autocomplete,e\n"),
        ("a stray quote closed by a later quoted cell",
         "timestamp,api,input\n1790845200000,autocomplete,\"stray\n1790845201000,autocomplete,x\n1790845202000,autocomplete,\"quoted\"\n1790845203000,autocomplete,z\n"),
        ("a spanning record with the wrong cell count", "timestamp,api,input\n1790845200000,autocomplete,\"stray\n1790845201000,autocomplete\",x\n1790845202000,autocomplete,w\n"),
        ("recoveries in a chain: lines that each open a cell",
         "timestamp,api,input\n\"\n\"\n\"\n1790845200000,autocomplete,a\n\"\n1790845201000,autocomplete,b\n\"\n"),
        ("quoted cells holding commas, newlines, CRLF and escapes",
         "timestamp,api,input,fields\r\n1790845200000,autocomplete,\"say \"\"hi\"\", ok\",\r\n1790845201000,autocomplete,\"line one\r\nline two, \"\"still\"\" one\",\"a,b\"\r\n\r\n1790845202000,place_details,,\"a|b\"\r\n"),
        ("missing and extra cells, invalid UTF-8, a NUL, text after a quote",
         "timestamp,api,input,extra\n1790845200000,autocomplete\n1790845201000,autocomplete,a,b,c\n1790845202000,autocomplete,\u{FF}\u{FE}x,\n1790845203000,autocomplete,a\u{0}b,\n1790845204000,autocomplete,\"a\"b,\n1790845205000,autocomplete,ok,\u{0}\n"),
        ("a key in two columns (both spellings of the token): the parser keeps the last non-empty cell",
         "timestamp,api,session_token,sessionToken\n1790845200000,autocomplete,a,\n1790845201000,autocomplete,,b\n1790845202000,autocomplete,a,b\n1790845203000,autocomplete,\"a\n\",c\n"),
        ("blank and whitespace lines, and a row repeated", "timestamp,api\n\n   \n1790845200000,autocomplete\n\t\n1790845200000,autocomplete\n1790845200000,autocomplete\n"),
    ]

    @Test("Hand-made recoveries, at every block size", arguments: 0..<adversarial.count)
    func handMade(_ index: Int) throws {
        let bytes = Self.rawBytes(Self.adversarial[index].1)
        _ = try Self.expectAgreement(bytes, blockSizes: Array(20...bytes.count + 2), pipeEvery: 7)
    }

    /// The text's characters as bytes, U+0080...U+00FF as one raw byte each (invalid UTF-8).
    static func rawBytes(_ text: String) -> [UInt8] {
        text.unicodeScalars.flatMap { scalar -> [UInt8] in
            scalar.value >= 0x80 && scalar.value <= 0xFF ? [UInt8(scalar.value)] : Array(String(scalar).utf8)
        }
    }

    @Test("A quoted cell of more than 1 MiB, overlong lines inside an open record, between rows and at the end")
    func overlongAndPending() throws {
        let big = String(repeating: "a", count: 300_000)
        var text = "timestamp,api,input\n1790845200000,autocomplete,ok\n"
        text += "1790845201000,autocomplete,\"" + big + "\n" + big + "\n" + big + "\"\n"  // 900 KB: under maxPendingBytes
        text += "1790845201500,autocomplete,\"" + big + "\n" + big + "\n" + big + "\n" + big + "\n" + big + "\"\n"  // over it
        text += "1790845202000,autocomplete,\"open\n" + String(repeating: "x", count: (1 << 20) + 5) + "\n1790845203000,autocomplete,b\",\n"
        text += String(repeating: "y", count: 1 << 20) + "\r\n1790845204000,autocomplete,c\n"
        text += "1790845205000,autocomplete,\"" + String(repeating: "z", count: 1 << 20) + "\n"
        let bytes = Array(text.utf8)
        _ = try Self.expectAgreement(bytes, blockSizes: [60, 4096, 1 << 20, 4 << 20])
    }

    @Test("Through a pipe, a line over the limit is not held whole: its first bytes stand for it")
    func overlongThroughPipe() throws {
        let junk = [UInt8](repeating: 0x78, count: 5 << 20)
        let bytes = Array("timestamp,api\n1790845200000,autocomplete\n".utf8) + junk + Array("\n1790845201000,autocomplete\n".utf8) + junk
        let read = try #require(try Self.streamedBlocks(bytes, name: "pipe", blockSize: 4096, catalogs: CallCatalogs()))
        #expect(read.filed.count == 2 && read.rejected == 2)
        #expect(read.diagnostics.map(\.location.line) == [3, 5])
        #expect(read.blockBytes < 2 * LineReader.maxRecordLength + 100)
    }

    @Test("Headers that are not one plain line go to the line reader, whose reports the pipeline then gives")
    func unusualHeaders() throws {
        let cases = [
            "\"ts\"x,timestamp,api\n1790845200000,1790845200000,autocomplete\n",
            "timestamp,api,\"in\nput\"\n1790845200000,autocomplete,a\n",
            "api,session_token\nautocomplete,t\n",
            "timestamp,api,\"open\n1790845200000,autocomplete,a\n",
        ]
        for text in cases {
            let bytes = Array(text.utf8)
            let search = bytes.withUnsafeBufferPointer { CSVBlockSplitter.header(in: $0, atEnd: true, maxLineLength: LineReader.maxRecordLength) }
            #expect(search == .lineReader, "\(text.debugDescription)")
            let directory = TemporaryDirectory()
            let path = directory.write("log.csv", text)
            let expected = try LogReader(options: LogReader.Options(format: .csv)).read([path])
            let streamed = try Self.pipeline(path, threads: 2, blockSize: 60)
            #expect(streamed.read.diagnostics == expected.diagnostics, "\(text.debugDescription)")
            #expect(streamed.read.rejected == expected.rejected && streamed.tally.calls.records == expected.calls.count)
        }
        // The plain case, after blank lines and a byte-order mark's removal.
        let plain = Array("\r\n  \n\"timestamp\", api ,x\r\n1,autocomplete,y\n".utf8)
        let search = plain.withUnsafeBufferPointer { CSVBlockSplitter.header(in: $0, atEnd: true, maxLineLength: LineReader.maxRecordLength) }
        #expect(search == .found(CSVBlockSplitter.Header(columns: [.timestamp, .api, nil], lines: 3, bodyOffset: 26)))
        #expect(plain.withUnsafeBufferPointer { CSVBlockSplitter.header(in: UnsafeBufferPointer(rebasing: $0[..<20]), atEnd: false, maxLineLength: 1 << 20) } == .needMore)
    }

    // MARK: - The pipeline

    static func pipeline(_ path: String, threads: Int, blockSize: Int) throws -> CallPipeline.Result {
        let options = CallPipeline.Options(
            threads: threads, reader: LogReader.Options(format: .csv),
            sessions: SessionStream.Options(timeout: Duration64(seconds: 180), userGap: Duration64(seconds: 60), clip: 6, window: 600_000_000),
            calendar: BillingCalendar(), progress: nil, blockSize: blockSize
        )
        return try CallPipeline(options: options, catalogs: CallCatalogs()).run([path])
    }

    @Test("The pipeline on 1 and 2 threads, in small blocks, gives the line reader's report, counts and duplicates", arguments: 0..<6)
    func pipeline(seed: Int) throws {
        var maker = CSVLogMaker(seed: UInt64(seed) + 40, damage: seed % 2 == 0 ? 0 : 0.05)
        let bytes = maker.log(rows: 600)
        let directory = TemporaryDirectory()
        let path = directory.write("log.csv", bytes: bytes)
        let read = try LogReader(options: LogReader.Options(format: .csv)).read([path])
        var byLines = Analyzer.Options()
        byLines.reader = LogReader.Options(format: .csv)
        byLines.readsCSVByLines = true
        let (baseline, baselineRead) = try Analyzer(options: byLines).analyze(paths: [path])
        #expect(baseline.input.duplicates == read.duplicates)
        #expect(baselineRead.diagnostics == read.diagnostics)
        for (threads, blockSize) in [(1, 60), (2, 61), (2, 999), (2, 4 << 20), (1, 4 << 20)] {
            var options = byLines
            options.readsCSVByLines = false
            options.threads = threads
            options.blockSize = blockSize
            let (analysis, diagnostics) = try Analyzer(options: options).analyze(paths: [path])
            #expect(diagnostics.diagnostics == read.diagnostics, "threads \(threads), block size \(blockSize)")
            #expect(diagnostics.diagnosticCount == read.diagnosticCount && diagnostics.rejected == read.rejected)
            #expect(analysis.input.records == read.calls.count)
            #expect(analysis.input.duplicates == read.duplicates, "threads \(threads), block size \(blockSize)")
            #expect(ReportBundle().render(analysis, as: .json) == ReportBundle().render(baseline, as: .json), "threads \(threads), block size \(blockSize)")
        }
    }

    @Test("Files after files: each file's lines are its own, whichever reader reads it")
    func severalFiles() throws {
        let directory = TemporaryDirectory()
        var first = CSVLogMaker(seed: 71, damage: 0.1)
        var second = CSVLogMaker(seed: 72, damage: 0.1)
        let paths = [
            directory.write("a.csv", bytes: first.log(rows: 40)),
            // A malformed line before the header: this file goes to the line reader.
            directory.write("b.csv", "\"x\"y\ntimestamp,api\n1790845200000,autocomplete\nbad\n"),
            directory.write("c.csv", bytes: second.log(rows: 40)),
        ]
        let expected = try LogReader(options: LogReader.Options(format: .csv)).read(paths)
        #expect(expected.diagnostics.contains { $0.location.file == paths[1] } && expected.diagnostics.contains { $0.location.file == paths[2] })
        let options = CallPipeline.Options(
            threads: 2, reader: LogReader.Options(format: .csv),
            sessions: SessionStream.Options(timeout: Duration64(seconds: 180), userGap: Duration64(seconds: 60), clip: 6, window: 600_000_000),
            calendar: BillingCalendar(), progress: nil, blockSize: 100
        )
        let streamed = try CallPipeline(options: options, catalogs: CallCatalogs()).run(paths)
        #expect(streamed.read.diagnostics == expected.diagnostics)
        #expect(streamed.read.diagnosticCount == expected.diagnosticCount && streamed.read.rejected == expected.rejected)
        #expect(streamed.tally.calls.records == expected.calls.count)
    }

    @Test("Repeated rows are duplicates on both paths; --dedupe drops the same ones")
    func duplicates() throws {
        var lines = ["timestamp,api,session_token,input,extra"]
        for index in 0..<200 {
            lines.append("2026-10-01T09:00:\(String(format: "%02d", index % 60)).000Z,autocomplete,t\(index / 7),\"in, \(index % 5)\",\(index % 3)")
        }
        // Repeats: the same bytes (duplicates); the same values quoted otherwise or with another unknown cell (not).
        lines += [lines[5], lines[5], lines[80], lines[9].replacingOccurrences(of: "\"", with: "\"\"\""), lines[12] + "0"]
        lines.insert(lines[40], at: 41)
        let directory = TemporaryDirectory()
        let path = directory.write("log.csv", lines.joined(separator: "\n") + "\n")
        var reader = LogReader.Options(format: .csv)
        #expect(try LogReader(options: reader).read([path]).duplicates == 4)
        reader.dedupe = true
        for threads in [1, 2] {
            var options = Analyzer.Options()
            options.reader = reader
            options.threads = threads
            options.blockSize = 100
            let analysis = try Analyzer(options: options).analyze(paths: [path]).0
            #expect(analysis.input.duplicates == 4 && analysis.input.duplicatesDropped == 4)
        }
    }

    @Test("analyze on a generated CSV: the same report.json on --threads 1 and 2, and as the line reader reads it")
    func endToEnd() throws {
        let generated = runCLI(["generate", "--searches", "400", "--seed", "3", "--format", "csv"])
        #expect(generated.code == .success)
        let directory = TemporaryDirectory()
        let path = directory.write("calls.csv", generated.stdout)
        let one = runCLI(["analyze", path, "--json", "--quiet", "--threads", "1"])
        let two = runCLI(["analyze", path, "--json", "--quiet", "--threads", "2"])
        #expect(one.code == .success && !one.stdout.isEmpty)
        #expect(one.stdout == two.stdout)
        var byLines = Analyzer.Options()
        byLines.readsCSVByLines = true
        byLines.threads = 1
        var blocks = Analyzer.Options()
        blocks.blockSize = 4096
        let expected = ReportBundle().render(try Analyzer(options: byLines).analyze(paths: [path]).0, as: .json)
        #expect(ReportBundle().render(try Analyzer(options: blocks).analyze(paths: [path]).0, as: .json) == expected)
    }
}
