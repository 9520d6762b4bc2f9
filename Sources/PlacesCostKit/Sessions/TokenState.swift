/// A token's place in the token walk, packed into the 4 bytes `KeyTable` and `SpentTokens` keep
/// per token (the two top bits name the phase, the rest hold what that phase needs):
///
/// - `fresh` (`00`, all zero): no call has used the token yet.
/// - `open` (`01` + slot): its walks are in `SessionStream.openTokens[slot]`.
/// - `waiting` (`10` + shape << 2 + flags): every walk was past its timeout. The main walk's
///   session was counted as abandoned under search shape `shape` (`mainSpentShape` when that
///   session was already spent), and compared walk i still waits when flag bit i is set; a later
///   call on the token shows those sessions expired.
/// - `spent` (`11`): every walk is spent; later calls are runs billed as without a token.
///
/// The tables keep the raw word, so memory stays 4 bytes a token; decode it only here, inlined,
/// where it costs what the open-coded masks cost.
struct TokenState: Equatable {
    var raw: UInt32

    enum Phase: Equatable {
        case fresh
        case open(slot: Int)
        case waiting(shape: UInt32, flags: UInt32)
        case spent
    }

    static let fresh = TokenState(raw: 0)
    static let spent = TokenState(raw: tagMask)
    /// The `shape` of a waiting token whose main session was already spent.
    static let mainSpentShape: UInt32 = 0x0FFF_FFFF
    /// Compared walks a waiting state can flag (the 60 s and 600 s timeouts).
    static let flagBits: UInt32 = 2

    private static let tagMask: UInt32 = 0xC000_0000
    private static let openTag: UInt32 = 0x4000_0000
    private static let waitingTag: UInt32 = 0x8000_0000

    @inline(__always)
    init(raw: UInt32) {
        self.raw = raw
    }

    @inline(__always)
    static func open(slot: Int) -> TokenState {
        TokenState(raw: openTag | UInt32(slot))
    }

    /// - Precondition: `shape <= mainSpentShape`, `flags < 1 << flagBits`.
    @inline(__always)
    static func waiting(shape: UInt32, flags: UInt32) -> TokenState {
        TokenState(raw: waitingTag | shape << flagBits | flags)
    }

    @inline(__always)
    var phase: Phase {
        switch raw & Self.tagMask {
        case 0: .fresh
        case Self.openTag: .open(slot: Int(raw & ~Self.tagMask))
        case Self.waitingTag: .waiting(shape: (raw >> Self.flagBits) & Self.mainSpentShape, flags: raw & (1 << Self.flagBits - 1))
        default: .spent
        }
    }

    /// Whether the token may still start or extend a session (compaction keeps such tokens).
    @inline(__always)
    var isFreshOrOpen: Bool {
        raw == 0 || raw & Self.tagMask == Self.openTag
    }

    /// The slot of an open token; `nil` in every other phase.
    @inline(__always)
    var openSlot: Int? {
        raw & Self.tagMask == Self.openTag ? Int(raw & ~Self.tagMask) : nil
    }
}
