import Testing
@testable import PlacesCostKit

@Suite("The compact set of spent and waiting tokens")
struct SpentTokensTests {
    static let spent: UInt32 = 0xC000_0000

    static func key(_ random: inout SeededRandom) -> [UInt8] {
        (0..<SpentTokens.width).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    static func entry(_ key: [UInt8], state: UInt32) -> SpentTokens.Entry {
        key.withUnsafeBytes { SpentTokens.Entry(key: SpentTokens.Key($0.baseAddress!), state: state) }
    }

    static func lookup(_ set: SpentTokens, _ key: [UInt8]) -> UInt32? {
        key.withUnsafeBytes { set.state(of: SpentTokens.Key($0.baseAddress!)) }
    }

    @Test("Batches of every size agree with a dictionary: states, newest first, and absent keys",
          arguments: [(1, 1 << 22), (7, 1 << 22), (300, 1 << 22), (513, 1 << 22), (5_000, 1 << 22), (7, 64), (300, 64), (5_000, 64)])
    func agreesWithDictionary(batchSize: Int, filterBits: Int) {
        var random = SeededRandom(seed: UInt64(batchSize))
        // A 64-bit minimum filter is rebuilt at most adds, and is full of false positives.
        var set = SpentTokens(commonState: SpentTokensTests.spent, minimumFilterBits: filterBits)
        var reference: [[UInt8]: UInt32] = [:]
        var known: [[UInt8]] = []
        for _ in 0..<12 {
            var batch: [[UInt8]: UInt32] = [:]
            for _ in 0..<batchSize {
                // A third of a batch repeats earlier keys with a new state (a reused token moved again).
                let key = !known.isEmpty && random.chance(0.3) ? known[random.below(known.count)] : SpentTokensTests.key(&random)
                batch[key] = random.chance(0.7) ? SpentTokensTests.spent : 0x8000_0000 | UInt32(random.below(1 << 20))
            }
            var entries = batch.map { SpentTokensTests.entry($0.key, state: $0.value) }
            set.add(&entries)
            for (key, state) in batch {
                if reference[key] == nil { known.append(key) }
                reference[key] = state
            }
            #expect(set.count == reference.count)
            for key in known.shuffled(using: &random).prefix(2_000) {
                #expect(SpentTokensTests.lookup(set, key) == reference[key])
            }
            for _ in 0..<500 {
                #expect(SpentTokensTests.lookup(set, SpentTokensTests.key(&random)) == nil)
            }
        }
    }

    @Test("Keys that differ from a stored one in one bit are told apart")
    func nearKeys() {
        var random = SeededRandom(seed: 9)
        let base = SpentTokensTests.key(&random)
        var set = SpentTokens(commonState: SpentTokensTests.spent)
        var entries: [SpentTokens.Entry] = []
        for index in 0..<SpentTokens.width {
            var key = base
            key[index] ^= 0x01
            entries.append(SpentTokensTests.entry(key, state: UInt32(index)))
        }
        set.add(&entries)
        for entry in entries {
            #expect(set.state(of: entry.key) == entry.state)
        }
        #expect(SpentTokensTests.lookup(set, base) == nil)
    }

    @Test("Keys that share the common prefix, and those that do not, keep their states", arguments: [0.0, 0.02, 0.5])
    func prefixes(otherShare: Double) {
        var random = SeededRandom(seed: 21)
        var set = SpentTokens(commonState: SpentTokensTests.spent)
        var reference: [[UInt8]: UInt32] = [:]
        for _ in 0..<3 {
            var batch: [SpentTokens.Entry] = []
            for _ in 0..<2_000 {
                var key = SpentTokensTests.key(&random)
                // A dashed UUID of the default project, as TokenKey packs it, unless another.
                if !random.chance(otherShare) { key[0] = 0; key[1] = 1 }
                let state = random.chance(0.8) ? SpentTokensTests.spent : UInt32(random.below(1 << 30))
                reference[key] = state
                batch.append(SpentTokensTests.entry(key, state: state))
            }
            set.add(&batch)
        }
        for (key, state) in reference {
            #expect(SpentTokensTests.lookup(set, key) == state)
            var other = key
            other[0] ^= 0x40
            #expect(SpentTokensTests.lookup(set, other) == reference[other])
        }
    }

    @Test("Keys far from evenly spread (time-ordered UUIDs, equal top words in other projects) are found")
    func unevenKeys() {
        var random = SeededRandom(seed: 33)
        var set = SpentTokens(commonState: SpentTokensTests.spent)
        var reference: [[UInt8]: UInt32] = [:]
        for round in 0..<4 {
            var batch: [SpentTokens.Entry] = []
            for index in 0..<3_000 {
                // A UUIDv7-like body: a millisecond clock in its top bytes, so keys bunch up.
                var key = [UInt8](repeating: 0, count: SpentTokens.width)
                key[0] = UInt8(index % 3)
                key[1] = 1
                let clock = UInt64(1_700_000_000_000 + round * 10_000 + index / 7)
                for byte in 0..<6 { key[2 + byte] = UInt8(truncatingIfNeeded: clock >> UInt64(40 - 8 * byte)) }
                for byte in 8..<SpentTokens.width { key[byte] = UInt8(truncatingIfNeeded: random.next()) }
                let state = random.chance(0.5) ? SpentTokensTests.spent : UInt32(index)
                reference[key] = state
                batch.append(SpentTokensTests.entry(key, state: state))
                // The same body in another project: equal top words, another prefix.
                var other = key
                other[0] = 100
                reference[other] = SpentTokensTests.spent
                batch.append(SpentTokensTests.entry(other, state: SpentTokensTests.spent))
            }
            set.add(&batch)
        }
        #expect(set.count == reference.count)
        for (key, state) in reference {
            #expect(SpentTokensTests.lookup(set, key) == state)
            var absent = key
            absent[17] ^= 0x80
            #expect(SpentTokensTests.lookup(set, absent) == reference[absent])
        }
    }

    @Test("Compacting a table moves what is turned down, keeps the rest with new ids, and leaves other widths")
    func compactTable() {
        var random = SeededRandom(seed: 11)
        var table = KeyTable()
        var keys: [[UInt8]] = []
        for index in 0..<9_000 {
            let width = index % 10 == 0 ? 30 : KeyTable.width
            keys.append((0..<width).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        }
        var ids: [UInt32] = []
        for (index, key) in keys.enumerated() {
            let id = key.withUnsafeBytes { table.intern($0).id }
            ids.append(id)
            table[state: id] = index % 3 == 0 ? SpentTokensTests.spent : UInt32(index)
        }
        var set = SpentTokens(commonState: SpentTokensTests.spent)
        let renumbered = table.compact(into: &set) { id, state in state != SpentTokensTests.spent && id % 2 == 0 }
        var keptCount = 0
        for (index, key) in keys.enumerated() {
            let id = ids[index]
            let state = index % 3 == 0 ? SpentTokensTests.spent : UInt32(index)
            if id & KeyTable.otherBit != 0 {
                #expect(key.withUnsafeBytes { table.intern($0) } == (id, false))
                #expect(table[state: id] == state)
                continue
            }
            if state != SpentTokensTests.spent, id % 2 == 0 {
                let new = renumbered[Int(id)]
                #expect(new == UInt32(keptCount))
                keptCount += 1
                #expect(Array(table.bytes(new)) == key)
                #expect(table[state: new] == state)
                #expect(key.withUnsafeBytes { table.intern($0) } == (new, false))
                #expect(SpentTokensTests.lookup(set, key) == nil)
            } else {
                #expect(renumbered[Int(id)] == .max)
                #expect(SpentTokensTests.lookup(set, key) == state)
            }
        }
        #expect(table.packedCount == keptCount)
        // A moved key is new to the table again.
        let moved = keys.indices.first { ids[$0] & KeyTable.otherBit == 0 && renumbered[Int(ids[$0])] == .max }!
        #expect(keys[moved].withUnsafeBytes { table.intern($0) }.inserted)
    }
}
