/// The report's figures per group of `--by`: counts and money that add up exactly to the
/// report's totals (`docs/report-schema.md`, "Cost by group"). Built once by `GroupBreakdownBuilder`;
/// renderers only format it.
struct GroupBreakdown: Sendable, Equatable {
    /// One group's figures.
    struct Group: Sendable, Equatable {
        /// The group's name: a project, a platform (`ios`, `android`, `javascript`, `web_service`),
        /// an API generation (`legacy`, `new`) or a day (`YYYY-MM-DD`); `nil` for calls with no project.
        var name: String?
        /// For `day`: the day, as days since 1970-01-01 (the daily charts place it by this).
        var day: Int?
        var calls: Int
        var searches: Int
        /// The searches the group's bills are for: `searches` times `--scale`, as the calls are
        /// billed.
        var billedSearches: Double
        var completed: Int
        var anomalies: Anomalies
        /// The calls as made (`current` at delay 0).
        var current: Bill
        /// The report's recommended strategy and delay (the same for every group).
        var recommended: Bill

        /// `bill`'s bill per search it is for; `nil` for a group with no search.
        func costPerSearchUSD(_ bill: Bill) -> Double? {
            searches > 0 ? bill.costUSD / billedSearches : nil
        }

        /// `bill`'s list cost per search it is for; `nil` for a group with no search.
        func listCostPerSearchUSD(_ bill: Bill) -> Double? {
            searches > 0 ? bill.listCostUSD / billedSearches : nil
        }
    }

    /// One strategy's money for a group, in micro-dollars so the groups add up exactly to the
    /// total `report.json` prints.
    struct Bill: Sendable, Equatable {
        var listMicros: Int64
        var billedMicros: Int64

        var listCostUSD: Double { Double(listMicros) / 1_000_000 }
        var costUSD: Double { Double(billedMicros) / 1_000_000 }
    }

    var dimension: GroupDimension
    /// The strategy and delay of the `recommended` bills.
    var recommendedStrategy: StrategyID
    var recommendedDelay: Int
    /// Groups in report order: days by date; other dimensions by the current list cost, most
    /// first, then by calls, then by name.
    var groups: [Group]

    /// The groups' sums, which are the report's totals (`GroupBreakdownBuilder` makes them so).
    var total: Group {
        GroupBreakdown.sum(groups)
    }

    /// `groups` summed, named nothing.
    static func sum(_ groups: [Group]) -> Group {
        groups.reduce(into: Group(
            name: nil, day: nil, calls: 0, searches: 0, billedSearches: 0, completed: 0, anomalies: Anomalies(),
            current: Bill(listMicros: 0, billedMicros: 0), recommended: Bill(listMicros: 0, billedMicros: 0)
        )) { sum, group in
            sum.calls += group.calls
            sum.searches += group.searches
            sum.billedSearches += group.billedSearches
            sum.completed += group.completed
            sum.anomalies = sum.anomalies + group.anomalies
            sum.current = sum.current + group.current
            sum.recommended = sum.recommended + group.recommended
        }
    }
}

extension GroupBreakdown.Bill {
    static func + (lhs: GroupBreakdown.Bill, rhs: GroupBreakdown.Bill) -> GroupBreakdown.Bill {
        GroupBreakdown.Bill(listMicros: lhs.listMicros + rhs.listMicros, billedMicros: lhs.billedMicros + rhs.billedMicros)
    }
}
