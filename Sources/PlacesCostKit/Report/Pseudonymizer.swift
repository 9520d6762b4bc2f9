/// Turns session tokens and user ids into pseudonyms for `searches.csv`: the first 16 hex digits
/// of HMAC-SHA256 (RFC 2104) under a secret key.
///
/// A plain hash of a user id is no secret: anyone can hash the likely ids (`u-1`, an email
/// address) and look them up. Keyed, the pseudonyms group a user's or a token's rows and join
/// reports made with the same key, while the ids cannot be recovered without it. The key is
/// `PLACESCOST_HASH_KEY` when set, otherwise the user's random key (`PseudonymKeyStore`); it is
/// never derived from the log, which would let anyone who guesses the ids recompute it.
struct Pseudonymizer: Sendable {
    /// The environment variable holding the key.
    static let keyVariable = "PLACESCOST_HASH_KEY"

    private let innerPad: [UInt8]
    private let outerPad: [UInt8]

    /// - Parameter key: any bytes; a key longer than a block is hashed first, as RFC 2104 says.
    init(key: [UInt8]) {
        var block = key.count > 64 ? SHA256.digest(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        innerPad = block.map { $0 ^ 0x36 }
        outerPad = block.map { $0 ^ 0x5C }
    }

    /// The full HMAC-SHA256 of `message`.
    func authenticationCode(_ message: [UInt8]) -> [UInt8] {
        SHA256.digest(outerPad + SHA256.digest(innerPad + message))
    }

    /// The pseudonym of `value`: 16 lowercase hex digits (64 bits).
    func pseudonym(_ value: String) -> String {
        let code = authenticationCode(Array(value.utf8))
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(16)
        for byte in code.prefix(8) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
