import Foundation

/// Strings that label calls (projects, platforms, unknown API names, field masks), each given an
/// id once for the whole run and shared by every ingest thread.
///
/// Threads look strings up in their own `ByteInterner` first and come here only for a string
/// they have not met, so the lock is taken a handful of times per run. Ids depend on which
/// thread met a string first, so nothing a report prints may depend on an id: consumers turn
/// ids back into values before sorting or printing.
package final class LabelCatalog<Value: Hashable & Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    /// Id 0 means "none".
    private var values: [Value?] = [nil]
    private var ids: [Value: UInt32] = [:]

    package init() {}

    /// The id of `value`; 0 for `nil`.
    package func id(for value: Value?) -> UInt32 {
        guard let value else { return 0 }
        lock.lock()
        defer { lock.unlock() }
        if let id = ids[value] { return id }
        let id = UInt32(values.count)
        values.append(value)
        ids[value] = id
        return id
    }

    /// The value of `id`; `nil` for 0.
    package func value(_ id: UInt32) -> Value? {
        lock.lock()
        defer { lock.unlock() }
        return values[Int(id)]
    }
}
