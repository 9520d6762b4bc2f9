import Foundation
import Testing
@testable import PlacesCostKit
import PlacesCostReference

/// Issue 20, classes 1, 2 and 9: a billing row whose numbers cannot be used is skipped, counted
/// and warned about at its line (never dropped silently, never summed into an infinity, never a
/// trap), and an export past the size limit is refused.
@Suite("Billing export numbers and size")
struct BillingExportNumberTests {
    static let header = "Billing account name,Billing account ID,Project name,Project ID,Project hierarchy,Service description,Service ID,SKU description,SKU ID,Consumption model description,Credit type,Cost type,Usage start date,Usage end date,Usage amount,Usage unit,Unrounded Cost ($),Cost ($)"

    /// A console export whose line 5 has `usage` and `cost`; line 6 is a good row.
    static func console(usage: String = "10", cost: String = "0.03") -> String {
        """
        Invoice month,2026-10

        \(header)
        A,1,P,p,,Places API,X,Autocomplete - Per Request,S1,Default,,Usage,2026-10-01,2026-10-31,\(usage),count,\(cost),\(cost)
        A,1,P,p,,Places API,X,Places Details,S2,Default,,Usage,2026-10-01,2026-10-31,3,count,0.05,0.05

        """
    }

    @Test("Costs that are not numbers, not finite, or out of range: skipped, counted, warned at their line")
    func costs() throws {
        for cost in ["NaN", "nan", "1e400", "-1e400", "1e308", "inf", "1e13", "n/a", "\"1,000,000,000,000,000\""] {
            let usage = try BillingExportReader().parse(BillingExportNumberTests.console(cost: cost), file: "bill.csv")
            #expect(usage.skippedRows == 1, "\(cost)")
            #expect(usage.skus.map(\.sku) == ["Places Details"], "\(cost)")
            #expect(usage.costUSD.isFinite)
            let warning = try #require(usage.warnings.first, "\(cost)")
            #expect(warning.location == SourceLocation(file: "bill.csv", line: 4), "\(cost): \(warning)")
            #expect(warning.reason.contains("left out of the bill"))
        }
    }

    @Test("Usage amounts past the range (Int64.max, 1e26, 1e400): skipped, counted, warned")
    func usageAmounts() throws {
        for amount in ["9223372036854775807", "9223372036854775808", "1e26", "1e400", "-1e20", "nan"] {
            let usage = try BillingExportReader().parse(BillingExportNumberTests.console(usage: amount), file: "bill.csv")
            #expect(usage.skippedRows == 1, "\(amount)")
            #expect(usage.warnings.first?.reason.contains("usage amount") == true, "\(amount)")
            #expect(usage.skus.allSatisfy { $0.usageAmount.isFinite && abs($0.usageAmount) <= 1e15 })
        }
    }

    @Test("Usage amounts that are not numbers (`abc`, `4x5`, `0x10`, `1,2,3`): the row is skipped, counted and warned, its cost not kept without them")
    func usageNotANumber() throws {
        for amount in ["abc", "4x5", "12abc", "0x10", "\"1,2,3\"", "1e", "--3", "1.2.3"] {
            let usage = try BillingExportReader().parse(BillingExportNumberTests.console(usage: amount), file: "bill.csv")
            #expect(usage.skippedRows == 1, "\(amount)")
            let warning = try #require(usage.warnings.first, "\(amount)")
            #expect(warning.location == SourceLocation(file: "bill.csv", line: 4) && warning.reason.hasPrefix("the usage amount ("), "\(amount): \(warning)")
            #expect(usage.skus.map(\.sku) == ["Places Details"], "\(amount)")
        }
        // An empty usage cell is no usage, and a cost in hexadecimal is no cost.
        let empty = try BillingExportReader().parse(BillingExportNumberTests.console(usage: ""), file: "bill.csv")
        #expect(empty.skippedRows == 0 && empty.skus.first { $0.sku == "Autocomplete - Per Request" }?.usageAmount == 0)
        let hexCost = try BillingExportReader().parse(BillingExportNumberTests.console(cost: "0x10"), file: "bill.csv")
        #expect(hexCost.skippedRows == 1 && hexCost.warnings.first?.reason.hasPrefix("the cost (") == true)
        let bigQuery = try BillingExportReader().parse("""
            {"sku":{"description":"Places Details"},"service":{"description":"Places API"},"usage":{"amount":"lots"},"cost":1.0}
            {"sku":{"description":"Places Details"},"service":{"description":"Places API"},"usage":{"amount":3},"cost":0.05}

            """, file: "bill.jsonl")
        #expect(bigQuery.skippedRows == 1 && bigQuery.warnings.map(\.location.line) == [1])
        #expect(bigQuery.skus.first?.usageAmount == 3 && bigQuery.skus.first?.costUSD == 0.05)
    }

    @Test("--strict stops at a usage amount that is not a number, at its line")
    func strictUsage() {
        let directory = TemporaryDirectory()
        let log = directory.write("log.jsonl", smallLog)
        let bill = directory.write("bill.csv", BillingExportNumberTests.console(usage: "4x5"))
        let result = runCLI(["reconcile", log, "--billing", bill, "--strict"])
        #expect(result.code == .dataError, "\(result.stderr)")
        #expect(result.stderr.contains("\(bill):4: ") && result.stderr.contains("usage amount"), "\(result.stderr)")
        #expect(!result.stderr.contains("4x5"))
    }

    @Test("BigQuery JSON Lines: the same checks, at the line of the row")
    func jsonLines() throws {
        let text = """
        {"sku":{"description":"Places Details"},"service":{"description":"Places API"},"usage":{"amount":3},"cost":0.05}
        {"sku":{"description":"Geocoding"},"service":{"description":"Geocoding API"},"usage":{"amount":1e300},"cost":"1e308"}
        {"sku":{"description":"Geocoding"},"service":{"description":"Geocoding API"},"usage":{"amount":1},"cost":"NaN"}
        {"sku":{"description":"Geocoding"},"service":{"description":"Geocoding API"},"usage":{"amount":1},"cost":0.01,"credits":[{"amount":-1e300}]}

        """
        let usage = try BillingExportReader().parse(text, file: "bill.jsonl")
        #expect(usage.skippedRows == 3)
        #expect(usage.warnings.map(\.location.line) == [2, 3, 4])
        #expect(usage.skus.map(\.sku) == ["Places Details"])
    }

    @Test("reconcile prints finite JSON and the warning, never the row's other cells")
    func reconcile() {
        let directory = TemporaryDirectory()
        let log = directory.write("log.jsonl", smallLog)
        for (usage, cost) in [("9223372036854775807", "0.03"), ("1e26", "0.03"), ("10", "1e308"), ("10", "NaN"), ("10", "1e400")] {
            let bill = directory.write("bill.csv", BillingExportNumberTests.console(usage: usage, cost: cost))
            let result = runCLI(["reconcile", log, "--billing", bill, "--json"])
            #expect(result.code == .success, "\(usage) \(cost): \(result.stderr)")
            #expect(nonFiniteJSONProblem(result.stdout) == nil, "\(usage) \(cost)")
            #expect(result.stderr.contains("\(bill):4: warning: "), "\(result.stderr)")
            #expect(result.stderr.contains("1 row of \(bill) was left out of the bill"))
        }
    }

    @Test("An export past 256 MB is refused with the limit named (exit 65)")
    func tooLarge() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/huge.csv"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(BillingExportReader.maxFileBytes + 1))
        try handle.close()
        let log = directory.write("log.jsonl", smallLog)
        let result = runCLI(["reconcile", log, "--billing", path])
        #expect(result.code == .dataError)
        #expect(result.stderr.contains("larger than 256 MB"), "\(result.stderr)")
    }

    /// The slow twin of `BillingExportReader.amountText` and `anyNumber`: Foundation's search and
    /// replace, as the reader was written before it went by bytes.
    static func referenceNumber(_ text: String, mark: DecimalMark?) -> Double? {
        var text = text.trimmingCharacters(in: .whitespaces)
        var negative = false
        if text.hasPrefix("("), text.hasSuffix(")") {
            negative = true
            text = String(text.dropFirst().dropLast())
        }
        for symbol in ["US$", "USD", "$", "€", "£", "¥", "￥", "EUR", "JPY", "\u{00A0}", "\u{202F}", " ", "'"] {
            text = text.replacingOccurrences(of: symbol, with: "")
        }
        guard !text.isEmpty else { return nil }
        let decimalComma = (DecimalMark(ofAmount: text) ?? mark) == .comma
        let plain = decimalComma
            ? text.replacingOccurrences(of: ".", with: "").replacingOccurrences(of: ",", with: ".")
            : text.replacingOccurrences(of: ",", with: "")
        // A decimal numeral, or the words `Double` reads for NaN and the infinities; never its
        // hexadecimal form.
        guard plain.wholeMatch(of: /[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/) != nil
            || plain.wholeMatch(of: /[+-]?(nan|inf|infinity)/.ignoresCase()) != nil,
            let value = Double(plain) else { return nil }
        return negative ? -value : value
    }

    @Test("Amounts by bytes read as the slow twin reads them: signs, codes, spaces, marks, parentheses, junk")
    func amountsAgreeWithTheTwin() {
        var random = SystemRandomNumberGenerator.Seeded(seed: 31)
        let pieces = ["1", "0", "7", "12", "622", "403", ".", ",", ".5", ",50", "-", "+", "e3", "E-2", "$", "US$", "USD", "EUR", "JPY",
                      "€", "£", "¥", "￥", " ", "\u{00A0}", "\u{202F}", "'", "(", ")", "x", "N/A", "nan", "inf", "\t", "0x1", "p2", "Infinity"]
        var disagreements: [String] = []
        for _ in 0..<20_000 {
            let text = (0..<Int(1 + random.next() % 6)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            for mark in [nil, DecimalMark.point, .comma] {
                let fast = BillingExportReader.anyNumber(text, mark: mark), slow = Self.referenceNumber(text, mark: mark)
                let same = fast == slow || (fast?.isNaN == true && slow?.isNaN == true)
                if !same { disagreements.append("`\(text)` \(String(describing: mark)): \(String(describing: fast)) against \(String(describing: slow))") }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    }
}
