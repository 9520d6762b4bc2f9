import Foundation

/// Reads the inputs and builds sessions on every core: Ingest and Sessions, streamed.
///
/// The calling thread reads: JSON Lines files and access logs are cut into blocks of whole lines
/// (`MappedFile.Splitter`, `BlockSplitter`), CSV files into blocks of whole records
/// (`CSVBlockSplitter`), for the workers to parse; HAR files are parsed here by their reader.
/// Each of `threads` workers parses whichever block is waiting and walks one partition of the
/// tokens and users (by hash) through its own `SessionStream`, taking the blocks in input order.
/// A token's or user's calls all land in one partition and reach it in input order, and every
/// count merges by addition, so the result is the same for any number of threads.
///
/// When a partition's calls come more out of time order than the window allows, the streamed
/// walk is not exact; the run reports it (`Result.late`) with the disorder seen, and the caller
/// reads again with a window that covers it.
final class CallPipeline: @unchecked Sendable {
    struct Options {
        var threads: Int
        var reader: LogReader.Options
        var sessions: SessionStream.Options
        var calendar: BillingCalendar
        /// Called from the reading thread with the bytes read so far.
        var progress: (@Sendable (Int) -> Void)?
        /// Bytes per block, and the longest line read (tests make them small).
        var blockSize = 4 << 20
        var maxLineLength = LineReader.maxRecordLength
        /// Read CSV files with the line reader on the reading thread, as files whose header is
        /// not the plain case are read (tests compare the two).
        var readsCSVByLines = false
        /// Where inputs that cannot be read twice are copied; the same spool for every run over
        /// the same inputs, so a second run reads the copies.
        var spool: InputSpool?
    }

    struct Result {
        var tally: SearchTally
        /// Files, diagnostics and read counts (no calls).
        var read: LogReader.Output
        var firstCall: Int64?
        var lastCall: Int64?
        /// Whether some calls came later than the window: the tally is then not exact.
        var late: Bool
        /// The largest lateness seen, in microseconds.
        var disorder: Int64
        /// Each walk's `searches.csv` rows and the shapes their `shape` indexes, by partition,
        /// when the walks made rows.
        var rows: [(store: SearchRowStore, shapes: [SearchTally.ShapeKey])] = []
    }

    private let options: Options
    private let catalogs: CallCatalogs
    private let condition = NSCondition()
    private var pendingRaw: [RawBlock] = []
    private var parsed: [Int: CallBlock] = [:]
    private var taken: [Int: Int] = [:]
    private var headers: [CallBlock] = []
    private var submitted = 0
    private var completed = 0
    private var inputDone = false
    /// Set under `--strict` once a parsed block holds a malformed record: reading stops, and the
    /// merge reports the first one in input order (every block before it was submitted).
    private var malformedSeen = false
    /// Each worker's counts when it is done, and how out of order its calls came.
    private var walked: [(tally: SearchTally, late: Bool, disorder: Int64, rows: SearchRowStore?)?]
    /// Finished blocks' partitions, reused so their arrays are not grown again for every block.
    private var partitionPool: [PartitionCalls] = []
    private let maxInFlight: Int
    private static let callsPerReaderBlock = 1 << 16
    /// How often a file read record by record reports its progress: about every megabyte of a
    /// HAR capture, at the cost of one `lseek`.
    private static let callsPerProgress = 1 << 12
    /// The mapped files read, by name, so that one cut short while it was read is reported once
    /// every block of it is parsed (only the reading thread appends). Their records, not the
    /// files: each mapping is let go as soon as its blocks are parsed.
    private var mappedFiles: [(name: String, cut: MappingGuard.Record)] = []

    init(options: Options, catalogs: CallCatalogs) {
        self.options = options
        self.catalogs = catalogs
        self.walked = Array(repeating: nil, count: options.threads)
        self.maxInFlight = options.threads + 2
    }

    func run(_ paths: [String]) throws -> Result {
        try run(files: LogReader.expand(paths))
    }

    /// Reads `files`, as `LogReader.expand` lists them: a second run over the same inputs takes
    /// the same list, so a file a log rotation removes meanwhile is missed with a warning, not
    /// left out of the listing unseen, and the spool's copies keep their places.
    func run(files: [LogReader.ListedFile]) throws -> Result {
        CallPipeline.tuneMalloc()
        var workers: [Thread] = []
        let finished = DispatchGroup()
        for partition in 0..<options.threads {
            finished.enter()
            let thread = Thread { [self] in
                work(partition: partition)
                finished.leave()
            }
            thread.stackSize = 8 << 20
            workers.append(thread)
            thread.start()
        }
        var readerOutput = LogReader.Output()
        var failure: Error?
        do {
            try produce(files, output: &readerOutput)
        } catch {
            failure = error
        }
        condition.lock()
        inputDone = true
        condition.broadcast()
        condition.unlock()
        finished.wait()
        if let failure { throw failure }
        // Zeros were read past the cut: the report would miss calls and count them as damage.
        if let cut = mappedFiles.first(where: \.cut.wasCut) { throw IngestError.cutWhileRead(path: cut.name) }
        return try merge(readerOutput)
    }

    /// Tunes glibc's malloc for the run, before its threads start:
    /// - Arrays of 8 MB or more (the token tables' slots) get their own mappings, returned to the
    ///   system when a growing table frees them: glibc's adaptive threshold rises past them once
    ///   a large block is freed, and memory freed in the heap stays resident, which would count
    ///   in the peak. The 4 MB blocks stay in the heap, where freed ones are reused without page
    ///   faults.
    /// - Two arenas, not one for each thread that allocates, up to eight a core: each reserves
    ///   64 MB of address space, which a limit on it (`ulimit -v`) counts though the run touches
    ///   a fraction; with `--threads 16` a 500 MB limit aborted the run in malloc. The threads
    ///   allocate little on their hot paths (`--out` on 1 M searches timed the same).
    /// `mallopt` is not in Swift's Glibc module, so it is looked up by name.
    private static func tuneMalloc() {
        #if os(Linux)
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD in <malloc.h>
        let arenaMax: Int32 = -8  // M_ARENA_MAX in <malloc.h>
        _ = mallopt(mmapThreshold, 8 << 20)
        _ = mallopt(arenaMax, 2)
        #endif
    }

    // MARK: - Reading (the calling thread)

    private func produce(_ files: [LogReader.ListedFile], output: inout LogReader.Output) throws {
        let reader = LogReader(options: options.reader)
        var caches = CallBlockBuilder.Caches()
        var readBefore = 0
        for (fileIndex, (path, listed)) in files.enumerated() where !stopsForMalformed {
            do {
                var fileOutput = LogReader.Output()
                defer { output.files += fileOutput.files }
                guard var input = try reader.open(path, listedInDirectory: listed, spool: options.spool, index: fileIndex, into: &fileOutput) else {
                    submitStatistics(fileOutput, fileIndex: fileIndex, fileName: path == "-" ? "<stdin>" : path)
                    continue
                }
                defer { input.close() }
                // A gzip input's progress is in compressed bytes, as its size is, and an array's in
                // its own bytes (`sourceBytesRead`).
                // JSON Lines and access logs are one record a line: workers parse blocks of lines.
                let byLines = input.format == .jsonl || input.format == .accessLog
                let accessLog = input.format == .accessLog ? options.reader.accessLogParser(for: input) : nil
                if input.format == .csv, !options.readsCSVByLines,
                   let header = try CSVBlockSplitter.header(of: &input, maxLineLength: options.maxLineLength) {
                    var layout = CSVBlockParser.Layout(columns: header.columns, linesBefore: header.lines)
                    var splitter = CSVBlockSplitter(&input, header: header, blockSize: options.blockSize, maxLineLength: options.maxLineLength)
                    while !stopsForMalformed, !splitter.wasCut, let block = try splitter.next() {
                        var raw = RawBlock(index: 0, fileIndex: fileIndex, fileName: input.displayName, bytes: block.bytes)
                        raw.mapped = block.mapped
                        raw.csv = layout
                        layout.linesBefore = 0
                        if let (file, range) = block.mapped { file.willRead(range) }
                        submit(raw: raw)
                        options.progress?(readBefore + (input.sourceBytesRead ?? splitter.position))
                    }
                    readBefore += input.sourceBytesRead ?? splitter.position
                    if let rest = splitter.unsplitRest {
                        _ = lseek(input.descriptor, off_t(rest.offset), SEEK_SET)
                        input.reader = LineReader(fileDescriptor: input.descriptor)
                        try readOnThisThread(fileIndex: fileIndex, name: input.displayName, caches: &caches) { deliver in
                            try reader.readCSVRows(&input, columns: header.columns, linesBefore: rest.linesBefore, into: &fileOutput, deliver: deliver)
                        }
                    }
                } else if byLines, let file = MappedFile(descriptor: input.descriptor) {
                    var splitter = MappedFile.Splitter(file: file, blockSize: options.blockSize, maxLineLength: options.maxLineLength)
                    while !stopsForMalformed, !file.wasCut, let (range, overlong) = splitter.next() {
                        var raw = RawBlock(index: 0, fileIndex: fileIndex, fileName: input.displayName, bytes: [], overlongLinesBefore: overlong)
                        raw.mapped = (file, range)
                        raw.accessLog = accessLog
                        file.willRead(range)
                        submit(raw: raw)
                        options.progress?(readBefore + splitter.position)
                    }
                    readBefore += file.count
                } else if byLines {
                    var splitter = BlockSplitter(
                        descriptor: input.descriptor, prefix: input.reader.takeBuffered(),
                        blockSize: options.blockSize, maxLineLength: options.maxLineLength
                    )
                    while !stopsForMalformed, let (bytes, overlong) = try splitter.next() {
                        var raw = RawBlock(index: 0, fileIndex: fileIndex, fileName: input.displayName, bytes: bytes, overlongLinesBefore: overlong)
                        raw.accessLog = accessLog
                        submit(raw: raw)
                        options.progress?(readBefore + (input.sourceBytesRead ?? splitter.bytesRead))
                    }
                    readBefore += input.sourceBytesRead ?? splitter.bytesRead
                } else {
                    // A HAR capture (or a CSV file read record by record): its bytes read so far are
                    // the file's offset, or the gzip input's or array's own count.
                    let read = { [input] in input.sourceBytesRead ?? max(0, Int(lseek(input.descriptor, 0, SEEK_CUR))) }
                    let before = readBefore
                    try readOnThisThread(fileIndex: fileIndex, name: input.displayName, caches: &caches, progress: { self.options.progress?(before + read()) }) { deliver in
                        try reader.readRecords(&input, into: &fileOutput, deliver: deliver)
                    }
                    readBefore += read()
                }
                // Under --strict, reading stopped at a malformed record, which is the error;
                // otherwise a damage warning is thrown by `merge`, in input order, as any other.
                if !stopsForMalformed { try reader.finishReading(&input, into: &fileOutput, strictLater: true) }
                submitStatistics(fileOutput, fileIndex: fileIndex, fileName: input.displayName)
            } catch let error as IngestError {
                // Readers of a stream do not know its name; a read failure names the file.
                throw error.naming(path == "-" ? "<stdin>" : path)
            }
        }
    }

    /// Files the calls `read` delivers, read here on the reading thread, in blocks of calls;
    /// `progress` is called every `callsPerProgress` calls.
    private func readOnThisThread(
        fileIndex: Int, name: String, caches: inout CallBlockBuilder.Caches, progress: (() -> Void)? = nil,
        _ read: ((Call, UInt64) -> Void) throws -> Void
    ) throws {
        var builder = newBuilder(fileIndex: fileIndex, fileName: name)
        var pending = 0
        try read { call, fingerprint in
            builder.add(call, fingerprint: fingerprint, caches: &caches)
            pending += 1
            if pending % CallPipeline.callsPerProgress == 0 { progress?() }
            if pending >= CallPipeline.callsPerReaderBlock {
                submit(parsed: builder.finish(lineCount: 0))
                builder = newBuilder(fileIndex: fileIndex, fileName: name)
                pending = 0
            }
        }
        submit(parsed: builder.finish(lineCount: 0))
    }

    /// Whether `--strict` has met a malformed record, so reading may stop.
    private var stopsForMalformed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return malformedSeen
    }

    /// Empty partitions for a new block, from finished blocks where possible.
    private func takePartitions() -> [PartitionCalls] {
        condition.lock()
        defer { condition.unlock() }
        return (0..<options.threads).map { _ in partitionPool.popLast() ?? PartitionCalls() }
    }

    private func newBuilder(fileIndex: Int, fileName: String) -> CallBlockBuilder {
        condition.lock()
        let index = submitted
        condition.unlock()
        return CallBlockBuilder(
            block: CallBlock(index: index, fileIndex: fileIndex, fileName: fileName, partitions: takePartitions()),
            catalogs: catalogs, window: options.reader.window, keepUsers: options.sessions.keepSearches || options.sessions.rows != nil,
            routes: options.reader.routes
        )
    }

    /// A reader's counts and diagnostics for one file, as a block with no calls; its lines are
    /// the file's own.
    private func submitStatistics(_ output: LogReader.Output, fileIndex: Int, fileName: String) {
        var block = CallBlock(index: 0, fileIndex: fileIndex, fileName: fileName, partitions: Array(repeating: PartitionCalls(), count: options.threads))
        block.rejected = output.rejected
        block.outsideWindow = output.outsideWindow
        block.outsidePeriod = output.outsidePeriod
        block.skippedRequests = output.skippedRequests
        block.unbilled = output.unbilled
        block.hosts = output.hosts
        block.bodiesUnknown = output.bodiesUnknown
        block.typedTextRecords = output.typedTextRecords
        block.diagnostics = output.diagnostics
        block.diagnosticCount = output.diagnosticCount
        block.fileWarnings = output.fileWarnings
        block.linesAreAbsolute = true
        submit(parsed: block)
    }

    private func waitForRoom() -> Int {
        condition.lock()
        while submitted - completed >= maxInFlight { condition.wait() }
        let index = submitted
        submitted += 1
        return index
    }

    private func submit(raw: RawBlock) {
        if let (file, _) = raw.mapped, mappedFiles.last?.cut !== file.cut { mappedFiles.append((raw.fileName, file.cut)) }
        var raw = raw
        raw.index = waitForRoom()
        pendingRaw.append(raw)
        condition.broadcast()
        condition.unlock()
    }

    private func submit(parsed block: CallBlock) {
        var block = block
        let index = waitForRoom()
        // Only this thread submits, and a reader's builder took `submitted` when it began, so its
        // calls' positions already carry this index; a statistics block has no calls.
        block.index = index
        parsed[index] = block
        condition.broadcast()
        condition.unlock()
    }

    // MARK: - Workers

    private enum Task {
        case walk(PartitionCalls)
        case parse(RawBlock)
        case done
    }

    private func work(partition: Int) {
        var stream = SessionStream(options: options.sessions, calendar: options.calendar, catalogs: catalogs)
        stream.partition = partition
        var caches = CallBlockBuilder.Caches()
        var nextWalk = 0
        loop: while true {
            switch nextTask(partition: partition, nextWalk: nextWalk) {
            case .walk(var calls):
                stream.accept(calls)
                nextWalk += 1
                calls.calls.removeAll(keepingCapacity: true)
                calls.arena.removeAll(keepingCapacity: true)
                condition.lock()
                if partitionPool.count < 4 * options.threads { partitionPool.append(calls) }
                condition.unlock()
            case .parse(let raw):
                var builder = CallBlockBuilder(
                    block: CallBlock(index: raw.index, fileIndex: raw.fileIndex, fileName: raw.fileName, partitions: takePartitions()),
                    catalogs: catalogs, window: options.reader.window, keepUsers: options.sessions.keepSearches || options.sessions.rows != nil,
            routes: options.reader.routes
                )
                let lines = if let layout = raw.csv {
                    CSVBlockParser.parse(raw, layout: layout, maxLineLength: options.maxLineLength, into: &builder, caches: &caches)
                } else if let parser = raw.accessLog {
                    AccessLogBlockParser.parse(raw, parser: parser, maxLineLength: options.maxLineLength, into: &builder, caches: &caches)
                } else {
                    JSONLinesBlockParser.parse(raw, maxLineLength: options.maxLineLength, userHeader: options.reader.userHeader, into: &builder, caches: &caches)
                }
                if let mapped = raw.mapped { mapped.file.release(mapped.range) }
                let block = builder.finish(lineCount: lines)
                condition.lock()
                if options.reader.strict, block.diagnosticCount > 0 { malformedSeen = true }
                parsed[raw.index] = block
                condition.broadcast()
                condition.unlock()
            case .done:
                break loop
            }
        }
        let tally = stream.finish()
        stream.rows?.finish()
        condition.lock()
        walked[partition] = (tally, stream.isLate, stream.disorder, stream.rows)
        condition.unlock()
    }

    private func nextTask(partition: Int, nextWalk: Int) -> Task {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if parsed[nextWalk] != nil {
                let calls = parsed[nextWalk]!.partitions[partition]
                parsed[nextWalk]!.partitions[partition] = PartitionCalls()
                let count = taken[nextWalk, default: 0] + 1
                if count == options.threads {
                    var header = parsed.removeValue(forKey: nextWalk)!
                    header.partitions = []
                    headers.append(header)
                    taken[nextWalk] = nil
                    completed += 1
                    condition.broadcast()
                } else {
                    taken[nextWalk] = count
                }
                return .walk(calls)
            }
            if !pendingRaw.isEmpty {
                return .parse(pendingRaw.removeFirst())
            }
            if inputDone, nextWalk >= submitted {
                return .done
            }
            condition.wait()
        }
    }

    // MARK: - Merging

    private func merge(_ readerOutput: LogReader.Output) throws -> Result {
        var read = LogReader.Output()
        read.files = readerOutput.files
        var result = Result(
            tally: SearchTally(alternatives: options.sessions.alternativeTimeouts.count), read: read, firstCall: nil, lastCall: nil, late: false, disorder: 0
        )
        var lineOffsets: [Int: Int] = [:]
        for block in headers.sorted(by: { $0.index < $1.index }) {
            let offset = lineOffsets[block.fileIndex, default: 0]
            for diagnostic in block.diagnostics {
                var diagnostic = diagnostic
                if !block.linesAreAbsolute { diagnostic.location.line += offset }
                if options.reader.strict { throw IngestError.malformedRecord(diagnostic) }
                if result.read.diagnostics.count < LogReader.maxStoredDiagnostics { result.read.diagnostics.append(diagnostic) }
            }
            if !block.linesAreAbsolute { lineOffsets[block.fileIndex] = offset + block.lineCount }
            result.read.fileWarnings += block.fileWarnings
            result.read.diagnosticCount += block.diagnosticCount
            result.read.rejected += block.rejected
            result.read.outsideWindow += block.outsideWindow
            result.read.outsidePeriod.merge(block.outsidePeriod)
            result.read.skippedRequests += block.skippedRequests
            result.read.unbilled += block.unbilled
            result.read.hosts.merge(block.hosts)
            result.read.bodiesUnknown += block.bodiesUnknown
            result.read.noteTypedText(in: block.fileName, records: block.typedTextRecords)
            if let first = block.firstCall { result.firstCall = min(result.firstCall ?? first, first) }
            if let last = block.lastCall { result.lastCall = max(result.lastCall ?? last, last) }
        }
        for case let (tally, late, disorder, rows)? in walked {
            result.tally.merge(tally)
            result.late = result.late || late
            result.disorder = max(result.disorder, disorder)
            if let rows { result.rows.append((rows, tally.shapes)) }
        }
        result.read.duplicates = result.tally.duplicates
        result.read.duplicatesDropped = result.tally.duplicatesDropped
        return result
    }
}
