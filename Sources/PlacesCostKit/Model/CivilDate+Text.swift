/// Dates as reports and billing exports write them.
extension CivilDate {
    /// `2026-10-01`.
    var dayText: String { "\(monthText)-\(CivilDate.twoDigits(day))" }

    /// `2026-10`.
    var monthText: String {
        let year = String(self.year)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-" + CivilDate.twoDigits(month)
    }

    /// Days from 1970-01-01.
    var daysSinceEpoch: Int { CivilDate.daysSinceEpoch(year: year, month: month, day: day) }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
