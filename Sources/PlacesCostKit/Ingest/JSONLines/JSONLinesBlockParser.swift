/// Parses a block of JSON Lines into a `CallBlock`.
///
/// Each line goes to `FastJSONLineDecoder` first, which reads the common record without
/// allocating: by the layouts of recent lines, finding the line's end as it goes, else by its
/// general walk, which learns the line's layout. A line it is not sure of (escapes, unusual
/// types, errors) goes to the slow, strict `JSONLineParser` + `CallDecoder`, which decides and
/// words any diagnostic. The fast path is tested to agree with the slow one wherever it answers.
struct JSONLinesBlockParser {
    static let overlongReason = LineReader.overlongReason

    /// - Parameter maxLineLength: a line this long or longer is rejected unread, as the line
    ///   reader of the other formats does.
    ///   - userHeader: the header of a web server's JSON access record that carries the user.
    static func parse(_ raw: RawBlock, maxLineLength: Int, userHeader: String, into builder: inout CallBlockBuilder, caches: inout CallBlockBuilder.Caches) -> Int {
        let decoder = CallDecoder(fieldsAsDelimitedCell: false)
        let layouts = caches.jsonLayouts
        var leadingRecord = FastJSONRecord.blank
        // Once a line is a web server's record, the next ones most likely are too: each is then
        // read as one (fast, else parsed once as a whole) before any reader of call records is
        // tried on it.
        var webServerLines = false
        let webServer = FastJSONAccessRecordDecoder(userHeader: userHeader, leaving: builder.routes.prefixes)
        return raw.forEachLine(maxLineLength: maxLineLength, leading: { rest in
            FastJSONLineDecoder.decodeLeadingLine(rest, layouts: layouts, into: &leadingRecord)
        }) { event, readByLayout in
            guard case .text(let line, let lineNumber) = event else {
                if case .overlong(let lineNumber) = event { builder.reject(overlongReason, line: lineNumber) }
                return
            }
            if readByLayout {
                builder.add(leadingRecord, line: line, caches: &caches)
                return
            }
            /// A web server's record: the request it logs, or why it is none.
            func file(_ access: JSONAccessRecord.Result) {
                switch access {
                case .request(let request): builder.add(request, line: lineNumber, caches: &caches)
                case .malformed(let reason): builder.reject(reason, line: lineNumber)
                }
            }
            if webServerLines, let access = webServer.decode(line) {
                builder.add(access.record, line: line, fingerprint: access.fingerprint, caches: &caches)
                return
            }
            if webServerLines, case .success(let object) = JSONLineParser.parseTree(line), JSONAccessRecord.isWebServerRecord(object) {
                file(JSONAccessRecord.request(object, userHeader: userHeader))
                return
            }
            if let record = FastJSONLineDecoder.decodeLearning(line, layouts: layouts) {
                builder.add(record, line: line, caches: &caches)
                return
            }
            if LineReader.isBlank(line) { return }
            switch JSONLineParser.parse(line) {
            case .success(let record) where record.isWebServerRecord:
                webServerLines = true
                file(JSONAccessRecord.parse(line, userHeader: userHeader))
            case .success(let record):
                switch decoder.decode(record) {
                case .success(let call): builder.add(call, fingerprint: Fingerprint.of(line), typedText: record.carriesTypedText, caches: &caches)
                case .failure(let failure): builder.reject(failure.reason, line: lineNumber)
                }
            case .failure(let failure):
                builder.reject(failure.reason, line: lineNumber)
            }
        }
    }
}
