import Foundation
import Testing
@testable import PlacesCostKit
import PlacesCostReference

/// A seeded random fuzzer for user numbers, the in-process twin of the libFuzzer target
/// `scripts/fuzz/run`: numbers drawn from the adversarial classes go into every numeric option,
/// price-table number and billing-export cell; no trap, a documented exit code, finite JSON.
///
/// A short run belongs to the suite; `PLACESCOST_NUMBER_FUZZ_ITERATIONS=N` (and
/// `PLACESCOST_NUMBER_FUZZ_SEED`) runs longer.
@Suite("User-number fuzzer")
struct NumberFuzzTests {
    /// Numbers of every adversarial class: huge, tiny, negative, zeros, non-finite, the Int64
    /// edges, hex, exponents, many digits, and spellings around them.
    static func number(_ random: inout SystemRandomNumberGenerator.Seeded) -> String {
        let fixed = ["0", "-0", "1", "-1", "nan", "NaN", "-nan", "inf", "-inf", "infinity", "1e308", "-1e308", "1e400", "-1e400", "1e-400",
                     "5e-324", "1.7976931348623157e308", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
                     "-9223372036854775809", "18446744073709551616", "0x10", "0x1p63", "0x1.8p1", "1e20", "9.223e12", "1e15", "1e16",
                     "315537897600", "315537897601", "1000000", "1000001", "0.000001", "0.0000009", "2147483648", ".5", "5.", "+3", " 7",
                     "1_000", "1,5", "(12.00)", "$3", "0e0", "00000000000000000000001", "1969-12-31", "9999-12-31", "2016-12-31T23:59:60Z"]
        switch random.next() % 6 {
        case 0, 1: return fixed[Int(random.next() % UInt64(fixed.count))]
        case 2: return String(Double(bitPattern: random.next()))
        case 3: return "\(random.next() % 2 == 0 ? "-" : "")\(random.next() % 10)e\(Int(random.next() % 800) - 400)"
        case 4: return String((0..<Int(1 + random.next() % 40)).map { _ in Character(String(random.next() % 10)) })
        default: return String(Int64(bitPattern: random.next()))
        }
    }

    static func check(_ arguments: [String], json: Bool) -> String? {
        let result = runCLI(arguments)
        guard [.success, .usage, .dataError, .noInput, .cannotCreate, .ioError].contains(result.code) else {
            return "\(arguments): exit \(result.code.rawValue)"
        }
        guard result.code == .success, json else { return nil }
        return nonFiniteJSONProblem(result.stdout).map { "\(arguments): \($0)" }
    }

    @Test("No trap, documented exit codes, finite JSON")
    func fuzz() throws {
        let environment = ProcessInfo.processInfo.environment
        let iterations = environment["PLACESCOST_NUMBER_FUZZ_ITERATIONS"].flatMap(Int.init) ?? 120
        var random = SystemRandomNumberGenerator.Seeded(seed: environment["PLACESCOST_NUMBER_FUZZ_SEED"].flatMap(UInt64.init) ?? 20)
        let directory = TemporaryDirectory()
        let log = directory.write("log.jsonl", smallLog)
        let analyze = ["analyze", log, "--json", "--quiet", "--threads", "1"]
        let options = ["--session-timeout", "--user-gap", "--reorder-window", "--scale", "--max-delay", "--delays", "--threads", "--since"]
        let simulateOptions = ["--searches", "--requests", "--chars", "--delay", "--completion-rate", "--months", "--max-delay"]
        let tableFields = [(#""usd_per_1000": [0-9.]+"#, "legacy-2018"), (#""up_to": [0-9]+"#, "legacy-2018"), (#""free_monthly": [0-9]+"#, "legacy-2025"),
                           (#""monthly_credit_usd": [0-9.]+"#, "legacy-2018"), (#""essentials_request_cap": [0-9]+"#, "places-new-2025")]
        var problems: [String] = []
        for _ in 0..<iterations {
            let value = NumberFuzzTests.number(&random)
            let problem: String?
            switch random.next() % 6 {
            case 0, 1:
                problem = NumberFuzzTests.check(analyze + [options[Int(random.next() % UInt64(options.count))], value], json: true)
            case 2:
                problem = NumberFuzzTests.check(["simulate", "--json", simulateOptions[Int(random.next() % UInt64(simulateOptions.count))], value], json: true)
            case 3:
                let (pattern, id) = tableFields[Int(random.next() % UInt64(tableFields.count))]
                let table = directory.write("table.json", PriceTableBoundsTests.table(id, replacing: pattern, with: value))
                problem = NumberFuzzTests.check(["simulate", "--json", "--pricing", table, "--searches", "100000000"], json: true)
                    ?? NumberFuzzTests.check(["pricing", "show", table], json: false)
            case 4:
                let usage = random.next() % 2 == 0
                let cell = value.contains(",") ? "\"\(value)\"" : value
                let bill = directory.write("bill.csv", BillingExportNumberTests.console(usage: usage ? cell : "10", cost: usage ? "0.03" : cell))
                problem = NumberFuzzTests.check(["reconcile", log, "--billing", bill, "--json", "--quiet", "--threads", "1"], json: true)
            default:
                let option = ["--start", "--days", "--seed"][Int(random.next() % 3)]
                problem = NumberFuzzTests.check(["generate", "--searches", "2", option, value], json: false)
            }
            if let problem { problems.append(problem) }
        }
        #expect(problems.isEmpty, "\(problems.prefix(10))")
    }
}

extension SystemRandomNumberGenerator {
    /// SplitMix64: a seeded generator, so a failing run can be repeated.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64

        init(seed: UInt64) { state = seed }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
