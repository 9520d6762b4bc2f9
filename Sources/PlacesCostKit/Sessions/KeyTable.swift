/// Every token (or user) a stream has seen, each with a 4-byte state: the table whose size sets
/// the memory per million searches.
///
/// Keys of the common width (a packed UUID after a one-byte project id, `TokenKey`) are stored
/// back to back with no per-key offset, found through slots of a 4-byte id and a 1-byte hash
/// tag: about 18 + 9 + 4 bytes per token. Other keys go to a `ByteInterner`. Storage grows in
/// fixed chunks, so growing never holds an old and a new copy of the whole table at once (only
/// the slots, a fifth of it, are rebuilt when they fill).
struct KeyTable {
    static let width = 18
    /// Set in the ids of keys of other widths, which `compact` leaves in place.
    static let otherBit: UInt32 = 0x8000_0000

    private var keys = ChunkedArray<UInt8>()
    private var keyCount = 0
    private var slots: [UInt32]
    private var tags: [UInt8]
    private var slotMask: Int
    private var fixedStates = ChunkedArray<UInt32>()
    private var other = ByteInterner()
    private var otherStates = ChunkedArray<UInt32>()

    init() {
        self.init(slotCount: 1 << 12)
    }

    private init(slotCount: Int) {
        slots = [UInt32](repeating: 0, count: slotCount)
        tags = [UInt8](repeating: 0, count: slotCount)
        slotMask = slotCount - 1
    }

    /// Keys stored.
    var count: Int { keyCount + other.count }
    /// Keys of the packed width stored (ids `0..<packedCount`).
    var packedCount: Int { keyCount }

    /// The id of `key`, storing it (with state 0) when new.
    mutating func intern(_ key: UnsafeRawBufferPointer) -> (id: UInt32, inserted: Bool) {
        guard key.count == KeyTable.width else {
            let (id, inserted) = other.intern(key)
            if inserted { otherStates.append(0) }
            return (id | KeyTable.otherBit, inserted)
        }
        let hash = ByteInterner.hash(key)
        let tag = UInt8(truncatingIfNeeded: hash >> 56)
        var slot = Int(truncatingIfNeeded: hash) & slotMask
        while true {
            let entry = slots[slot]
            if entry == 0 { break }
            if tags[slot] == tag, keys.equals(at: Int(entry - 1) * KeyTable.width, key) { return (entry - 1, false) }
            slot = (slot + 1) & slotMask
        }
        let id = UInt32(keyCount)
        keys.append(contentsOf: key)
        keyCount += 1
        fixedStates.append(0)
        slots[slot] = id + 1
        tags[slot] = tag
        if keyCount * 4 > slots.count * 3 { grow() }
        return (id, true)
    }

    /// Moves the packed keys `keep` turns down, with their states, into `spent`, and numbers the
    /// others from 0 in their order; keys of other widths keep their ids (and stay).
    ///
    /// - Parameter keep: whether a packed key (id, state) stays.
    /// - Returns: each packed id's new id, or `UInt32.max` for a key that moved.
    mutating func compact(into spent: inout SpentTokens, keeping keep: (UInt32, UInt32) -> Bool) -> [UInt32] {
        var renumbered = [UInt32](repeating: .max, count: keyCount)
        var kept: [(id: Int, hash: UInt64)] = []
        var moved: [SpentTokens.Entry] = []
        for id in 0..<keyCount {
            let state = fixedStates[id]
            keys.withBytes(at: id * KeyTable.width, count: KeyTable.width) { key in
                if keep(UInt32(id), state) {
                    renumbered[id] = UInt32(kept.count)
                    kept.append((id, ByteInterner.hash(key)))
                } else {
                    moved.append(SpentTokens.Entry(key: SpentTokens.Key(key.baseAddress!), state: state))
                }
            }
        }
        spent.add(&moved)
        moved = []
        var slotCount = 1 << 12
        while kept.count * 4 > slotCount * 3 { slotCount *= 2 }
        var table = KeyTable(slotCount: slotCount)
        for (id, hash) in kept {
            keys.withBytes(at: id * KeyTable.width, count: KeyTable.width) { table.keys.append(contentsOf: $0) }
            table.fixedStates.append(fixedStates[id])
            var slot = Int(truncatingIfNeeded: hash) & table.slotMask
            while table.slots[slot] != 0 { slot = (slot + 1) & table.slotMask }
            table.slots[slot] = UInt32(table.keyCount + 1)
            table.tags[slot] = UInt8(truncatingIfNeeded: hash >> 56)
            table.keyCount += 1
        }
        table.other = other
        table.otherStates = otherStates
        self = table
        return renumbered
    }

    /// The state of key `id`.
    subscript(state id: UInt32) -> UInt32 {
        @inline(__always)
        get { id & KeyTable.otherBit == 0 ? fixedStates[Int(id)] : otherStates[Int(id & ~KeyTable.otherBit)] }
        @inline(__always)
        set {
            if id & KeyTable.otherBit == 0 {
                fixedStates[Int(id)] = newValue
            } else {
                otherStates[Int(id & ~KeyTable.otherBit)] = newValue
            }
        }
    }

    /// Calls `body` with the stored bytes of key `id`, copied only when they cross a chunk.
    func withBytes<Result>(_ id: UInt32, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        guard id & KeyTable.otherBit == 0 else { return other.withBytes(id & ~KeyTable.otherBit, body) }
        return keys.withBytes(at: Int(id) * KeyTable.width, count: KeyTable.width, body)
    }

    /// The stored bytes of key `id`.
    func bytes(_ id: UInt32) -> ArraySlice<UInt8> {
        guard id & KeyTable.otherBit == 0 else { return other.bytes(id & ~KeyTable.otherBit) }
        return ArraySlice(keys.withBytes(at: Int(id) * KeyTable.width, count: KeyTable.width) { Array($0) })
    }

    private mutating func grow() {
        let size = slots.count * 2
        var grownSlots = [UInt32](repeating: 0, count: size)
        var grownTags = [UInt8](repeating: 0, count: size)
        let mask = size - 1
        for id in 0..<keyCount {
            let hash = keys.withBytes(at: id * KeyTable.width, count: KeyTable.width) { ByteInterner.hash($0) }
            var slot = Int(truncatingIfNeeded: hash) & mask
            while grownSlots[slot] != 0 { slot = (slot + 1) & mask }
            grownSlots[slot] = UInt32(id + 1)
            grownTags[slot] = UInt8(truncatingIfNeeded: hash >> 56)
        }
        slots = grownSlots
        tags = grownTags
        slotMask = mask
    }
}
