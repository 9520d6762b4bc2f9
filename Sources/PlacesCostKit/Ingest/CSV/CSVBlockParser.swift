/// Parses a block of CSV rows into a `CallBlock`, on a worker thread, as `JSONLinesBlockParser`
/// does for JSON Lines.
///
/// Blocks start at safe cuts (`CSVBoundaryFinder`), so a `CSVRecordParser` started afresh with
/// the header's columns reads each block as the line reader reads the whole file. A row that is
/// one line, with no `""` escape, valid UTF-8 and values it is sure of goes to
/// `FastCSVRowDecoder` and is filed from its bytes; any other line goes to that parser (which
/// then also takes every line while a quoted cell stays open), and from it to `CallDecoder`,
/// which decide and word any diagnostic.
struct CSVBlockParser {
    /// What the blocks of one file share, and where a block's lines are counted from.
    struct Layout: Sendable {
        /// The known key of each of the header's columns.
        var columns: [RawRecord.Key?]
        /// Lines before the block's first that no block holds: the header and any blank lines
        /// before it, for a file's first block; 0 for the others.
        var linesBefore: Int
    }

    /// - Returns: the lines before the block's end that no later block counts (its own and
    ///   `linesBefore`).
    static func parse(
        _ raw: RawBlock, layout: Layout, maxLineLength: Int, into builder: inout CallBlockBuilder,
        caches: inout CallBlockBuilder.Caches
    ) -> Int {
        var parser = CSVRecordParser(columns: layout.columns)
        let decoder = CallDecoder(fieldsAsDelimitedCell: true)
        let offset = layout.linesBefore
        // With a key in two columns the parser keeps the last non-empty cell: not the fast path's case.
        let known = layout.columns.compactMap { $0 }
        let fast = Set(known).count == known.count
        func file(_ event: CSVRecordParser.Event) {
            switch event {
            case .header:
                break  // the columns are given: never emitted
            case .record(let record, let line, let fingerprint):
                switch decoder.decode(record) {
                case .success(let call): builder.add(call, fingerprint: fingerprint, typedText: record.carriesTypedText, caches: &caches)
                case .failure(let failure): builder.reject(failure.reason, line: line)
                }
            case .malformed(let reason, let line):
                builder.reject(reason, line: line)
            }
        }
        // With the columns given the parser throws only what `file` throws, which is nothing.
        func slowly(_ step: (inout CSVRecordParser) throws -> Void, line: Int) {
            do {
                try step(&parser)
            } catch {
                builder.reject((error as? CSVRecordParser.HeaderFailure)?.reason ?? "\(error)", line: line)
            }
        }
        let lines = layout.columns.withUnsafeBufferPointer { columns in
            raw.forEachLine(maxLineLength: maxLineLength) { event in
                switch event {
                case .overlong(let number):
                    builder.reject(LineReader.overlongReason, line: number + offset)
                case .text(let line, let number):
                    if fast, !parser.isPending, let record = FastCSVRowDecoder.decode(line, columns: columns) {
                        builder.add(record, line: line, caches: &caches, fieldsAsDelimitedCell: true)
                        return
                    }
                    slowly({ try $0.feed(line, number: number + offset, file) }, line: number + offset)
                }
            }
        }
        // Only a file's last block can end inside a quoted cell: its end is the input's.
        slowly({ try $0.finish(file) }, line: lines + offset)
        return lines + offset
    }
}
