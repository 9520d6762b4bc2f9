import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps a mapped file that is cut short under its readers from crashing the process.
///
/// A live log is often truncated while it is read (log rotation with `copytruncate`): a page of
/// the mapping past the new end then raises SIGBUS when touched. The handler installed here finds
/// the page in a registered mapping, maps zeros over it and the rest of that mapping (one call,
/// whatever is left), notes the mapping as cut, and returns, so the read goes on over zeros; the
/// reader sees its `Record`'s `wasCut` and reports the file as cut (`IngestError.cutWhileRead`). A SIGBUS
/// anywhere else goes to the handler that was there before (Swift's backtracer, or the default
/// action), as if this one did not exist.
///
/// The rules to keep: the handler only reads the slot table (a fixed block of words, never
/// moved or freed) and calls `mmap` and `sigaction`; slots are claimed and freed under a lock by
/// the mapping's owner. A mapping is registered before any block of it is handed to another
/// thread, so every reader of its pages sees its slot.
enum MappingGuard {
    /// Mappings guarded at once; past that a mapping goes unguarded (as every one did before).
    private static let capacity = 64

    /// Per slot: the first and past-the-end addresses (0, 0 when free) and the cut flag; after
    /// the slots, the page size, so the handler never initializes a global.
    nonisolated(unsafe) private static let table: UnsafeMutablePointer<UInt> = {
        let table = UnsafeMutablePointer<UInt>.allocate(capacity: 3 * capacity + 1)
        table.initialize(repeating: 0, count: 3 * capacity + 1)
        table[3 * capacity] = UInt(sysconf(Int32(_SC_PAGESIZE)))
        return table
    }()

    private static let lock = NSLock()

    /// The SIGBUS action before this one, put back for a fault outside every guarded mapping.
    nonisolated(unsafe) private static var previous = sigaction()

    private static let installed: Void = {
        _ = table
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_sigaction = handleBusError
        #else
        action.__sigaction_u.__sa_sigaction = handleBusError
        #endif
        action.sa_flags = SA_SIGINFO
        sigemptyset(&action.sa_mask)
        sigaction(SIGBUS, &action, &previous)
    }()

    /// One guarded mapping: whether it was read past a cut, kept once the mapping is gone, so a
    /// reader can ask after the last block of the file is parsed and its mapping released.
    final class Record: @unchecked Sendable {
        /// The slot while the mapping is guarded; `nil` once released, or when every slot was taken.
        private var slot: Int?
        private var cutWhenReleased = false

        fileprivate init(slot: Int?) {
            self.slot = slot
        }

        /// Whether a page past the file's end was read through the mapping.
        var wasCut: Bool {
            slot.map { MappingGuard.table[3 * $0 + 2] != 0 } ?? cutWhenReleased
        }

        /// Frees the slot; call once, before the mapping is unmapped.
        func release() {
            guard let slot else { return }
            cutWhenReleased = wasCut
            MappingGuard.lock.withLock {
                MappingGuard.table[3 * slot + 1] = 0
                MappingGuard.table[3 * slot] = 0
            }
            self.slot = nil
        }
    }

    /// Guards `count` bytes mapped at `base` (unguarded when every slot is taken).
    static func guardMapping(_ base: UnsafeRawPointer, count: Int) -> Record {
        _ = installed
        return Record(slot: lock.withLock {
            guard let slot = (0..<capacity).first(where: { table[3 * $0 + 1] == 0 }) else { return nil }
            table[3 * slot + 2] = 0
            table[3 * slot] = UInt(bitPattern: base)
            table[3 * slot + 1] = UInt(bitPattern: base) + UInt(count)
            return slot
        })
    }

    /// The SIGBUS handler: zeros over the rest of a guarded mapping from the faulting page on.
    private static let handleBusError: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = { _, info, _ in
        #if canImport(Glibc)
        let address = info.map { UInt(bitPattern: $0.pointee._sifields._sigfault.si_addr) } ?? 0
        #else
        let address = info.map { UInt(bitPattern: $0.pointee.si_addr) } ?? 0
        #endif
        let page = address & ~(MappingGuard.table[3 * MappingGuard.capacity] - 1)
        for slot in 0..<MappingGuard.capacity {
            let start = MappingGuard.table[3 * slot], end = MappingGuard.table[3 * slot + 1]
            guard start <= page, page < end else { continue }
            let zeros = mmap(UnsafeMutableRawPointer(bitPattern: page), Int(end - page), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)
            if zeros != MAP_FAILED {
                MappingGuard.table[3 * slot + 2] = 1
                return
            }
            break
        }
        // Not ours, or zeros could not be mapped: the fault happens again under the action before.
        sigaction(SIGBUS, &MappingGuard.previous, nil)
    }
}
