/// Billable events counted by role: a fixed array, so tallying millions of searches allocates nothing.
struct RoleCounts: Equatable {
    private(set) var values = [Int](repeating: 0, count: BillingRole.allCases.count)

    subscript(role: BillingRole) -> Int {
        get { values[role.ordinal] }
        set { values[role.ordinal] = newValue }
    }

    var isEmpty: Bool { values.allSatisfy { $0 == 0 } }
}
