import Testing
@testable import PlacesCostKit

@Suite("The table of every token seen")
struct KeyTableTests {
    @Test("Keys of the packed width and of other widths keep their ids, bytes and states through growth")
    func internsAndGrows() {
        var table = KeyTable()
        var random = SeededRandom(seed: 5)
        let keys: [[UInt8]] = (0..<20_000).map { index in
            let width = index % 7 == 0 ? 5 + random.below(40) : KeyTable.width
            return (0..<width).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        }
        var ids: [UInt32] = []
        for (index, key) in keys.enumerated() {
            let id = key.withUnsafeBytes { table.intern($0).id }
            ids.append(id)
            table[state: id] = UInt32(index) &* 2_654_435_761
        }
        #expect(table.count == Set(keys).count)
        for (index, key) in keys.enumerated() {
            let again = key.withUnsafeBytes { table.intern($0).id }
            #expect(again == ids[index])
            #expect(Array(table.bytes(again)) == key)
            #expect(table[state: again] == UInt32(index) &* 2_654_435_761)
        }
    }

    @Test("Chunked storage reads bytes that cross a chunk boundary")
    func chunkBoundary() {
        var bytes = ChunkedArray<UInt8>()
        let source = (0..<(1 << 16) + 100).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        source.withUnsafeBytes { bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[..<5])) }
        source.withUnsafeBytes { bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[5...])) }
        #expect(bytes.count == source.count)
        #expect(source.indices.allSatisfy { bytes[$0] == source[$0] })
        let start = (1 << 16) - 7
        let expected = Array(source[start..<start + 18])
        #expect(bytes.withBytes(at: start, count: 18) { Array($0) } == expected)
        #expect(expected.withUnsafeBytes { bytes.equals(at: start, $0) })
        #expect(!source[0..<18].withUnsafeBytes { bytes.equals(at: start, UnsafeRawBufferPointer($0)) })
    }

    @Test("ByteInterner.equal: true for the same bytes, false for one byte changed at any offset, at every length up to 40")
    func byteEquality() {
        let source = (0..<40).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for length in 0...source.count {
            let bytes = Array(source[..<length])
            var same = bytes
            #expect(bytes.withUnsafeBytes { a in same.withUnsafeBytes { b in ByteInterner.equal(a.baseAddress!, b.baseAddress!, length) } })
            for offset in 0..<length {
                for flip: UInt8 in [0x01, 0x80, 0xFF] {
                    same = bytes
                    same[offset] ^= flip
                    let equal = bytes.withUnsafeBytes { a in same.withUnsafeBytes { b in ByteInterner.equal(a.baseAddress!, b.baseAddress!, length) } }
                    #expect(!equal, "length \(length), offset \(offset), flip \(flip)")
                }
            }
        }
    }
}
