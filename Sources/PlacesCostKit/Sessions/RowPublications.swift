import Foundation

/// The publications of every walk, waiting for the one thread that writes them.
final class RowPublications: @unchecked Sendable {
    let partitions: Int
    /// How long a run of calls on a spent token must have been idle for its row to be handed over
    /// as it stands (`RowPublication.provisional`): such a run stays open to the end of the log
    /// unless a details call comes.
    let idleRunAge: Int64
    /// Whether `take` hands over one publication at a time (tests): a walk's runs then reach the
    /// merge one by one, each after the rows before its bound are written, whatever the threads'
    /// timing; otherwise all that waits, so a writer behind catches up at once.
    private let oneAtATime: Bool
    private let condition = NSCondition()
    private var pending: [RowPublication] = []
    private var ending = Ending.none

    /// How the publications end.
    enum Ending {
        case none
        /// At once: what is pending is dropped, and the writing stops at the end of a block.
        case now
        /// Once every publication pending is taken (tests: the same rows written however the
        /// threads ran).
        case drained
    }

    init(partitions: Int, idleRunAge: Int64, oneAtATime: Bool = false) {
        self.partitions = partitions
        self.idleRunAge = idleRunAge
        self.oneAtATime = oneAtATime
    }

    func publish(_ publication: RowPublication) {
        condition.lock()
        if ending == .none { pending.append(publication) }
        condition.signal()
        condition.unlock()
    }

    /// Waits for publications and takes them all (or the first, `oneAtATime`); `nil` once they
    /// have ended.
    func take() -> [RowPublication]? {
        condition.lock()
        defer { condition.unlock() }
        while pending.isEmpty, ending == .none { condition.wait() }
        guard ending != .now, !pending.isEmpty else { return nil }
        if oneAtATime { return [pending.removeFirst()] }
        let taken = pending
        pending = []
        return taken
    }

    /// Whether the writing is to stop at the end of the block it is writing.
    var stopsNow: Bool {
        condition.lock()
        defer { condition.unlock() }
        return ending == .now
    }

    /// Ends the publications: the walks are done, or the writing is abandoned.
    func end(_ how: Ending) {
        condition.lock()
        ending = how
        if how == .now { pending = [] }
        condition.broadcast()
        condition.unlock()
    }
}
