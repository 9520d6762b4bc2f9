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

    /// The table a `pricing` member names, as `PriceTableLoader.load` takes it: a bundled table's
    /// id or an absolute path as written, a relative path from the folder of the scenario file at
    /// `path` (so a file and the tables beside it work from any directory), never from the
    /// working directory. A name that is no bundled id and does not look like a path (no `/`, no
    /// `.json`) stays as written unless such a file is there, so that it is reported as an
    /// unknown table, as `--pricing` reports it.
    static func tableArgument(_ pricing: String, scenarioFile path: String) -> String {
        guard !pricing.hasPrefix("/"), !BundledPriceTables.files.contains(where: { $0.id == pricing }) else { return pricing }
        let folder = (path as NSString).deletingLastPathComponent
        let resolved = folder.isEmpty ? pricing : folder + "/" + pricing
        let looksLikePath = pricing.contains("/") || pricing.lowercased().hasSuffix(".json")
        return looksLikePath || FileManager.default.fileExists(atPath: resolved) ? resolved : pricing
    }

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
        /// Shares of each month's searches that behave otherwise for a number of months; their
        /// shares sum to at most 1, the rest follows the scenario's own settings.
        var cohorts: [Cohort] = []

        /// The strategy the scenario prices.
        var pricedStrategy: StrategyID {
            ScenarioFile.strategy(strategy, mistakesFixed: mistakesFixed, fields: fields)
        }
    }

    /// A share of every month's searches that, for its first `months` months, behaves as its own
    /// members say (users still on an old build of the app), then as the scenario says.
    struct Cohort: Sendable, Equatable {
        /// More than 0, at most 1, of each month's searches.
        var share: Double
        var months: Int
        var mistakesFixed: Bool
        var fields: Fields
        var delay: Int
        var strategy: StrategyID?
        /// A table of its own (another API generation allowed); nil: the scenario's.
        var pricing: String?

        var pricedStrategy: StrategyID {
            ScenarioFile.strategy(strategy, mistakesFixed: mistakesFixed, fields: fields)
        }
    }

    /// The strategy of a behaviour: named outright, or what the mistakes and field mask make it.
    static func strategy(_ named: StrategyID?, mistakesFixed: Bool, fields: Fields) -> StrategyID {
        if let named { return named }
        guard mistakesFixed else { return .current }
        return fields == .addressOnly ? .sessionDetailsBasic : .sessionDetails
    }

    var scenarios: [Scenario]

    static let keys: Set<String> = ["name", "searches", "growth_pct", "months", "start", "pricing", "mistakes_fixed", "fields", "delay", "strategy", "cohorts"]
    static let cohortKeys: Set<String> = ["share", "months", "pricing", "mistakes_fixed", "fields", "delay", "strategy"]
    /// Cohorts a scenario may hold.
    static let cohortCountRange = 0...10
    /// Shares may sum past 1 by this much, for decimal fractions (three thirds) written in binary.
    static let shareTolerance = 1e-9

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
            guard let cohorts = object["cohorts"] else { continue }
            guard let list = cohorts as? [Any] else { throw invalid("`scenarios[\(index)].cohorts` is not an array") }
            guard cohortCountRange.contains(list.count) else {
                throw invalid("`scenarios[\(index)].cohorts` holds \(list.count) cohorts; give at most \(cohortCountRange.upperBound)")
            }
            for (position, cohort) in list.enumerated() {
                guard let cohort = cohort as? [String: Any] else { throw invalid("`scenarios[\(index)].cohorts[\(position)]` is not an object") }
                if let key = cohort.keys.sorted().first(where: { !cohortKeys.contains($0) }) {
                    throw invalid("`scenarios[\(index)].cohorts[\(position)].\(key)` is not a key of a cohort (\(cohortKeys.sorted().joined(separator: ", ")))")
                }
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
            for (position, cohort) in (entry.cohorts ?? []).enumerated() {
                try check(cohort.delay, "cohorts[\(position)].delay", 0...100, whole: true)
            }
            let name = entry.name
            guard !name.isEmpty else { throw invalid("\(at).name` is empty") }
            guard !scenarios.contains(where: { $0.name == name }) else { throw invalid("two scenarios are named \"\(name)\"") }
            var start: Int?
            if let text = entry.start {
                guard let index = Forecast.monthIndex(text) else { throw invalid("\(at).start` must be a month as YYYY-MM, not \"\(text)\"") }
                start = index
            }
            let mistakesFixed = entry.mistakes_fixed ?? false
            let behaviour = try Behaviour(
                at: at, fields: entry.fields, strategy: entry.strategy, mistakesFixed: entry.mistakes_fixed, delay: entry.delay, pricing: entry.pricing,
                invalid: invalid
            )
            var cohorts: [Cohort] = []
            for (position, raw) in (entry.cohorts ?? []).enumerated() {
                let at = "\(at).cohorts[\(position)]"
                guard raw.share.isFinite, raw.share > 0, raw.share <= 1 else { throw invalid("\(at).share` must be a number above 0 and at most 1") }
                try check(raw.months, "cohorts[\(position)].months", 1...120, whole: true)
                let own = try Behaviour(
                    at: at, fields: raw.fields, strategy: raw.strategy, mistakesFixed: raw.mistakes_fixed, delay: raw.delay, pricing: raw.pricing,
                    invalid: invalid
                )
                cohorts.append(Cohort(
                    share: raw.share, months: Int(raw.months), mistakesFixed: raw.mistakes_fixed ?? false, fields: own.fields,
                    delay: own.delay, strategy: own.strategy, pricing: raw.pricing
                ))
            }
            let shares = cohorts.reduce(0) { $0 + $1.share }
            guard shares <= 1 + shareTolerance else {
                throw invalid("\(at).cohorts` shares sum to \(JSONValue.format(shares)); they must sum to at most 1 (the rest follows the scenario's own settings)")
            }
            scenarios.append(Scenario(
                name: name, searches: entry.searches, growthPercent: entry.growth_pct, months: entry.months.map { Int($0) },
                start: start, pricing: entry.pricing, mistakesFixed: mistakesFixed, fields: behaviour.fields,
                delay: behaviour.delay, strategy: behaviour.strategy, cohorts: cohorts
            ))
        }
        return ScenarioFile(scenarios: scenarios)
    }

    /// A scenario's or a cohort's behaviour members, checked: `at` is "`scenarios[0]" or
    /// "`scenarios[0].cohorts[1]", as messages name it.
    private struct Behaviour {
        var fields: Fields
        var delay: Int
        var strategy: StrategyID?

        init(
            at: String, fields text: String?, strategy name: String?, mistakesFixed: Bool?, delay: Double?, pricing: String?,
            invalid: (String) -> ForecastError
        ) throws {
            fields = Fields.asMeasured
            if let text {
                guard let value = Fields(rawValue: text) else { throw invalid("\(at).fields` must be \"as_measured\" or \"address_only\", not \"\(text)\"") }
                fields = value
            }
            if let name {
                guard let value = StrategyID(rawValue: name) else {
                    throw invalid("\(at).strategy` must be one of \(StrategyID.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(name)\"")
                }
                strategy = value
            }
            if fields == .addressOnly, !(mistakesFixed ?? false), strategy == nil {
                throw invalid("\(at)` asks for address-only fields with the mistakes kept; the address-only strategy is priced with proper sessions, so set `mistakes_fixed` to true")
            }
            if let pricing, pricing.isEmpty { throw invalid("\(at).pricing` is empty") }
            self.delay = delay.map { Int($0) } ?? 0
        }
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
            var cohorts: [Cohort]?
        }

        struct Cohort: Decodable {
            var share: Double
            var months: Double
            var pricing: String?
            var mistakes_fixed: Bool?
            var fields: String?
            var delay: Double?
            var strategy: String?
        }

        var scenarios: [Entry]
    }
}
