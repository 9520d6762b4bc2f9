/// `Timestamp.rfc3339`'s text written as bytes, the date part of the last day reused.
///
/// Two a row, a million rows a run: past the day, every figure is a 32-bit quotient by a
/// constant and two digits are stored at once.
struct RFC3339Writer {
    private static let microsecondsPerDay: Int64 = 86_400_000_000
    /// The first microsecond of the day whose date is in `datePrefix`.
    private var dayStart = Int64.min
    /// `YYYY-MM-DDT`.
    private var datePrefix: (UInt64, UInt16, UInt8) = (0, 0, 0)

    /// Writes the time at `out` (at most 27 bytes); returns the position after it.
    mutating func put(_ microseconds: Int64, at out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let (sinceDayStart, overflow) = microseconds.subtractingReportingOverflow(dayStart)
        if overflow || sinceDayStart < 0 || sinceDayStart >= RFC3339Writer.microsecondsPerDay { startDay(of: microseconds) }
        let date = UnsafeMutableRawPointer(out)
        date.storeBytes(of: datePrefix.0, as: UInt64.self)
        date.storeBytes(of: datePrefix.1, toByteOffset: 8, as: UInt16.self)
        date.storeBytes(of: datePrefix.2, toByteOffset: 10, as: UInt8.self)
        // Under 86,400 seconds and a million microseconds: 32 bits each.
        let inDay = UInt64(microseconds - dayStart)
        let seconds = UInt32(truncatingIfNeeded: inDay / 1_000_000)
        let micros = UInt32(truncatingIfNeeded: inDay) &- seconds &* 1_000_000
        let minutes = seconds / 60
        let raw = date + 11
        raw.storeBytes(of: RFC3339Writer.twoDigits(minutes / 60), as: UInt16.self)
        raw.storeBytes(of: UInt8(ascii: ":"), toByteOffset: 2, as: UInt8.self)
        raw.storeBytes(of: RFC3339Writer.twoDigits(minutes % 60), toByteOffset: 3, as: UInt16.self)
        raw.storeBytes(of: UInt8(ascii: ":"), toByteOffset: 5, as: UInt8.self)
        raw.storeBytes(of: RFC3339Writer.twoDigits(seconds % 60), toByteOffset: 6, as: UInt16.self)
        raw.storeBytes(of: UInt8(ascii: "."), toByteOffset: 8, as: UInt8.self)
        let milliseconds = micros / 1000
        let belowMillisecond = micros % 1000
        RFC3339Writer.putThreeDigits(milliseconds, at: raw + 9)
        if belowMillisecond == 0 {
            raw.storeBytes(of: UInt8(ascii: "Z"), toByteOffset: 12, as: UInt8.self)
            return out + 24
        }
        RFC3339Writer.putThreeDigits(belowMillisecond, at: raw + 12)
        raw.storeBytes(of: UInt8(ascii: "Z"), toByteOffset: 15, as: UInt8.self)
        return out + 27
    }

    /// Sets the date prefix to the day of `microseconds` (days before 1970 too).
    private mutating func startDay(of microseconds: Int64) {
        let day = microseconds >= 0 ? microseconds / RFC3339Writer.microsecondsPerDay : (microseconds + 1) / RFC3339Writer.microsecondsPerDay - 1
        dayStart = day * RFC3339Writer.microsecondsPerDay
        let text = Array(Timestamp(microseconds: dayStart).rfc3339.utf8.prefix(11))
        withUnsafeMutableBytes(of: &datePrefix) { $0.copyBytes(from: text) }
    }

    /// The two ASCII digits of `value` (under 100) as they lie in memory, tens first.
    @inline(__always)
    private static func twoDigits(_ value: UInt32) -> UInt16 {
        let tens = value / 10
        let digits = UInt16(truncatingIfNeeded: tens) | UInt16(truncatingIfNeeded: value &- tens &* 10) << 8
        return (digits | 0x3030).littleEndian
    }

    /// Writes the three ASCII digits of `value` (under 1000) at `out`.
    @inline(__always)
    private static func putThreeDigits(_ value: UInt32, at out: UnsafeMutableRawPointer) {
        let hundreds = value / 100
        out.storeBytes(of: UInt8(truncatingIfNeeded: hundreds) | 0x30, as: UInt8.self)
        out.storeBytes(of: twoDigits(value &- hundreds &* 100), toByteOffset: 1, as: UInt16.self)
    }
}
