/// A pseudonym key file that exists but cannot be used.
enum PseudonymKeyError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case malformed(path: String)

    var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read the pseudonym key \(path): \(reason). Fix or remove it (a new key makes new pseudonyms, which no longer join earlier reports), or set \(Pseudonymizer.keyVariable)."
        case .malformed(let path):
            "the pseudonym key \(path) is not 64 hex digits. Remove it to make a new key (new pseudonyms no longer join earlier reports), or set \(Pseudonymizer.keyVariable)."
        }
    }
}
