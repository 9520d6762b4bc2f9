/// The last valid date a millisecond timestamp named, with its day number: `key` is the date's
/// eight digits as `TimestampParser.millisecondsUTC` packs them (never all ones, its value before any date).
struct DateMemo {
    var key: UInt64 = .max
    var days = 0
}
