/// The last four strings of up to 16 bytes remembered, newest replacing oldest; longer ones are
/// not remembered (no API, platform or project name of Google's or the generator's is).
///
/// Interleaved searches take turns between a few values (iOS, Android and web calls; an
/// autocomplete run and its details call): remember several, so that the common value never
/// reaches the interner's hash and probe. A short string is its length and two words
/// (`LastSeen.words(of:)`), compared in place.
struct RecentStrings {
    private var heads = SIMD4<UInt64>.zero
    private var tails = SIMD4<UInt64>.zero
    private var counts = SIMD4<Int64>(repeating: -1)
    private var ids = SIMD4<UInt32>.zero
    private var next = 0

    @inline(__always)
    func id(for candidate: UnsafeRawBufferPointer) -> UInt32? {
        let count = candidate.count
        guard count <= 16 else { return nil }
        let (head, tail) = count == 0 ? (0, 0) : LastSeen.words(of: candidate)
        for index in 0..<4 where counts[index] == Int64(count) && heads[index] == head && tails[index] == tail {
            return ids[index]
        }
        return nil
    }

    mutating func remember(_ candidate: UnsafeRawBufferPointer, id: UInt32) {
        let count = candidate.count
        guard count <= 16 else { return }
        (heads[next], tails[next]) = count == 0 ? (0, 0) : LastSeen.words(of: candidate)
        counts[next] = Int64(count)
        ids[next] = id
        next = (next + 1) & 3
    }
}
