import Foundation
import Testing
@testable import PlacesCostKit
@testable import PlacesCostReference

/// RFC 4180 CSV request logs: quoting, headers, and recovery from malformed records.
@Suite("CSVRecordParser")
struct CSVRecordParserTests {
    /// What the parser reported, comparable in tests.
    enum Seen: Equatable, CustomStringConvertible {
        case header
        case record(RawRecord, line: Int)
        case malformed(String, line: Int)

        var description: String {
            switch self {
            case .header: "header"
            case .record(let record, let line): "record at \(line): \(record)"
            case .malformed(let reason, let line): "malformed at \(line): \(reason)"
            }
        }

        var line: Int? {
            switch self {
            case .header: nil
            case .record(_, let line), .malformed(_, let line): line
            }
        }
    }

    /// Feeds `text` line by line as `LineReader` would (LF or CRLF ends, numbered from 1).
    private func parse(_ text: String, maxPendingBytes: Int = 1 << 20) throws -> [Seen] {
        // Split bytes, not Characters: "\r\n" is one Character.
        var lines = Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        if text.hasSuffix("\n") { lines.removeLast() }
        return try parse(lines: lines, maxPendingBytes: maxPendingBytes)
    }

    private func parse(lines: [[UInt8]], maxPendingBytes: Int = 1 << 20) throws -> [Seen] {
        var parser = CSVRecordParser(maxPendingBytes: maxPendingBytes)
        var seen: [Seen] = []
        func collect(_ event: CSVRecordParser.Event) {
            switch event {
            case .header: seen.append(.header)
            case .record(let record, let line, _): seen.append(.record(record, line: line))
            case .malformed(let reason, let line): seen.append(.malformed(reason, line: line))
            }
        }
        for (index, var line) in lines.enumerated() {
            if line.last == 0x0D { line.removeLast() }
            try line.withUnsafeBufferPointer { try parser.feed($0, number: index + 1, collect) }
        }
        try parser.finish(collect)
        return seen
    }

    private func record(_ values: [RawRecord.Key: String]) -> RawRecord {
        var record = RawRecord()
        for (key, value) in values { record[key] = .string(value) }
        return record
    }

    private static let unbalanced = "unbalanced quote: a quoted cell opened on this line never closes"

    @Test("Doubled quotes, commas and newlines inside quotes, and a trailing empty cell")
    func quoting() throws {
        let seen = try parse("""
            timestamp,api,input,session_token
            1790845200000,autocomplete,"say ""hi"", ok",tok
            1790845201000,autocomplete,"line one
            line two, ""still"" one cell",tok
            1790845202000,autocomplete,x,
            1790845203000,autocomplete,"",""

            """)
        #expect(seen == [
            .header,
            .record(record([.timestamp: "1790845200000", .api: "autocomplete", .input: "say \"hi\", ok", .sessionToken: "tok"]), line: 2),
            .record(record([.timestamp: "1790845201000", .api: "autocomplete", .input: "line one\nline two, \"still\" one cell", .sessionToken: "tok"]), line: 3),
            .record(record([.timestamp: "1790845202000", .api: "autocomplete", .input: "x"]), line: 5),
            .record(record([.timestamp: "1790845203000", .api: "autocomplete"]), line: 6),
        ])
    }

    @Test("Header aliases, padded names and unknown columns")
    func headerAliases() throws {
        let seen = try parse("""
            sessionToken, placeId ,extra,timestamp,api,userId,apiVersion
            t1,ChIJ,ignored,2026-10-01T09:00:00Z,place_details,u7,new
            """)
        #expect(seen == [
            .header,
            .record(record([.sessionToken: "t1", .placeID: "ChIJ", .timestamp: "2026-10-01T09:00:00Z", .api: "place_details",
                            .userID: "u7", .apiVersion: "new"]), line: 2),
        ])
    }

    @Test("A header without a timestamp column stops the file")
    func missingTimestampColumn() {
        #expect(throws: CSVRecordParser.HeaderFailure(reason: "the CSV header has no `timestamp` column (found: api and session_token)", line: 2)) {
            try parse("\napi,session_token\nautocomplete,t\n")
        }
        #expect(throws: CSVRecordParser.HeaderFailure(reason: "the CSV header has no `api` column (found: timestamp and API)", line: 1)) {
            try parse("timestamp,API\n1,autocomplete\n")
        }
    }

    @Test("Through LogReader, a header without a timestamp column skips the file with one diagnostic")
    func missingTimestampColumnSkipsFile() throws {
        let directory = TemporaryDirectory()
        let bad = directory.write("a-bad.csv", "api,session_token\nautocomplete,t\n")
        let good = directory.write("b-good.csv", "timestamp,api\n1790845200000,autocomplete\n")
        let output = try LogReader(options: LogReader.Options(format: .csv)).read([bad, good])
        #expect(output.calls.count == 1)
        #expect(output.rejected == 0)
        #expect(output.diagnosticCount == 1)
        #expect(output.diagnostics.map(\.description) == [
            "\(bad):1: warning: the CSV header has no `timestamp` column (found: api and session_token); the file is skipped",
        ])
        // Without --format a header naming some known column is still taken for a CSV, so the
        // missing column is named rather than the format left unknown.
        let alone = try LogReader().read([bad])
        #expect(alone.calls.isEmpty)
        #expect(alone.diagnostics.map(\.description) == [
            "\(bad):1: warning: the CSV header has no `timestamp` column (found: api and session_token); the file is skipped",
        ])
    }

    @Test("A record with the wrong number of cells is malformed; its neighbours are kept")
    func wrongCellCount() throws {
        let seen = try parse("timestamp,api,input\n1,autocomplete\n2,autocomplete,a,b\n3,autocomplete,c\n")
        #expect(seen == [
            .header,
            .malformed("expected 3 cells as in the header, found 2", line: 2),
            .malformed("expected 3 cells as in the header, found 4", line: 3),
            .record(record([.timestamp: "3", .api: "autocomplete", .input: "c"]), line: 4),
        ])
    }

    @Test("An unbalanced quote: that record is malformed at its first line, the lines after are read again")
    func unbalancedQuote() throws {
        let text = """
            timestamp,api,input
            1,autocomplete,ok
            2,autocomplete,"never closed
            3,autocomplete,x

            4,autocomplete,y
            """
        let expected: [Seen] = [
            .header,
            .record(record([.timestamp: "1", .api: "autocomplete", .input: "ok"]), line: 2),
            .malformed(CSVRecordParserTests.unbalanced, line: 3),
            .record(record([.timestamp: "3", .api: "autocomplete", .input: "x"]), line: 4),
            .record(record([.timestamp: "4", .api: "autocomplete", .input: "y"]), line: 6),
        ]
        #expect(try parse(text) == expected)
        // With a small pending limit the record gives up early, with the same outcome.
        #expect(try parse(text, maxPendingBytes: 40) == expected)
    }

    @Test("A quote left open on the last line is malformed at that line")
    func unbalancedQuoteOnLastLine() throws {
        let seen = try parse("timestamp,api,input\n1,autocomplete,a\n2,autocomplete,\"b\n")
        #expect(seen == [
            .header,
            .record(record([.timestamp: "1", .api: "autocomplete", .input: "a"]), line: 2),
            .malformed(CSVRecordParserTests.unbalanced, line: 3),
        ])
    }

    @Test("A stray quote closed by a later line's quoted cell loses no record silently")
    func strayQuoteClosedLater() throws {
        let seen = try parse("""
            timestamp,api,input
            1,autocomplete,"stray
            2,autocomplete,x
            3,autocomplete,"quoted"
            4,autocomplete,z
            """)
        // The stray quote's record is malformed; lines 3 and 4 are sound records.
        #expect(seen.first(where: { $0 != .header }) == .malformed("unexpected text after a closing quote in cell 3", line: 2))
        #expect(seen.last == .record(record([.timestamp: "4", .api: "autocomplete", .input: "z"]), line: 5))
        #expect(seen.map(\.line) == [nil, 2, 3, 4, 5])
        #expect(Array(seen[2...3]) == [
            .record(record([.timestamp: "2", .api: "autocomplete", .input: "x"]), line: 3),
            .record(record([.timestamp: "3", .api: "autocomplete", .input: "quoted"]), line: 4),
        ])
    }

    @Test("A stray quote whose joined record has the wrong cell count: malformed at its first line, the next line read again")
    func strayQuoteWrongCellCount() throws {
        let seen = try parse("timestamp,api,input\n1,autocomplete,\"stray\n2,autocomplete\",x\n")
        #expect(seen == [
            .header,
            .malformed("expected 3 cells as in the header, found 4 (a quoted cell opened on this line spans the next lines)", line: 2),
            .record(record([.timestamp: "2", .api: "autocomplete\"", .input: "x"]), line: 3),
        ])
    }

    @Test("Text after a closing quote is malformed")
    func textAfterClosingQuote() throws {
        let seen = try parse("timestamp,api,input\n1,autocomplete,\"a\"b\n")
        #expect(seen == [.header, .malformed("unexpected text after a closing quote in cell 3", line: 2)])
    }

    @Test("Invalid UTF-8 or a NUL byte in a known cell is malformed")
    func badBytes() throws {
        let header = Array("timestamp,api,input".utf8)
        let seen = try parse(lines: [
            header,
            Array("1,autocomplete,a".utf8) + [0xC3, 0x28],
            Array("2,autocomplete,a".utf8) + [0x00],
            Array("3,autocomplete,é".utf8),
        ])
        #expect(seen == [
            .header,
            .malformed("invalid UTF-8 in the `input` cell", line: 2),
            .malformed("a NUL byte in the `input` cell", line: 3),
            .record(record([.timestamp: "3", .api: "autocomplete", .input: "é"]), line: 4),
        ])
    }

    @Test("Fields as one cell: a|b, or a,b inside quotes")
    func fieldsCell() throws {
        let seen = try parse("""
            timestamp,api,fields
            1790845200000,place_details,formattedAddress|coordinate
            1790845200000,place_details,"formattedAddress, coordinate"
            1790845200000,place_details,"a|b,c"
            1790845200000,place_details,
            1790845200000,place_details,|
            """)
        let decoder = CallDecoder(fieldsAsDelimitedCell: true)
        let fields = seen.compactMap { event -> [String]?? in
            guard case .record(let record, _) = event else { return nil }
            return try? decoder.decode(record).get().fields
        }
        #expect(fields == [["formattedAddress", "coordinate"], ["formattedAddress", "coordinate"], ["a", "b,c"], nil, nil])
    }

    @Test("CRLF line ends and blank lines")
    func crlfAndBlankLines() throws {
        let seen = try parse("timestamp,api\r\n\r\n1,autocomplete\r\n   \r\n2,\"auto\r\ncomplete\"\r\n")
        #expect(seen == [
            .header,
            .record(record([.timestamp: "1", .api: "autocomplete"]), line: 3),
            .record(record([.timestamp: "2", .api: "auto\ncomplete"]), line: 5),
        ])
    }
}

@Suite("CSVRecordParser's open records")
struct CSVOpenRecordTests {
    @Test("A line after an open record keeps it open exactly when splitting the joined text says so")
    func staysOpenAgreesWithSplitting() {
        var random = SeededRandom(seed: 31)
        let alphabet: [UInt8] = Array("a,\" ".utf8)
        func text(_ length: Int) -> [UInt8] { (0..<length).map { _ in alphabet[random.below(alphabet.count)] } }
        var open = 0
        var checked = 0
        while checked < 20_000 {
            let record = text(random.below(8))
            guard record.withUnsafeBufferPointer({ CSVRecordParser.splitCells($0) }) == .openQuote else { continue }
            let line = text(random.below(10))
            let joined = record + [0x0A] + line
            let expected = joined.withUnsafeBufferPointer { CSVRecordParser.splitCells($0) } == .openQuote
            #expect(line.withUnsafeBufferPointer { CSVRecordParser.staysOpen($0) } == expected, "\(String(decoding: joined, as: UTF8.self).debugDescription)")
            if expected { open += 1 }
            checked += 1
        }
        #expect(open > 2000 && open < 18_000)
    }
}
