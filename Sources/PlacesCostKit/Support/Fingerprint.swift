/// A 64-bit hash of a record's content, the same in every run: two records with the same
/// fingerprint and the same time are taken as exact duplicates (`--dedupe`).
///
/// A JSON Lines record is fingerprinted by its line's bytes (without the line end), a CSV row by
/// its bytes too (a row that spans lines: its lines joined by `\n`), an access-log line or a HAR
/// entry by the request it shows (time, method, target, headers, body, user, status: not the
/// response size, which a retry may change). Every line is hashed on the ingest hot path, so the
/// mixing is wyhash's: each 128-bit multiply folds two 8-byte words, three independent lanes take
/// 48 bytes a round, and the tail is read as overlapping words, never byte by byte. Among the
/// calls of one instant, a collision between different records is vanishingly rare (about 2^-64
/// per pair).
///
/// A record whose time is too coarse to tell a retry from a real repeated call (an access log
/// with whole-second times) gets `unrepeatable`, a value no content hashes to: it is never a
/// duplicate of anything.
package struct Fingerprint {
    /// The fingerprint of a record that is never a duplicate, whatever repeats it.
    package static let unrepeatable: UInt64 = 0

    private var lanes: (UInt64, UInt64, UInt64) = (0x243F_6A88_85A3_08D3, 0x1319_8A2E_0370_7344, 0xA409_3822_299F_31D0)
    private var length: UInt64 = 0

    private static let secrets: (UInt64, UInt64, UInt64, UInt64) = (0xA076_1D64_78BD_642F, 0xE703_7ED1_A0B4_28DB, 0x8EBC_6AF0_9C88_C6E3, 0x5899_65CC_7537_4CC3)

    package init() {}

    /// The fingerprint of one run of bytes.
    package static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var fingerprint = Fingerprint()
        fingerprint.combine(bytes)
        return fingerprint.value
    }

    package static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        of(UnsafeRawBufferPointer(bytes))
    }

    /// Adds bytes; the lengths of the runs count, so ("ab", "c") differs from ("a", "bc").
    @inline(__always)
    package mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        let (s0, s1, s2, s3) = Fingerprint.secrets
        var (first, second, third) = lanes
        let count = bytes.count
        var low: UInt64 = 0
        var high: UInt64 = 0
        if let base = bytes.baseAddress {
            @inline(__always) func word(_ offset: Int) -> UInt64 {
                UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            }
            var index = 0
            while count &- index > 48 {
                first = Fingerprint.mum(word(index) ^ s1, word(index &+ 8) ^ first)
                second = Fingerprint.mum(word(index &+ 16) ^ s2, word(index &+ 24) ^ second)
                third = Fingerprint.mum(word(index &+ 32) ^ s3, word(index &+ 40) ^ third)
                index &+= 48
            }
            while count &- index > 16 {
                first = Fingerprint.mum(word(index) ^ s1, word(index &+ 8) ^ first)
                index &+= 16
            }
            // The last 1...16 bytes: two words that may overlap what was read, or for a short
            // run its bytes gathered as wyhash does.
            let left = count &- index
            if count >= 16 {
                low = word(count &- 16)
                high = word(count &- 8)
            } else if left >= 4 {
                @inline(__always) func half(_ offset: Int) -> UInt64 {
                    UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                }
                let middle = (left >> 3) << 2
                low = half(index) << 32 | half(index &+ middle)
                high = half(index &+ left &- 4) << 32 | half(index &+ left &- 4 &- middle)
            } else if left > 0 {
                @inline(__always) func byte(_ offset: Int) -> UInt64 {
                    UInt64(base.load(fromByteOffset: index &+ offset, as: UInt8.self))
                }
                low = byte(0) << 16 | byte(left >> 1) << 8 | byte(left &- 1)
            }
        }
        first = Fingerprint.mum(low ^ s1 ^ UInt64(count), high ^ s0 ^ first ^ second ^ third)
        lanes = (first, second &+ s2, third &+ s3)
        length &+= UInt64(count) &+ 1
    }

    package mutating func combine(_ text: String) {
        var text = text
        text.withUTF8 { combine(UnsafeRawBufferPointer($0)) }
    }

    /// Never `unrepeatable`.
    package var value: UInt64 {
        let (first, second, third) = lanes
        let value = Fingerprint.mum(first ^ Fingerprint.secrets.0 ^ length, second ^ third ^ Fingerprint.secrets.1)
        return value == Fingerprint.unrepeatable ? 1 : value
    }

    /// The 128-bit product of two words, its halves folded: one multiply mixes 16 bytes.
    @inline(__always)
    static func mum(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (high, low) = a.multipliedFullWidth(by: b)
        return high ^ low
    }
}

extension HTTPRequest {
    /// The fingerprint of everything a request shows (an access-log line or a HAR entry);
    /// `Fingerprint.unrepeatable` when its time has whole seconds only.
    package var fingerprint: UInt64 {
        guard !wholeSecondTime else { return Fingerprint.unrepeatable }
        var fingerprint = Fingerprint()
        fingerprint.combine(String(time.microseconds))
        fingerprint.combine(method)
        fingerprint.combine(target)
        for header in headers {
            fingerprint.combine(header.name)
            fingerprint.combine(header.value)
        }
        fingerprint.combine(body ?? "\u{0}")
        fingerprint.combine(userID ?? "\u{0}")
        fingerprint.combine(status.map(String.init) ?? "\u{0}")
        return fingerprint.value
    }
}
