import Foundation

/// The members of `report.json` (`docs/report-schema.md`) a comparison reads, decoded from the
/// document's text.
///
/// Both sides of a comparison come through here: a log is analyzed and its report rendered as
/// `analyze --json` would print it, then read back, so a side gives the same figures, rounded
/// the same way, whether it was a log or that log's `report.json`. Members are spelled as the
/// file spells its keys, so that an error names the key a reader finds in the file.
struct ReportDocument: Decodable, Sendable {
    struct Period: Decodable, Sendable {
        var first_call: String
        var last_call: String
        var days: Int
        var months: [String]
    }

    struct Headline: Decodable, Sendable {
        var months: Int
        var current_cost_usd: Double
        var current_cost_usd_per_month: Double
        var current_list_cost_usd: Double
        var recommended_strategy: String
        var recommended_delay: Int
        var keep_current: Bool
        var recommended_cost_usd: Double
        var recommended_list_cost_usd: Double
        var savings_usd_per_month: Double
    }

    struct Input: Decodable, Sendable {
        var records: Int
    }

    struct Pricing: Decodable, Sendable {
        var id: String
    }

    struct Assumptions: Decodable, Sendable {
        var scale: Double
    }

    struct Searches: Decodable, Sendable {
        var total: Int
        var completed: Int
        var avg_requests: Double
    }

    struct AnomalyCost: Decodable, Sendable {
        var name: String
        var billed_list_usd: Double
    }

    var schema: String
    var pricing: Pricing
    var input: Input
    var period: Period?
    var headline: Headline
    var assumptions: Assumptions
    var searches: Searches
    var anomalies: [String: Int]
    var anomaly_costs: [AnomalyCost]

    /// Largest file read as a possible `report.json`; a report is tens of kilobytes, and a bigger
    /// file is taken for a log without being read whole.
    static let maxReportBytes = 64 << 20

    /// The most calendar months a report can bill (`headline.months`): `analyze` reads calls of
    /// the years 1 to 9999 and names their months in the report's time zone, so a call at either
    /// end may fall in the month before (`0000-12`, west of UTC) or after (`10000-01`, east):
    /// the months from index 11 to 120,000 (year × 12 + month − 1), both counted.
    static let maxMonths = 10_000 * 12 - 11 + 1

    /// The document in `data`, checked to hold only what `analyze` writes; `file` names it in
    /// errors.
    ///
    /// - Throws: `CompareError.notAReport` for another `schema`, `.invalidReport` for a missing
    ///   key, a wrong type or a value no `analyze` writes, naming the key's path.
    static func decode(_ data: Data, file: String) throws -> ReportDocument {
        let document = try decodeMembers(data, file: file)
        try document.check(file: file)
        return document
    }

    private static func decodeMembers(_ data: Data, file: String) throws -> ReportDocument {
        if let schema = try? JSONDecoder().decode(SchemaProbe.self, from: data).schema, schema != JSONReportRenderer.schema {
            throw CompareError.notAReport(file: file, schema: schema)
        }
        do {
            return try JSONDecoder().decode(ReportDocument.self, from: data)
        } catch let error as DecodingError {
            // Foundation's decoder gives no path when a count is no whole number (`1e20`, `0.5`).
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty, (try? JSONSerialization.jsonObject(with: data)) != nil {
                throw CompareError.invalidReport(file: file, reason: "a count in it (of searches, calls, months, days or an anomaly) is not a whole number")
            }
            throw CompareError.invalidReport(file: file, reason: reason(error))
        } catch {
            throw CompareError.invalidReport(file: file, reason: "it is not JSON")
        }
    }

    /// The report in the file at `path`, or nil when the file is no JSON object with a `schema`
    /// key (a log, read as one: a JSON Lines log or a HAR capture also starts with `{`).
    ///
    /// A UTF-8 byte order mark before the `{` is skipped, as price tables and scenario files
    /// skip it. A file that names itself a document of this tool in its first lines
    /// (`{ "schema": "placescost.…`, `InputFormat.ownOutput`) but is no valid JSON (cut short,
    /// `NaN`, `1e400`) is a damaged report, not a log: it is refused with where Foundation
    /// stopped reading it.
    ///
    /// - Throws: `CompareError` for a JSON object with a `schema` key that is no whole
    ///   `report.json`, or a damaged document of this tool.
    static func read(path: String, shownAs file: String) throws -> ReportDocument? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
              let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let size = attributes[.size] as? Int, size <= maxReportBytes,
              let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard var data = try? handle.readToEnd() else { return nil }
        if data.starts(with: byteOrderMark) { data.removeFirst(byteOrderMark.count) }
        guard data.first(where: { !isSpace($0) }) == UInt8(ascii: "{") else { return nil }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            // `ownOutput` reads the first 256 bytes, as the log reader hands it a file's first ones.
            guard InputFormat.ownOutput(Array(data.prefix(256)))?.hasSuffix(".json") == true else { return nil }
            throw CompareError.invalidReport(file: file, reason: "it is not valid JSON" + (JSONSerialization.failureReason(error).map { " (\($0))" } ?? ""))
        }
        guard let schema = (object as? [String: Any])?["schema"] else { return nil }
        guard let name = schema as? String else {
            throw CompareError.notAReport(file: file, schema: "\(schema)")
        }
        if name != JSONReportRenderer.schema { throw CompareError.notAReport(file: file, schema: name) }
        return try decode(data, file: file)
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Refuses a value no `analyze` writes, so that what a reader shows of the report (a count,
    /// a rate, a strategy's name, a date or a month in a Markdown table) is what `analyze` could
    /// have said: counts from 0 (selections at most the searches), the months `maxMonths` allows,
    /// a strategy of this placescost, times and months as `analyze` spells them. Text that could
    /// add a line or a cell to a table never gets through.
    private func check(file: String) throws {
        func invalid(_ reason: String) -> CompareError { .invalidReport(file: file, reason: reason) }
        try ReportDocument.count(input.records, "input.records", file: file)
        try ReportDocument.count(searches.total, "searches.total", file: file)
        try ReportDocument.count(searches.completed, "searches.completed", file: file)
        guard searches.completed <= searches.total else { throw invalid("`searches.completed` is more than `searches.total`") }
        for (name, count) in anomalies.sorted(by: { $0.key < $1.key }) {
            try ReportDocument.count(count, "anomalies.\(name)", file: file)
        }
        guard (1...ReportDocument.maxMonths).contains(headline.months) else {
            throw invalid("`headline.months` is not a whole number from 1 to \(Money.count(ReportDocument.maxMonths)), the calendar months a report of calls in the years 1 to 9999 can bill")
        }
        try ReportDocument.count(headline.recommended_delay, "headline.recommended_delay", file: file)
        guard StrategyID(rawValue: headline.recommended_strategy) != nil else {
            throw invalid("`headline.recommended_strategy` holds no strategy of this placescost")
        }
        guard let period else { return }
        for (member, time) in [("period.first_call", period.first_call), ("period.last_call", period.last_call)] {
            guard case .success = TimestampParser.parse(time) else { throw invalid("`\(member)` is not an RFC 3339 time") }
        }
        try ReportDocument.count(period.days, "period.days", file: file, from: 1)
        for (index, month) in period.months.enumerated() where !ReportDocument.isMonth(month) {
            throw invalid("`period.months[\(index)]` is not a month as YYYY-MM")
        }
    }

    /// Refuses `value` of `member` unless it is a count `analyze` could write: a whole number from
    /// `lowest` (0: it counts something). `TrafficProfile` checks the counts it reads beyond
    /// these here too, so both readers of a report say the same.
    static func count(_ value: Int, _ member: String, file: String, from lowest: Int = 0) throws {
        guard value >= lowest else {
            throw CompareError.invalidReport(file: file, reason: "`\(member)` is not a whole number of \(lowest) or more")
        }
    }

    /// Whether `text` is a month as `analyze` names it: `YYYY-MM`, the year of four digits, or
    /// five for `10000-01` (a call at the end of 9999 east of UTC), and `0000` for the month
    /// before year 1.
    static func isMonth(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, (4...5).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }),
              let month = Int(parts[1]) else { return false }
        return (1...12).contains(month)
    }

    private struct SchemaProbe: Decodable {
        var schema: String?
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// "`headline.current_list_cost_usd` is missing", as a sentence's end.
    private static func reason(_ error: DecodingError) -> String {
        func path(_ codingPath: [CodingKey], _ last: CodingKey? = nil) -> String {
            let keys = codingPath + (last.map { [$0] } ?? [])
            let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : text
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "`\(path(context.codingPath, key))` is missing"
        case .valueNotFound(_, let context):
            return "`\(path(context.codingPath))` is null"
        case .typeMismatch(let type, let context):
            return "`\(path(context.codingPath))` is not \(type == String.self ? "a string" : type == Bool.self ? "true or false" : type == [String].self ? "an array of strings" : "of the right type")"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "it is not JSON" : "`\(path(context.codingPath))` holds a value out of range"
        @unknown default:
            return "it cannot be read"
        }
    }
}
