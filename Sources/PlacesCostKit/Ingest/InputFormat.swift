/// The log formats `analyze` reads.
package enum InputFormat: String, Sendable, CaseIterable {
    case jsonl
    case csv
    /// A web server's access log (nginx/Apache combined or common, or `--log-format`).
    case accessLog = "access-log"
    /// An HTTP Archive 1.2 capture (browser dev tools, Charles, Proxyman).
    case har

    /// Tells the format from the first bytes of a file (`docs/formats.md`: by content, not by name).
    ///
    /// A JSON object whose `log` holds a HAR log is a HAR capture; any other record that starts
    /// with `{` is JSON Lines; a first line that names the `timestamp` and
    /// `api` columns is a CSV header; a first line in nginx/Apache combined or common format, or an
    /// AWS load balancer's, is an access log.
    package static func sniff(_ head: [UInt8]) -> InputFormat? {
        // A file this tool wrote (`--out` into the logs' folder) is not a log, whatever it starts with.
        if ownOutput(head) != nil { return nil }
        var index = 0
        while index < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[index]) { index += 1 }
        guard index < head.count else { return nil }
        if head[index] == UInt8(ascii: "{") { return HARReader.sniff(head) ? .har : .jsonl }
        let lineEnd = head[index...].firstIndex(of: 0x0A) ?? head.count
        let firstLine = String(decoding: head[index..<lineEnd], as: UTF8.self).lowercased()
        let cells = firstLine.split(separator: ",").map { $0.trimmingCharacters(in: " \t\r\"") }
        if cells.contains("timestamp"), cells.contains("api") { return .csv }
        if AccessLogParser.sniff(head) { return .accessLog }
        // A header of names that spells some column of the log, or another name logs give a
        // required one, but not both required columns: a CSV, whose reader then says which
        // column is missing.
        if cells.count >= 2, cells.allSatisfy(isColumnName),
           cells.contains(where: { cell in RawRecord.Key(name: cell) != nil || CSVRecordParser.likelyNames.values.contains { $0.contains(cell) } }) {
            return .csv
        }
        return nil
    }

    /// The format of a log cut at its start, as a file split or tailed from a longer log is,
    /// its first line begun mid-record: told from its next line, when that is JSON Lines or an
    /// access log (a CSV needs its header first), with the bytes from that line for telling the
    /// access log's layout; `nil` when the next line tells nothing either. The first line is
    /// then read as any other, and rejected at line 1 with its reason.
    package static func sniffPastCutFirstLine(_ head: [UInt8]) -> (format: InputFormat, rest: [UInt8])? {
        var start = 0
        while start < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[start]) { start += 1 }
        guard let newline = head[start...].firstIndex(of: 0x0A) else { return nil }
        let rest = Array(head[(newline + 1)...])
        switch sniff(rest) {
        case .jsonl?: return (.jsonl, rest)
        case .accessLog?: return (.accessLog, rest)
        default: return nil
        }
    }

    /// Which of this tool's own files `head` begins: a JSON document whose `schema` is one of
    /// `placescost.*` (`report.json`, `comparison.json`...), spaced as `analyze` writes it or
    /// as `jq -c` does, or `costs.csv` or `searches.csv` by their header row; `nil` for anything
    /// else.
    static func ownOutput(_ head: [UInt8]) -> String? {
        let start = String(decoding: head.prefix(256), as: UTF8.self)
        let trimmed = start.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if trimmed.hasPrefix("{"), let key = trimmed.range(of: #""schema""#) {
            let colon = trimmed[key.upperBound...].drop(while: \.isWhitespace)
            let value = colon.dropFirst().drop(while: \.isWhitespace)
            let prefix = #""placescost."#
            guard colon.first == ":", value.hasPrefix(prefix) else { return nil }
            let name = value.dropFirst(prefix.count).prefix { $0.isLetter }
            return name.isEmpty ? nil : "\(name).json"
        }
        let firstLine = trimmed.prefix { $0 != "\n" && $0 != "\r" }
        if firstLine == CostsCSVRenderer.header.joined(separator: ",") { return "costs.csv" }
        if firstLine == SearchesCSVWriter.header.joined(separator: ",") { return "searches.csv" }
        return nil
    }

    /// A header cell: a name of letters, digits and `_ - . @` (no value a record would hold).
    static func isColumnName(_ cell: String) -> Bool {
        !cell.isEmpty && cell.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || "_-.@ ".unicodeScalars.contains($0) }
    }

    /// What the first line of a file no format takes looks like, and what to pass; `nil` when
    /// it looks like nothing this tool knows. Never quotes the line.
    package static func hint(_ head: [UInt8]) -> String? {
        if let output = ownOutput(head) {
            return "it is a \(output) that placescost writes (analyze --out), not a log. Keep reports in a folder of their own, away from the logs."
        }
        let lineEnd = head.firstIndex(of: 0x0A) ?? head.count
        let firstLine = String(decoding: head[..<lineEnd], as: UTF8.self)
        let lowered = firstLine.lowercased()
        // The console's and the reports page's exports open with an invoice preamble or their
        // header; the BigQuery export names `sku.description`.
        if lowered.drop(while: { " \t\r\u{FEFF}".contains($0) }).hasPrefix("[") {
            return "it is a JSON array whose first element is not an object, and a log's records are JSON objects, one a line (JSON Lines) or the elements of one array."
        }
        let exportWords = ["sku description", "sku_description", "sku.description", "sku id"]
        let preamble = ["invoice", "billing account", "billing period"]
        if exportWords.contains(where: lowered.contains) || preamble.contains(where: lowered.drop(while: { "\" \u{FEFF}".contains($0) }).hasPrefix) {
            return "it looks like a Google Cloud billing export, not a request log. Compare it with the estimate from a log: placescost reconcile LOG --billing FILE."
        }
        let words = firstLine.split { " \t\"=[]".contains($0) }
        let method = words.contains { ["GET", "POST", "PUT", "HEAD", "OPTIONS", "PATCH", "DELETE"].contains($0) }
        if firstLine.contains("HTTP/1.") || firstLine.contains("HTTP/2") || (method && words.contains { $0.hasPrefix("/") }) {
            return "its first line looks like a web server's access log in a layout other than nginx/Apache combined or common. Pass --log-format with your nginx log_format (it needs $time_local, $time_iso8601 or $msec, and $request, or $request_method and $request_uri), for example --log-format '$remote_addr - $remote_user [$time_local] \"$request\" $status'."
        }
        // Excel in locales with a decimal comma writes `;` between cells; TSV exports, tabs.
        for (separator, name, code) in [(";", "semicolons", ";"), ("\t", "tabs", "\\t")] {
            let cells = lowered.split(separator: Character(separator)).map { $0.trimmingCharacters(in: " \r\"\u{FEFF}") }
            if cells.contains("timestamp"), cells.contains("api") {
                return "its first line is a header of cells separated by \(name), and CSV logs are separated by commas (RFC 4180). "
                    + "Convert it: python3 -c 'import csv,sys; csv.writer(sys.stdout).writerows(csv.reader(sys.stdin, delimiter=\"\(code)\"))' < FILE > calls.csv."
            }
        }
        if firstLine.contains(","), !firstLine.hasPrefix("{") {
            return "its first line is not a CSV header with `timestamp` and `api` columns. Name the columns as docs/formats.md section 1 does (timestamp, api, session_token, input, ...), or pass --format."
        }
        return nil
    }
}

extension Substring {
    func trimmingCharacters(in characters: String) -> String {
        var trimmed = self
        while let first = trimmed.first, characters.contains(first) { trimmed.removeFirst() }
        while let last = trimmed.last, characters.contains(last) { trimmed.removeLast() }
        return String(trimmed)
    }
}
