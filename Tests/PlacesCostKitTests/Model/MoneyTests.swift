import Testing
@testable import PlacesCostKit

@Suite("Money")
struct MoneyTests {
    @Test("Dollars to the cent with thousands grouped; what rounds to zero is $0.00 from either side")
    func usd() {
        #expect(Money.usd(1_234_567.891) == "$1,234,567.89")
        #expect(Money.usd(-12.5) == "-$12.50")
        #expect(Money.usd(0) == "$0.00")
        #expect(Money.usd(-0.0) == "$0.00")
        #expect(Money.usd(-0.001) == "$0.00")
        #expect(Money.usd(-0.0000001, digits: 5) == "$0.00")
        #expect(Money.usd(0.01234, digits: 5) == "$0.01234")
    }

    @Test("A number as a command's argument: no thousands separator, and two significant digits however small")
    func argument() {
        #expect(Money.argument(5_100, digits: 4) == "5100")
        #expect(Money.argument(1_234_567.5, digits: 4) == "1234567.5")
        #expect(Money.argument(1.25, digits: 4) == "1.25")
        #expect(Money.argument(0.5, digits: 4) == "0.5")
        #expect(Money.argument(0.000021, digits: 4) == "0.000021")
        #expect(Money.argument(0.0000012, digits: 4) == "0.0000012")
    }

    @Test("Fixed decimals keep a column's zeros; nothing is $0.00; a --by table's cost per search lines up")
    func fixedDecimals() {
        #expect(Money.usd(0.009, digits: 4, fixed: true) == "$0.0090" && Money.usd(0.009, digits: 4) == "$0.009")
        #expect(Money.usd(0.00864, digits: 4, fixed: true) == "$0.0086")
        #expect(Money.usd(0, digits: 4, fixed: true) == "$0.00" && Money.usd(0.00004, digits: 4, fixed: true) == "$0.00")
        #expect(Money.usd(-0.012, digits: 4, fixed: true) == "-$0.0120")
        let markdown = runCLI(["analyze", "--by", "day", "--scale", "40", "--report", "md", "-q"], workingDirectory: packageRoot).stdout
        let day = markdown.split(separator: "\n").first { $0.hasPrefix("| `2026-10-01` |") }.map(String.init) ?? ""
        #expect(day.hasSuffix("| $0.0090 | $27.12 | $0.0086 |"), "\(day)")
    }
}
