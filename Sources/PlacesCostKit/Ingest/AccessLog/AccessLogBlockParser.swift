/// Parses a block of access-log lines into a `CallBlock`, on a worker thread, as
/// `JSONLinesBlockParser` does for JSON Lines.
///
/// Each line gets what `LogReader` gives it (its slow twin, which reads the file on one thread):
/// blank lines are skipped, a line the format does not match is rejected, a request that is not
/// a Places call is counted as skipped, and a Places call is filed with its request's
/// `Fingerprint`. `FastAccessLogLineDecoder` reads the common line without allocating; a line
/// it is not sure of goes to `AccessLogParser` + `PlacesRequestDecoder`, which decide and word
/// any diagnostic.
struct AccessLogBlockParser {
    /// - Returns: the number of lines in the block.
    static func parse(
        _ raw: RawBlock, parser: AccessLogParser, maxLineLength: Int, into builder: inout CallBlockBuilder,
        caches: inout CallBlockBuilder.Caches
    ) -> Int {
        let fast = FastAccessLogLineDecoder(format: parser.format, userHeader: parser.userHeader, leaving: builder.routes.prefixes)
        return raw.forEachLine(maxLineLength: maxLineLength) { event in
            switch event {
            case .overlong(let lineNumber):
                builder.reject(LineReader.overlongReason, line: lineNumber)
            case .text(let line, let lineNumber):
                if LineReader.isBlank(line) { return }
                if let record = fast.decode(line) {
                    builder.add(record, line: line, caches: &caches)
                    return
                }
                switch parser.parse(line) {
                case .request(let request): builder.add(request, line: lineNumber, caches: &caches)
                case .malformed(let reason): builder.reject(reason, line: lineNumber)
                }
            }
        }
    }
}
