/// Gives each distinct byte string a small integer id, storing each string once.
///
/// The hot path of ingest sees the same few strings (platforms, field masks, API names) millions
/// of times, and each session token a handful of times: a `[String: Int]` would allocate a
/// `String` per lookup. This is an open-addressing table over one contiguous arena, looked up
/// with the caller's bytes, so a lookup allocates nothing.
struct ByteInterner: Sendable {
    /// The stored strings back to back; string `id` is `arena[starts[id] ..< starts[id + 1]]`.
    private var arena: [UInt8] = []
    private var starts: [Int] = [0]
    /// `0` is an empty slot, otherwise the hash's high 32 bits above `id + 1`: a probe that meets
    /// another string's slot is told apart without touching the arena (a cache miss, on a table
    /// of a million tokens).
    private var slots: [UInt64]
    private var slotMask: Int

    init(capacity: Int = 64) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [UInt64](repeating: 0, count: size)
        slotMask = size - 1
    }

    /// Strings stored.
    var count: Int { starts.count - 1 }


    /// The id of `bytes`, storing it when new.
    mutating func intern(_ bytes: UnsafeRawBufferPointer) -> (id: UInt32, inserted: Bool) {
        let hash = ByteInterner.hash(bytes)
        let tag = hash & 0xFFFF_FFFF_0000_0000
        var slot = Int(truncatingIfNeeded: hash) & slotMask
        while true {
            let entry = slots[slot]
            if entry == 0 { break }
            if entry & 0xFFFF_FFFF_0000_0000 == tag {
                let id = UInt32(truncatingIfNeeded: entry) - 1
                if equals(Int(id), bytes) { return (id, false) }
            }
            slot = (slot + 1) & slotMask
        }
        let id = UInt32(count)
        arena.append(contentsOf: bytes)
        starts.append(arena.count)
        slots[slot] = tag | UInt64(id + 1)
        if count * 10 > slots.count * 7 { grow() }
        return (id, true)
    }

    /// The bytes stored under `id`.
    func bytes(_ id: UInt32) -> ArraySlice<UInt8> {
        arena[starts[Int(id)] ..< starts[Int(id) + 1]]
    }

    /// Calls `body` with the bytes stored under `id`, in place.
    func withBytes<Result>(_ id: UInt32, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let range = starts[Int(id)] ..< starts[Int(id) + 1]
        return arena.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    private func equals(_ id: Int, _ bytes: UnsafeRawBufferPointer) -> Bool {
        let start = starts[id]
        let length = starts[id + 1] - start
        guard length == bytes.count else { return false }
        guard length > 0 else { return true }
        return arena.withUnsafeBytes { stored in
            ByteInterner.equal(stored.baseAddress! + start, bytes.baseAddress!, length)
        }
    }

    /// Byte equality, 8 bytes at a time: keys are short, and `memcmp` through the PLT costs more
    /// than the comparison. The differences of all words are gathered and tested once (the
    /// last word overlapping the one before it), never one branch per word: `JSONLineLayouts`
    /// compares its gaps with it on every line.
    @inline(__always)
    static func equal(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ count: Int) -> Bool {
        @inline(__always)
        func difference<Word: FixedWidthInteger>(_: Word.Type, at offset: Int) -> Word {
            lhs.loadUnaligned(fromByteOffset: offset, as: Word.self) ^ rhs.loadUnaligned(fromByteOffset: offset, as: Word.self)
        }
        if count >= 8 {
            var different = difference(UInt64.self, at: count &- 8)
            var offset = 0
            while offset &+ 8 < count {
                different |= difference(UInt64.self, at: offset)
                offset &+= 8
            }
            return different == 0
        }
        if count >= 4 {
            return difference(UInt32.self, at: 0) | difference(UInt32.self, at: count &- 4) == 0
        }
        var different: UInt8 = 0
        for offset in 0..<count {
            different |= difference(UInt8.self, at: offset)
        }
        return different == 0
    }

    private mutating func grow() {
        let size = slots.count * 2
        var grown = [UInt64](repeating: 0, count: size)
        let mask = size - 1
        arena.withUnsafeBytes { stored in
            for id in 0..<count {
                let start = starts[id]
                let hash = ByteInterner.hash(UnsafeRawBufferPointer(rebasing: stored[start ..< starts[id + 1]]))
                var slot = Int(truncatingIfNeeded: hash) & mask
                while grown[slot] != 0 { slot = (slot + 1) & mask }
                grown[slot] = hash & 0xFFFF_FFFF_0000_0000 | UInt64(id + 1)
            }
        }
        slots = grown
        slotMask = mask
    }

    /// A fast 64-bit hash of bytes (8 at a time, multiply-xorshift mixing).
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var offset = 0
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress else { return hash }
        while offset + 8 <= count {
            let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            hash = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 29
            offset += 8
        }
        if offset < count {
            var word: UInt64 = 0
            if count >= 8 {
                // The last eight bytes as one word, shifted so only those not yet read remain:
                // never a byte-by-byte tail (a UUID has one).
                word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)) >> UInt64(64 - 8 * (count - offset))
            } else {
                var shift: UInt64 = 0
                while offset < count {
                    word |= UInt64(base.load(fromByteOffset: offset, as: UInt8.self)) << shift
                    shift += 8
                    offset += 1
                }
            }
            hash = (hash ^ word) &* 0xC4CE_B9FE_1A85_EC53
        }
        hash ^= hash >> 32
        hash = hash &* 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 29
        return hash
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
