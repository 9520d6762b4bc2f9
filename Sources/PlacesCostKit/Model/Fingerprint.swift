/// A 64-bit hash of a record's content, the same in every run: two records with the same
/// fingerprint and the same time are taken as exact duplicates (`--dedupe`).
///
/// A JSON Lines or access-log record is fingerprinted by its line's bytes (without the line
/// end), a CSV row by its cells, a HAR entry by the request it holds. Two lanes of
/// multiply-xorshift over eight-byte words keep it to a few nanoseconds per line on the ingest
/// hot path; among the calls of one instant, a collision between different records is
/// vanishingly rare (2^-64 per pair).
public struct Fingerprint {
    private var lanes: (UInt64, UInt64) = (0x243F_6A88_85A3_08D3, 0x1319_8A2E_0370_7344)
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
    public mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        var (first, second) = lanes
        var index = 0
        let count = bytes.count
        while index + 16 <= count {
            first = Fingerprint.step(first, bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            second = Fingerprint.step(second, bytes.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self))
            index += 16
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while index < count {
            if shift == 64 {
                first = Fingerprint.step(first, tail)
                tail = 0
                shift = 0
            }
            tail |= UInt64(bytes[index]) << shift
            shift += 8
            index += 1
        }
        second = Fingerprint.mix(second ^ tail ^ (UInt64(count) << 56))
        lanes = (first, second)
        length &+= UInt64(count) &+ 1
    }

    public mutating func combine(_ text: String) {
        var text = text
        text.withUTF8 { combine(UnsafeRawBufferPointer($0)) }
    }

    public var value: UInt64 {
        Fingerprint.mix(lanes.0 ^ Fingerprint.mix(lanes.1 ^ length))
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
