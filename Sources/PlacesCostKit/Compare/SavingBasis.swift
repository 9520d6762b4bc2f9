/// The unit `compare` normalises its saving by (`docs/cli.md`, "compare").
///
/// A selection (a search that ended with a place chosen) is what a user came for, and how the
/// app makes its calls does not change how many there are: a token per keystroke makes a search
/// of every keystroke, and fixing it divides the searches, never the selections. So the saving
/// is per selection when both sides have one; a side without any has no cost per selection, and
/// the saving is per search then.
enum SavingBasis: String, Sendable, Equatable {
    case selections
    case searches

    /// The basis for two sides: selections when both have one.
    init(before: PeriodFigures, after: PeriodFigures) {
        self = before.completed > 0 && after.completed > 0 ? .selections : .searches
    }

    /// "1 selection", "2.5 searches": `count` of this unit, as the reports count.
    func count(_ count: Double) -> String {
        switch self {
        case .selections: Money.count(count, "selection", "selections")
        case .searches: Money.count(count, "search", "searches")
        }
    }

    /// The unit in the singular: "selection", "search".
    var singular: String {
        switch self {
        case .selections: "selection"
        case .searches: "search"
        }
    }
}
