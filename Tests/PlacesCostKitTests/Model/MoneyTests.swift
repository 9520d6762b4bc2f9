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
}
