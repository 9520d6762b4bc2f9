/// A 64-bit hash of a record's content, the same in every run: two records with the same
/// fingerprint and the same time are taken as exact duplicates (`--dedupe`).
///
/// A JSON Lines or access-log record is fingerprinted by its line's bytes (without the line
/// end), a CSV row by its cells, a HAR entry by the request it holds. Four independent lanes of
/// multiply-xorshift over eight-byte words, and a tail read as one overlapping word, keep it to
/// a few nanoseconds per line on the ingest hot path (two lanes and a byte-wise tail cost 6% of
/// `analyze`); among the calls of one instant, a collision between different records is
/// vanishingly rare (2^-64 per pair).
public struct Fingerprint {
    private var lanes: (UInt64, UInt64, UInt64, UInt64) = (0x243F_6A88_85A3_08D3, 0x1319_8A2E_0370_7344, 0xA409_3822_299F_31D0, 0x082E_FA98_EC4E_6C89)
    private var length: UInt64 = 0

    public init() {}

    /// The fingerprint of one run of bytes.
    public static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var fingerprint = Fingerprint()
        fingerprint.combine(bytes)
        return fingerprint.value
    }

    public static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        of(UnsafeRawBufferPointer(bytes))
    }

    /// Adds bytes; the lengths of the runs count, so ("ab", "c") differs from ("a", "bc").
    @inline(__always)
    public mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        var (first, second, third, fourth) = lanes
        let count = bytes.count
        var index = 0
        if let base = bytes.baseAddress {
            @inline(__always) func word(_ offset: Int) -> UInt64 {
                UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            }
            while index &+ 32 <= count {
                first = Fingerprint.step(first, word(index))
                second = Fingerprint.step(second, word(index &+ 8))
                third = Fingerprint.step(third, word(index &+ 16))
                fourth = Fingerprint.step(fourth, word(index &+ 24))
                index &+= 32
            }
            if index &+ 16 <= count {
                first = Fingerprint.step(first, word(index))
                second = Fingerprint.step(second, word(index &+ 8))
                index &+= 16
            }
            if index &+ 8 <= count {
                third = Fingerprint.step(third, word(index))
                index &+= 8
            }
            let left = count &- index
            if left > 0 {
                var tail: UInt64 = 0
                if count >= 8 {
                    // The last eight bytes, shifted so only those not yet read remain.
                    tail = word(count &- 8) >> UInt64(64 &- 8 &* left)
                } else {
                    for offset in 0..<left {
                        tail |= UInt64(base.load(fromByteOffset: index &+ offset, as: UInt8.self)) << UInt64(8 &* offset)
                    }
                }
                fourth = Fingerprint.step(fourth, tail)
            }
        }
        fourth = Fingerprint.mix(fourth ^ (UInt64(count) << 56) ^ UInt64(count))
        lanes = (first, second, third, fourth)
        length &+= UInt64(count) &+ 1
    }

    public mutating func combine(_ text: String) {
        var text = text
        text.withUTF8 { combine(UnsafeRawBufferPointer($0)) }
    }

    public var value: UInt64 {
        let (first, second, third, fourth) = lanes
        return Fingerprint.mix(first ^ Fingerprint.mix(second ^ Fingerprint.mix(third ^ Fingerprint.mix(fourth ^ length))))
    }

    /// One word into a lane: a multiply and a fold, the lane's whole latency per word.
    @inline(__always)
    private static func step(_ lane: UInt64, _ word: UInt64) -> UInt64 {
        let x = (lane ^ word) &* 0x9E37_79B9_7F4A_7C15
        return x ^ (x >> 32)
    }

    /// The finalizer (SplitMix64's), so that every input bit reaches every output bit.
    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        var x = value &* 0xBF58_476D_1CE4_E5B9
        x ^= x >> 31
        return x &* 0x94D0_49BB_1331_11EB
    }
}

extension RawRecord {
    /// The fingerprint of every known key's value (a CSV row's cells as read).
    var fingerprint: UInt64 {
        var fingerprint = Fingerprint()
        for key in Key.allCases {
            guard let value = self[key] else { continue }
            fingerprint.combine(key.name)
            fingerprint.combine(String(reflecting: value))
        }
        return fingerprint.value
    }
}

extension HTTPRequest {
    /// The fingerprint of everything a request shows (an access-log line or a HAR entry).
    var fingerprint: UInt64 {
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
