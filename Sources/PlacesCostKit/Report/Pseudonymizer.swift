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

    private let hmac: HMACSHA256

    /// - Parameter key: any bytes; a key longer than a block is hashed first, as RFC 2104 says.
    init(key: [UInt8]) {
        hmac = HMACSHA256(key: key)
    }

    /// The full HMAC-SHA256 of `message`.
    func authenticationCode(_ message: [UInt8]) -> [UInt8] {
        hmac.code(message)
    }

    /// The pseudonym of `value`'s UTF-8 bytes as a number: its 16 hex digits are `pseudonym`'s.
    @inline(__always)
    func pseudonym64(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        hmac.prefix64(bytes)
    }

    /// The pseudonym of `value`: 16 lowercase hex digits (64 bits).
    func pseudonym(_ value: String) -> String {
        var value = value
        let number = value.withUTF8 { pseudonym64(UnsafeRawBufferPointer($0)) }
        var text: [UInt8] = []
        Pseudonymizer.appendHex(number, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Writes 16 lowercase hex digits of `value`, most significant first, at `out`; returns the
    /// position after them.
    @inline(__always)
    static func putHex(_ value: UInt64, at out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let raw = UnsafeMutableRawPointer(out)
        raw.storeBytes(of: hexDigits(UInt32(truncatingIfNeeded: value >> 32)), as: UInt64.self)
        (raw + 8).storeBytes(of: hexDigits(UInt32(truncatingIfNeeded: value)), as: UInt64.self)
        return out + 16
    }

    /// The 8 hex digits of `value` as the bytes of a word in memory order (most significant
    /// digit first), all eight at once: the nibbles are spread one to a byte, and a byte of 10
    /// or more gets the gap from `9` to `a` added, with no carry across bytes (each stays < 64).
    @inline(__always)
    static func hexDigits(_ value: UInt32) -> UInt64 {
        var spread = UInt64(value)
        spread = (spread | spread << 16) & 0x0000_FFFF_0000_FFFF
        spread = (spread | spread << 8) & 0x00FF_00FF_00FF_00FF
        spread = (spread | spread << 4) & 0x0F0F_0F0F_0F0F_0F0F
        // Byte i now holds nibble i, counted from the least significant.
        let isLetter = (spread &+ 0x0606_0606_0606_0606) >> 4 & 0x0101_0101_0101_0101
        let ascii = spread &+ 0x3030_3030_3030_3030 &+ isLetter &* UInt64(UInt8(ascii: "a") - UInt8(ascii: "0") - 10)
        return ascii.bigEndian
    }

    /// Appends 16 lowercase hex digits of `value`, most significant first.
    @inline(__always)
    static func appendHex(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 60, through: 0, by: -4) {
            let digit = UInt8(truncatingIfNeeded: value >> UInt64(shift)) & 0x0F
            bytes.append(digit < 10 ? digit + 0x30 : digit + 0x57)
        }
    }
}
