/// Reads canonical CSV request logs (RFC 4180) record by record, line by line.
///
/// Fed one physical line at a time, so it shares `LineReader` with the JSON Lines path. A quoted
/// cell may span lines; one that is still open at the end of the input (or after
/// `maxPendingBytes`) is an unbalanced quote: that record is reported at the line where it began,
/// and the lines it swallowed are read again as records of their own, so one stray quote never
/// loses the rest of the file.
///
/// While a record is open, each line is appended to its text and only that line is looked at
/// (`staysOpen`): the record is split once it closes. Keep the work per line proportional to
/// that line: splitting the whole open text again for every line is quadratic in the record, and
/// one stray quote keeps a record open for up to `maxPendingBytes`.
package struct CSVRecordParser {
    package enum Event {
        /// The header row: the column for each known key.
        case header
        /// A record, the line it starts on, and the `Fingerprint` of its bytes (its lines joined
        /// by `\n`, without line ends): two rows written alike are exact duplicates.
        case record(RawRecord, line: Int, fingerprint: UInt64)
        case malformed(reason: String, line: Int)
    }

    /// Why a file cannot be read as a canonical CSV log at all.
    package struct HeaderFailure: Error, Equatable {
        package var reason: String
        package var line: Int
    }

    private var columns: [RawRecord.Key?]?
    private var pendingLines: [(bytes: [UInt8], number: Int)] = []
    /// The open record's lines joined by `\n`.
    private var pendingText: [UInt8] = []
    private var pendingBytes = 0
    private let maxPendingBytes: Int

    /// The bytes a record may hold open before its quote counts as unbalanced.
    package static let defaultMaxPendingBytes = 1 << 20

    package init(maxPendingBytes: Int = CSVRecordParser.defaultMaxPendingBytes) {
        self.maxPendingBytes = maxPendingBytes
    }

    /// A parser for the rows after a header already read (a block of a file, `CSVBlockParser`).
    package init(columns: [RawRecord.Key?], maxPendingBytes: Int = CSVRecordParser.defaultMaxPendingBytes) {
        self.columns = columns
        self.maxPendingBytes = maxPendingBytes
    }

    /// The known key of each column, once the header row has been read.
    var headerColumns: [RawRecord.Key?]? { columns }

    /// Whether a record that opened a quoted cell waits for more lines.
    var isPending: Bool { !pendingLines.isEmpty }

    /// Feeds one physical line (without its terminator).
    package mutating func feed(_ line: UnsafeBufferPointer<UInt8>, number: Int, _ emit: (Event) throws -> Void) throws {
        if pendingLines.isEmpty {
            if LineReader.isBlank(line) { return }  // blank lines are skipped silently
            switch CSVRecordParser.splitCells(line) {
            case .cells(let cells): try accept(cells, line: number, fingerprint: Fingerprint.of(line), emit)
            case .malformed(let reason): try emit(.malformed(reason: reason, line: number))
            case .openQuote:
                pendingLines = [(Array(line), number)]
                pendingText = Array(line)
                pendingBytes = line.count
            }
            return
        }
        pendingLines.append((Array(line), number))
        pendingBytes += line.count + 1
        pendingText.append(0x0A)
        pendingText.append(contentsOf: line)
        if CSVRecordParser.staysOpen(line) {
            // `splitCells` of the text would say `.openQuote`.
            if pendingBytes > maxPendingBytes { try recoverFromUnbalancedQuote(emit) }
            return
        }
        let joined = pendingText
        let result = joined.withUnsafeBufferPointer { CSVRecordParser.splitCells($0) }
        switch result {
        case .cells(let cells) where columns == nil || cells.count == columns!.count:
            let first = pendingLines[0].number
            pendingLines = []
            pendingText = []
            pendingBytes = 0
            try accept(cells, line: first, fingerprint: joined.withUnsafeBytes { Fingerprint.of($0) }, emit)
        case .cells(let cells):
            // A quote that only a later line's quote closed, leaving a record that does not fit:
            // the stray quote is the error, so the lines it swallowed are records of their own.
            try recover(reason: "expected \(columns!.count) cells as in the header, found \(cells.count) (a quoted cell opened on this line spans the next lines)", emit)
        case .malformed(let reason):
            try recover(reason: reason, emit)
        case .openQuote:
            if pendingBytes > maxPendingBytes { try recoverFromUnbalancedQuote(emit) }
        }
    }

    /// Ends the input: a record still open is an unbalanced quote.
    package mutating func finish(_ emit: (Event) throws -> Void) throws {
        while !pendingLines.isEmpty {
            try recoverFromUnbalancedQuote(emit)
        }
    }

    /// Whether the header row has been read.
    package var hasHeader: Bool { columns != nil }

    private mutating func recoverFromUnbalancedQuote(_ emit: (Event) throws -> Void) throws {
        try recover(reason: "unbalanced quote: a quoted cell opened on this line never closes", emit)
    }

    /// Reports the pending record's first line as malformed and reads the lines after it again.
    private mutating func recover(reason: String, _ emit: (Event) throws -> Void) throws {
        let swallowed = pendingLines.dropFirst()
        try emit(.malformed(reason: reason, line: pendingLines[0].number))
        pendingLines = []
        pendingText = []
        pendingBytes = 0
        for line in swallowed {
            try line.bytes.withUnsafeBufferPointer { try feed($0, number: line.number, emit) }
        }
    }

    /// What a header row holds, quoting only cells that spell a known column in any case: a
    /// file without a header has a record in its first row, whose cells may be a token, typed
    /// text or a user id.
    /// Other names logs give the required columns: a header cell with one of them is named in the
    /// message (the list is fixed, so no cell's own text is ever quoted).
    static let likelyNames: [RawRecord.Key: [String]] = [
        .timestamp: ["ts", "time", "date", "datetime", "date_time", "created_at", "created", "event_time", "time_stamp", "@timestamp"],
        .api: ["endpoint", "method", "service", "call", "api_name", "operation"],
    ]

    /// The header's cells that are column names this reader knows (its keys and their likely
    /// other names), then a count of the rest: a cell that is no known name may be data (a
    /// headerless file's first record), so it is never shown.
    static func describeHeader(_ names: [String]) -> String {
        let aliases = Set(likelyNames.values.joined())
        let known = names.filter { RawRecord.Key(name: $0) != nil || RawRecord.Key(name: $0.lowercased()) != nil || aliases.contains($0.lowercased()) }
        let others = names.count - known.count
        let othersText = others == 0 ? nil : "\(others) other \(others == 1 ? "cell" : "cells"), not shown as \(others == 1 ? "it" : "they") may be data"
        let parts = known + [othersText].compactMap { $0 }
        let listed = parts.count <= 1 ? parts.joined() : parts.dropLast().joined(separator: ", ") + " and " + parts.last!
        return "found: \(listed)"
    }

    private mutating func accept(_ cells: [[UInt8]], line: Int, fingerprint: UInt64, _ emit: (Event) throws -> Void) throws {
        guard let columns else {
            let names = cells.map { String(decoding: $0, as: UTF8.self).trimmingSpaces() }
            let keys = names.map { RawRecord.Key(name: $0) }
            for required in [RawRecord.Key.timestamp, .api] where !keys.contains(required) {
                let lowered = names.map { $0.lowercased() }
                let likely = (CSVRecordParser.likelyNames[required] ?? []).first { lowered.contains($0) }
                let suggestion = likely.map { "; the `\($0)` column may be it: rename it `\(required.name)`" } ?? ""
                throw HeaderFailure(reason: "the CSV header has no `\(required.name)` column (\(Self.describeHeader(names))\(suggestion))", line: line)
            }
            self.columns = keys
            try emit(.header)
            return
        }
        guard cells.count == columns.count else {
            try emit(.malformed(reason: "expected \(columns.count) cells as in the header, found \(cells.count)", line: line))
            return
        }
        var record = RawRecord()
        for (key, cell) in zip(columns, cells) {
            guard let key, !cell.isEmpty else { continue }  // an empty cell is an absent value
            guard let text = UTF8Validation.string(cell) else {
                try emit(.malformed(reason: "invalid UTF-8 in the `\(key.name)` cell", line: line))
                return
            }
            guard !text.utf8.contains(0) else {
                try emit(.malformed(reason: "a NUL byte in the `\(key.name)` cell", line: line))
                return
            }
            record[key] = .string(text)
        }
        try emit(.record(record, line: line, fingerprint: fingerprint))
    }

    enum Split: Equatable {
        case cells([[UInt8]])
        case openQuote
        case malformed(String)
    }

    /// Whether a record's text that ends inside a quoted cell still does with `line` after it,
    /// with nothing malformed on the way: then `splitCells` of the whole text would say
    /// `.openQuote`. Follows `splitCells`'s rules over the line alone.
    static func staysOpen(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ",")
        var quoted = true
        var index = 0
        while index < line.count {
            if quoted {
                guard let closing = line[index...].firstIndex(of: quote) else { return true }
                if closing + 1 < line.count, line[closing + 1] == quote {
                    index = closing + 2  // an escaped quote
                    continue
                }
                // The cell closes: a comma must follow, then a new cell.
                guard closing + 1 < line.count, line[closing + 1] == comma else { return false }
                quoted = false
                index = closing + 2
            } else if line[index] == quote {
                quoted = true
                index += 1
            } else {
                guard let next = line[index...].firstIndex(of: comma) else { return false }
                index = next + 1
            }
        }
        return quoted
    }

    /// Splits one record's bytes into cells, undoing RFC 4180 quoting.
    static func splitCells(_ bytes: UnsafeBufferPointer<UInt8>) -> Split {
        var cells: [[UInt8]] = []
        var cell: [UInt8] = []
        var index = 0
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ",")
        while true {
            cell.removeAll(keepingCapacity: true)
            if index < bytes.count, bytes[index] == quote {
                index += 1
                while true {
                    guard index < bytes.count else { return .openQuote }
                    if bytes[index] == quote {
                        if index + 1 < bytes.count, bytes[index + 1] == quote {
                            cell.append(quote)
                            index += 2
                            continue
                        }
                        index += 1
                        break
                    }
                    cell.append(bytes[index])
                    index += 1
                }
                if index < bytes.count, bytes[index] != comma {
                    return .malformed("unexpected text after a closing quote in cell \(cells.count + 1)")
                }
            } else {
                while index < bytes.count, bytes[index] != comma {
                    cell.append(bytes[index])
                    index += 1
                }
            }
            cells.append(cell)
            if index >= bytes.count { return .cells(cells) }
            index += 1  // comma
        }
    }
}

extension String {
    package func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
