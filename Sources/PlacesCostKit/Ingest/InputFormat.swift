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
    /// `api` columns is a CSV header; a first line in nginx/Apache combined or common format is
    /// an access log.
    package static func sniff(_ head: [UInt8]) -> InputFormat? {
        var index = 0
        while index < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[index]) { index += 1 }
        guard index < head.count else { return nil }
        if head[index] == UInt8(ascii: "{") { return HARReader.sniff(head) ? .har : .jsonl }
        let lineEnd = head[index...].firstIndex(of: 0x0A) ?? head.count
        let firstLine = String(decoding: head[index..<lineEnd], as: UTF8.self).lowercased()
        let cells = firstLine.split(separator: ",").map { $0.trimmingCharacters(in: " \t\r\"") }
        if cells.contains("timestamp"), cells.contains("api") { return .csv }
        if AccessLogParser.sniff(head) { return .accessLog }
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
