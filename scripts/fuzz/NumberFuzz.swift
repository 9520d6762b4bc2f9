// The `numbers` libFuzzer target: one user number, put where users put numbers.
//
// The first byte of the input picks a slot (a numeric option of a command, a number of a price
// table, a cell of a billing export); the rest, up to 64 bytes, is the number's text, written
// into that slot as it is. The command then runs in-process, and must:
//   - not trap (a trap, an overflow or an address-sanitizer report is libFuzzer's finding),
//   - exit with a documented code (0, 64, 65, 66, 73, 74),
//   - when it succeeds with JSON on standard output, print JSON that parses and holds no
//     number that is NaN or infinite, and no `null` where the report promises a number.
// `scripts/fuzz/numbers.dict` gives libFuzzer the adversarial spellings (1e308, nan, Int64.max).

import Foundation
@testable import PlacesCostKit

enum NumberFuzz {
    /// Where a number goes, and the command that reads it.
    enum Slot: CaseIterable {
        case sessionTimeout, userGap, reorderWindow, scale, maxDelay, delays, threads, since
        case simulateSearches, simulateRequests, simulateChars, simulateDelay, simulateCompletion, simulateMonths
        case generateStart, generateDays, generateSeed
        case price, tierBound, freeMonthly, monthlyCredit, requestCap, pricingShow
        case usageAmount, cost, credit
    }

    /// A small log of two searches for the commands that read one.
    static let log = """
    {"timestamp":"2026-10-01T00:46:37.450Z","api":"autocomplete","session_token":"t1","input":"S","api_version":"legacy","user_id":"u1"}
    {"timestamp":"2026-10-01T00:46:38.450Z","api":"autocomplete","session_token":"t1","input":"St","api_version":"legacy","user_id":"u1"}
    {"timestamp":"2026-10-01T00:46:40.000Z","api":"place_details","session_token":"t1","place_id":"p1","fields":["formatted_address"],"api_version":"legacy","user_id":"u1"}
    {"timestamp":"2026-10-02T10:00:00.000Z","api":"autocomplete","session_token":"t2","input":"B","api_version":"legacy","user_id":"u2"}

    """

    /// A console cost-table export with `USAGE`, `COST` and `CREDIT` to fill in.
    static let bill = """
    Invoice month,2026-10
    Currency,USD

    Billing account name,Billing account ID,Project name,Project ID,Project hierarchy,Service description,Service ID,SKU description,SKU ID,Consumption model description,Credit type,Cost type,Usage start date,Usage end date,Usage amount,Usage unit,Unrounded Cost ($),Cost ($)
    A,1,P,p,,Places API,X,Autocomplete - Per Request,S1,Default,,Usage,2026-10-01,2026-10-31,USAGE,count,COST,COST
    A,1,P,p,,Places API,X,Places Details,S2,Default,,Usage,2026-10-01,2026-10-31,3,count,0.05,0.05
    A,1,P,p,,Places API,X,Places Details,S2,Default,Monthly credit,Credit,2026-10-01,2026-10-31,0,count,CREDIT,CREDIT

    """

    static func table(_ id: String) -> String {
        BundledPriceTables.files.first { $0.id == id }!.json
    }

    /// `text` in place of the first match of `pattern` (a regular expression) in `json`.
    static func replacing(_ pattern: String, in json: String, with text: String) -> String {
        guard let range = json.range(of: pattern, options: .regularExpression) else { return json }
        let match = String(json[range])
        let key = match[..<match.index(after: match.firstIndex(of: ":")!)]
        return json.replacingCharacters(in: range, with: key + " " + text)
    }

    /// Runs `text` in `slot` and checks the outcome; returns a description of a violation.
    static func check(slot: Slot, text: String, scratch: String) -> String? {
        let logPath = scratch + ".jsonl"
        let tablePath = scratch + "-table.json"
        let billPath = scratch + "-bill.csv"
        try? log.write(toFile: logPath, atomically: false, encoding: .utf8)
        let analyze = ["analyze", logPath, "--json", "--quiet", "--threads", "1"]
        let simulate = ["simulate", "--json"]
        var json = true
        let arguments: [String]
        switch slot {
        case .sessionTimeout: arguments = analyze + ["--session-timeout", text]
        case .userGap: arguments = analyze + ["--user-gap", text]
        case .reorderWindow: arguments = analyze + ["--reorder-window", text]
        case .scale: arguments = analyze + ["--scale", text]
        case .maxDelay: arguments = analyze + ["--max-delay", text]
        case .delays: arguments = analyze + ["--delays", text]
        case .threads: arguments = analyze + ["--threads", text]
        case .since: arguments = analyze + ["--since", text]
        case .simulateSearches: arguments = simulate + ["--searches", text]
        case .simulateRequests: arguments = simulate + ["--requests", text]
        case .simulateChars: arguments = simulate + ["--chars", text, "--delay", "2"]
        case .simulateDelay: arguments = simulate + ["--delay", text]
        case .simulateCompletion: arguments = simulate + ["--completion-rate", text]
        case .simulateMonths: arguments = simulate + ["--months", text]
        case .generateStart, .generateDays, .generateSeed:
            json = false
            let option = slot == .generateStart ? "--start" : slot == .generateDays ? "--days" : "--seed"
            arguments = ["generate", "--searches", "3", option, text]
        case .price, .tierBound, .freeMonthly, .monthlyCredit, .requestCap, .pricingShow:
            let pattern: String
            var id = "legacy-2018"
            switch slot {
            case .price, .pricingShow: pattern = #""usd_per_1000": [0-9.]+"#
            case .tierBound: pattern = #""up_to": [0-9]+"#
            case .freeMonthly: pattern = #""free_monthly": [0-9]+"#
            case .monthlyCredit: pattern = #""monthly_credit_usd": [0-9.]+"#
            default:
                pattern = #""essentials_request_cap": [0-9]+"#
                id = "places-new-2025"
            }
            try? replacing(pattern, in: table(id), with: text).write(toFile: tablePath, atomically: false, encoding: .utf8)
            arguments = slot == .pricingShow ? ["pricing", "show", tablePath, "--json"] : simulate + ["--pricing", tablePath, "--searches", "100000000"]
        case .usageAmount, .cost, .credit:
            let cell = text.contains(",") || text.contains("\"") ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
            let filled = bill
                .replacingOccurrences(of: "USAGE", with: slot == .usageAmount ? cell : "10")
                .replacingOccurrences(of: "COST", with: slot == .cost ? cell : "0.03")
                .replacingOccurrences(of: "CREDIT", with: slot == .credit ? cell : "-0.05")
            try? filled.write(toFile: billPath, atomically: false, encoding: .utf8)
            arguments = ["reconcile", logPath, "--billing", billPath, "--json", "--quiet", "--threads", "1"]
        }
        let out = StringSink()
        let context = CommandContext(standardOutput: out, standardError: StringSink(), workingDirectory: "/tmp")
        let code = CLI(arguments: arguments, context: context).run()
        guard [.success, .usage, .dataError, .noInput, .cannotCreate, .ioError].contains(code) else {
            return "\(arguments): exit code \(code.rawValue) is not a documented one"
        }
        guard code == .success, json else { return nil }
        return nonFiniteJSONProblem(out.text).map { "\(arguments): \($0)" }
    }
}
