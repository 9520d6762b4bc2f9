import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `searches.csv` while the log is read, from what the walks publish (`RowPublications`),
/// so the disk takes the file in during the walk rather than after it.
///
/// The rules to keep:
/// - A row is written only once every walk has published a bound past its start
///   (`RowPublication.bound`): rows are written in the file's order, each once, numbered from 1.
/// - What is written is a guess, kept only where it proves true: a row published as it stood may
///   change later, a run published late may hold rows before those written (they are left out
///   here), and a shape is described with the period times of the first walk to publish it. What was merged and the
///   tails each shape was written with are kept (`SpeculatedRows`), for `SearchesCSVWriter` to
///   merge again and compare, block by block, with the rows as they turned out.
/// - A spill file that cannot be read stops the writing: what was written is then exactly the
///   merge of what was added.
/// - One thread, its own: the walks only publish. `finish` stops it at the end of a block: the
///   rows after it are the writer's after the walks, formatted on every core.
final class SearchesCSVSpeculator: @unchecked Sendable {
    /// Rows formatted and written at once.
    static let blockRows = 8192
    /// Rows read from a spill file at once: 32 KiB, so a run costs little memory whatever the runs.
    static let chunkRows = (32 << 10) / MemoryLayout<SearchRow>.stride

    private let publications: RowPublications
    private let descriptor: Int32
    private let makeDescriber: @Sendable () -> ShapeDescriber
    private let done = DispatchSemaphore(value: 0)
    /// Set by the thread before `done` is signalled, read after.
    private var written = SpeculatedRows(checkpoints: [], sources: [], tails: [], uncountedTails: [])

    /// Starts writing into a new file at `path`; `nil` when it cannot be made (it is then written
    /// after the walks, as without speculation).
    init?(path: String, publications: RowPublications, describer: @escaping @Sendable () -> ShapeDescriber) {
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
        self.publications = publications
        self.makeDescriber = describer
        let thread = Thread { [self] in
            run()
            done.signal()
        }
        thread.name = "searches.csv speculation"
        thread.start()
    }

    /// Stops the writing (the walks are done, or abandoned) and returns what was written.
    func finish(_ ending: RowPublications.Ending = .now) -> SpeculatedRows {
        publications.end(ending)
        done.wait()
        _ = SystemCall.close(descriptor)
        return written
    }

    private func run() {
        let header = Array(CSVText.line(SearchesCSVWriter.header).utf8)
        guard SearchesCSVSpeculator.writeAll(descriptor, header, at: 0) else { return }
        let partitions = publications.partitions
        var end = SpeculatedRows.Checkpoint(rows: 0, bytes: header.count)
        written.checkpoints = [end]
        written.tails = Array(repeating: [], count: partitions)
        written.uncountedTails = Array(repeating: [], count: partitions)
        written.runsTaken = Array(repeating: 0, count: partitions)
        // Walk `w`'s uncounted shapes are formatted as the shapes of walk `partitions + w`.
        var shapeTails = SearchesCSVWriter.ShapeTails()
        shapeTails.ranges = Array(repeating: [], count: 2 * partitions)
        let describer = makeDescriber()
        // The walks share most shapes: each is described and formatted once.
        var described: [SearchTally.ShapeKey: (tail: [UInt8], range: SearchesCSVWriter.TailRange)] = [:]
        func describe(_ key: SearchTally.ShapeKey, _ publication: RowPublication, into list: inout [[UInt8]], ranges: Int) {
            if described[key] == nil {
                let tail = SearchesCSVWriter.tail(describer.figures(key, at: publication.periodTimes[key.period] ?? 0))
                described[key] = (tail, shapeTails.add(tail))
            }
            let (tail, range) = described[key]!
            list.append(tail)
            shapeTails.ranges[ranges].append(range)
        }
        var merger = SearchRowMerger(partitions: partitions, chunkRows: SearchesCSVSpeculator.chunkRows)
        var bounds = [Int64?](repeating: nil, count: partitions)
        var last: SearchRow.Order?
        var handedToDisk = 0
        let blockRows = SearchesCSVSpeculator.blockRows
        let block = UnsafeMutablePointer<(row: SearchRow, walk: Int)>.allocate(capacity: blockRows)
        defer { block.deallocate() }
        var bytes: [UInt8] = []
        while let batch = publications.take() {
            for publication in batch {
                let walk = publication.partition
                for key in publication.shapes[written.tails[walk].count...] {
                    describe(key, publication, into: &written.tails[walk], ranges: walk)
                }
                for key in publication.uncountedShapes[written.uncountedTails[walk].count...] {
                    describe(key, publication, into: &written.uncountedTails[walk], ranges: partitions + walk)
                }
                bounds[walk] = max(bounds[walk] ?? .min, publication.bound)
                written.sources.append(.run(partition: walk, descriptor: publication.descriptor, rows: publication.run, after: last))
                written.runsTaken[walk] += 1
                merger.addRun(publication.run, of: publication.descriptor, partition: walk, skippingThrough: last)
                if !publication.provisional.isEmpty {
                    written.sources.append(.rows(partition: walk, publication.provisional, after: last))
                    merger.addRows(publication.provisional, partition: walk, skippingThrough: last)
                }
                written.skippedRows = merger.skippedRows
            }
            guard bounds.allSatisfy({ $0 != nil }) else { continue }
            let limit = SearchRow.Order(startedAt: bounds.lazy.map { $0! }.min()!, sequence: .min)
            // Once the walks are done the writer after them takes over, on every core.
            while !publications.stopsNow {
                let count = merger.fill(block, capacity: blockRows, before: limit)
                guard merger.failure == nil else { return }
                guard count > 0 else { break }
                let first = block[0].row.order
                last = block[count - 1].row.order
                for index in 0..<count {
                    if let uncounted = SearchRow.uncountedIndex(block[index].row.shape) {
                        block[index].row.shape = UInt32(uncounted)
                        block[index].walk += partitions
                    }
                }
                let capacity = count * (160 + shapeTails.longest)
                if bytes.count < capacity { bytes = [UInt8](repeating: 0, count: capacity) }
                let length = bytes.withUnsafeMutableBufferPointer { out in
                    SearchesCSVWriter.format(block, count: count, firstID: end.rows + 1, tails: shapeTails, at: out.baseAddress!)
                }
                guard bytes.withUnsafeBytes({ SearchesCSVSpeculator.writeAll(descriptor, UnsafeRawBufferPointer(rebasing: $0[..<length]), at: off_t(end.bytes)) }) else { return }
                end.rows += count
                end.bytes += length
                written.checkpoints.append(end)
                written.firstOrders.append(first)
                written.last = last
                if end.bytes - handedToDisk >= 16 << 20 {
                    SystemCall.startWriteback(descriptor, offset: handedToDisk, count: end.bytes - handedToDisk)
                    handedToDisk = end.bytes
                }
                if count < blockRows { break }
            }
        }
    }

    /// Writes every byte at `offset`; `false` at a failure.
    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: off_t) -> Bool {
        var done = 0
        while done < bytes.count {
            let written = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, offset + off_t(done))
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            done += written
        }
        return true
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], at offset: off_t) -> Bool {
        bytes.withUnsafeBytes { writeAll(descriptor, $0, at: offset) }
    }
}
