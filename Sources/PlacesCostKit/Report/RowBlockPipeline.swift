import Foundation

/// Formats rows in blocks on several threads and writes the blocks in order: the caller fills
/// blocks of rows one after another (`fill`), `formatters` threads turn them into bytes
/// (`format`), and one writer thread hands the bytes to `flush`, block after block.
///
/// The rules to keep:
/// - Block `n` lives in slot `n % slots.count`, and the slot count is a multiple of the
///   formatters, so slot `s` is always formatted by formatter `s % formatters`: each formatter
///   and the writer visit their slots in block order, and the output is the same bytes for any
///   number of formatters.
/// - A slot is filled again only after its block was written: `free` counts the slots whose
///   block is written, and blocks are written in order.
/// - After the last block, one end marker per formatter follows, so every thread sees an end in
///   the next slot it waits for; the writer stops at the first.
/// - The first failure of `flush` stops the writing; the blocks after it are formatted and
///   dropped, so no thread waits for ever, and the failure is thrown to the caller.
final class RowBlockPipeline<Row>: @unchecked Sendable {
    /// One block: rows in, bytes out.
    final class Slot {
        let rows: UnsafeMutablePointer<Row>
        var count = 0
        /// The rows before this block: what the first one is numbered after.
        var rowsBefore = 0
        var isEnd = false
        let bytes: UnsafeMutablePointer<UInt8>
        var byteCount = 0
        /// Set once the block is formatted, by its formatter; read by the writer after `formatted`.
        let formatted = DispatchSemaphore(value: 0)
        /// Set once the block is filled, by the caller; read by the formatter after `filled`.
        let filled = DispatchSemaphore(value: 0)

        init(rowCapacity: Int, byteCapacity: Int) {
            rows = .allocate(capacity: rowCapacity)
            bytes = .allocate(capacity: byteCapacity)
        }

        deinit {
            rows.deallocate()
            bytes.deallocate()
        }
    }

    let blockRows: Int
    let formatters: Int
    private let slots: [Slot]
    private let free: DispatchSemaphore
    private let done = DispatchGroup()
    private let lock = NSLock()
    private var failure: Error?
    /// The caller's `flush` and `progress` while `run` runs; the threads find them here, never in
    /// their own closures, which may outlive `run` by a moment (`withoutActuallyEscaping`).
    private var writer: Job?

    /// - Parameters:
    ///   - blockRows: rows a block holds.
    ///   - bytesPerRow: the most bytes `format` writes for a row.
    ///   - formatters: threads that format blocks at once.
    init(blockRows: Int, bytesPerRow: Int, formatters: Int) {
        self.blockRows = max(1, blockRows)
        self.formatters = max(1, formatters)
        let count = 2 * self.formatters
        slots = (0..<count).map { _ in Slot(rowCapacity: max(1, blockRows), byteCapacity: max(1, blockRows) * bytesPerRow) }
        // Made empty and signalled: libdispatch stops a program that releases a semaphore holding
        // less than the value it was made with, and the end markers leave `free` short.
        free = DispatchSemaphore(value: 0)
        for _ in 0..<count { free.signal() }
    }

    /// Whether a write has failed: filling stops, and the writer drops the blocks after it.
    private var hasFailed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return failure != nil
    }

    /// Runs the pipeline: `fill` puts up to `blockRows` rows into a slot's `rows` and returns how
    /// many (0 at the end) on the calling thread; `format` writes a block's rows as bytes at
    /// `slot.bytes` and returns how many, on a formatter's thread; `flush` gets each block's bytes
    /// in order, and `progress` the rows and bytes written so far, on the writer's thread.
    func run(
        fill: (_ rows: UnsafeMutablePointer<Row>, _ capacity: Int) throws -> Int,
        format: @escaping @Sendable (Slot) -> Int,
        flush: (UnsafeRawBufferPointer) throws -> Void,
        progress: ((_ rows: Int, _ bytes: Int) -> Void)?
    ) throws {
        try withoutActuallyEscaping(flush) { flush in
            try withoutActuallyEscaping(progress ?? { _, _ in }) { progress in
                writer = Job(flush: flush, progress: progress)
                defer { writer = nil }
                start(format: format)
                var index = 0
                var rowsBefore = 0
                var fillError: Error?
                var ended = false
                // Every thread has seen its end marker and stopped before `run` returns.
                while !hasFailed {
                    let slot = take(index)
                    let count: Int
                    do {
                        count = try fill(slot.rows, blockRows)
                    } catch {
                        fillError = error
                        count = 0
                    }
                    guard count > 0 else {
                        finish(from: index, first: slot)
                        ended = true
                        break
                    }
                    slot.count = count
                    slot.rowsBefore = rowsBefore
                    slot.isEnd = false
                    slot.filled.signal()
                    rowsBefore += count
                    index += 1
                }
                if !ended { finish(from: index, first: nil) }
                done.wait()
                if let fillError { throw fillError }
                lock.lock()
                defer { lock.unlock() }
                if let failure { throw failure }
            }
        }
    }

    /// The slot of block `index`, once its earlier block is written.
    private func take(_ index: Int) -> Slot {
        free.wait()
        return slots[index % slots.count]
    }

    /// Puts an end marker in the next `formatters` slots from block `index` (the first already taken).
    private func finish(from index: Int, first: Slot?) {
        for offset in 0..<formatters {
            let slot = offset == 0 && first != nil ? first! : take(index + offset)
            slot.isEnd = true
            slot.count = 0
            slot.filled.signal()
        }
    }

    private func start(format: @escaping @Sendable (Slot) -> Int) {
        for formatter in 0..<formatters {
            done.enter()
            let thread = Thread { [self] in
                var position = formatter
                while true {
                    let slot = slots[position]
                    slot.filled.wait()
                    if !slot.isEnd { slot.byteCount = format(slot) }
                    let ended = slot.isEnd
                    slot.formatted.signal()
                    if ended { break }
                    position = (position + formatters) % slots.count
                }
                done.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        done.enter()
        let thread = Thread { [self] in
            writeBlocks(writer!)
            done.leave()
        }
        thread.start()
    }

    /// Hands each formatted block to `writer` in order, until the first end marker.
    private func writeBlocks(_ writer: Job) {
        var index = 0
        var rows = 0
        var bytes = 0
        while true {
            let slot = slots[index % slots.count]
            slot.formatted.wait()
            if slot.isEnd { return }
            if !hasFailed {
                do {
                    try writer.flush(UnsafeRawBufferPointer(start: slot.bytes, count: slot.byteCount))
                    rows += slot.count
                    bytes += slot.byteCount
                    writer.progress(rows, bytes)
                } catch {
                    lock.lock()
                    failure = failure ?? error
                    lock.unlock()
                }
            }
            free.signal()
            index += 1
        }
    }

    /// The caller's closures, used on the writer's thread while `run` waits for it.
    private struct Job: @unchecked Sendable {
        let flush: (UnsafeRawBufferPointer) throws -> Void
        let progress: (Int, Int) -> Void
    }
}
