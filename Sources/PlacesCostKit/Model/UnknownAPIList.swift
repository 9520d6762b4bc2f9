/// Which unknown API names a report shows by name: the `listed` most called, the rest as one line.
///
/// An unknown name is kept, counted and shown as unpriced, but a log can hold any number of them
/// (one per record, in the worst case): every report lists at most `listed` of them plus one
/// line for the others, so the report, the pricing work and the memory stay bounded whatever
/// the log names.
package struct UnknownAPIList: Sendable, Equatable {
    /// Names shown on their own, most calls first.
    package static let listed = 20

    /// The names shown on their own.
    package private(set) var kept: Set<String>
    /// How many names are folded into `otherName`.
    package private(set) var foldedNames: Int
    package private(set) var foldedCalls: Int

    /// Chooses from calls per unknown name: most calls first, then by name.
    package init(callsByName: [String: Int]) {
        let ranked = callsByName.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
        kept = Set(ranked.prefix(Self.listed).map(\.key))
        let folded = ranked.dropFirst(Self.listed)
        foldedNames = folded.count
        foldedCalls = folded.reduce(0) { $0 + $1.value }
    }

    /// The line the folded names are counted under.
    package var otherName: String {
        "\(foldedNames) other unknown API names"
    }

    /// The name `name` is shown and priced under.
    package func shownName(_ name: String) -> String {
        foldedNames == 0 || kept.contains(name) ? name : otherName
    }

    /// `byAPI` with the unknown names folded: known names as they are.
    package func folding(_ byAPI: [String: Int]) -> [String: Int] {
        guard foldedNames > 0 else { return byAPI }
        var folded: [String: Int] = [:]
        for (name, count) in byAPI {
            let shown = API.parse(name).api.isOther ? shownName(name) : name
            folded[shown, default: 0] += count
        }
        return folded
    }
}
