import Foundation

/// Decodes price tables strictly: the schema version is checked first, unknown keys and wrong
/// types are rejected with the key path, and the table must bill every role its API generation
/// needs, with tiers in order.
struct PriceTableLoader: Sendable {
    /// The largest user table read, in bytes. The bundled tables are about 12 KB; a file past
    /// this is refused before it is read whole (a price table is never streamed).
    static let maxFileBytes = 4 * 1024 * 1024

    init() {}

    /// The bundled tables, by id, in a stable order.
    func bundled() throws -> [PriceTable] {
        try BundledPriceTables.files.map { try decode(Data($0.json.utf8), source: "Pricing/\($0.id).json") }
    }

    /// A bundled table by id, or a user's table file by path. A missing file is `unreadable`
    /// (an input that is not there) when the argument is plainly a path (it holds a `/` or ends
    /// in `.json`), else `unknownTable` (a mistyped id).
    func load(_ idOrPath: String) throws -> PriceTable {
        if let file = BundledPriceTables.files.first(where: { $0.id == idOrPath }) {
            return try decode(Data(file.json.utf8), source: "Pricing/\(file.id).json")
        }
        guard FileManager.default.fileExists(atPath: idOrPath) else {
            if idOrPath.contains("/") || idOrPath.lowercased().hasSuffix(".json") {
                throw PricingError.unreadable(path: idOrPath, reason: "there is no such file")
            }
            throw PricingError.unknownTable(id: idOrPath, known: BundledPriceTables.files.map(\.id))
        }
        guard let handle = FileHandle(forReadingAtPath: idOrPath) else {
            throw PricingError.unreadable(path: idOrPath, reason: "the file cannot be opened")
        }
        defer { try? handle.close() }
        // One byte past the limit tells an oversized file (or an endless device or pipe) from a
        // full-sized one without reading more than that.
        let data: Data
        do {
            data = try handle.read(upToCount: PriceTableLoader.maxFileBytes + 1) ?? Data()
        } catch {
            throw PricingError.unreadable(path: idOrPath, reason: "the file cannot be read")
        }
        guard data.count <= PriceTableLoader.maxFileBytes else {
            throw PricingError.invalidTable(
                source: idOrPath, keyPath: "",
                reason: "the file is larger than \(PriceTableLoader.maxFileBytes / 1024 / 1024) MB, the most a price table may be (the bundled ones are about 12 KB)"
            )
        }
        return try decode(data, source: idOrPath)
    }

    func decode(_ data: Data, source: String) throws -> PriceTable {
        func invalid(_ keyPath: String, _ reason: String) -> PricingError {
            .invalidTable(source: source, keyPath: keyPath, reason: reason)
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            // Foundation says where the text stops being JSON, or which number no Double holds.
            throw invalid("", "not valid JSON" + (JSONSerialization.failureReason(error).map { " (\($0))" } ?? ""))
        }
        guard let root = object as? [String: Any] else {
            throw invalid("", "not a JSON object")
        }
        guard let version = root["schema_version"] as? Int else {
            throw invalid("schema_version", "missing; this placescost reads schema version \(PriceTable.schemaVersion)")
        }
        guard version == PriceTable.schemaVersion else {
            throw invalid("schema_version", "version \(version) is not supported; this placescost reads version \(PriceTable.schemaVersion)")
        }
        try rejectUnknownKeys(root, invalid)

        let table: PriceTable
        do {
            table = try JSONDecoder().decode(PriceTable.self, from: data)
        } catch let error as DecodingError {
            // A count that is no whole number (`10000.5`, `1e20`) fails without a path: find it.
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty, let path = PriceTableLoader.firstNonWholeCount(in: root) {
                throw invalid(path, "not a whole number from 0 to \(Int.max)")
            }
            let (path, reason) = PriceTableLoader.describe(error)
            throw invalid(path, reason)
        }
        try validate(table, invalid)
        return table
    }

    private func rejectUnknownKeys(_ root: [String: Any], _ invalid: (String, String) -> PricingError) throws {
        func check(_ object: Any?, _ path: String, _ allowed: [String]) throws {
            guard let object = object as? [String: Any] else { return }  // wrong types are the decoder's to report
            for key in object.keys.sorted() where !allowed.contains(key) {
                throw invalid(path.isEmpty ? key : "\(path).\(key)", "unknown key (expected one of \(allowed.joined(separator: ", ")))")
            }
        }
        try check(root, "", PriceTable.CodingKeys.allCases.map(\.rawValue))
        for (index, sku) in (root["skus"] as? [Any] ?? []).enumerated() {
            try check(sku, "skus[\(index)]", PriceTable.SKU.CodingKeys.allCases.map(\.rawValue))
            for (tierIndex, tier) in ((sku as? [String: Any])?["tiers"] as? [Any] ?? []).enumerated() {
                try check(tier, "skus[\(index)].tiers[\(tierIndex)]", PriceTable.Tier.CodingKeys.allCases.map(\.rawValue))
            }
        }
        let rules = root["session_rules"] as? [String: Any]
        try check(rules, "session_rules", PriceTable.SessionRules.CodingKeys.allCases.map(\.rawValue))
        try check(rules?["terminating_details"], "session_rules.terminating_details", PriceTable.TerminatingDetails.CodingKeys.allCases.map(\.rawValue))
    }

    /// Whether `id` is 1 to 64 ASCII letters, digits, `.`, `_` or `-`, the first a letter or digit.
    static func isValidID(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard (1...64).contains(bytes.count) else { return false }
        return bytes.enumerated().allSatisfy { index, byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            case UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"): index > 0
            default: false
            }
        }
    }

    private func validate(_ table: PriceTable, _ invalid: (String, String) -> PricingError) throws {
        // The id is printed in every report, the SQL and messages: a short name, nothing to escape.
        guard PriceTableLoader.isValidID(table.id) else {
            throw invalid("id", "expected 1 to 64 letters, digits, `.`, `_` or `-`, starting with a letter or digit")
        }
        guard table.currency == "USD" else {
            throw invalid("currency", "must be USD (all money in PlacesCost is in US dollars; express a discount in USD prices)")
        }
        for key in ["effective_from"] + (table.effectiveTo == nil ? [] : ["effective_to"]) {
            let value = key == "effective_from" ? table.effectiveFrom : table.effectiveTo!
            guard PriceTableLoader.parseDay(value) != nil else { throw invalid(key, "expected a date YYYY-MM-DD, found `\(value)`") }
        }
        if let to = table.effectiveTo, to < table.effectiveFrom {
            throw invalid("effective_to", "the table's last day, \(to), comes before its first, \(table.effectiveFrom)")
        }
        // Its words are shown as they are (`pricing show`, the reports' notes): no line break,
        // control or bidirectional character may rearrange what is around them.
        var texts = [("title", table.title)] + table.notes.enumerated().map { ("notes[\($0.offset)]", $0.element) }
        for (index, sku) in table.skus.enumerated() {
            texts.append(("skus[\(index)].name", sku.name))
            for (tierIndex, tier) in sku.tiers.enumerated() {
                texts.append(("skus[\(index)].tiers[\(tierIndex)].source", tier.source))
                if let note = tier.note { texts.append(("skus[\(index)].tiers[\(tierIndex)].note", note)) }
            }
        }
        if let rules = table.sessionRules { texts.append(("session_rules.terminating_details.source", rules.terminatingDetails.source)) }
        for (path, text) in texts where !PriceTableLoader.isShowable(text) {
            throw invalid(path, "holds a line break, a control or a bidirectional formatting character; write the text on one line")
        }
        // Every number is checked against its range here, so that pricing at any `--scale` stays
        // finite and every integer conversion further on is in range.
        guard PriceTable.creditRange.contains(table.monthlyCreditUSD) else {
            throw invalid("monthly_credit_usd", "must be from \(JSONValue.format(PriceTable.creditRange.lowerBound)) to \(JSONValue.format(PriceTable.creditRange.upperBound)) US dollars, found \(JSONValue.format(table.monthlyCreditUSD))")
        }
        func volume(_ value: Int, _ path: String) throws {
            guard PriceTable.volumeRange.contains(value) else {
                throw invalid(path, "must be a monthly volume from \(PriceTable.volumeRange.lowerBound) to \(PriceTable.volumeRange.upperBound), found \(value)")
            }
        }
        var billed: [BillingRole: Int] = [:]
        for (index, sku) in table.skus.enumerated() {
            guard !sku.tiers.isEmpty else { throw invalid("skus[\(index)].tiers", "at least one tier is needed") }
            if let free = sku.freeMonthly { try volume(free, "skus[\(index)].free_monthly") }
            var previous = 0
            for (tierIndex, tier) in sku.tiers.enumerated() {
                let path = "skus[\(index)].tiers[\(tierIndex)]"
                guard PriceTable.priceRange.contains(tier.usdPer1000) else {
                    throw invalid("\(path).usd_per_1000", "must be a price from \(JSONValue.format(PriceTable.priceRange.lowerBound)) to \(JSONValue.format(PriceTable.priceRange.upperBound)) US dollars per 1000, found \(JSONValue.format(tier.usdPer1000))")
                }
                if let bound = tier.upTo { try volume(bound, "\(path).up_to") }
                let isLast = tierIndex == sku.tiers.count - 1
                switch (tier.upTo, isLast) {
                case (nil, true): break
                case (nil, false): throw invalid("\(path).up_to", "only the last tier may be open-ended")
                case (let bound?, true): throw invalid("\(path).up_to", "the last tier must be open-ended (null), found \(bound)")
                case (let bound?, false):
                    guard bound > previous else { throw invalid("\(path).up_to", "tiers must rise: \(bound) is not above \(previous)") }
                    previous = bound
                }
            }
            for role in sku.roles {
                if let other = billed[role] {
                    throw invalid("skus[\(index)].roles", "`\(role.rawValue)` is already billed by skus[\(other)]")
                }
                billed[role] = index
            }
        }
        let missing = BillingRole.required(for: table.apiVersion).filter { billed[$0] == nil }
        guard missing.isEmpty else {
            throw invalid("skus", "a \(table.apiVersion.rawValue) table must bill \(missing.map(\.rawValue).joined(separator: ", "))")
        }
        switch (table.apiVersion, table.sessionRules) {
        case (.new, nil): throw invalid("session_rules", "a new (Places API New) table needs its session rules")
        case (.legacy, .some): throw invalid("session_rules", "legacy tables have no session rules; remove the key")
        case (.new, let rules?):
            guard PriceTable.requestCapRange.contains(rules.essentialsRequestCap) else {
                throw invalid("session_rules.essentials_request_cap", "must be from \(PriceTable.requestCapRange.lowerBound) to \(PriceTable.requestCapRange.upperBound) requests, found \(rules.essentialsRequestCap)")
            }
            guard PriceTableLoader.parseDay(rules.terminatingDetails.effectiveFrom) != nil else {
                throw invalid("session_rules.terminating_details.effective_from", "expected a date YYYY-MM-DD")
            }
        case (.legacy, nil): break
        }
    }

    /// Whether `text` has no character that could break or rearrange a line it is shown on.
    static func isShowable(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse: false
            default: true
            }
        }
    }

    /// Days since the epoch of a `YYYY-MM-DD` date.
    static func parseDay(_ text: String) -> Int? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...CivilDate.daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        return CivilDate.daysSinceEpoch(year: year, month: month, day: day)
    }

    /// The key path of the first count of the table (`free_monthly`, `up_to`,
    /// `essentials_request_cap`) that is a number but no whole number an `Int` holds.
    static func firstNonWholeCount(in root: [String: Any]) -> String? {
        func isWholeCount(_ value: Any?) -> Bool {
            guard let number = value as? NSNumber else { return true }  // absent, null or another type: the decoder says
            let double = number.doubleValue
            return double == double.rounded() && abs(double) < 9.2e18
        }
        let skus = root["skus"] as? [[String: Any]] ?? []
        for (index, sku) in skus.enumerated() {
            if !isWholeCount(sku["free_monthly"]) { return "skus[\(index)].free_monthly" }
            for (tier, entry) in (sku["tiers"] as? [[String: Any]] ?? []).enumerated() where !isWholeCount(entry["up_to"]) {
                return "skus[\(index)].tiers[\(tier)].up_to"
            }
        }
        if let rules = root["session_rules"] as? [String: Any], !isWholeCount(rules["essentials_request_cap"]) {
            return "session_rules.essentials_request_cap"
        }
        return nil
    }

    /// A decoding error as a key path (`skus[3].tiers`) and a reason.
    static func describe(_ error: DecodingError) -> (String, String) {
        func path(_ codingPath: [CodingKey]) -> String {
            var text = ""
            for key in codingPath {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
                }
            }
            return text
        }
        switch error {
        case .typeMismatch(let type, let context):
            return (path(context.codingPath), "expected \(typeName(type))")
        case .valueNotFound(let type, let context):
            return (path(context.codingPath), "expected \(typeName(type)), found null")
        case .keyNotFound(let key, let context):
            return (path(context.codingPath + [key]), "missing")
        case .dataCorrupted(let context):
            return (path(context.codingPath), context.debugDescription.hasPrefix("Cannot initialize") ? "not one of the allowed values" : context.debugDescription)
        @unknown default:
            return ("", "\(error)")
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        if type is Double.Type || type is Int.Type { return "a number" }
        if type is String.Type { return "a string" }
        if type is Bool.Type { return "true or false" }
        let name = String(describing: type)
        if name.hasPrefix("Array") { return "an array" }
        if name.hasPrefix("Dictionary") { return "an object" }
        return "a \(name)"
    }
}
