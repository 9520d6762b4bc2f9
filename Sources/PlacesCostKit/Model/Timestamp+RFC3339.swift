extension Timestamp {
    /// Days since 1970-01-01 (UTC), rounding toward the past.
    package var daysSinceEpoch: Int {
        let day: Int64 = 86_400_000_000
        return Int(microseconds >= 0 ? microseconds / day : (microseconds - day + 1) / day)
    }

    /// `2026-10-01T09:00:03.730Z`: UTC, milliseconds (microseconds when the log had them).
    package var rfc3339: String {
        let days = daysSinceEpoch
        let date = CivilDate(daysSinceEpoch: days)
        let inDay = microseconds - Int64(days) * 86_400_000_000
        let seconds = inDay / 1_000_000
        let micros = inDay % 1_000_000
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let fraction = micros % 1000 == 0 ? pad(micros / 1000, 3) : pad(micros, 6)
        return "\(pad(Int64(date.year), 4))-\(pad(Int64(date.month), 2))-\(pad(Int64(date.day), 2))T"
            + "\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2)).\(fraction)Z"
    }
}
