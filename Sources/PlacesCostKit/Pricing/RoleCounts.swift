/// Billable events counted by role: a fixed array, so tallying millions of searches allocates nothing.
struct RoleCounts: Equatable {
    private(set) var values = [Int](repeating: 0, count: BillingRole.allCases.count)

    static let roleIndex: [BillingRole: Int] = Dictionary(uniqueKeysWithValues: BillingRole.allCases.enumerated().map { ($1, $0) })

    subscript(role: BillingRole) -> Int {
        get { values[RoleCounts.roleIndex[role]!] }
        set { values[RoleCounts.roleIndex[role]!] = newValue }
    }

    var isEmpty: Bool { values.allSatisfy { $0 == 0 } }
}
