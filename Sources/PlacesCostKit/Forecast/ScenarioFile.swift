import Foundation

/// A `--scenario FILE`: named what-ifs priced side by side on the same measured traffic
/// (`docs/schema/scenarios.schema.json`, `docs/cli.md`).
struct ScenarioFile: Sendable, Equatable {
    /// The `schema` a scenario file names.
    static let schema = "placescost.scenarios/1"
    /// Scenarios a file may hold.
    static let countRange = 1...20
    /// Largest scenario file read: a few scenarios take a kilobyte.
    static let maxBytes = 1 << 20

    /// Which of the app's field masks a scenario prices.
    enum Fields: String, Sendable, Equatable, CaseIterable {
        /// The field masks of the log.
        case asMeasured = "as_measured"
        /// Address and location only (`session_details_basic` when the mistakes are fixed).
        case addressOnly = "address_only"
    }

    struct Scenario: Sendable, Equatable {
        var name: String
        /// Unset members take the command line's value, then `simulate --from`'s default.
        var searches: Double?
        var growthPercent: Double?
        var months: Int?
        var start: Int?
        var pricing: String?
        /// Whether the token mistakes are fixed: the calls priced as proper sessions.
        var mistakesFixed: Bool
        var fields: Fields
        var delay: Int
        /// A strategy named outright, instead of `mistakesFixed` and `fields`.
        var strategy: StrategyID?

        /// The strategy the scenario prices.
        var pricedStrategy: StrategyID {
            if let strategy { return strategy }
            guard mistakesFixed else { return .current }
            return fields == .addressOnly ? .sessionDetailsBasic : .sessionDetails
        }
    }

    var scenarios: [Scenario]

    static let keys: Set<String> = ["name", "searches", "growth_pct", "months", "start", "pricing", "mistakes_fixed", "fields", "delay", "strategy"]

    /// The file at `path`; `file` names it in errors.
    static func read(path: String, shownAs file: String) throws -> ScenarioFile {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ForecastError.scenarioUnreadable(file: file)
        }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: maxBytes + 1) else { throw ForecastError.scenarioUnreadable(file: file) }
        guard data.count <= maxBytes else { throw ForecastError.invalidScenarios(file: file, reason: "it is larger than 1 MB") }
        return try decode(data, file: file)
    }

    static func decode(_ data: Data, file: String) throws -> ScenarioFile {
        func invalid(_ reason: String) -> ForecastError { .invalidScenarios(file: file, reason: reason) }
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { throw invalid("it is not a JSON object") }
        guard let schema = root["schema"] as? String else { throw invalid("`schema` is missing; it must be \"\(ScenarioFile.schema)\"") }
        guard schema == ScenarioFile.schema else { throw invalid("`schema` is \"\(schema)\", not \"\(ScenarioFile.schema)\"") }
        if let key = root.keys.sorted().first(where: { $0 != "schema" && $0 != "scenarios" }) { throw invalid("`\(key)` is not a key of a scenario file") }
        guard let list = root["scenarios"] as? [Any] else { throw invalid("`scenarios` is missing or not an array") }
        guard countRange.contains(list.count) else { throw invalid("`scenarios` holds \(list.count) scenarios; give \(countRange.lowerBound) to \(countRange.upperBound)") }
        for (index, entry) in list.enumerated() {
            guard let object = entry as? [String: Any] else { throw invalid("`scenarios[\(index)]` is not an object") }
            if let key = object.keys.sorted().first(where: { !keys.contains($0) }) {
                throw invalid("`scenarios[\(index)].\(key)` is not a key of a scenario (\(keys.sorted().joined(separator: ", ")))")
            }
        }
        let raw: Raw
        do {
            raw = try JSONDecoder().decode(Raw.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw invalid("`\(path(context.codingPath + [key]))` is missing")
        } catch let DecodingError.typeMismatch(_, context) {
            throw invalid("`\(path(context.codingPath))` has the wrong type")
        } catch let DecodingError.valueNotFound(_, context) {
            throw invalid("`\(path(context.codingPath))` is null")
        } catch {
            throw invalid("it cannot be read as a scenario file")
        }
        var scenarios: [Scenario] = []
        for (index, entry) in raw.scenarios.enumerated() {
            let at = "`scenarios[\(index)]"
            func check(_ value: Double?, _ key: String, _ range: ClosedRange<Double>, whole: Bool = false) throws {
                guard let value else { return }
                guard value.isFinite, range.contains(value), !whole || value == value.rounded() else {
                    throw invalid("\(at).\(key)` must be \(whole ? "a whole number" : "a number") from \(JSONValue.format(range.lowerBound)) to \(JSONValue.format(range.upperBound))")
                }
            }
            try check(entry.searches, "searches", 0.000_001...Forecast.maxSearches)
            try check(entry.growth_pct, "growth_pct", -100...ForecastCommand.maxGrowthPercent)
            try check(entry.months, "months", 1...120, whole: true)
            try check(entry.delay, "delay", 0...100, whole: true)
            let name = entry.name
            guard !name.isEmpty else { throw invalid("\(at).name` is empty") }
            guard !scenarios.contains(where: { $0.name == name }) else { throw invalid("two scenarios are named \"\(name)\"") }
            var start: Int?
            if let text = entry.start {
                guard let index = Forecast.monthIndex(text) else { throw invalid("\(at).start` must be a month as YYYY-MM, not \"\(text)\"") }
                start = index
            }
            var fields = Fields.asMeasured
            if let text = entry.fields {
                guard let value = Fields(rawValue: text) else { throw invalid("\(at).fields` must be \"as_measured\" or \"address_only\", not \"\(text)\"") }
                fields = value
            }
            var strategy: StrategyID?
            if let text = entry.strategy {
                guard let value = StrategyID(rawValue: text) else {
                    throw invalid("\(at).strategy` must be one of \(StrategyID.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(text)\"")
                }
                strategy = value
            }
            let mistakesFixed = entry.mistakes_fixed ?? false
            if fields == .addressOnly, !mistakesFixed, strategy == nil {
                throw invalid("\(at)` asks for address-only fields with the mistakes kept; the address-only strategy is priced with proper sessions, so set `mistakes_fixed` to true")
            }
            if let pricing = entry.pricing, pricing.isEmpty { throw invalid("\(at).pricing` is empty") }
            scenarios.append(Scenario(
                name: name, searches: entry.searches, growthPercent: entry.growth_pct, months: entry.months.map { Int($0) },
                start: start, pricing: entry.pricing, mistakesFixed: mistakesFixed, fields: fields,
                delay: entry.delay.map { Int($0) } ?? 0, strategy: strategy
            ))
        }
        return ScenarioFile(scenarios: scenarios)
    }

    /// `scenarios[1].months`, from a decoder's coding path.
    private static func path(_ keys: [CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
    }

    /// A scenario file's members, spelled as the file spells them; ranges are checked after.
    private struct Raw: Decodable {
        struct Entry: Decodable {
            var name: String
            var searches: Double?
            var growth_pct: Double?
            var months: Double?
            var start: String?
            var pricing: String?
            var mistakes_fixed: Bool?
            var fields: String?
            var delay: Double?
            var strategy: String?
        }

        var scenarios: [Entry]
    }
}
