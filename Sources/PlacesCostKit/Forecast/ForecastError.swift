/// Why `simulate --from` cannot start from the traffic it was given.
enum ForecastError: Error, Equatable, CustomStringConvertible {
    /// A JSON document whose `schema` is not `placescost.report/1`.
    case notAReport(file: String, schema: String)
    /// A `report.json` written before reports held each month's SKU lines.
    case noMonthLines(file: String)
    /// A report whose period holds no search: there is no traffic per search to scale.
    case noSearches(file: String)
    /// A table the report was priced with that is not bundled, and `--pricing` names another.
    case tableNotAvailable(file: String, id: String)
    /// `--pricing` names a table of another API generation than the measured calls, and the
    /// report has no `traffic` to bill them again from (written by an older placescost).
    case noTraffic(file: String, table: String, generation: APIGeneration)
    /// A table of the other generation whose dated session rule starts inside the log's months on
    /// a day the report's periods were not split at: which searches it applies to is not known.
    case ruleDayInsidePeriod(file: String, table: String, day: String)
    /// A `--scenario` file that cannot be opened.
    case scenarioUnreadable(file: String)
    /// A `--scenario` file that is not a scenario file, or holds a value out of range.
    case invalidScenarios(file: String, reason: String)
    /// A scenario's or a cohort's `pricing` (`member`: `scenarios[0].pricing`,
    /// `scenarios[0].cohorts[1].pricing`) that names no bundled table, a table file that is not
    /// there or cannot be read, or an invalid one.
    case scenarioPricing(file: String, member: String, error: PricingError)
    /// A scenario's delay that the report did not price.
    case delayNotPriced(scenario: String, delay: Int, priced: [Int])
    /// A measured SKU that the table in force has no line for.
    case skuNotInTable(sku: String, table: String)

    var description: String {
        switch self {
        case .notAReport(let file, let schema):
            "\(file) is a `\(schema)` document, not a report.json of `analyze` (`\(JSONReportRenderer.schema)`). Give simulate --from a log or a report.json written by `placescost analyze --json` or `--out`."
        case .noMonthLines(let file):
            "\(file) has no `strategies[].months[].lines`: it was written by an older placescost. Write it again with `placescost analyze --json`, or give simulate --from the logs."
        case .noSearches(let file):
            "\(file) holds no search, so there is no traffic per search to simulate from."
        case .tableNotAvailable(let file, let id):
            "\(file) was priced with the table `\(id)`, which is not bundled. Give the same table with --pricing FILE."
        case .noTraffic(let file, let table, let generation):
            "\(file) has no `traffic` member: it was written by an older placescost, and `\(table)` bills \(ForecastError.name(generation)) calls, whose SKUs and session rules differ from the measured calls'. "
                + "Write the report again with `placescost analyze --json` (or give simulate --from the logs) to bill its searches with another API generation's rules."
        case .ruleDayInsidePeriod(let file, let table, let day):
            "`\(table)` changes its terminating-details rule on \(day), inside the months of \(file), which was not split at that day, so the searches on each side of it are not known. Price the log with it directly: placescost analyze LOG --pricing \(table)."
        case .scenarioUnreadable(let file):
            "cannot read the scenario file \(file). Give --scenario a JSON file as docs/cli.md (simulate --scenario) describes."
        case .invalidScenarios(let file, let reason):
            "\(file) is not a scenario file of `\(ScenarioFile.schema)`: \(reason) (docs/schema/scenarios.schema.json)."
        case .scenarioPricing(let file, let member, let error):
            switch error {
            case .unknownTable(let id, let known):
                "`\(member)` of \(file) names no price table `\(id)`: give one of \(known.joined(separator: ", ")) (see `placescost pricing list`) or the path of a JSON price table."
            case .unreadable(let path, let reason):
                "cannot read the price table \(path) that `\(member)` of \(file) names: \(reason). Check the path, or name a bundled table (`placescost pricing list`)."
            case .invalidTable:
                "`\(member)` of \(file) names an invalid price table: \(error)"
            }
        case .delayNotPriced(let scenario, let delay, let priced):
            "the scenario \"\(scenario)\" asks for delay \(delay), which the report did not price (it priced \(priced.map(String.init).joined(separator: ", "))); write the report again with `analyze --delays`."
        case .skuNotInTable(let sku, let table):
            "the measured traffic bills the SKU `\(sku)`, which the table `\(table)` does not list, so the traffic cannot be billed with it."
        }
    }

    static func name(_ generation: APIGeneration) -> String {
        switch generation {
        case .legacy: "legacy Places API"
        case .new: "Places API (New)"
        }
    }
}
