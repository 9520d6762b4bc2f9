/// Puts calls that arrive nearly in time order into exact time order, holding only a window.
///
/// Merged logs of several servers are minutes out of order. Calls wait in one bucket per
/// 2^23 µs (about 8.4 s); a bucket is released, sorted by (time, input position), once the
/// newest call is more than `window` past its end. A call for a bucket already released is
/// late: the buffer says so (`isLate`) and the caller must not trust the walk, and how late the
/// latest call was (`disorder`) tells it what window would have sufficed. With no window every
/// call is held until `flush`, which is exact for any order.
struct ReorderBuffer<Element: Reorderable> {
    /// Buckets a call may lag the newest one's by and still be held.
    private let windowBuckets: Int64?
    private var buckets: [[Element]]
    /// Whether each bucket holds calls, packed: a sparse log (a call every few seconds) passes
    /// mostly empty buckets, so never read a bucket's own header (a cache miss) to learn it.
    private var occupied: [UInt64]
    /// An empty bucket with capacity, swapped with the one being released so neither is copied.
    private var spare: [Element] = []
    /// The bucket number (time >> `bucketShift`) held by `buckets[baseIndex]`.
    private var baseBucket: Int64 = .min
    private var baseIndex = 0
    private var buffered = 0
    private var newest: Int64 = .min
    /// Whether a call arrived after its bucket was released.
    private(set) var isLate = false
    /// The largest amount, in microseconds, by which a call was older than the newest before it.
    private(set) var disorder: Int64 = 0

    /// The widest window kept in buckets (a day: merged server logs are minutes out of order); a
    /// wider one, as a log with a timestamp years off asks for, holds everything instead, which
    /// is exact for any order.
    static var maxBucketedSeconds: Int64 { 86_400 }

    /// A bucket spans 2^23 µs (about 8.4 s): wide enough that a typical log puts many calls of a
    /// partition in each, so releasing a bucket's header is paid once for many calls, not per
    /// call or two. A power of two, so a shift finds the bucket without a division.
    static var bucketShift: Int64 { 23 }

    /// - Parameter window: microseconds; `nil` holds everything until `flush`.
    init(window: Int64?) {
        self.windowBuckets = window.flatMap { window in
            guard window / 1_000_000 < ReorderBuffer.maxBucketedSeconds else { return nil }
            // Enough whole buckets to cover the window, and one for the newest call's own.
            let span: Int64 = 1 << ReorderBuffer.bucketShift
            return (max(0, window) + span - 1) / span + 1
        }
        self.buckets = Array(repeating: [], count: windowBuckets.map { Int($0) + 2 } ?? 1)
        self.occupied = Array(repeating: 0, count: (buckets.count + 63) / 64)
    }

    /// Notes a call's time for `disorder` without holding it (once the walk is known not exact).
    mutating func observe(_ microseconds: Int64) {
        if microseconds >= newest {
            newest = microseconds
        } else {
            disorder = max(disorder, newest &- microseconds)
        }
    }

    /// An empty buffer that allocates nothing, to stand in while the real one is borrowed.
    static var placeholder: ReorderBuffer { ReorderBuffer() }

    private init() {
        windowBuckets = nil
        buckets = []
        occupied = []
    }

    /// Holds `element`, and hands `release` every call that can no longer be preceded, in order.
    @inline(__always)
    mutating func insert(_ element: Element, release: (Element) -> Void) {
        let microseconds = element.time
        let isNewest = microseconds >= newest
        if isNewest {
            newest = microseconds
        } else {
            disorder = max(disorder, newest &- microseconds)
        }
        guard let windowBuckets else {
            buckets[0].append(element)
            buffered += 1
            return
        }
        let bucket = microseconds >> ReorderBuffer.bucketShift
        if baseBucket == .min { baseBucket = bucket - windowBuckets }
        if isNewest {
            // Everything more than the window before the newest call can no longer be preceded.
            advance(to: bucket - windowBuckets, release: release)
        }
        guard bucket >= baseBucket else {
            isLate = true
            return
        }
        // Both terms are below the bucket count (a newer call advanced the base first), so a
        // subtraction wraps the ring: keep it, never a remainder's division.
        var slot = baseIndex + Int(bucket - baseBucket)
        if slot >= buckets.count { slot -= buckets.count }
        assert(slot >= 0 && slot < buckets.count)
        buckets[slot].append(element)
        occupied[slot >> 6] |= 1 << UInt64(slot & 63)
        buffered += 1
    }

    /// Calls `body` on every held call, in place (their order must not change).
    mutating func updateEach(_ body: (inout Element) -> Void) {
        for bucket in buckets.indices {
            for index in buckets[bucket].indices { body(&buckets[bucket][index]) }
        }
    }

    /// Hands `release` every held call, in order.
    mutating func flush(release: (Element) -> Void) {
        if windowBuckets == nil {
            var all = buckets[0]
            buckets[0] = []
            buffered = 0
            all.sort(by: Element.precedes)
            all.forEach(release)
            return
        }
        while buffered > 0 {
            releaseBase(release)
        }
    }

    /// Releases the buckets before `bucket`.
    @inline(__always)
    private mutating func advance(to bucket: Int64, release: (Element) -> Void) {
        while baseBucket < bucket {
            if buffered == 0 {
                baseBucket = bucket
                return
            }
            releaseBase(release)
        }
    }

    /// Releases the oldest bucket. The bucket is swapped with `spare`, never copied out: a copy
    /// pays reference counting for every call in it.
    private mutating func releaseBase(_ release: (Element) -> Void) {
        if occupied[baseIndex >> 6] >> UInt64(baseIndex & 63) & 1 != 0 {
            occupied[baseIndex >> 6] &= ~(1 << UInt64(baseIndex & 63))
            swap(&spare, &buckets[baseIndex])
            buffered -= spare.count
            if !isSorted(spare) { spare.sort(by: Element.precedes) }
            spare.withUnsafeBufferPointer { $0.forEach(release) }
            spare.removeAll(keepingCapacity: true)
        }
        baseIndex += 1
        if baseIndex == buckets.count { baseIndex = 0 }
        baseBucket += 1
    }

    private func isSorted(_ bucket: [Element]) -> Bool {
        bucket.withUnsafeBufferPointer { bucket in
            var index = 1
            while index < bucket.count {
                if Element.precedes(bucket[index], bucket[index - 1]) { return false }
                index += 1
            }
            return true
        }
    }

}

/// What the reorder buffer orders by: a time, then the position in the input.
protocol Reorderable {
    var time: Int64 { get }
    var sequence: Int64 { get }
}

extension Reorderable {
    static func precedes(_ lhs: Self, _ rhs: Self) -> Bool {
        (lhs.time, lhs.sequence) < (rhs.time, rhs.sequence)
    }
}
