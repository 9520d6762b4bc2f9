/// The ids of recently seen keys (tokens or users), looked up by the raw bytes' hash.
///
/// A session's calls come seconds apart, so most calls' token was seen a moment ago. Finding it
/// here skips packing the token (`TokenKey`) and probing the table of every token ever seen,
/// whose slots and bytes are rarely in the CPU cache. Direct-mapped: a new key overwrites the
/// entry its hash falls on. Keys longer than 48 bytes are not cached.
struct RecentKeys {
    private static let capacity = 4096
    private static let maxLength = 48
    private var hashes = [UInt64](repeating: 0, count: capacity)
    /// `id + 1` per entry; 0 for empty.
    private var ids = [UInt32](repeating: 0, count: capacity)
    private var projects = [UInt32](repeating: 0, count: capacity)
    private var lengths = [UInt8](repeating: 0, count: capacity)
    private var bytes = [UInt8](repeating: 0, count: capacity * maxLength)

    /// Forgets every entry (the ids they hold were renumbered).
    mutating func removeAll() {
        for slot in ids.indices { ids[slot] = 0 }
    }

    /// The id stored for (`project`, `key`), if it is still cached.
    func find(project: UInt32, _ key: UnsafeRawBufferPointer, hash: UInt64) -> UInt32? {
        let slot = Int(truncatingIfNeeded: hash) & (RecentKeys.capacity - 1)
        guard ids[slot] != 0, hashes[slot] == hash, projects[slot] == project, Int(lengths[slot]) == key.count else { return nil }
        let equal = bytes.withUnsafeBytes { stored in
            key.count == 0 || ByteInterner.equal(stored.baseAddress! + slot * RecentKeys.maxLength, key.baseAddress!, key.count)
        }
        return equal ? ids[slot] - 1 : nil
    }

    mutating func store(project: UInt32, _ key: UnsafeRawBufferPointer, hash: UInt64, id: UInt32) {
        guard key.count <= RecentKeys.maxLength else { return }
        let slot = Int(truncatingIfNeeded: hash) & (RecentKeys.capacity - 1)
        hashes[slot] = hash
        ids[slot] = id + 1
        projects[slot] = project
        lengths[slot] = UInt8(key.count)
        if key.count > 0 {
            bytes.withUnsafeMutableBytes { stored in
                (stored.baseAddress! + slot * RecentKeys.maxLength).copyMemory(from: key.baseAddress!, byteCount: key.count)
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
