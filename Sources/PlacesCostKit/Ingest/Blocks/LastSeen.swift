/// One string's bytes (up to 64) and the id they were given, to skip a lookup when the next
/// call repeats them.
///
/// Most such strings (API names, platforms, projects) are 16 bytes or fewer: those are compared
/// as two overlapping words read once when remembered, with no copy and no loop. Longer ones
/// (field masks) are kept inline and compared word by word.
struct LastSeen {
    private var bytes: (SIMD32<UInt8>, SIMD32<UInt8>) = (.zero, .zero)
    /// For 1...16 bytes: the first and last eight (or four) bytes, as `words(of:)` reads them.
    private var head: UInt64 = 0
    private var tail: UInt64 = 0
    private var count = -1
    private var id: UInt32 = 0

    private static var capacity: Int { 64 }

    /// Two words that, with the length, determine a run of 1...16 bytes.
    @inline(__always)
    static func words(of candidate: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        let base = candidate.baseAddress!
        let count = candidate.count
        if count >= 8 {
            return (base.loadUnaligned(as: UInt64.self), base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
        }
        if count >= 4 {
            return (UInt64(base.loadUnaligned(as: UInt32.self)), UInt64(base.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)))
        }
        let first = UInt64(base.load(as: UInt8.self))
        let middle = UInt64(base.load(fromByteOffset: count >> 1, as: UInt8.self))
        let last = UInt64(base.load(fromByteOffset: count - 1, as: UInt8.self))
        return (first << 16 | middle << 8 | last, 0)
    }

    @inline(__always)
    func id(for candidate: UnsafeRawBufferPointer) -> UInt32? {
        guard candidate.count == count else { return nil }
        guard count > 0 else { return id }
        if count <= 16 {
            let (first, last) = LastSeen.words(of: candidate)
            return first == head && last == tail ? id : nil
        }
        let same = withUnsafeBytes(of: bytes) { ByteInterner.equal($0.baseAddress!, candidate.baseAddress!, count) }
        return same ? id : nil
    }

    mutating func remember(_ candidate: UnsafeRawBufferPointer, id: UInt32) {
        guard candidate.count <= LastSeen.capacity else {
            count = -1
            return
        }
        if candidate.count > 16 {
            withUnsafeMutableBytes(of: &bytes) { $0.baseAddress!.copyMemory(from: candidate.baseAddress!, byteCount: candidate.count) }
        } else if candidate.count > 0 {
            (head, tail) = LastSeen.words(of: candidate)
        }
        count = candidate.count
        self.id = id
    }
}
