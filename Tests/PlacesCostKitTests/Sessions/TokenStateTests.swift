import Testing
@testable import PlacesCostKit

/// The token walk's packed state decodes to the phase it was made as, at the edges of its fields.
@Suite("Token state")
struct TokenStateTests {
    @Test("Each phase round-trips through its 4-byte word")
    func roundTrip() {
        #expect(TokenState.fresh.phase == .fresh && TokenState(raw: 0) == .fresh)
        #expect(TokenState.spent.phase == .spent)
        for slot in [0, 1, 12_345, 0x3FFF_FFFF] {
            let state = TokenState.open(slot: slot)
            #expect(state.phase == .open(slot: slot))
            #expect(state.openSlot == slot && state.isFreshOrOpen)
        }
        for shape in [0, 1, 70_000, TokenState.mainSpentShape] as [UInt32] {
            for flags in 0..<(UInt32(1) << TokenState.flagBits) {
                let state = TokenState.waiting(shape: shape, flags: flags)
                #expect(state.phase == .waiting(shape: shape, flags: flags))
                #expect(state.openSlot == nil && !state.isFreshOrOpen)
            }
        }
        #expect(TokenState.fresh.isFreshOrOpen && !TokenState.spent.isFreshOrOpen && TokenState.spent.openSlot == nil)
    }

    @Test("The spent word is the one SpentTokens keeps as its common state")
    func spentWord() {
        #expect(TokenState.spent.raw == SpentTokensTests.spent)
    }
}
