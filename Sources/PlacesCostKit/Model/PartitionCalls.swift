/// The group calls of one partition of one block, with the bytes their keys point into.
struct PartitionCalls: Sendable {
    var calls: [GroupCall] = []
    var arena: [UInt8] = []

    init() {}

    /// Adds a walked call with its key's bytes, and its user's when given, to the arena.
    ///
    /// Keep this a single mutating access for all three appends: through
    /// `block.partitions[index]`, each append pays a uniqueness check of the partitions and
    /// then of the array.
    @inline(__always)
    mutating func file(_ call: GroupCall, key: UnsafeRawBufferPointer, user: UnsafeRawBufferPointer?) {
        var call = call
        call.keyStart = Int32(arena.count)
        call.keyCount = Int32(key.count)
        // As typed buffers: appending raw bytes goes through the generic sequence path, typed
        // ones are one copy.
        arena.append(contentsOf: key.assumingMemoryBound(to: UInt8.self))
        if let user {
            call.userStart = Int32(arena.count)
            call.userCount = Int32(user.count)
            arena.append(contentsOf: user.assumingMemoryBound(to: UInt8.self))
        }
        calls.append(call)
    }
}
