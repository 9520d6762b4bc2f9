/// The user of each recently seen token's calls, by token id: a session's calls nearly always
/// carry one user, so a call's user is found by comparing its bytes with its token's last
/// user's, with no hash and no probe of the user table. Direct-mapped; users longer than
/// `maxLength` bytes are not kept. Token ids change when tokens are compacted: `removeAll` then.
struct TokenUsers {
    private static let capacity = 4096
    private static let maxLength = 32
    private var tokens = [UInt32](repeating: .max, count: capacity)
    private var users = [UInt32](repeating: 0, count: capacity)
    private var lengths = [UInt8](repeating: 0, count: capacity)
    private var bytes = [UInt8](repeating: 0, count: capacity * maxLength)

    /// The user id stored for `token`'s last call, when that call's user had these bytes.
    @inline(__always)
    func find(token: UInt32, _ user: UnsafeRawBufferPointer) -> UInt32? {
        let slot = Int(token & UInt32(TokenUsers.capacity - 1))
        guard tokens[slot] == token, Int(lengths[slot]) == user.count else { return nil }
        let equal = user.count == 0 || bytes.withUnsafeBytes { stored in
            ByteInterner.equal(stored.baseAddress! + slot * TokenUsers.maxLength, user.baseAddress!, user.count)
        }
        return equal ? users[slot] : nil
    }

    mutating func store(token: UInt32, _ user: UnsafeRawBufferPointer, id: UInt32) {
        guard user.count <= TokenUsers.maxLength else { return }
        let slot = Int(token & UInt32(TokenUsers.capacity - 1))
        tokens[slot] = token
        users[slot] = id
        lengths[slot] = UInt8(user.count)
        if user.count > 0 {
            bytes.withUnsafeMutableBytes { stored in
                (stored.baseAddress! + slot * TokenUsers.maxLength).copyMemory(from: user.baseAddress!, byteCount: user.count)
            }
        }
    }

    mutating func removeAll() {
        for slot in tokens.indices { tokens[slot] = .max }
    }
}
