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
    private static let otherBit: UInt32 = 0x8000_0000

    private var keys = ChunkedArray<UInt8>()
    private var keyCount = 0
    private var slots: [UInt32]
    private var tags: [UInt8]
    private var slotMask: Int
    private var fixedStates = ChunkedArray<UInt32>()
    private var other = ByteInterner()
    private var otherStates = ChunkedArray<UInt32>()

    init() {
        slots = [UInt32](repeating: 0, count: 1 << 12)
        tags = [UInt8](repeating: 0, count: 1 << 12)
        slotMask = (1 << 12) - 1
    }

    /// Keys stored.
    var count: Int { keyCount + other.count }

    /// The id of `key`, storing it (with state 0) when new.
    mutating func intern(_ key: UnsafeRawBufferPointer) -> UInt32 {
        guard key.count == KeyTable.width else {
            let (id, inserted) = other.intern(key)
            if inserted { otherStates.append(0) }
            return id | KeyTable.otherBit
        }
        let hash = ByteInterner.hash(key)
        let tag = UInt8(truncatingIfNeeded: hash >> 56)
        var slot = Int(truncatingIfNeeded: hash) & slotMask
        while true {
            let entry = slots[slot]
            if entry == 0 { break }
            if tags[slot] == tag, keys.equals(at: Int(entry - 1) * KeyTable.width, key) { return entry - 1 }
            slot = (slot + 1) & slotMask
        }
        let id = UInt32(keyCount)
        keys.append(contentsOf: key)
        keyCount += 1
        fixedStates.append(0)
        slots[slot] = id + 1
        tags[slot] = tag
        if keyCount * 4 > slots.count * 3 { grow() }
        return id
    }

    /// The state of key `id`.
    subscript(state id: UInt32) -> UInt32 {
        get { id & KeyTable.otherBit == 0 ? fixedStates[Int(id)] : otherStates[Int(id & ~KeyTable.otherBit)] }
        set {
            if id & KeyTable.otherBit == 0 {
                fixedStates[Int(id)] = newValue
            } else {
                otherStates[Int(id & ~KeyTable.otherBit)] = newValue
            }
        }
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

/// An append-only array in fixed chunks of 64 Ki elements: growing allocates one chunk, never a
/// copy of everything (which a doubling `Array` does, briefly holding both).
struct ChunkedArray<Element> {
    private static var chunkShift: Int { 16 }
    private var chunks: [[Element]] = []
    private(set) var count = 0

    subscript(index: Int) -> Element {
        get { chunks[index >> ChunkedArray.chunkShift][index & ((1 << ChunkedArray.chunkShift) - 1)] }
        set { chunks[index >> ChunkedArray.chunkShift][index & ((1 << ChunkedArray.chunkShift) - 1)] = newValue }
    }

    mutating func append(_ element: Element) {
        openChunkIfFull()
        chunks[chunks.count - 1].append(element)
        count += 1
    }

    /// Starts a chunk, with its whole capacity, when the last one is full (or there is none).
    private mutating func openChunkIfFull() {
        guard count & ((1 << ChunkedArray.chunkShift) - 1) == 0 else { return }
        var chunk: [Element] = []
        chunk.reserveCapacity(1 << ChunkedArray.chunkShift)
        chunks.append(chunk)
    }
}

extension ChunkedArray where Element == UInt8 {
    /// Appends `bytes`, a chunk's run at a time.
    mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
        var rest = bytes
        while !rest.isEmpty {
            openChunkIfFull()
            let chunkSize = 1 << ChunkedArray.chunkShift
            let room = chunkSize - (count & (chunkSize - 1))
            let run = UnsafeRawBufferPointer(rebasing: rest.prefix(room))
            chunks[chunks.count - 1].append(contentsOf: run)
            count += run.count
            rest = UnsafeRawBufferPointer(rebasing: rest.dropFirst(run.count))
        }
    }

    /// Calls `body` with `count` bytes from `start`, copied only when they cross a chunk.
    func withBytes<Result>(at start: Int, count: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let mask = (1 << ChunkedArray.chunkShift) - 1
        let offset = start & mask
        if offset + count <= mask + 1 {
            return chunks[start >> ChunkedArray.chunkShift].withUnsafeBytes { chunk in
                body(UnsafeRawBufferPointer(rebasing: chunk[offset ..< offset + count]))
            }
        }
        let copy = (0..<count).map { self[start + $0] }
        return copy.withUnsafeBytes(body)
    }

    /// Whether the bytes from `start` equal `bytes` (which do not cross a chunk when the width
    /// divides the chunk size; otherwise compared byte by byte).
    func equals(at start: Int, _ bytes: UnsafeRawBufferPointer) -> Bool {
        let mask = (1 << ChunkedArray.chunkShift) - 1
        let offset = start & mask
        if offset + bytes.count <= mask + 1 {
            return chunks[start >> ChunkedArray.chunkShift].withUnsafeBytes { chunk in
                ByteInterner.equal(chunk.baseAddress! + offset, bytes.baseAddress!, bytes.count)
            }
        }
        for index in 0..<bytes.count where self[start + index] != bytes[index] { return false }
        return true
    }
}
