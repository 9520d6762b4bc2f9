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
    private var written = SpeculatedRows(checkpoints: [], sources: [])

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
        guard header.withUnsafeBytes({ SystemCall.writeAll(descriptor, $0, at: 0) }) == nil else { return }
        let partitions = publications.partitions
        var end = SpeculatedRows.Checkpoint(rows: 0, bytes: header.count)
        written.checkpoints = [end]
        written.partitions = partitions
        written.tails.ranges = Array(repeating: [], count: 2 * partitions)
        written.runsTaken = Array(repeating: 0, count: partitions)
        let describer = makeDescriber()
        // The walks share most shapes: each is described and formatted once.
        var described: [SearchTally.ShapeKey: SearchesCSVWriter.TailRange] = [:]
        func describe(_ key: SearchTally.ShapeKey, _ publication: RowPublication, as walk: Int) {
            if described[key] == nil {
                described[key] = written.tails.add(SearchesCSVWriter.tail(describer.figures(key, at: publication.periodTimes[key.period] ?? 0)))
            }
            written.tails.ranges[walk].append(described[key]!)
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
                for key in publication.shapes[written.tails.ranges[walk].count...] {
                    describe(key, publication, as: walk)
                }
                for key in publication.uncountedShapes[written.tails.ranges[partitions + walk].count...] {
                    describe(key, publication, as: partitions + walk)
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
                for index in 0..<count where SearchRow.uncountedIndex(block[index].row.shape) != nil {
                    let (walk, shape) = written.formatted(walk: block[index].walk, shape: block[index].row.shape)
                    block[index].row.shape = UInt32(shape)
                    block[index].walk = walk
                }
                let capacity = count * (160 + written.tails.longest)
                if bytes.count < capacity { bytes = [UInt8](repeating: 0, count: capacity) }
                let length = bytes.withUnsafeMutableBufferPointer { out in
                    SearchesCSVWriter.format(block, count: count, firstID: end.rows + 1, tails: written.tails, at: out.baseAddress!)
                }
                guard bytes.withUnsafeBytes({ SystemCall.writeAll(descriptor, UnsafeRawBufferPointer(rebasing: $0[..<length]), at: end.bytes) }) == nil else { return }
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
}
