/// Session tokens no walk refers to by id any more, kept compactly for reuse detection: spent
/// ones, and waiting ones with their 4-byte state.
///
/// `SessionStream` walks tokens through a `KeyTable`, about 33 bytes a token with its slots and
/// state. Every token ever seen must be remembered (a reuse can come at any time), so every
/// `compactAfter` new tokens it moves those that are finished here (`KeyTable.compact`), and
/// looks a new token up here before treating it as fresh. A token here costs its 16-byte
/// packed UUID, two bits, and the state of a waiting one (a fifth of them in a typical log).
///
/// The entries are one sequence sorted by (hash, key), stored in chunks of about 512:
/// - adding a batch merges it in one chunk at a time, freeing each old chunk once copied, so
///   no step holds two copies of the set;
/// - a lookup finds the chunk by its first hash (a small array), then the entry from where its
///   hash would fall in the chunk: two or three cache misses.
struct SpentTokens {
    /// A packed token key's bytes as three words (`KeyTable.width` is 18).
    struct Key: Equatable, Comparable {
        var low: UInt64
        var middle: UInt64
        var high: UInt16

        init(_ bytes: UnsafeRawPointer) {
            low = bytes.loadUnaligned(as: UInt64.self)
            middle = bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            high = bytes.loadUnaligned(fromByteOffset: 16, as: UInt16.self)
        }

        /// A key from its first two bytes and the 16 after them.
        init(prefix: UInt16, body: UnsafeRawPointer) {
            let first = body.loadUnaligned(as: UInt64.self)
            let second = body.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            low = UInt64(prefix) | first << 16
            middle = first >> 48 | second << 16
            high = UInt16(truncatingIfNeeded: second >> 48)
        }

        /// The first two bytes: `TokenKey`'s project and form.
        var prefix: UInt16 { UInt16(truncatingIfNeeded: low) }

        /// Writes the 16 bytes after the prefix.
        func writeBody(to bytes: UnsafeMutableRawPointer) {
            bytes.storeBytes(of: low >> 16 | middle << 48, toByteOffset: 0, as: UInt64.self)
            bytes.storeBytes(of: middle >> 16 | UInt64(high) << 48, toByteOffset: 8, as: UInt64.self)
        }

        /// `SpentTokens.hash(at:)` of the key's bytes.
        var hash: UInt64 {
            var words = (low, middle, UInt64(high))
            return withUnsafeBytes(of: &words) { SpentTokens.hash(at: $0.baseAddress!) }
        }

        static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.low, lhs.middle, lhs.high) < (rhs.low, rhs.middle, rhs.high)
        }
    }

    /// A token to add, as its hash, its state and where the caller holds its key: 16 bytes, so
    /// a batch of a compaction costs little while it is sorted and merged.
    struct Pending {
        var hash: UInt64
        var source: UInt32
        var state: UInt32
    }

    /// An entry with its key.
    struct Entry {
        var hash: UInt64
        var key: Key
        var state: UInt32

        static func precedes(_ lhs: Entry, _ rhs: Entry) -> Bool {
            lhs.hash != rhs.hash ? lhs.hash < rhs.hash : lhs.key < rhs.key
        }
    }

    static let width = 18
    /// Entries a chunk holds before the next one starts (more only to keep equal hashes together).
    static let chunkCapacity = 512

    /// The state most entries have (spent); only other states are stored.
    let commonState: UInt32
    private var chunks: [Chunk] = []
    /// Each chunk's first hash: entries with equal hashes never straddle two chunks.
    private var firstHashes: [UInt64] = []
    private(set) var count = 0

    /// The hash a key is filed under: `KeyTable`'s, so a compacting table passes it along.
    @inline(__always)
    static func hash(at key: UnsafeRawPointer) -> UInt64 {
        ByteInterner.hash(UnsafeRawBufferPointer(start: key, count: width))
    }

    init(commonState: UInt32) {
        precondition(KeyTable.width == SpentTokens.width, "SpentTokens.Key holds a KeyTable key")
        self.commonState = commonState
    }

    /// The state stored for `key`, or `nil` when the set does not hold it.
    func state(of key: Key, hash: UInt64) -> UInt32? {
        guard count > 0 else { return nil }
        // The last chunk whose first hash is at most `hash`.
        var low = 0
        var high = firstHashes.count
        while low < high {
            let middle = (low + high) / 2
            if firstHashes[middle] <= hash { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let index = low - 1
        let upper = index + 1 < firstHashes.count ? firstHashes[index + 1] : UInt64.max
        return chunks[index].state(of: key, hash: hash, hashes: firstHashes[index]..<upper, common: commonState)
    }

    /// Adds `batch`, whose keys are distinct; an entry replaces an older one with the same key.
    mutating func add(_ batch: [Entry]) {
        var pending = batch.indices.map { Pending(hash: batch[$0].hash, source: UInt32($0), state: batch[$0].state) }
        add(&pending) { batch[Int($0)].key }
    }

    /// Adds `batch` (sorting it in place), whose keys are distinct and given by `key` from their
    /// `source`; an entry replaces an older one with the same key.
    mutating func add(_ batch: inout [Pending], key: (UInt32) -> Key) {
        guard !batch.isEmpty else { return }
        // Distinct keys with equal hashes (rare) are ordered by key, as in the chunks.
        batch.sort { $0.hash != $1.hash ? $0.hash < $1.hash : key($0.source) < key($1.source) }
        func entry(_ index: Int) -> Entry {
            Entry(hash: batch[index].hash, key: key(batch[index].source), state: batch[index].state)
        }
        var old = chunks
        chunks = []
        firstHashes = []
        count = 0
        var writer = Writer()
        var next = 0
        for index in old.indices {
            let chunk = old[index]
            old[index] = Chunk()  // freed once this chunk is copied
            chunk.forEach(common: commonState) { stored in
                while next < batch.count, batch[next].hash <= stored.hash, Entry.precedes(entry(next), stored) {
                    append(entry(next), to: &writer)
                    next += 1
                }
                if next < batch.count, batch[next].hash == stored.hash, key(batch[next].source) == stored.key {
                    append(entry(next), to: &writer)  // the newer state
                    next += 1
                } else {
                    append(stored, to: &writer)
                }
            }
        }
        while next < batch.count {
            append(entry(next), to: &writer)
            next += 1
        }
        flush(&writer)
    }

    private mutating func append(_ entry: Entry, to writer: inout Writer) {
        if writer.entries.count >= SpentTokens.chunkCapacity, writer.entries.last!.hash != entry.hash { flush(&writer) }
        writer.entries.append(entry)
        count += 1
    }

    private mutating func flush(_ writer: inout Writer) {
        guard let first = writer.entries.first else { return }
        chunks.append(Chunk(writer.entries, common: commonState))
        firstHashes.append(first.hash)
        writer.entries.removeAll(keepingCapacity: true)
    }

    private struct Writer {
        var entries: [Entry] = []
    }

    /// A run of entries in one allocation. A key is its 2-byte prefix (`TokenKey`'s project and
    /// form, the same for nearly every token of a log) and a 16-byte body (the packed UUID);
    /// entries whose prefix differs from the chunk's, or whose state differs from the common
    /// one, are marked in a bitmap each and have theirs stored after, in entry order:
    ///
    ///     bodies (16 n) | prefix bits (8 per 64) | state bits (8 per 64) | prefixes (2 each) | states (4 each)
    private struct Chunk {
        private var storage: [UInt8] = []
        private(set) var count = 0
        private var prefix: UInt16 = 0
        private var prefixesOffset = 0

        init() {}

        init(_ entries: [Entry], common: UInt32) {
            count = entries.count
            prefix = entries[0].key.prefix
            let ownPrefixes = entries.lazy.filter { [prefix] in $0.key.prefix != prefix }.count
            let ownStates = entries.lazy.filter { $0.state != common }.count
            prefixesOffset = Chunk.stateBitsOffset(count) + Chunk.bitmapBytes(count)
            storage = [UInt8](repeating: 0, count: prefixesOffset + ownPrefixes * 2 + ownStates * 4)
            let statesOffset = prefixesOffset + ownPrefixes * 2
            storage.withUnsafeMutableBytes { raw in
                var prefixIndex = 0
                var stateIndex = 0
                func mark(_ bitsOffset: Int, _ index: Int) {
                    let offset = bitsOffset + (index >> 6) * 8
                    raw.storeBytes(of: raw.load(fromByteOffset: offset, as: UInt64.self) | 1 << UInt64(index & 63), toByteOffset: offset, as: UInt64.self)
                }
                for (index, entry) in entries.enumerated() {
                    entry.key.writeBody(to: raw.baseAddress! + index * 16)
                    if entry.key.prefix != prefix {
                        mark(Chunk.prefixBitsOffset(count), index)
                        raw.storeBytes(of: entry.key.prefix, toByteOffset: prefixesOffset + prefixIndex * 2, as: UInt16.self)
                        prefixIndex += 1
                    }
                    if entry.state != common {
                        mark(Chunk.stateBitsOffset(count), index)
                        raw.storeBytes(of: entry.state, toByteOffset: statesOffset + stateIndex * 4, as: UInt32.self)
                        stateIndex += 1
                    }
                }
            }
        }

        private static func bitmapBytes(_ count: Int) -> Int { (count + 63) / 64 * 8 }
        private static func prefixBitsOffset(_ count: Int) -> Int { count * 16 }
        private static func stateBitsOffset(_ count: Int) -> Int { prefixBitsOffset(count) + bitmapBytes(count) }

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
            let (marked, before) = Chunk.rank(raw, bitsAt: Chunk.prefixBitsOffset(count), index)
            let own = marked ? raw.loadUnaligned(fromByteOffset: prefixesOffset + before * 2, as: UInt16.self) : prefix
            return Key(prefix: own, body: raw.baseAddress! + index * 16)
        }

        /// Calls `body` with every entry, in order.
        func forEach(common: UInt32, _ body: (Entry) -> Void) {
            storage.withUnsafeBytes { raw in
                let ownPrefixes = Chunk.rank(raw, bitsAt: Chunk.prefixBitsOffset(count), count - 1)
                let statesOffset = prefixesOffset + (ownPrefixes.before + (ownPrefixes.marked ? 1 : 0)) * 2
                var prefixIndex = 0
                var stateIndex = 0
                for index in 0..<count {
                    var own = prefix
                    if Chunk.rank(raw, bitsAt: Chunk.prefixBitsOffset(count), index).marked {
                        own = raw.loadUnaligned(fromByteOffset: prefixesOffset + prefixIndex * 2, as: UInt16.self)
                        prefixIndex += 1
                    }
                    var state = common
                    if Chunk.rank(raw, bitsAt: Chunk.stateBitsOffset(count), index).marked {
                        state = raw.loadUnaligned(fromByteOffset: statesOffset + stateIndex * 4, as: UInt32.self)
                        stateIndex += 1
                    }
                    let key = Key(prefix: own, body: raw.baseAddress! + index * 16)
                    body(Entry(hash: key.hash, key: key, state: state))
                }
            }
        }

        /// Finds `key` from where its hash would fall if the chunk's hashes, which lie in
        /// `hashes`, were spread evenly; then gallops to bracket it and bisects.
        func state(of key: Key, hash: UInt64, hashes: Range<UInt64>, common: UInt32) -> UInt32? {
            storage.withUnsafeBytes { raw -> UInt32? in
                let target = Entry(hash: hash, key: key, state: 0)
                func entry(_ index: Int) -> Entry {
                    let stored = self.key(raw, index)
                    return Entry(hash: stored.hash, key: stored, state: 0)
                }
                let span = hashes.upperBound &- hashes.lowerBound
                let guess = span == 0 ? 0 : min(count - 1, Int(span.dividingFullWidth(UInt64(count).multipliedFullWidth(by: hash &- hashes.lowerBound)).quotient))
                // The answer is the first entry not preceding the target; bracket it in
                // [low, high] by steps doubling away from the guess, then bisect.
                var low = 0
                var high = count
                var step = 1
                if Entry.precedes(entry(guess), target) {
                    low = guess + 1
                    while low + step - 1 < count, Entry.precedes(entry(low + step - 1), target) {
                        low += step
                        step *= 2
                    }
                    high = min(count, low + step - 1)
                } else {
                    high = guess
                    while high - step >= 0, !Entry.precedes(entry(high - step), target) {
                        high -= step
                        step *= 2
                    }
                    low = max(0, high - step + 1)
                }
                while low < high {
                    let middle = (low + high) / 2
                    if Entry.precedes(entry(middle), target) { low = middle + 1 } else { high = middle }
                }
                guard low < count, self.key(raw, low) == key else { return nil }
                let (marked, before) = Chunk.rank(raw, bitsAt: Chunk.stateBitsOffset(count), low)
                guard marked else { return common }
                let ownPrefixes = Chunk.rank(raw, bitsAt: Chunk.prefixBitsOffset(count), count - 1)
                let statesOffset = prefixesOffset + (ownPrefixes.before + (ownPrefixes.marked ? 1 : 0)) * 2
                return raw.loadUnaligned(fromByteOffset: statesOffset + before * 4, as: UInt32.self)
            }
        }
    }
}
