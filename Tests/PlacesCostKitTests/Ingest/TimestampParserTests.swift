import Foundation
import Testing
@testable import PlacesCostKit

/// RFC 3339 and epoch-millisecond timestamps, against values worked out by hand, with `date -u`,
/// and with Foundation's calendar.
@Suite("TimestampParser")
struct TimestampParserTests {
    /// 2026-10-01T09:00:03Z, from `date -u -d 2026-10-01T09:00:03Z +%s`.
    static let nineOhThree: Int64 = 1_790_845_203 * 1_000_000

    /// Microseconds in whole seconds, typed so that `#expect` compares `Int64` with `Int64`.
    private func seconds(_ count: Int64) -> Int64 {
        count * 1_000_000
    }

    private func microseconds(_ text: String) -> Int64? {
        try? TimestampParser.parse(text).get().microseconds
    }

    @Test("RFC 3339 with Z: the exact microsecond")
    func utc() {
        #expect(microseconds("2026-10-01T09:00:03.730Z") == TimestampParserTests.nineOhThree + 730_000)
        #expect(microseconds("2024-02-29T00:00:00Z") == seconds(1_709_164_800))
        #expect(microseconds("1970-01-01T00:00:00Z") == 0)
        #expect(microseconds("0001-01-01T00:00:00Z") == seconds(-62_135_596_800))
        #expect(microseconds("9999-12-31T23:59:59.999999Z") == 253_402_300_799_999_999)
    }

    @Test("Foundation's ISO 8601 formatter reads the same instants")
    func matchesFoundation() throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for text in ["2026-10-01T09:00:03.730Z", "2026-10-01T12:00:00.125+02:00", "2000-02-29T23:59:59.001-05:30"] {
            let date = try #require(formatter.date(from: text))
            let expected = Int64((date.timeIntervalSince1970 * 1_000).rounded()) * 1_000
            #expect(microseconds(text) == expected, "\(text)")
        }
    }

    @Test("The same instant in any offset, separator and case")
    func offsets() {
        let utc = microseconds("2026-10-01T10:00:00Z")
        #expect(utc == seconds(1_790_848_800))
        #expect(microseconds("2026-10-01T12:00:00+02:00") == utc)
        #expect(microseconds("2026-10-01T10:00:00z") == utc)
        #expect(microseconds("2026-10-01t10:00:00Z") == utc)
        #expect(microseconds("2026-10-01 10:00:00Z") == utc)
        #expect(microseconds("2026-10-01T10:00:00+00:00") == utc)
        #expect(microseconds("2026-10-01T10:00:00-00:00") == utc)
        #expect(microseconds("2026-10-01T04:30:00-05:30") == utc)
        #expect(microseconds("2026-10-01T12:00:00-05:30") == seconds(1_790_875_800))  // 17:30Z
        #expect(microseconds("2026-10-02T09:59:00+23:59") == utc)
    }

    @Test("Fractional seconds of 0 to 9 digits; beyond microseconds they are truncated",
          arguments: [
              ("", 0), (".7", 700_000), (".73", 730_000), (".730", 730_000), (".1234", 123_400), (".12345", 123_450),
              (".123456", 123_456), (".1234567", 123_456), (".12345678", 123_456), (".123456789", 123_456), (".999999999", 999_999),
          ] as [(String, Int64)])
    func fractions(_ fraction: String, _ expected: Int64) {
        #expect(microseconds("2026-10-01T09:00:03\(fraction)Z") == TimestampParserTests.nineOhThree + expected)
    }

    @Test("Leap years: February 29th exists in 2024 and 2000, not in 2025 or 2100")
    func leapYears() {
        #expect(microseconds("2024-02-29T00:00:00Z") == seconds(1_709_164_800))
        #expect(microseconds("2000-02-29T00:00:00Z") == seconds(951_868_800 - 86_400))
        #expect(TimestampParser.parse("2025-02-29T00:00:00Z") == .failure(.fieldOutOfRange(.day)))
        #expect(TimestampParser.parse("2100-02-29T00:00:00Z") == .failure(.fieldOutOfRange(.day)))
    }

    @Test("Fields out of range are rejected naming the field, never quoting the text",
          arguments: [("2026-13-01T00:00:00Z", .month), ("2026-00-01T00:00:00Z", .month), ("2026-01-32T00:00:00Z", .day),
                      ("2026-01-00T00:00:00Z", .day), ("2026-04-31T00:00:00Z", .day), ("2026-10-01T24:00:00Z", .hour),
                      ("2026-10-01T23:60:00Z", .minute), ("2026-10-01T23:59:61Z", .second), ("0000-01-01T00:00:00Z", .year),
                      ("2026-10-01T10:00:00+24:00", .offset), ("2026-10-01T10:00:00+02:60", .offset)] as [(String, TimestampError.Field)])
    func outOfRange(_ text: String, _ field: TimestampError.Field) {
        #expect(TimestampParser.parse(text) == .failure(.fieldOutOfRange(field)))
    }

    @Test("A leap second (:60) is read as the last microsecond of its minute, as the Python reference reads it (LeapSecondTests)")
    func leapSecond() {
        #expect(TimestampParser.parse("2016-12-31T23:59:60Z") == .success(Timestamp(microseconds: 1_483_228_799_999_999)))
    }

    @Test("A date-time without a UTC offset is rejected with a hint")
    func noOffset() {
        #expect(TimestampParser.parse("2026-10-01T09:00:00") == .failure(.noOffset))
        #expect(TimestampParser.parse("2026-10-01T09:00:00.730") == .failure(.noOffset))
        #expect(TimestampError.noOffset.description == "the timestamp has no UTC offset (end it with Z or ±hh:mm)")
    }

    @Test("Text that is not RFC 3339 is rejected",
          arguments: ["2026-10-01T09:00:00+0200", "2026-10-01T09:00:00+02", "2026-10-01T09:00:00.Z", "2026-10-01T09:00:00Zx",
                      " 2026-10-01T09:00:00Z", "2026-10-01T09:00Z", "2026-10-01", "2026-1-01T09:00:00Z", "2026/10/01T09:00:00Z",
                      "2026-10-01_09:00:00Z", "-1790845203730", "1790845203730.5", "yesterday"])
    func notRFC3339(_ text: String) {
        #expect(TimestampParser.parse(text) == .failure(.notATimestamp(ValueShape(text))))
    }

    @Test("An empty timestamp is rejected")
    func empty() {
        #expect(TimestampParser.parse("") == .failure(.empty))
    }

    @Test("Epoch milliseconds as a JSON number")
    func epochNumber() throws {
        let expected = TimestampParserTests.nineOhThree + 730_000
        #expect(try TimestampParser.parseEpochMilliseconds(literal: "1790845203730").get().microseconds == expected)
        #expect(try TimestampParser.parseEpochMilliseconds(literal: "1.79084520373e12").get().microseconds == expected)
        #expect(try TimestampParser.parseEpochMilliseconds(literal: "1790845203730.0").get().microseconds == expected)
        #expect(try TimestampParser.parseEpochMilliseconds(literal: "0").get().microseconds == 0)
        #expect(try TimestampParser.parseEpochMilliseconds(literal: "-0").get().microseconds == 0)
        #expect(try TimestampParser.parseEpochMilliseconds(literal: "253402300799999").get().microseconds == 253_402_300_799_999_000)
        #expect(try TimestampParser.parseEpochMilliseconds(literal: "100000000000").get().microseconds == 100_000_000_000_000)
    }

    @Test("Epoch microseconds and nanoseconds are out of range, and the reason says which they look like")
    func finerUnits() {
        let micro = TimestampParser.parse("1790845203730000")
        #expect(micro == .failure(.epochOutOfRange(ValueShape("1790845203730000"))))
        #expect("\(TimestampError.epochOutOfRange(ValueShape("1790845203730000")))".hasSuffix(", and 16 digits look like epoch microseconds: log milliseconds (divided by 1,000) or RFC 3339"))
        #expect("\(TimestampError.epochOutOfRange(ValueShape("1790845203730000000")))".hasSuffix(", and 19 digits look like epoch nanoseconds: log milliseconds (divided by 1,000,000) or RFC 3339"))
        #expect("\(TimestampError.epochOutOfRange(ValueShape("253402300800000")))".hasSuffix("(9999-12-31)"))
        #expect("\(TimestampError.epochOutOfRange(ValueShape("-1.5e3")))".hasSuffix("(9999-12-31)"))
    }

    @Test("An epoch number below 10^11 is seconds: as milliseconds it would be before March 1973")
    func epochSeconds() throws {
        let nineOhThree = TimestampParserTests.nineOhThree
        // Unix time as loggers write it: an integer, a fraction, digits in a string or a CSV cell.
        #expect(try TimestampParser.parseEpochMilliseconds(literal: "1790845203").get().microseconds == nineOhThree)
        #expect(try TimestampParser.parseEpochMilliseconds(literal: "1790845203.73").get().microseconds == nineOhThree + 730_000)
        #expect(try TimestampParser.parseEpochMilliseconds(literal: "1.790845203730e9").get().microseconds == nineOhThree + 730_000)
        #expect(microseconds("1790845203") == nineOhThree)
        #expect(try TimestampParser.epochMilliseconds(1_790_845_203).get().microseconds == nineOhThree)
        // The same instant in milliseconds, as before.
        #expect(try TimestampParser.epochMilliseconds(1_790_845_203_730).get().microseconds == nineOhThree + 730_000)
        // The boundary: the last second, the first millisecond.
        #expect(try TimestampParser.epochMilliseconds(99_999_999_999).get().microseconds == 99_999_999_999_000_000)
        #expect(try TimestampParser.epochMilliseconds(100_000_000_000).get().microseconds == 100_000_000_000_000)
        #expect(try TimestampParser.parseEpochMilliseconds(literal: "1.5").get().microseconds == 1_500_000)
        #expect(try TimestampParser.parseEpochMilliseconds(literal: "0").get().microseconds == 0)
    }

    @Test("Epoch milliseconds out of range or not finite are rejected")
    func epochNumberRejected() {
        #expect(TimestampParser.parseEpochMilliseconds(literal: "-1") == .failure(.epochOutOfRange(ValueShape("-1"))))
        #expect(TimestampParser.parseEpochMilliseconds(literal: "-1.5e3") == .failure(.epochOutOfRange(ValueShape("-1.5e3"))))
        #expect(TimestampParser.parseEpochMilliseconds(literal: "253402300800000") == .failure(.epochOutOfRange(ValueShape("253402300800000"))))
        #expect(TimestampParser.parseEpochMilliseconds(literal: "1e300") == .failure(.epochOutOfRange(ValueShape("1e300"))))
        #expect(TimestampParser.parseEpochMilliseconds(literal: "1e400") == .failure(.notEpochMilliseconds(ValueShape("1e400"))))
    }

    @Test("Epoch milliseconds as a string of digits")
    func epochDigits() {
        #expect(microseconds("1790845203730") == TimestampParserTests.nineOhThree + 730_000)
        #expect(microseconds("0001790845203730") == TimestampParserTests.nineOhThree + 730_000)
        #expect(microseconds("0") == 0)
        #expect(TimestampParser.parse("253402300800000") == .failure(.epochOutOfRange(ValueShape("253402300800000"))))
        #expect(TimestampParser.parse("1234567890123456789") == .failure(.epochOutOfRange(ValueShape("1234567890123456789"))))
    }

    @Test("Every 997th day from 1601 to 9999, at varied times and offsets, matches Foundation's calendar")
    func matchesCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(secondsFromGMT: 0))
        let offsets = [0, 120, -330, 345, -720, 840, 59, -1]  // minutes east of UTC
        var checked = 0
        // 1601-01-01 is day -134774 of the epoch; the Gregorian calendar is in force from 1582 on.
        for (index, day) in stride(from: -134_774, through: 2_932_896, by: 997).enumerated() {
            let second = Int64(day) * 86_400 + Int64(index * 7_919 % 86_400)
            let fraction = Int64(index * 104_729 % 1_000_000)
            let offset = offsets[index % offsets.count]
            let local = Date(timeIntervalSince1970: TimeInterval(second + Int64(offset * 60)))
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: local)
            guard let year = parts.year, year <= 9999, year >= 1601 else { continue }
            func padded(_ value: Int64, _ width: Int) -> String {
                let digits = String(value)
                return String(repeating: "0", count: max(0, width - digits.count)) + digits
            }
            let date = [padded(Int64(year), 4), padded(Int64(parts.month!), 2), padded(Int64(parts.day!), 2)].joined(separator: "-")
            let time = [padded(Int64(parts.hour!), 2), padded(Int64(parts.minute!), 2), padded(Int64(parts.second!), 2)].joined(separator: ":")
            let zone = (offset < 0 ? "-" : "+") + padded(Int64(abs(offset) / 60), 2) + ":" + padded(Int64(abs(offset) % 60), 2)
            let text = date + "T" + time + "." + padded(fraction, 6) + zone
            #expect(microseconds(text) == second * 1_000_000 + fraction, "\(text)")
            checked += 1
        }
        #expect(checked > 3_000)
    }

    @Test("The 24-byte millisecond shape reads each text as the general parser does, or declines it; a remembered date changes nothing")
    func millisecondShapeAgreesWithGeneral() {
        var generator = SystemRandomNumberGenerator()
        let template = Array("2026-02-28T23:59:59.999Z".utf8)
        // Bytes a mutation may put in: digits at and past each field's bounds, separators of
        // other shapes, and bytes no timestamp holds.
        let replacements = Array("0123456789-:.TtZz +\"".utf8) + [0x00, 0x7F, 0xC3]
        var dates = DateMemo()
        var accepted = 0
        for round in 0..<40_000 {
            var text = template
            for _ in 0..<(1 + round % 3) {
                text[Int.random(in: 0..<text.count, using: &generator)] = replacements.randomElement(using: &generator)!
            }
            text.withUnsafeBufferPointer { bytes in
                let general = try? TimestampParser.parseGeneral(bytes: bytes).get()
                let fast = TimestampParser.millisecondsUTC(bytes.baseAddress!)
                let remembered = TimestampParser.millisecondsUTC(bytes.baseAddress!, dates: &dates)
                if let fast {
                    accepted += 1
                    #expect(fast == general, "\(String(decoding: text, as: UTF8.self))")
                } else if general != nil {
                    // Declined shapes the general parser takes: only a leap second, in this alphabet.
                    #expect(text[17] == UInt8(ascii: "6") || text[10] != UInt8(ascii: "T") || text[23] != UInt8(ascii: "Z"),
                            "\(String(decoding: text, as: UTF8.self))")
                }
                #expect(remembered == fast)
            }
        }
        #expect(accepted > 1_000)
    }
}
