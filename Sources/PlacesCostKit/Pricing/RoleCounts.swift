/// Billable events counted by role, held inline: pricing makes one per search, strategy and
/// delay, and a heap array each (as it was) was most of pricing's time.
struct RoleCounts: Equatable {
    /// One lane per `BillingRole.ordinal` (15 roles; the last lane stays 0).
    private var values = SIMD16<Int>.zero

    subscript(role: BillingRole) -> Int {
        get { values[role.ordinal] }
        set { values[role.ordinal] = newValue }
    }

    var isEmpty: Bool { values == .zero }

    /// Adds `other`'s counts `weight` times over.
    mutating func add(_ other: RoleCounts, times weight: Int) {
        values &+= other.values &* SIMD16(repeating: weight)
    }
}
