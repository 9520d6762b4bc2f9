import Foundation

/// `traffic` read back from a `report.json`, every row checked: a report edited by hand gets a
/// sentence naming the member, never a crash.
extension MeasuredTraffic {
    /// The `traffic` member of `root`, nil when the report has none (written by an older placescost).
    static func decode(_ root: [String: Any], file: String) throws -> MeasuredTraffic? {
        guard let value = root["traffic"], !(value is NSNull) else { return nil }
        func invalid(_ reason: String) -> CompareError { .invalidReport(file: file, reason: reason) }
        guard let object = value as? [String: Any] else { throw invalid("`traffic` is not an object") }
        func integer(_ value: Any?, _ path: String, nullable: Bool = false) throws -> Int? {
            if nullable, value == nil || value is NSNull { return nil }
            guard let number = value as? NSNumber,
                  let whole = Int(exactly: number.doubleValue), whole >= 0 else {
                throw invalid("`\(path)` is not a whole number of 0 or more")
            }
            return whole
        }
        func text(_ value: Any?, _ path: String) throws -> String {
            guard let text = value as? String else { throw invalid("`\(path)` is not a string") }
            return text
        }
        func generation(_ value: Any?, _ path: String) throws -> APIGeneration? {
            if value == nil || value is NSNull { return nil }
            guard let raw = value as? String, let generation = APIGeneration(rawValue: raw) else {
                throw invalid("`\(path)` is not legacy, new or null")
            }
            return generation
        }
        func rows(_ key: String, columns: Int) throws -> [[Any]] {
            guard let list = object[key] as? [Any] else { throw invalid("`traffic.\(key)` is missing or not an array") }
            return try list.enumerated().map { index, row in
                guard let row = row as? [Any], row.count == columns else {
                    throw invalid("`traffic.\(key)[\(index)]` is not a row of \(columns) values")
                }
                return row
            }
        }
        let classes = try integer(object["length_classes"], "traffic.length_classes")!
        guard let dayList = object["rule_days"] as? [Any] else { throw invalid("`traffic.rule_days` is missing or not an array") }
        let ruleDays = try dayList.enumerated().map { index, value in
            guard let text = value as? String, let day = PriceTableLoader.parseDay(text) else {
                throw invalid("`traffic.rule_days[\(index)]` is not a date as YYYY-MM-DD")
            }
            return day
        }
        guard let maskList = object["field_masks"] as? [Any] else { throw invalid("`traffic.field_masks` is missing or not an array") }
        let masks = try maskList.enumerated().map { index, mask in
            guard let fields = mask as? [String] else { throw invalid("`traffic.field_masks[\(index)]` is not a list of field names") }
            return fields
        }
        let periods = try rows("periods", columns: 2).enumerated().map { index, row in
            let month = try text(row[0], "traffic.periods[\(index)][0]")
            guard Forecast.monthIndex(month) != nil else { throw invalid("`traffic.periods[\(index)][0]` is not a month as YYYY-MM") }
            guard case .success(let time) = TimestampParser.parse(try text(row[1], "traffic.periods[\(index)][1]")) else {
                throw invalid("`traffic.periods[\(index)][1]` is not an RFC 3339 time")
            }
            return Period(month: month, firstCall: time)
        }
        func period(_ value: Any?, _ path: String) throws -> Int {
            let index = try integer(value, path)!
            guard index < periods.count else { throw invalid("`\(path)` names no period of `traffic.periods`") }
            return index
        }
        func mask(_ value: Any?, _ path: String) throws -> Int? {
            guard let index = try integer(value, path, nullable: true) else { return nil }
            guard index < masks.count else { throw invalid("`\(path)` names no field mask of `traffic.field_masks`") }
            return index
        }
        let searches = try rows("searches", columns: searchColumns.count).enumerated().map { index, row in
            let at = "traffic.searches[\(index)]"
            guard let kind = Search.Kind(rawValue: try text(row[1], at + "[1]")) else { throw invalid("`\(at)[1]` is not session, spent_token or inferred") }
            guard let outcome = Search.Outcome(rawValue: try text(row[2], at + "[2]")) else {
                throw invalid("`\(at)[2]` is not completed, abandoned or expired")
            }
            let requests = try integer(row[4], at + "[4]")!
            guard let short = row[6] as? [Any] else { throw invalid("`\(at)[6]` is not a list of counts") }
            let shortLengths = try short.enumerated().map { try integer($1, at + "[6][\($0)]")! }
            guard shortLengths.count <= classes, shortLengths.reduce(0, +) <= max(requests - 1, 0) else {
                throw invalid("`\(at)[6]` counts more calls or length classes than the search has")
            }
            let selection = row[7] is NSNull ? nil : API.parse(try text(row[7], at + "[7]")).api
            return SearchShape(
                period: try period(row[0], at + "[0]"), kind: kind, outcome: outcome, generation: try generation(row[3], at + "[3]"),
                requests: requests, lastLength: try integer(row[5], at + "[5]", nullable: true), shortLengths: shortLengths,
                selectionAPI: selection, selectionGeneration: try generation(row[8], at + "[8]"), fields: try mask(row[9], at + "[9]"),
                count: try integer(row[10], at + "[10]")!
            )
        }
        let calls = try rows("calls", columns: callColumns.count).enumerated().map { index, row in
            let at = "traffic.calls[\(index)]"
            return CallShape(
                period: try period(row[0], at + "[0]"), api: API.parse(try text(row[1], at + "[1]")).api,
                generation: try generation(row[2], at + "[2]"), fields: try mask(row[3], at + "[3]"), count: try integer(row[4], at + "[4]")!
            )
        }
        return MeasuredTraffic(lengthClasses: classes, ruleDays: ruleDays, fieldMasks: masks, periods: periods, searches: searches, calls: calls)
    }
}
