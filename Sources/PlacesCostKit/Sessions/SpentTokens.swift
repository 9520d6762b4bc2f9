/// Session tokens no walk refers to by id any more, kept compactly for reuse detection: spent
/// ones, and waiting ones with their 4-byte state.
///
/// `SessionStream` walks tokens through a `KeyTable`, about 33 bytes a token with its slots and
/// state. Every token ever seen must be remembered (a reuse can come at any time), so every
/// `compactAfter` new tokens it moves those that are finished here (`KeyTable.compact`), and
/// looks a new token up here before treating it as fresh. A token here costs its 16-byte
/// packed UUID, two bits, the state of a waiting one (a fifth of them in a typical log), and
/// 4 to 8 bits of the filter that turns most lookups of new tokens away (more below a million
/// tokens, where the filter's 512 KB minimum holds).
///
/// The entries are one sequence sorted by key, UUID first, stored in chunks of about 512:
/// - adding a batch merges it in one chunk at a time, freeing each old chunk once copied, so
///   no step holds two copies of the set;
/// - a lookup finds the chunk by its first key's top 64 bits (a small array), then the entry
///   from where its top bits would fall if the chunk's keys were spread evenly, as random UUIDs
///   are, and steps out from there (any other tokens are still found, with a few more steps).
struct SpentTokens {
    /// A packed token key (`KeyTable.width`, 18 bytes): `TokenKey`'s project-and-form prefix
    /// and the 16 bytes after it as two big-endian words, ordered by those words first.
    struct Key: Equatable, Comparable {
        var high: UInt64
        var low: UInt64
        var prefix: UInt16

        init(_ bytes: UnsafeRawPointer) {
            prefix = bytes.loadUnaligned(as: UInt16.self)
            high = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 2, as: UInt64.self))
            low = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 10, as: UInt64.self))
        }

        init(high: UInt64, low: UInt64, prefix: UInt16) {
            self.high = high
            self.low = low
            self.prefix = prefix
        }

        static func < (lhs: Key, rhs: Key) -> Bool {
            if lhs.high != rhs.high { return lhs.high < rhs.high }
            if lhs.low != rhs.low { return lhs.low < rhs.low }
            return lhs.prefix < rhs.prefix
        }
    }

    /// A token to add or found: its key and its state.
    struct Entry {
        var key: Key
        var state: UInt32
    }

    static let width = 18
    /// Entries a chunk holds before the next one starts (more only to keep keys with equal top
    /// words together).
    static let chunkCapacity = 512

    /// The state most entries have (spent); only other states are stored.
    let commonState: UInt32
    private var chunks: [Chunk] = []
    /// Each chunk's first key's top word: keys with equal top words never straddle two chunks.
    private var firstHighs: [UInt64] = []
    private(set) var count = 0
    /// One bit per value of `filterSlot`, set for every key added: a key whose bit is clear is
    /// not here. Most new tokens are not, and the bit spares them the chunk search, whose first
    /// probe misses the cache. At least 2^22 bits, and at least 4 bits a key
    /// (so at most about one absent key in five gets past it; one in nine up to half a million
    /// keys); rebuilt from the entries when the set outgrows it. Four bits a key rather than
    /// eight keeps the filter to a quarter of the set's growth in memory.
    private var filter: [UInt64] = []
    private var filterShift: UInt64 = 64
    private let minimumFilterBits: Int

    /// - Parameter minimumFilterBits: a power of two, at least 64 (tests make it small, so the
    ///   filter is rebuilt often).
    init(commonState: UInt32, minimumFilterBits: Int = 1 << 22) {
        precondition(KeyTable.width == SpentTokens.width, "SpentTokens.Key holds a KeyTable key")
        precondition(minimumFilterBits >= 64 && minimumFilterBits.nonzeroBitCount == 1, "a power of two of at least 64 bits")
        self.commonState = commonState
        self.minimumFilterBits = minimumFilterBits
    }

    /// The state stored for `key`, or `nil` when the set does not hold it.
    func state(of key: Key) -> UInt32? {
        guard count > 0 else { return nil }
        let slot = filterSlot(key)
        guard filter[slot >> 6] >> UInt64(slot & 63) & 1 != 0 else { return nil }
        // The last chunk whose first top word is at most the key's.
        var low = 0
        var high = firstHighs.count
        while low < high {
            let middle = (low + high) / 2
            if firstHighs[middle] <= key.high { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let index = low - 1
        let upper = index + 1 < firstHighs.count ? firstHighs[index + 1] : UInt64.max
        return chunks[index].state(of: key, between: firstHighs[index], and: upper, common: commonState)
    }

    /// Adds `batch` (sorting it in place), whose keys are distinct; an entry replaces an older
    /// one with the same key.
    mutating func add(_ batch: inout [Entry]) {
        guard !batch.isEmpty else { return }
        batch.sort { $0.key < $1.key }
        var old = chunks
        chunks = []
        firstHighs = []
        count = 0
        var pending: [Entry] = []
        var next = 0
        for index in old.indices {
            let chunk = old[index]
            old[index] = Chunk()  // freed once this chunk is copied
            chunk.forEach(common: commonState) { stored in
                while next < batch.count, batch[next].key < stored.key {
                    append(batch[next], to: &pending)
                    next += 1
                }
                if next < batch.count, batch[next].key == stored.key {
                    append(batch[next], to: &pending)  // the newer state
                    next += 1
                } else {
                    append(stored, to: &pending)
                }
            }
        }
        while next < batch.count {
            append(batch[next], to: &pending)
            next += 1
        }
        flush(&pending)
        if count * 4 > filter.count * 64 {
            rebuildFilter()
        } else {
            for entry in batch { markFilter(entry.key) }
        }
    }

    @inline(__always)
    private func filterSlot(_ key: Key) -> Int {
        Int(truncatingIfNeeded: ((key.high ^ key.low.byteSwapped ^ UInt64(key.prefix)) &* 0x9E37_79B9_7F4A_7C15) >> filterShift)
    }

    private mutating func markFilter(_ key: Key) {
        let slot = filterSlot(key)
        filter[slot >> 6] |= 1 << UInt64(slot & 63)
    }

    /// A filter of the first power of two of bits (from the minimum) at least four times the
    /// count, every key marked.
    private mutating func rebuildFilter() {
        var bits = minimumFilterBits
        while bits < count * 4 { bits *= 2 }
        filter = [UInt64](repeating: 0, count: bits / 64)
        filterShift = UInt64(64 - bits.trailingZeroBitCount)
        for chunk in chunks {
            chunk.forEach(common: commonState) { markFilter($0.key) }
        }
    }

    private mutating func append(_ entry: Entry, to pending: inout [Entry]) {
        if pending.count >= SpentTokens.chunkCapacity, pending.last!.key.high != entry.key.high { flush(&pending) }
        pending.append(entry)
        count += 1
    }

    private mutating func flush(_ pending: inout [Entry]) {
        guard let first = pending.first else { return }
        chunks.append(Chunk(pending, common: commonState))
        firstHighs.append(first.key.high)
        pending.removeAll(keepingCapacity: true)
    }

    /// A run of entries in one allocation. A key is its 2-byte prefix (the same for nearly every
    /// token of a log) and its two words; entries whose prefix differs from the chunk's, or whose
    /// state differs from the common one, are marked in a bitmap each and have theirs stored
    /// after, in entry order:
    ///
    ///     words (16 n) | prefix bits (8 per 64) | state bits (8 per 64) | prefixes (2 each) | states (4 each)
    private struct Chunk {
        private var storage: [UInt8] = []
        private(set) var count = 0
        private var prefix: UInt16 = 0
        /// Entries with a prefix of their own: none in most chunks, and then no bitmap is read.
        private var ownPrefixes = 0

        init() {}

        init(_ entries: [Entry], common: UInt32) {
            count = entries.count
            prefix = entries[0].key.prefix
            ownPrefixes = entries.lazy.filter { [prefix] in $0.key.prefix != prefix }.count
            let ownStates = entries.lazy.filter { $0.state != common }.count
            let (prefix, prefixBitsOffset, stateBitsOffset, prefixesOffset, statesOffset) =
                (self.prefix, self.prefixBitsOffset, self.stateBitsOffset, self.prefixesOffset, self.statesOffset)
            var storage = [UInt8](repeating: 0, count: prefixesOffset + ownPrefixes * 2 + ownStates * 4)
            defer { self.storage = storage }
            storage.withUnsafeMutableBytes { raw in
                var prefixIndex = 0
                var stateIndex = 0
                func mark(_ bitsOffset: Int, _ index: Int) {
                    let offset = bitsOffset + (index >> 6) * 8
                    raw.storeBytes(of: raw.load(fromByteOffset: offset, as: UInt64.self) | 1 << UInt64(index & 63), toByteOffset: offset, as: UInt64.self)
                }
                for (index, entry) in entries.enumerated() {
                    raw.storeBytes(of: entry.key.high, toByteOffset: index * 16, as: UInt64.self)
                    raw.storeBytes(of: entry.key.low, toByteOffset: index * 16 + 8, as: UInt64.self)
                    if entry.key.prefix != prefix {
                        mark(prefixBitsOffset, index)
                        raw.storeBytes(of: entry.key.prefix, toByteOffset: prefixesOffset + prefixIndex * 2, as: UInt16.self)
                        prefixIndex += 1
                    }
                    if entry.state != common {
                        mark(stateBitsOffset, index)
                        raw.storeBytes(of: entry.state, toByteOffset: statesOffset + stateIndex * 4, as: UInt32.self)
                        stateIndex += 1
                    }
                }
            }
        }

        private var bitmapBytes: Int { (count + 63) / 64 * 8 }
        private var prefixBitsOffset: Int { count * 16 }
        private var stateBitsOffset: Int { prefixBitsOffset + bitmapBytes }
        private var prefixesOffset: Int { stateBitsOffset + bitmapBytes }
        private var statesOffset: Int { prefixesOffset + ownPrefixes * 2 }

        /// Whether entry `index` is marked in the bitmap at `offset`, and how many before it are.
        @inline(__always)
        private static func rank(_ raw: UnsafeRawBufferPointer, bitsAt offset: Int, _ index: Int) -> (marked: Bool, before: Int) {
            var before = 0
            for word in 0..<(index >> 6) {
                before += raw.loadUnaligned(fromByteOffset: offset + word * 8, as: UInt64.self).nonzeroBitCount
            }
            let last = raw.loadUnaligned(fromByteOffset: offset + (index >> 6) * 8, as: UInt64.self)
            let bit = UInt64(index & 63)
            return (last >> bit & 1 != 0, before + (last & ((1 << bit) - 1)).nonzeroBitCount)
        }

        @inline(__always)
        private func key(_ raw: UnsafeRawBufferPointer, _ index: Int) -> Key {
            var own = prefix
            if ownPrefixes > 0 {
                let (marked, before) = Chunk.rank(raw, bitsAt: prefixBitsOffset, index)
                if marked { own = raw.loadUnaligned(fromByteOffset: prefixesOffset + before * 2, as: UInt16.self) }
            }
            return Key(
                high: raw.loadUnaligned(fromByteOffset: index * 16, as: UInt64.self),
                low: raw.loadUnaligned(fromByteOffset: index * 16 + 8, as: UInt64.self), prefix: own
            )
        }

        /// Calls `body` with every entry, in order.
        func forEach(common: UInt32, _ body: (Entry) -> Void) {
            storage.withUnsafeBytes { raw in
                var stateIndex = 0
                for index in 0..<count {
                    var state = common
                    if Chunk.rank(raw, bitsAt: stateBitsOffset, index).marked {
                        state = raw.loadUnaligned(fromByteOffset: statesOffset + stateIndex * 4, as: UInt32.self)
                        stateIndex += 1
                    }
                    body(Entry(key: key(raw, index), state: state))
                }
            }
        }

        /// Finds `key` from where its top word would fall if the chunk's, which lie from `lower`
        /// up to `upper`, were spread evenly; then steps out, doubling, to bracket it and bisects.
        func state(of key: Key, between lower: UInt64, and upper: UInt64, common: UInt32) -> UInt32? {
            storage.withUnsafeBytes { raw -> UInt32? in
                let span = upper &- lower
                let guess = span == 0 ? 0 : min(count - 1, Int(span.dividingFullWidth(UInt64(count).multipliedFullWidth(by: key.high &- lower)).quotient))
                // The answer is the first entry not below the key; bracket it in [low, high].
                var low = 0
                var high = count
                var step = 1
                if self.key(raw, guess) < key {
                    low = guess + 1
                    while low + step - 1 < count, self.key(raw, low + step - 1) < key {
                        low += step
                        step *= 2
                    }
                    high = min(count, low + step - 1)
                } else {
                    high = guess
                    while high - step >= 0, !(self.key(raw, high - step) < key) {
                        high -= step
                        step *= 2
                    }
                    low = max(0, high - step + 1)
                }
                while low < high {
                    let middle = (low + high) / 2
                    if self.key(raw, middle) < key { low = middle + 1 } else { high = middle }
                }
                guard low < count, self.key(raw, low) == key else { return nil }
                let (marked, before) = Chunk.rank(raw, bitsAt: stateBitsOffset, low)
                return marked ? raw.loadUnaligned(fromByteOffset: statesOffset + before * 4, as: UInt32.self) : common
            }
        }
    }
}
