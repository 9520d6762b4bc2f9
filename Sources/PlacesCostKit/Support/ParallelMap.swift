import Dispatch

/// Runs independent pieces of work at once on the machine's cores, for the stages after the
/// walk that would otherwise leave all but one idle.
enum ParallelMap {
    /// `body(0) ... body(count - 1)`, run concurrently, in index order. `body` must not share
    /// mutable state between indices (each of its calls owns what it changes).
    static func results<Result>(count: Int, _ body: (Int) -> Result) -> [Result] {
        guard count > 1 else { return (0..<count).map(body) }
        return withoutActuallyEscaping(body) { body in
            let work = Work(body: body, count: count)
            DispatchQueue.concurrentPerform(iterations: count) { work.run($0) }
            return work.results.map { $0! }
        }
    }

    /// The body and the results' slots, handed to every thread: each writes only its own slot
    /// (memory of its own, not an array's shared header), and all are read after
    /// `concurrentPerform` returns.
    private final class Work<Result>: @unchecked Sendable {
        let body: (Int) -> Result
        private let slots: UnsafeMutableBufferPointer<Result?>

        init(body: @escaping (Int) -> Result, count: Int) {
            self.body = body
            slots = .allocate(capacity: count)
            slots.initialize(repeating: nil)
        }

        deinit {
            slots.deinitialize()
            slots.deallocate()
        }

        func run(_ index: Int) {
            slots[index] = body(index)
        }

        var results: [Result?] { Array(slots) }
    }
}
