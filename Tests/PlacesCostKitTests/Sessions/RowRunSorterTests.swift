import Testing
@testable import PlacesCostKit

@Suite("Sorting a walk's rows (RowRunSorter)")
struct RowRunSorterTests {
    static func row(_ startedAt: Int64, _ sequence: Int64) -> SearchRow {
        SearchRow(
            startedAt: startedAt, sequence: sequence, endedAt: startedAt + 1, token: UInt64(bitPattern: sequence), user: 0, requests: 1,
            charactersAtSelection: -1, shape: 0, hasToken: true, hasUser: false, mayExpire: false
        )
    }

    /// Rows as a walk emits them: each search when it ends, `delays` (one drawn a search) after
    /// its start; starts `gap` apart at most, so equal starts occur.
    static func emitted(_ count: Int, delays: [Int64], gap: Int64, using random: inout some RandomNumberGenerator) -> [SearchRow] {
        var start: Int64 = 1_790_000_000_000_000
        var rows: [(end: Int64, row: SearchRow)] = []
        for sequence in 0..<count {
            start += Int64.random(in: 0...gap, using: &random)
            let delay = delays.randomElement(using: &random)! + Int64.random(in: 0...gap, using: &random)
            rows.append((start + delay, row(start, Int64(sequence))))
        }
        return rows.sorted { $0.end != $1.end ? $0.end < $1.end : $0.row.sequence < $1.row.sequence }.map(\.row)
    }

    /// What `inOrder` hands out, chunk after chunk.
    static func handedOut(_ rows: [SearchRow], chunkRows: Int) -> (rows: [SearchRow], chunks: [Int]) {
        var sorter = RowRunSorter(chunkRows: chunkRows)
        var input = rows
        var out: [SearchRow] = []
        var chunks: [Int] = []
        sorter.inOrder(&input) { part in
            out.append(contentsOf: part)
            chunks.append(part.count)
            return true
        }
        return (out, chunks)
    }

    @Test("Rows emitted as walks emit them come out in SearchRow.precedes order, in chunks, for any chunk size")
    func emittedOrders() {
        var random = SystemRandomNumberGenerator()
        // One delay (already sorted), a few (completed and timed-out searches), up to and past
        // the piles the sorter keeps before it falls back to the standard sort.
        let delayShapes: [[Int64]] = [[0], [10_000_000, 180_000_000], [5, 90_000_000, 180_000_000, 240_000_000], Array(stride(from: 0, to: 30_000_000_000, by: 1_000_000_000))]
        for delays in delayShapes {
            let sizes: [(count: Int, gap: Int64)] = [(0, 1), (1, 1), (2, 0), (1000, 0), (5000, 3_000_000), (20000, 100_000)]
            for (count, gap) in sizes {
                let rows = Self.emitted(count, delays: delays, gap: gap, using: &random)
                let expected = rows.sorted { $0.precedes($1) }
                for chunkRows in [1, 7, 4096, 1 << 20] {
                    let (out, chunks) = Self.handedOut(rows, chunkRows: chunkRows)
                    #expect(out == expected, "delays \(delays.count), \(count) rows, gap \(gap), chunks of \(chunkRows)")
                    #expect(chunks.dropLast().allSatisfy { $0 == chunkRows } || chunks.count == 1)
                }
            }
        }
    }

    @Test("Any order comes out sorted: reversed, shuffled, equal starts ordered by sequence")
    func anyOrder() {
        var random = SystemRandomNumberGenerator()
        let ordered: [SearchRow] = (0..<3000).map { Self.row(Int64($0 / 3), Int64($0)) }
        let reversed: [SearchRow] = ordered.reversed()
        let headReversed: [SearchRow] = Array(ordered.prefix(9).reversed()) + Array(ordered.dropFirst(9))
        for rows in [ordered, reversed, ordered.shuffled(using: &random), headReversed] {
            #expect(Self.handedOut(rows, chunkRows: 100).rows == ordered)
        }
    }

    @Test("Rows dealt from k sequences in turn, each round falling, come out sorted: k piles merged, or the standard sort past 64")
    func dealt() {
        for sequences in [2, 9, 20, 64, 65, 200] {
            var rows: [SearchRow] = []
            for round in 0..<300 {
                for sequence in 0..<sequences {
                    // Within a round the starts fall, so each row needs a pile of its own.
                    let start = Int64(round * sequences + (sequences - 1 - sequence))
                    rows.append(Self.row(start * 10, Int64(rows.count)))
                }
            }
            let expected = rows.sorted { $0.precedes($1) }
            #expect(Self.handedOut(rows, chunkRows: 1000).rows == expected, "\(sequences) sequences")
        }
    }

    @Test("A consumer that stops is handed nothing more")
    func stops() {
        // Two interleaved sequences: two piles, merged in chunks.
        let evens: [SearchRow] = (0..<500).map { (index: Int64) in Self.row(2 * index, index) }
        let odds: [SearchRow] = (0..<500).map { (index: Int64) in Self.row(2 * index + 1, 500 + index) }
        var rows = evens + odds
        var sorter = RowRunSorter(chunkRows: 10)
        var calls = 0
        sorter.inOrder(&rows) { _ in
            calls += 1
            return calls < 3
        }
        #expect(calls == 3)
    }
}
