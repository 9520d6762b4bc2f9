/// Puts calls that arrive nearly in time order into exact time order, holding only a window.
///
/// Merged logs of several servers are minutes out of order. Calls wait in one bucket per
/// second; a bucket is released, sorted by (time, input position), once the newest call is
/// more than `window` past its end. A call for a bucket already released is late: the buffer
/// says so (`isLate`) and the caller must not trust the walk, and how late the latest call was
/// (`disorder`) tells it what window would have sufficed. With no window every call is held
/// until `flush`, which is exact for any order.
struct ReorderBuffer<Element: Reorderable> {
    private let windowSeconds: Int64?
    private var buckets: [[Element]]
    /// The second held by `buckets[baseIndex]`.
    private var baseSecond: Int64 = .min
    private var baseIndex = 0
    private var buffered = 0
    private var newest: Int64 = .min
    /// Whether a call arrived after its second was released.
    private(set) var isLate = false
    /// The largest amount, in microseconds, by which a call was older than the newest before it.
    private(set) var disorder: Int64 = 0

    /// The widest window kept in per-second buckets (a day: merged server logs are minutes out
    /// of order); a wider one, as a log with a timestamp years off asks for, holds everything
    /// instead, which is exact for any order.
    static var maxBucketedSeconds: Int64 { 86_400 }

    /// - Parameter window: microseconds; `nil` holds everything until `flush`.
    init(window: Int64?) {
        self.windowSeconds = window.flatMap { window in
            let seconds = max(0, window) / 1_000_000 + 1
            return seconds <= ReorderBuffer.maxBucketedSeconds ? seconds : nil
        }
        self.buckets = Array(repeating: [], count: windowSeconds.map { Int($0) + 2 } ?? 1)
    }

    /// Notes a call's time for `disorder` without holding it (once the walk is known not exact).
    mutating func observe(_ microseconds: Int64) {
        if microseconds >= newest {
            newest = microseconds
        } else {
            disorder = max(disorder, newest &- microseconds)
        }
    }

    mutating func insert(_ element: Element, releasing released: inout [Element]) {
        let microseconds = element.time
        let isNewest = microseconds >= newest
        if isNewest {
            newest = microseconds
        } else {
            disorder = max(disorder, newest &- microseconds)
        }
        guard let windowSeconds else {
            buckets[0].append(element)
            buffered += 1
            return
        }
        let second = ReorderBuffer.second(microseconds)
        if baseSecond == .min { baseSecond = second - windowSeconds }
        if isNewest {
            // Everything more than the window before the newest call can no longer be preceded.
            advance(to: second - windowSeconds, releasing: &released)
        }
        guard second >= baseSecond else {
            isLate = true
            return
        }
        let slot = (baseIndex + Int(second - baseSecond)) % buckets.count
        buckets[slot].append(element)
        buffered += 1
    }

    /// Releases every held call, in order, onto `released`.
    mutating func flush(releasing released: inout [Element]) {
        if windowSeconds == nil {
            var all = buckets[0]
            buckets[0] = []
            buffered = 0
            all.sort(by: Element.precedes)
            released += all
            return
        }
        while buffered > 0 {
            releaseBase(&released)
        }
    }

    /// Releases the buckets of seconds before `second`.
    private mutating func advance(to second: Int64, releasing released: inout [Element]) {
        while baseSecond < second {
            if buffered == 0 {
                baseSecond = second
                return
            }
            releaseBase(&released)
        }
    }

    private mutating func releaseBase(_ released: inout [Element]) {
        var bucket = buckets[baseIndex]
        buckets[baseIndex] = []
        if !bucket.isEmpty {
            buffered -= bucket.count
            if !isSorted(bucket) { bucket.sort(by: Element.precedes) }
            released += bucket
            bucket.removeAll(keepingCapacity: true)
        }
        buckets[baseIndex] = bucket
        baseIndex = (baseIndex + 1) % buckets.count
        baseSecond += 1
    }

    private func isSorted(_ bucket: [Element]) -> Bool {
        var index = 1
        while index < bucket.count {
            if Element.precedes(bucket[index], bucket[index - 1]) { return false }
            index += 1
        }
        return true
    }

    private static func second(_ microseconds: Int64) -> Int64 {
        microseconds >= 0 ? microseconds / 1_000_000 : (microseconds - 999_999) / 1_000_000
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
