import Foundation
import Testing
@testable import PlacesCostKit
@testable import PlacesCostReference

/// `FastCSVRowDecoder` against the slow path (`CSVRecordParser` + `CallDecoder`), row by row
/// (`CSVRowTwins`); whole logs cut into blocks are checked in `CSVBlockTests`.
@Suite("FastCSVRowDecoder")
struct FastCSVRowDecoderTests {
    @Test("Every row the fast decoder accepts gives the slow path's Call; plain rows are all accepted", arguments: 0..<8)
    func rowTwins(seed: Int) {
        var maker = CSVLogMaker(seed: UInt64(seed) + 900, damage: 0.4)
        _ = maker.header()
        let columns = maker.columns.map { RawRecord.Key(name: $0) }
        var accepted = 0
        var clean = 0
        for _ in 0..<3000 {
            let damaged = maker.random.chance(0.5)
            maker.damage = damaged ? 1 : 0
            var row = maker.row()
            if !damaged {
                // Only rows the fast path must take: no escapes or line breaks in quoted cells, a known timestamp shape.
                let text = String(decoding: row, as: UTF8.self)
                if text.contains("\"\"") || text.contains("\n") || text.contains("\r") { continue }
                clean += 1
            }
            let problem = row.withUnsafeBufferPointer { CSVRowTwins.disagreement($0, columns: columns) }
            #expect(problem == nil, "\(String(decoding: row, as: UTF8.self).debugDescription): \(problem ?? "")")
            let fast = row.withUnsafeBufferPointer { CSVRowTwins.fastCall($0, columns: columns) }
            if !damaged {
                if fast != nil { accepted += 1 } else {
                    #expect(fast != nil, "a plain row was declined: \(String(decoding: row, as: UTF8.self).debugDescription)")
                }
            }
            row.removeAll()
        }
        #expect(clean > 500 && accepted == clean)
    }

    @Test("UTF-8 sequences: the decoder's check is String(validating:)'s, for every lead and second byte and random tails")
    func utf8Sequences() {
        var random = SeededRandom(seed: 77)
        for lead in 0x80...0xFF {
            for second in 0...0xFF {
                for _ in 0..<(lead >= 0xE0 ? 6 : 1) {
                    func tail() -> UInt8 {
                        let byte = UInt8(truncatingIfNeeded: random.next())
                        return random.chance(0.8) ? 0x80 | byte & 0x3F : byte
                    }
                    let bytes: [UInt8] = [UInt8(lead), UInt8(second), tail(), tail()]
                    for length in 1...4 {
                        let prefix = Array(bytes[..<length])
                        let fast = prefix.withUnsafeBufferPointer { buffer -> Bool in
                            var position = 0
                            while position < length {
                                guard let step = UTF8Validation.sequenceLength(buffer.baseAddress!, at: position, end: length) else { return false }
                                position += step
                            }
                            return true
                        }
                        #expect(fast == (String(validating: prefix, as: UTF8.self) != nil), "\(prefix)")
                    }
                }
            }
        }
    }

    @Test("A typical generated row: spans of the exact values, the input counted in scalars")
    func typicalRow() throws {
        let columns: [RawRecord.Key?] = ["timestamp", "api", "session_token", "input", "place_id", "fields", "api_version", "user_id", "platform", "status"].map { RawRecord.Key(name: $0) }
        var row = Array("2026-10-01T00:00:10.442Z,autocomplete,31f4d3a4-8289-4777-adbe-adfb7a993c54,Łaz,,\"a,b\",legacy,u-001450,web,OK".utf8)
        let record = try #require(row.withUnsafeBufferPointer { line in columns.withUnsafeBufferPointer { FastCSVRowDecoder.decode(line, columns: $0) } })
        func text(_ span: ByteSpan?) -> String? {
            span.map { String(decoding: row[Int($0.start)..<Int($0.start + $0.count)], as: UTF8.self) }
        }
        #expect(record.time == (try TimestampParser.parse("2026-10-01T00:00:10.442Z").get()))
        #expect(text(record.api) == "autocomplete" && text(record.sessionToken) == "31f4d3a4-8289-4777-adbe-adfb7a993c54")
        #expect(record.inputLength == 3 && text(record.fields) == "a,b" && text(record.apiVersion) == "legacy")
        #expect(text(record.userID) == "u-001450" && text(record.platform) == "web" && text(record.status) == "OK" && record.project == nil)
        row.removeAll()
    }

    @Test("Declined: an escape, a cell open at the line's end, text after a quote, a cell count off, bad bytes, no timestamp or api")
    func declined() {
        let columns: [RawRecord.Key?] = [.timestamp, .api, .input, nil]
        let rows: [[UInt8]] = [
            Array("1790845200000,autocomplete,\"a\"\"b\",x".utf8),
            Array("1790845200000,autocomplete,\"open,x".utf8),
            Array("1790845200000,autocomplete,\"a\"b,x".utf8),
            Array("1790845200000,autocomplete,a".utf8),
            Array("1790845200000,autocomplete,a,x,y".utf8),
            Array("1790845200000,autocomplete,a".utf8) + [0xC3, 0x28, 0x2C],
            Array("1790845200000,autocomplete,a".utf8) + [0x00, 0x2C],
            Array(",autocomplete,a,x".utf8),
            Array("yesterday,autocomplete,a,x".utf8),
            Array("1790845200000,,a,x".utf8),
            Array("".utf8),
        ]
        for row in rows {
            let record = row.withUnsafeBufferPointer { line in columns.withUnsafeBufferPointer { FastCSVRowDecoder.decode(line, columns: $0) } }
            #expect(record == nil, "\(String(decoding: row, as: UTF8.self).debugDescription)")
        }
        // Bad bytes and quotes in an unknown column are the slow path's business too: it ignores them.
        for row in [Array("1790845200000,autocomplete,a,".utf8) + [0xFF, 0x00], Array("1790845200000,autocomplete,a,x\"y".utf8)] {
            let record = row.withUnsafeBufferPointer { line in columns.withUnsafeBufferPointer { FastCSVRowDecoder.decode(line, columns: $0) } }
            #expect(record != nil)
            #expect(row.withUnsafeBufferPointer { CSVRowTwins.disagreement($0, columns: columns) } == nil)
        }
    }

    @Test("A fields cell is not a JSON array: the same bytes after a JSON record in the same caches are another mask")
    func cellMasksApartFromArrays() throws {
        let catalogs = CallCatalogs()
        var builder = CallBlockBuilder(
            block: CallBlock(index: 0, fileIndex: 0, fileName: "x", partitions: [PartitionCalls()]),
            catalogs: catalogs, window: TimeWindow(), keepUsers: false
        )
        var caches = CallBlockBuilder.Caches()
        var json = Array(#"{"timestamp":1790845200000,"api":"geocoding","fields":["a"]}"#.utf8)
        try json.withUnsafeBufferPointer { line in
            builder.add(try #require(FastJSONLineDecoder.decode(line)), line: line, caches: &caches)
        }
        // The same bytes as the array's text: quotes inside a plain cell are text.
        var csv = Array(#"1790845200000,geocoding,["a"]"#.utf8)
        let columns: [RawRecord.Key?] = [.timestamp, .api, .fields]
        try csv.withUnsafeBufferPointer { line in
            let record = try #require(columns.withUnsafeBufferPointer { FastCSVRowDecoder.decode(line, columns: $0) })
            builder.add(record, line: line, caches: &caches, fieldsAsDelimitedCell: true)
        }
        let masks = builder.finish(lineCount: 0).partitions[0].calls.map { catalogs.fieldMasks.value($0.fields) }
        #expect(masks.count == 2)
        #expect(masks.first == ["a"])
        #expect(masks.last == [#"["a"]"#])
        json.removeAll()
        csv.removeAll()
    }

    @Test("An API version is legacy or new in any case, exactly as APIGeneration reads the lowercased text")
    func apiVersionWords() {
        var spellings: [[UInt8]] = []
        for word in ["legacy", "new"] {
            let bytes = Array(word.utf8)
            for mask in 0..<(1 << bytes.count) {
                spellings.append(bytes.indices.map { mask >> $0 & 1 == 1 ? bytes[$0] & ~0x20 : bytes[$0] })
            }
            for index in bytes.indices {
                for replacement: UInt8 in [0x00, 0x20, 0x40, 0x60, 0x7F, 0x80, 0xCC, bytes[index] ^ 0x01, bytes[index] ^ 0x40] {
                    var changed = bytes
                    changed[index] = replacement
                    spellings.append(changed)
                }
            }
            spellings += [bytes + [0x20], Array(bytes.dropLast()), [0x20] + bytes]
        }
        spellings += [[], Array("le".utf8), Array("NEWS".utf8), Array("legacyy".utf8)]
        for spelling in spellings {
            let expected = String(validating: spelling, as: UTF8.self).flatMap { APIGeneration(rawValue: $0.lowercased()) }
            let actual = spelling.withUnsafeBytes { CallBlockBuilder.generation($0) }
            #expect(actual == expected, "\(spelling)")
        }
        #expect(spellings.count > 150)
    }
}
