import Foundation
import Testing
@testable import PlacesCostKit

/// `RowBlockPipeline`: blocks formatted on several threads come out in order, and a failing
/// write stops the file without a hang, with its error.
@Suite("Blocks formatted in parallel, written in order")
struct RowBlockPipelineTests {
    private struct WriteFailed: Error, Equatable {}

    /// Numbers 0..<count, each written as its decimal and a newline, through the pipeline.
    private static func run(count: Int, blockRows: Int, formatters: Int, failAt: Int? = nil) throws -> (text: String, progress: [Int]) {
        let pipeline = RowBlockPipeline<Int>(blockRows: blockRows, bytesPerRow: 22, formatters: formatters)
        var next = 0
        var text: [UInt8] = []
        var progress: [Int] = []
        var flushes = 0
        try pipeline.run(
            fill: { rows, capacity in
                var filled = 0
                while filled < capacity, next < count {
                    (rows + filled).initialize(to: next)
                    filled += 1
                    next += 1
                }
                return filled
            },
            format: { slot in
                var out = slot.bytes
                for index in 0..<slot.count {
                    // Rows are the numbers the block was filled with, and follow the rows before it:
                    // a row out of place is written as -1, which no expected text holds.
                    let row = slot.rows[index]
                    if row != slot.rowsBefore + index {
                        out.pointee = UInt8(ascii: "-")
                        out += 1
                    }
                    out = SearchesCSVWriter.put(row, at: out)
                    out.pointee = UInt8(ascii: "\n")
                    out += 1
                }
                return slot.bytes.distance(to: out)
            },
            flush: { bytes in
                flushes += 1
                if flushes == failAt { throw WriteFailed() }
                text += bytes
            },
            progress: { rows, _ in progress.append(rows) }
        )
        return (String(decoding: text, as: UTF8.self), progress)
    }

    @Test("The same text for any block size and number of formatters", arguments: [1, 2, 3, 5])
    func ordered(formatters: Int) throws {
        let expected = (0..<2_000).map { "\($0)\n" }.joined()
        for blockRows in [1, 2, 7, 64, 1_999, 2_000, 5_000] {
            let (text, progress) = try Self.run(count: 2_000, blockRows: blockRows, formatters: formatters)
            #expect(text == expected, "blocks of \(blockRows)")
            #expect(progress.last == 2_000 && progress == progress.sorted())
        }
        #expect(try Self.run(count: 0, blockRows: 8, formatters: formatters).text.isEmpty)
    }

    @Test("A write that fails stops the file and is thrown; nothing waits for ever", arguments: [1, 2, 4])
    func failure(formatters: Int) throws {
        for failAt in [1, 2, 3, 40] {
            #expect(throws: WriteFailed()) { try Self.run(count: 1_000, blockRows: 10, formatters: formatters, failAt: failAt) }
        }
    }

    @Test("A fill that throws ends the pipeline with its error")
    func fillError() {
        let pipeline = RowBlockPipeline<Int>(blockRows: 4, bytesPerRow: 1, formatters: 2)
        var calls = 0
        #expect(throws: WriteFailed()) {
            try pipeline.run(
                fill: { rows, _ in
                    calls += 1
                    if calls == 5 { throw WriteFailed() }
                    rows.initialize(to: calls)
                    return 1
                },
                format: { _ in 0 }, flush: { _ in }, progress: nil
            )
        }
    }
}
