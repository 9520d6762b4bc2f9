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
