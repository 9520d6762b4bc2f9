/// xoshiro256** seeded through SplitMix64: a small, fast PRNG whose stream depends only on the seed.
///
/// `generate` must write the same bytes for the same seed on every platform and Swift version, so
/// the traffic generator never uses `SystemRandomNumberGenerator` nor the standard library's
/// `random(in:using:)` (whose mapping from bits to values is not a documented contract): every
/// draw goes through the helpers below.
struct SeededRandom: RandomNumberGenerator, Sendable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    init(seed: UInt64) {
        var state = seed
        func splitMix() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = splitMix()
        s1 = splitMix()
        s2 = splitMix()
        s3 = splitMix()
    }

    mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = s3 << 45 | s3 >> 19
        return result
    }

    /// A double in [0, 1) from the top 53 bits.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A whole number in `0..<bound` (bound > 0), by multiply-shift (Lemire, without the rejection
    /// step: the bias is below 2^-32 for the bounds used here).
    mutating func below(_ bound: Int) -> Int {
        Int((next().multipliedFullWidth(by: UInt64(bound))).high)
    }

    /// `true` with probability `p`.
    mutating func chance(_ p: Double) -> Bool {
        unit() < p
    }

    /// Milliseconds drawn uniformly between `low` and `high` seconds.
    mutating func milliseconds(_ low: Double, _ high: Double) -> Int64 {
        Int64((low + (high - low) * unit()) * 1000)
    }

    /// A triangular draw between `low` and `high` with its peak at `mode`.
    mutating func triangular(_ low: Double, _ high: Double, _ mode: Double) -> Double {
        let u = unit()
        let c = (mode - low) / (high - low)
        return u < c
            ? low + ((high - low) * (mode - low) * u).squareRoot()
            : high - ((high - low) * (high - mode) * (1 - u)).squareRoot()
    }
}
