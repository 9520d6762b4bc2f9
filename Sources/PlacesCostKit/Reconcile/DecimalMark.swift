/// The decimal mark of a billing export's amounts: `.` in `1,234.50`, `,` in `1.234,50`.
///
/// An amount with one kind of separator is ambiguous when every group after the first has three
/// digits: `1.500` is one and a half in English and fifteen hundred in German. A console export
/// written in one locale uses one mark throughout, so the file's unambiguous amounts (`7.50`,
/// `20,98`, `1.234,50`) decide the ambiguous ones.
enum DecimalMark: Equatable, Sendable {
    case point
    case comma

    /// The mark every unambiguous amount among `cells` uses, or `nil` when none is unambiguous or
    /// they disagree (each amount is then read by `BillingExportReader.anyNumber`'s own guess).
    static func of<Cells: Sequence>(_ cells: Cells) -> DecimalMark? where Cells.Element == String {
        var seen: DecimalMark?
        for cell in cells {
            guard let mark = DecimalMark(ofAmount: BillingExportReader.amountText(cell).digits) else { continue }
            if let seen, seen != mark { return nil }
            seen = mark
        }
        return seen
    }

    /// The mark `amount` shows for sure: the last separator when it has both kinds, the only kind
    /// when a group after the first is not three digits or the first is `0` (no one writes a
    /// thousands separator after a leading zero).
    init?(ofAmount amount: String) {
        let lastDot = amount.lastIndex(of: "."), lastComma = amount.lastIndex(of: ",")
        switch (lastDot, lastComma) {
        case let (dot?, comma?):
            self = dot > comma ? .point : .comma
        case (_?, nil):
            guard !DecimalMark.looksLikeThousands(amount, separator: ".") else { return nil }
            self = .point
        case (nil, _?):
            guard !DecimalMark.looksLikeThousands(amount, separator: ",") else { return nil }
            self = .comma
        case (nil, nil):
            return nil
        }
    }

    /// Whether `amount`, with `separator` as its only separator, could be whole thousands:
    /// `1.500`, `622,403`, `12.345.678`.
    static func looksLikeThousands(_ amount: String, separator: Character) -> Bool {
        let groups = amount.split(separator: separator, omittingEmptySubsequences: false)
        guard groups.count > 1, let first = groups.first?.drop(while: { $0 == "-" }),
              (1...3).contains(first.count), first.first != "0" else { return false }
        return groups.dropFirst().allSatisfy { $0.count == 3 }
    }
}
