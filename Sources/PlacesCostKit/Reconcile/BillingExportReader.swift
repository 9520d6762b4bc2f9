import Foundation

/// Reads a Cloud Billing export (console cost table, reports-page CSV, or a BigQuery export as CSV
/// or JSON Lines) into the Places-related SKUs it bills.
///
/// Billing exports are small (one row per SKU, project and day at most), so this reads the whole
/// file as text and uses `JSONSerialization`; the byte-level fast paths of the log reader are
/// not needed here. A file over `maxFileBytes` is refused before it is read (never more than
/// that limit plus one byte is read, even from a pipe or a device).
///
/// Rules:
/// - Tax, rounding, total and subtotal rows (an empty SKU description, a first cell or cost
///   type such as `Total`, `Tax`, `Rounding error`, `Subtotal`) are skipped and counted.
/// - Credits are never mixed into a SKU's cost: a credit row (non-empty `Credit type`, or a
///   `Cost type` naming a credit), the reports page's savings columns and BigQuery's `credits`
///   go to the SKU's `creditsUSD`, and a credit row's usage amount is not counted.
/// - A row is Places-related when its SKU description is one of the price tables' SKU names
///   (case and spacing ignored, with or without a leading `Places API`, `Places API (New)` or
///   `Geocoding API`), or when its service is Places API, Places API (New) or Geocoding API;
///   other rows are counted as other services.
/// - Localized console exports are read by column position: the column count (18 for the cost
///   table, 13 for the reports page) identifies the layout. Translated header names are not
///   matched, because Google's translations could not be checked here.
/// - Every number is checked: a row whose cost is not a number, or whose cost, credits or usage
///   amount is NaN, infinite or outside `moneyRange`/`usageRange`, is skipped, counted in
///   `skippedRows` and warned about at its line, so that sums stay finite and nothing vanishes
///   without a word.
struct BillingExportReader: Sendable {
    /// The largest export read, in bytes (a month of one billing account is far smaller).
    static let maxFileBytes = 256 * 1024 * 1024
    /// Costs and credits one row may hold, in USD.
    static let moneyRange: ClosedRange<Double> = -1_000_000_000_000...1_000_000_000_000
    /// Usage amounts one row may hold (events).
    static let usageRange: ClosedRange<Double> = -1_000_000_000_000_000...1_000_000_000_000_000
    /// Skipped rows warned about one by one; the rest are counted.
    static let maxWarnings = 20

    /// The SKU names a row is matched against: every bundled price table's SKUs by default.
    var skuNames: [String]

    static let placesServices: Set<String> = ["places api", "places api (new)", "geocoding api"]

    init(skuNames: [String]? = nil) {
        self.skuNames = skuNames ?? BillingExportReader.bundledSKUNames
    }

    static let bundledSKUNames: [String] = {
        let tables = (try? PriceTableLoader().bundled()) ?? []
        var seen = Set<String>()
        return tables.flatMap { $0.skus.map(\.name) }.filter { seen.insert($0).inserted }
    }()

    /// Reads the export at `path`; errors name it `shownAs` (the path as the user gave it).
    ///
    /// - Throws: `IngestError.unreadableBillingExport` when the file cannot be opened,
    ///   `IngestError.invalidBillingExport` when its layout is not one of the known ones.
    func read(path: String, shownAs: String? = nil) throws -> BilledUsage {
        let shown = shownAs ?? path
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw IngestError.unreadableBillingExport(path: shown, reason: "it is a folder; pass the export file itself")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "the file cannot be read" : "no such file or directory"
            throw IngestError.unreadableBillingExport(path: shown, reason: reason)
        }
        defer { try? handle.close() }
        let data: Data
        do {
            // One byte past the limit tells an oversized file from a full-sized one.
            data = try handle.read(upToCount: BillingExportReader.maxFileBytes + 1) ?? Data()
        } catch {
            throw IngestError.unreadableBillingExport(path: shown, reason: "the file cannot be read")
        }
        guard data.count <= BillingExportReader.maxFileBytes else {
            throw IngestError.invalidBillingExport(path: shown, reason: "the file is larger than \(BillingExportReader.maxFileBytes / 1024 / 1024) MB, the most this reader takes; export one month or one project at a time (filter the BigQuery export by invoice.month or project.id).")
        }
        return try parse(BillingExportReader.text(of: data), file: shown)
    }

    /// The export's text: UTF-8, or UTF-16 as spreadsheets on Windows save it ("Unicode text").
    /// A byte order mark is read as U+FEFF, which `parse` drops as it does UTF-8's.
    static func text(of data: Data) -> String {
        if let utf16 = UTF16Text.detect(data), let text = String(data: data, encoding: utf16.encoding) { return text }
        return String(decoding: data, as: UTF8.self)
    }

    /// Parses the text of an export; `file` names it in errors.
    func parse(_ text: String, file: String) throws -> BilledUsage {
        var text = text
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        // A file saved with the classic Mac's line ends (Excel's "CSV (Macintosh)") has a `\r`
        // and never a `\n`: its rows are lines all the same.
        if !text.utf8.contains(UInt8(ascii: "\n")), text.utf8.contains(UInt8(ascii: "\r")) {
            text = String(decoding: text.utf8.map { $0 == UInt8(ascii: "\r") ? UInt8(ascii: "\n") : $0 }, as: UTF8.self)
        }
        let firstCharacter = text.first { !$0.isWhitespace }
        var accumulator = Accumulator(matcher: SKUMatcher(names: skuNames))
        let layout: BilledUsage.Layout
        var byPosition = false
        if firstCharacter == "{" || BillingExportReader.mostLinesAreObjects(text) {
            layout = .bigQueryJSONLines
            try readJSONLines(text, file: file, into: &accumulator)
        } else if firstCharacter == nil {
            throw IngestError.invalidBillingExport(path: file, reason: "the file is empty; expected a Cloud Billing export (a console cost-table or reports-page CSV, or a BigQuery billing export as CSV or JSON Lines).")
        } else {
            (layout, byPosition) = try readCSV(text, file: file, into: &accumulator)
        }
        return accumulator.usage(file: file, layout: layout, byPosition: byPosition)
    }

    // MARK: - CSV layouts

    /// Where one layout keeps the values a row contributes.
    struct Columns {
        var service: Int?
        var sku: Int
        var amount: Int?
        var cost: [Int]  // the first parsable one wins (unrounded before rounded)
        var credits: [Int] = []  // savings columns, summed (reports page)
        var creditsCell: Int?  // BigQuery `credits`: a number or a JSON array of {amount}
        var creditType: Int?
        var costType: Int?
        var start: Int?
        var end: Int?
        var invoiceMonth: Int?
        var currency: Int?  // BigQuery `currency`
    }

    static let consoleHeader = ["billing account name", "billing account id", "project name", "project id", "project hierarchy", "service description", "service id", "sku description", "sku id", "consumption model description", "credit type", "cost type", "usage start date", "usage end date", "usage amount", "usage unit", "unrounded cost ($)", "cost ($)"]
    static let reportsHeader = ["date", "service description", "service id", "sku description", "sku id", "usage amount", "usage unit", "list cost ($)", "negotiated savings ($)", "savings programs ($)", "other savings ($)", "unrounded subtotal ($)", "subtotal ($)"]

    static let consoleColumns = Columns(service: 5, sku: 7, amount: 14, cost: [16, 17], creditType: 10, costType: 11, start: 12, end: 13)
    static let reportsColumns = Columns(service: 1, sku: 3, amount: 5, cost: [7], credits: [8, 9, 10], start: 0)

    /// Reads the export in three passes over its text, a record at a time, never holding every
    /// cell: the preamble and the header, then the amounts that decide the decimal mark (and the
    /// malformed rows, warned in line order), then the rows. An export may be 256 MB.
    private func readCSV(_ text: String, file: String, into accumulator: inout Accumulator) throws -> (BilledUsage.Layout, Bool) {
        // The console export starts with `key,value` lines; the header is the first wide row.
        var preamble: [[String]] = []
        var headerRecord: (line: Int, cells: [String])?
        BillingExportReader.forEachCSVRecord(text) { record in
            guard let cells = record.cells else { return true }
            if cells.count >= 5 {
                headerRecord = (record.line, cells)
                return false
            }
            preamble.append(cells)
            return true
        }
        guard let headerRecord else {
            throw unknownLayout(file, found: preamble.first?.count ?? 0, rows: preamble)
        }
        for record in preamble where record.count >= 2 {
            let key = BillingExportReader.normalized(record[0])
            if key == "invoice month" || key == "billing period" { accumulator.addInvoiceMonth(record[1]) }
            if key == "currency" { accumulator.noteCurrency(record[1]) }
        }
        let header = headerRecord.cells.map(BillingExportReader.normalized)
        let headerLine = headerRecord.line
        let layout: BilledUsage.Layout
        let columns: Columns
        var byPosition = false
        if let named = BillingExportReader.bigQueryColumns(header) {
            (layout, columns) = (.bigQueryCSV, named)
        } else if let named = BillingExportReader.namedColumns(header, expected: BillingExportReader.consoleHeader, layout: BillingExportReader.consoleColumns) {
            (layout, columns) = (.consoleCostTable, named)
        } else if let named = BillingExportReader.namedColumns(header, expected: BillingExportReader.reportsHeader, layout: BillingExportReader.reportsColumns) {
            (layout, columns) = (.reportsPage, named)
        } else if header.count == BillingExportReader.consoleHeader.count {
            (layout, columns, byPosition) = (.consoleCostTable, BillingExportReader.consoleColumns, true)
        } else if header.count == BillingExportReader.reportsHeader.count {
            (layout, columns, byPosition) = (.reportsPage, BillingExportReader.reportsColumns, true)
        } else {
            throw unknownLayout(file, found: header.count, rows: preamble + [headerRecord.cells])
        }
        // A console export names its currency in the cost column's header (`Cost (€)`).
        if let last = columns.cost.last, last < header.count, let open = header[last].lastIndex(of: "("), header[last].hasSuffix(")") {
            accumulator.noteCurrency(String(header[last][header[last].index(after: open)...].dropLast()))
        }
        // The amounts the file writes unambiguously say what `1.500` means in the others; the
        // malformed rows after the header are warned first, in line order.
        let amountColumns = [columns.amount].compactMap { $0 } + columns.cost + columns.credits
        var amounts: [String] = []
        BillingExportReader.forEachCSVRecord(text) { record in
            guard record.line > headerLine else { return true }
            if let reason = record.malformed { accumulator.skip(file: file, line: record.line, reason: reason) }
            if let cells = record.cells { amounts += amountColumns.lazy.filter { $0 < cells.count }.map { cells[$0] } }
            return true
        }
        let mark = DecimalMark.of(amounts)
        amounts = []
        var read = 0
        var firstUnreadable: (line: Int, value: String)?
        BillingExportReader.forEachCSVRecord(text) { record in
            guard record.line > headerLine, let cells = record.cells else { return true }
            let cell = { (index: Int?) -> String in
                guard let index, index < cells.count else { return "" }
                return BillingExportReader.trimmed(cells[index])
            }
            if cells.allSatisfy({ BillingExportReader.trimmed($0).isEmpty }) { return true }
            var row = Row(service: cell(columns.service), sku: cell(columns.sku), firstCell: cell(0), costType: cell(columns.costType))
            if BillingExportReader.isSummary(row) { accumulator.ignoredRows += 1; return true }
            let line = record.line
            row.isCredit = !cell(columns.creditType).isEmpty || row.costType.lowercased().contains("credit")
            guard let cost = columns.cost.lazy.compactMap({ BillingExportReader.anyNumber(cell($0), mark: mark) }).first else {
                let value = columns.cost.map { cell($0) }.first ?? ""
                if firstUnreadable == nil { firstUnreadable = (line, value) }
                accumulator.skip(file: file, line: line, reason: "the cost (\(ValueShape(value))) is not a number; the row is left out of the bill.")
                return true
            }
            // A cost written with another currency's sign makes the bill that currency's, whatever
            // the preamble says: its amounts are never read as dollars.
            for index in columns.cost { if let sign = BillingExportReader.currencySign(in: cell(index)) { accumulator.noteCurrency(sign) } }
            let credits = columns.credits.reduce(0) { $0 + (BillingExportReader.number(cell($1), mark: mark) ?? 0) }
                + (columns.creditsCell.map { BillingExportReader.creditsValue(cell($0)) } ?? 0)
            guard let amount = accumulator.check(cost: cost, usage: cell(columns.amount), mark: mark, credits: credits, file: file, line: line) else { return true }
            row.amount = amount
            row.cost = cost
            row.credits = credits
            row.start = BillingExportReader.isoDate(cell(columns.start))
            row.hasEnd = BillingExportReader.isoDate(cell(columns.end)) != nil
            row.end = BillingExportReader.lastUsageDay(cell(columns.end), startText: cell(columns.start)) ?? row.start
            if let index = columns.invoiceMonth { accumulator.addInvoiceMonth(cell(index)) }
            if let index = columns.currency { accumulator.noteCurrency(cell(index)) }
            accumulator.add(row)
            read += 1
            return true
        }
        // Rows whose cost never parses mean the layout was guessed wrong (or the file is not an
        // export at all); one odd row among good ones is left out quietly.
        if let firstUnreadable, read == 0 {
            throw IngestError.invalidBillingExport(path: file, reason: "no row has a readable cost (row \(firstUnreadable.line) has \(ValueShape(firstUnreadable.value))); expected amounts such as 12.34 or \"1,234.56\" in the \(layout.rawValue) layout's cost column.")
        }
        return (layout, byPosition)
    }

    /// `rows`: the rows read up to the header, to tell a file separated by `;` or tabs (a bill
    /// saved again by a spreadsheet set to another locale) from one of another layout.
    private func unknownLayout(_ file: String, found: Int, rows: [[String]]) -> IngestError {
        let expected = "this is not a Cloud Billing export this tool knows: expected a console cost-table CSV (a header of 18 columns from `Billing account name` to `Cost ($)`, after its `key,value` preamble), a reports-page CSV (13 columns from `Date` to `Subtotal ($)`), or a BigQuery billing export with `sku.description`, `usage.amount` and `cost` columns, as CSV or JSON Lines"
        for (separator, name) in [(";", "semicolons"), ("\t", "tabs")] where rows.contains(where: { $0.joined(separator: ",").components(separatedBy: separator).count >= 5 }) {
            return .invalidBillingExport(path: file, reason: "\(expected); its rows are text separated by \(name), as a spreadsheet set to another language saves a CSV. Download the export again from Cloud Billing, or save it with commas as separators.")
        }
        return .invalidBillingExport(path: file, reason: "\(expected); its header row has \(Money.count(found, "column", "columns")).")
    }

    /// The layout's columns looked up by English name, or nil when a key column is missing.
    static func namedColumns(_ header: [String], expected: [String], layout: Columns) -> Columns? {
        func index(_ position: Int?) -> Int? {
            guard let position else { return nil }
            return header.firstIndex(of: expected[position])
        }
        guard let sku = index(layout.sku), let amount = index(layout.amount) else { return nil }
        let cost = layout.cost.compactMap { index($0) }
        guard !cost.isEmpty else { return nil }
        return Columns(
            service: index(layout.service), sku: sku, amount: amount, cost: cost, credits: layout.credits.compactMap { index($0) },
            creditType: index(layout.creditType), costType: index(layout.costType), start: index(layout.start), end: index(layout.end)
        )
    }

    static func bigQueryColumns(_ header: [String]) -> Columns? {
        func index(_ name: String) -> Int? {
            header.firstIndex(of: name) ?? header.firstIndex(of: name.replacingOccurrences(of: ".", with: "_"))
        }
        guard let sku = index("sku.description"), let cost = index("cost") else { return nil }
        return Columns(
            service: index("service.description"), sku: sku, amount: index("usage.amount"), cost: [cost],
            creditsCell: index("credits"), start: index("usage_start_time"), end: index("usage_end_time"), invoiceMonth: index("invoice.month"),
            currency: index("currency")
        )
    }

    // MARK: - BigQuery JSON Lines

    /// Whether most of the first lines that hold something start with `{`: JSON Lines whose
    /// first line is damaged, never a CSV export, whose rows never start so.
    static func mostLinesAreObjects(_ text: String) -> Bool {
        var objects = 0
        var others = 0
        var atLineStart = true
        for byte in text.utf8 where objects + others < 10 {
            switch byte {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"): atLineStart = true
            case UInt8(ascii: " "), UInt8(ascii: "\t"): continue
            default:
                if atLineStart { byte == UInt8(ascii: "{") ? (objects += 1) : (others += 1) }
                atLineStart = false
            }
        }
        return objects > others
    }

    /// Reads the rows of a BigQuery export as JSON Lines. A line that is no row (not a JSON
    /// object, cut off, without `sku.description`, with a cost that is not a number) is skipped,
    /// counted and warned at its line, as a damaged CSV row is; only a file without one readable
    /// row is an error, the first line's problem named.
    private func readJSONLines(_ text: String, file: String, into accumulator: inout Accumulator) throws {
        var lineNumber = 0
        var read = 0
        var firstProblem: (line: Int, reason: String)?
        func skip(_ reason: String) {
            if firstProblem == nil { firstProblem = (lineNumber, reason) }
            accumulator.skip(file: file, line: lineNumber, reason: reason + "; the row is left out of the bill.")
        }
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            guard let object = (try? JSONSerialization.jsonObject(with: Data(trimmed.utf8))) as? [String: Any] else {
                skip("the line is not a JSON object (\(ValueShape(trimmed)))")
                continue
            }
            let string = { (path: String) -> String in
                switch BillingExportReader.lookup(object, path) {
                case let text as String: text.trimmingCharacters(in: .whitespaces)
                case let number as NSNumber: number.stringValue
                default: ""
                }
            }
            guard BillingExportReader.lookup(object, "sku.description") != nil else {
                skip("the row has no `sku.description`")
                continue
            }
            var row = Row(service: string("service.description"), sku: string("sku.description"), firstCell: "", costType: string("cost_type"))
            if BillingExportReader.isSummary(row) { accumulator.ignoredRows += 1; continue }
            guard let cost = BillingExportReader.anyNumber(string("cost")) else {
                skip("the cost (\(ValueShape(string("cost")))) is not a number")
                continue
            }
            let credits = BillingExportReader.creditsValue(BillingExportReader.lookup(object, "credits"))
            guard let amount = accumulator.check(cost: cost, usage: string("usage.amount"), mark: nil, credits: credits, file: file, line: lineNumber) else {
                read += 1  // a row, with numbers out of range: warned by `check`
                continue
            }
            row.cost = cost
            row.amount = amount
            row.credits = credits
            row.start = BillingExportReader.isoDate(string("usage_start_time"))
            row.hasEnd = BillingExportReader.isoDate(string("usage_end_time")) != nil
            row.end = BillingExportReader.lastUsageDay(string("usage_end_time"), startText: string("usage_start_time")) ?? row.start
            accumulator.addInvoiceMonth(string("invoice.month"))
            accumulator.noteCurrency(string("currency"))
            accumulator.add(row)
            read += 1
        }
        if read == 0, let firstProblem {
            throw IngestError.invalidBillingExport(
                path: file,
                reason: "no line is a BigQuery billing export row (line \(firstProblem.line): \(firstProblem.reason)); expected one JSON object per line with `sku.description`, `usage.amount` and `cost`."
            )
        }
    }

    /// A flat dotted key (`"sku.description"`), an underscored one, or the nested path.
    static func lookup(_ object: [String: Any], _ path: String) -> Any? {
        if let value = object[path], !(value is NSNull) { return value }
        if let value = object[path.replacingOccurrences(of: ".", with: "_")], !(value is NSNull) { return value }
        var current: Any = object
        for part in path.split(separator: ".") {
            guard let dictionary = current as? [String: Any], let next = dictionary[String(part)] else { return nil }
            current = next
        }
        return current is NSNull ? nil : current
    }

    /// `text` without the whitespace and line breaks around it; as it is, without Foundation's
    /// search, when it starts and ends with a visible ASCII character (nearly every cell).
    static func trimmed(_ text: String) -> String {
        if let first = text.utf8.first, let last = text.utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F { return text }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// BigQuery `credits`: an array of `{name, amount, ...}`, that array as JSON text, or a number.
    static func creditsValue(_ value: Any?) -> Double {
        switch value {
        case let credits as [Any]:
            return credits.reduce(0) { sum, credit in
                guard let credit = credit as? [String: Any] else { return sum }
                return sum + creditsValue(credit["amount"])
            }
        case let number as NSNumber:
            return number.doubleValue
        case let text as String:
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            // Most rows have no credit: no JSON to parse.
            if trimmed.isEmpty || trimmed == "[]" { return 0 }
            if trimmed.hasPrefix("[") {
                return creditsValue(try? JSONSerialization.jsonObject(with: Data(trimmed.utf8)))
            }
            return number(trimmed) ?? 0
        default:
            return 0
        }
    }

    // MARK: - Rows

    struct Row {
        var service: String
        var sku: String
        var firstCell: String
        var costType: String
        var isCredit = false
        var amount = 0.0
        var cost = 0.0
        var credits = 0.0
        var start: String?
        var end: String?
        /// Whether the row wrote an end date, rather than one date for its whole period.
        var hasEnd = false
    }

    static let summaryWords: Set<String> = ["total", "subtotal", "tax", "taxes", "rounding error", "rounding", "grand total"]

    static func isSummary(_ row: Row) -> Bool {
        if row.sku.isEmpty { return true }
        let first = normalized(row.firstCell).trimmingCharacters(in: CharacterSet(charactersIn: ":"))
        if summaryWords.contains(first) || first.hasPrefix("total ") { return true }
        return summaryWords.contains(normalized(row.costType))
    }

    /// Case-insensitive SKU matching against the price tables' exact names.
    struct SKUMatcher {
        var byKey: [String: String] = [:]
        static let servicePrefixes = ["places api (new) ", "places api ", "geocoding api "]

        init(names: [String]) {
            for name in names { byKey[BillingExportReader.normalized(name)] = name }
        }

        /// The table's name for a billed SKU description, if any.
        func match(_ description: String) -> String? {
            let key = BillingExportReader.normalized(description)
            if let name = byKey[key] { return name }
            for prefix in SKUMatcher.servicePrefixes where key.hasPrefix(prefix) {
                if let name = byKey[String(key.dropFirst(prefix.count))] { return name }
            }
            return nil
        }
    }

    struct Accumulator {
        let matcher: SKUMatcher
        var skus: [String: BilledUsage.SKU] = [:]
        var invoiceMonths = Set<String>()
        var first: String?
        var last: String?
        /// Whether every dated row gave one date, the first of a month, and no end: a bill by month.
        var monthlyRows: Bool?
        var otherRows = 0
        var otherCost = 0.0
        var ignoredRows = 0
        var skippedRows = 0
        var warnings: [Diagnostic] = []
        /// The bill's currency when the file names one other than US dollars.
        var currency: String?

        init(matcher: SKUMatcher) {
            self.matcher = matcher
        }

        /// Notes the currency a file names (`EUR`, or a sign such as `€`), unless it is US dollars;
        /// at most 16 characters of it are kept (reports escape it, as any text from a file).
        mutating func noteCurrency(_ text: String) {
            let currency = String(text.trimmingCharacters(in: .whitespaces).uppercased().prefix(16))
            guard !["", "USD", "$", "US$", "USD $"].contains(currency) else { return }
            self.currency = self.currency ?? currency
        }

        /// Counts a row left out, with a warning at its line for the first few.
        mutating func skip(file: String, line: Int, reason: String) {
            skippedRows += 1
            if warnings.count < BillingExportReader.maxWarnings {
                warnings.append(Diagnostic(location: SourceLocation(file: file, line: line), reason: reason))
            }
        }

        /// A row's usage amount (0 for an empty cell), once its numbers are found finite and
        /// within the reader's ranges and its usage a number; if not, `nil`, and the row is
        /// skipped (counted, warned) so that no sum becomes infinite or loses its meaning, and no
        /// row's cost is kept without its usage.
        mutating func check(cost: Double, usage: String, mark: DecimalMark?, credits: Double, file: String, line: Int) -> Double? {
            func range(_ range: ClosedRange<Double>) -> String {
                "from \(JSONValue.format(range.lowerBound)) to \(JSONValue.format(range.upperBound))"
            }
            let amount = BillingExportReader.anyNumber(usage, mark: mark)
            let problem: String
            if amount == nil, !usage.isEmpty {
                problem = "the usage amount (\(ValueShape(usage))) is not a number"
            } else if !BillingExportReader.moneyRange.contains(cost) {
                problem = "the cost `\(cost)` is outside the range this reader takes (\(range(BillingExportReader.moneyRange)) US dollars a row)"
            } else if let amount, !BillingExportReader.usageRange.contains(amount) {
                problem = "the usage amount `\(amount)` is outside the range this reader takes (\(range(BillingExportReader.usageRange)) a row)"
            } else if !BillingExportReader.moneyRange.contains(credits) {
                problem = "the credits `\(credits)` are outside the range this reader takes (\(range(BillingExportReader.moneyRange)) US dollars a row)"
            } else {
                return amount ?? 0
            }
            skip(file: file, line: line, reason: problem + "; the row is left out of the bill.")
            return nil
        }

        /// The table's name for each (service, SKU description) met, or nil for another
        /// service's: an export repeats a few dozen pairs on every row.
        private var names: [PairKey: String?] = [:]

        private struct PairKey: Hashable {
            var service: String
            var sku: String
        }

        mutating func add(_ row: Row) {
            // The period is the file's, so other services' rows count too.
            if let start = row.start { first = min(first ?? start, start) }
            if let end = row.end { last = max(last ?? end, end) }
            if let start = row.start { monthlyRows = (monthlyRows ?? true) && !row.hasEnd && start.hasSuffix("-01") }
            let key = PairKey(service: row.service, sku: row.sku)
            let known: String?
            if let memo = names[key] {
                known = memo
            } else {
                known = matcher.match(row.sku)
                    ?? (BillingExportReader.placesServices.contains(BillingExportReader.normalized(row.service)) ? row.sku : nil)
                names[key] = .some(known)
            }
            let name: String
            if let known {
                name = known
            } else {
                otherRows += 1
                otherCost += row.cost + row.credits
                return
            }
            var sku = skus[name] ?? BilledUsage.SKU(sku: name, service: row.service, usageAmount: 0, costUSD: 0, creditsUSD: 0)
            if row.isCredit {
                sku.creditsUSD -= abs(row.cost)
            } else {
                sku.usageAmount += row.amount
                sku.costUSD += row.cost
                sku.creditsUSD += row.credits
            }
            skus[name] = sku
        }

        /// `202610`, `2026-10` or `2026-10-01` as `2026-10`; other text is ignored.
        mutating func addInvoiceMonth(_ text: String) {
            let digits = text.filter(\.isNumber)
            guard digits.count >= 6, let month = Int(digits.dropFirst(4).prefix(2)), (1...12).contains(month) else { return }
            invoiceMonths.insert("\(digits.prefix(4))-\(digits.dropFirst(4).prefix(2))")
        }

        func usage(file: String, layout: BilledUsage.Layout, byPosition: Bool) -> BilledUsage {
            BilledUsage(
                file: file, layout: layout, matchedByPosition: byPosition,
                skus: skus.values.sorted { $0.sku < $1.sku },
                period: .init(firstUsageDate: first, lastUsageDate: last, invoiceMonths: invoiceMonths.sorted(), monthlyRows: monthlyRows ?? false),
                otherServiceRows: otherRows, otherServiceCostUSD: otherCost, ignoredRows: ignoredRows,
                skippedRows: skippedRows, warnings: warnings, currency: currency
            )
        }
    }

    // MARK: - Values

    /// Lowercased, trimmed, inner whitespace collapsed.
    static func normalized(_ text: String) -> String {
        text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// A money or usage amount: currency signs, spaces and thousands separators dropped
    /// (`"622,403"`, `$1,234.50`, `1.234,50 €`, `(12.00)` for a negative).
    ///
    /// The amount's own mark when it shows one (`DecimalMark(ofAmount:)`: `1.234,50`, `20,98`,
    /// `7.50`); else, when it could be whole thousands (`1.500`, `622,403`), `mark` (the file's,
    /// `DecimalMark.of`) decides; without one, a lone `,` is a thousands separator (622403) and a
    /// lone `.` a decimal point (1.5).
    static func number(_ text: String, mark: DecimalMark? = nil) -> Double? {
        guard let value = anyNumber(text, mark: mark), value.isFinite else { return nil }
        return value
    }

    /// As `number`, but NaN and the infinities (`NaN`, `1e400`) are returned, so that the row
    /// holding one can be reported rather than taken for a row without a number.
    static func anyNumber(_ text: String, mark: DecimalMark? = nil) -> Double? {
        let (digits, negative) = amountText(text)
        guard !digits.isEmpty else { return nil }
        // The amount's own mark when it shows one, else the file's; with neither, a lone
        // separator is a thousands separator, or a decimal point.
        let decimalComma = (DecimalMark(ofAmount: digits) ?? mark) == .comma
        // A byte at a time, never Foundation's search and replace: an export has a row per SKU
        // and day, hundreds of thousands of amounts.
        var plain: [UInt8] = []
        plain.reserveCapacity(digits.utf8.count)
        for byte in digits.utf8 {
            switch byte {
            case UInt8(ascii: ","): if decimalComma { plain.append(UInt8(ascii: ".")) }
            case UInt8(ascii: "."): if !decimalComma { plain.append(byte) }
            default: plain.append(byte)
            }
        }
        guard BillingExportReader.isDecimalNumeral(plain), let value = Double(String(decoding: plain, as: UTF8.self)) else { return nil }
        return negative ? -value : value
    }

    /// Whether `bytes` are a decimal numeral `Double` may read: a sign, digits with at most one
    /// point, an exponent (`1.5E-5`, as BigQuery writes small costs); or `nan`, `inf`,
    /// `infinity` (read, so that the row holding one is reported). Not the hexadecimal `0x10`
    /// that `Double(_:)` also takes.
    static func isDecimalNumeral(_ bytes: [UInt8]) -> Bool {
        var index = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
        // The words only where a letter starts: every other amount is read without a `String`.
        if index < bytes.count, !bytes[index].isDigit, bytes[index] != UInt8(ascii: ".") {
            let word = String(decoding: bytes[index...], as: UTF8.self).lowercased()
            return word == "nan" || word == "inf" || word == "infinity"
        }
        var digits = 0
        var point = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte.isDigit {
                digits += 1
            } else if byte == UInt8(ascii: "."), !point {
                point = true
            } else {
                break
            }
            index += 1
        }
        guard digits > 0 else { return false }
        guard index < bytes.count else { return true }
        guard bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") else { return false }
        index += 1
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
        let exponentStart = index
        while index < bytes.count, bytes[index].isDigit { index += 1 }
        return index == bytes.count && index > exponentStart
    }

    /// An amount's digits, sign and separators, without currency signs, spaces or the
    /// parentheses of a negative (`(12.00)`), which `negative` says instead.
    static func amountText(_ text: String) -> (digits: String, negative: Bool) {
        // Most amounts are digits, separators and a sign only: taken as they are.
        if !text.isEmpty, text.utf8.allSatisfy({ $0.isDigit || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "-") }) {
            return (text, false)
        }
        var text = text.trimmingCharacters(in: .whitespaces)
        var negative = false
        if text.hasPrefix("("), text.hasSuffix(")") {
            negative = true
            text = String(text.dropFirst().dropLast())
        }
        // Currency codes only where a capital letter is; signs, spaces and `'` one pass over the text.
        if text.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) {
            for code in ["US$", "USD", "EUR", "JPY"] { text = text.replacingOccurrences(of: code, with: "") }
        }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: text.unicodeScalars.filter { !amountMarks.contains($0) })
        return (String(kept), negative)
    }

    /// The currency other than US dollars an amount is written in (`€12.50`, `12,50 EUR`), or nil.
    static func currencySign(in text: String) -> String? {
        // Most amounts are ASCII digits and marks: nothing to look for.
        guard text.utf8.contains(where: { $0 >= 0x80 || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) }) else { return nil }
        if text.contains("US$") || text.contains("USD") { return nil }
        return ["€", "£", "¥", "￥", "EUR", "JPY"].first { text.contains($0) }
    }

    /// What an amount may hold besides its digits: currency signs, spaces and group marks.
    private static let amountMarks: Set<Unicode.Scalar> = ["$", "€", "£", "¥", "￥", "\u{00A0}", "\u{202F}", " ", "'"]

    /// The `YYYY-MM-DD` a date or time starts with, or nil; a day no calendar has
    /// (`2026-11-31`) is none.
    /// The last day of usage a row's end names: the date of a usage end date (a console export's,
    /// inclusive), or of a usage end time, which ends the period (BigQuery's `usage_end_time`,
    /// exclusive): one at midnight, or at the time of day its start has (a day of Pacific time
    /// written in UTC, `07:00:00 UTC` to `07:00:00 UTC`), ends the usage on the day before, never
    /// before the row's first day.
    static func lastUsageDay(_ text: String, startText: String) -> String? {
        guard let date = isoDate(text) else { return nil }
        guard let endTime = timeOfDay(text) else { return date }
        let startTime = timeOfDay(startText)
        let wholeDays = endTime.clock.allSatisfy { $0 == "0" || $0 == ":" || $0 == "." }
            || (startTime.map { $0.clock == endTime.clock && $0.zone == endTime.zone } ?? false)
        guard wholeDays, let day = BilledUsage.Period.civil(date) else { return date }
        let previous = CivilDate(daysSinceEpoch: CivilDate.daysSinceEpoch(year: day.year, month: day.month, day: day.day) - 1).dayText
        return isoDate(startText).map { previous < $0 ? $0 : previous } ?? previous
    }

    /// The time of day after a date (`T07:00:00Z`, ` 07:00:00.000 UTC`): its clock and its zone
    /// as written; `nil` for a date alone.
    private static func timeOfDay(_ text: String) -> (clock: Substring, zone: Substring)? {
        var rest = text.dropFirst(10)
        guard let first = rest.first, first == "T" || first == " " else { return nil }
        rest = rest.dropFirst()
        let clock = rest.prefix { $0.isNumber || $0 == ":" || $0 == "." }
        guard clock.count >= 8 else { return nil }
        return (clock, rest.dropFirst(clock.count))
    }

    static func isoDate(_ text: String) -> String? {
        let prefix = text.prefix(10)
        let parts = prefix.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.utf8.allSatisfy(\.isDigit) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...CivilDate.daysInMonth(year: year, month: month)).contains(day) else { return nil }
        return String(prefix)
    }

    /// RFC 4180 records of the whole text; a quoted cell may hold commas, quotes and line breaks.
    static func csvRecords(_ text: String) -> [[String]] {
        csvRecordsWithLines(text).compactMap(\.cells)
    }

    /// One record of a billing CSV: its cells, or why its line is malformed, with the 1-based
    /// line it starts on (for `FILE:LINE` warnings).
    struct CSVRecord {
        var line: Int
        var cells: [String]?
        var malformed: String?
    }

    /// The bytes a record may hold open before its quote counts as unbalanced.
    static let maxPendingBytes = 1 << 20

    /// `csvRecords`, each with its line, by the log CSV reader's rule for a stray quote
    /// (`CSVRecordParser`): a record whose quoted cell, opened on one line, closes only in a
    /// later line's quote and leaves text after it or a row that is not as wide as the header
    /// (the first row of five cells or more), or never closes, is malformed at the line where it
    /// opened, and the lines it swallowed are read again as records of their own. So one stray
    /// quote costs its own row, never the rows after it.
    static func csvRecordsWithLines(_ text: String) -> [CSVRecord] {
        var records: [CSVRecord] = []
        forEachCSVRecord(text) { record in
            records.append(record)
            return true
        }
        return records
    }

    /// Calls `body` with each record of `csvRecordsWithLines` in turn, holding none, until it
    /// returns false.
    static func forEachCSVRecord(_ text: String, _ body: (CSVRecord) -> Bool) {
        var stopped = false
        func deliver(_ record: CSVRecord) {
            if !stopped { stopped = !body(record) }
        }
        var pending: [(text: String, number: Int)] = []
        var width: Int?
        let unbalanced = "unbalanced quote: a quoted cell opened on this line never closes; the row is left out of the bill."
        func emit(_ cells: [String], line: Int) {
            deliver(CSVRecord(line: line, cells: cells))
            if width == nil, cells.count >= 5 { width = cells.count }
        }
        var pendingBytes = 0
        func feed(_ line: String, number: Int) {
            // While a quoted cell stays open, only the new line is looked at: splitting the whole
            // open record again for every line would be quadratic in it.
            if !pending.isEmpty, Array(line.utf8).withUnsafeBufferPointer({ CSVRecordParser.staysOpen($0) }) {
                pending.append((line, number))
                pendingBytes += line.utf8.count + 1
                if pendingBytes > maxPendingBytes { recover(unbalanced) }
                return
            }
            pending.append((line, number))
            pendingBytes += line.utf8.count + 1
            let candidate = pending.map(\.text).joined(separator: "\n")
            switch Array(candidate.utf8).withUnsafeBufferPointer({ CSVRecordParser.splitCells($0) }) {
            case .cells(let cells) where pending.count == 1 || width == nil || cells.count == width:
                emit(cells.map { String(decoding: $0, as: UTF8.self) }, line: pending[0].number)
                pending = []
            case .cells:
                recover("a quoted cell opened on this line closes only on a later line, leaving a row not as wide as the header; the row is left out of the bill.")
            case .malformed(let reason) where pending.count == 1:
                deliver(CSVRecord(line: number, malformed: "\(reason); the row is left out of the bill."))
                pending = []
            case .malformed:
                recover(unbalanced)
            case .openQuote:
                if pendingBytes > maxPendingBytes { recover(unbalanced) }
            }
            if pending.isEmpty { pendingBytes = 0 }
        }
        func recover(_ reason: String) {
            let swallowed = pending.dropFirst()
            deliver(CSVRecord(line: pending[0].number, malformed: reason))
            pending = []
            pendingBytes = 0
            for line in swallowed { feed(line.text, number: line.number) }
        }
        var lineNumber = 0
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            if stopped { return }
            lineNumber += 1
            var line = String(line)
            if line.hasSuffix("\r") { line.removeLast() }
            feed(line, number: lineNumber)
        }
        while !pending.isEmpty, !stopped { recover(unbalanced) }
    }
}
