/// A directory entry's name read as a log's, as logrotate and its kin name the files of one log:
/// the name the log is written under, the rotation after it, and a compression suffix.
///
/// - `access.log`, `app.jsonl`, `capture.har`: a log extension (`LogReader.logExtensions`), or
///   Apache's `_log` (`access_log`, `ssl_request_log`, as Red Hat's httpd names its logs);
/// - then a rotation, if any: a number (`access.log.2`, logrotate's default) or a date
///   (`access.log-20261001`, logrotate's `dateext`; also `.20261001`, `_2026-10-01`, with an hour
///   or a Unix time after the date, `-2026100114`, `-20261001-1759276800`);
/// - then a compression suffix, if any: `.gz`, which is read, or one of `unreadSuffixes`, listed
///   only to be warned about (`UnreadCompression`).
///
/// No suffix decides how a file is read: gzip, and the compressions that are not read, are told
/// from the first bytes. A rotation counts only after a log extension, so `report.2024` is no log.
struct RotatedLogName: Comparable {
    /// The name the log is written under (`access.log`).
    let base: String
    /// `nil` for the log being written (the plain name).
    let rotation: Rotation?
    /// The whole entry name (`access.log.2.gz`).
    let name: String
    /// Whether the name ends in a compression that is not read (`unreadSuffixes`): such a file is
    /// listed to be warned about, and most likely not read.
    let hasUnreadCompressionSuffix: Bool

    /// Where a rotated file stands among the others of its log.
    enum Rotation: Comparable {
        /// Dated by logrotate's `dateext`: the date's digits with what follows it (hour, Unix
        /// time), compared as text, which for one `dateformat` is time order.
        case dated(String)
        /// Numbered by logrotate: the higher, the older.
        case numbered(Int)

        /// Oldest first: dated rotations by date, then numbered ones from the highest number.
        /// (One log has rotations of one kind; a folder mixing both reads the dated first.)
        static func < (a: Rotation, b: Rotation) -> Bool {
            switch (a, b) {
            case (.dated(let x), .dated(let y)): x < y
            case (.numbered(let x), .numbered(let y)): x > y
            case (.dated, .numbered): true
            case (.numbered, .dated): false
            }
        }
    }

    /// The extensions logs are written with; a directory reads only files that have one (or
    /// Apache's `_log`).
    static let logExtensions = [".jsonl", ".ndjson", ".json", ".csv", ".log", ".txt", ".har"]

    /// Suffixes of compressions that are listed only to be warned about: their files are not
    /// read, and a log silently left out of a folder's report would be worse than a warning.
    static let unreadSuffixes = [".xz", ".bz2", ".zst", ".zstd", ".lz4", ".lz", ".z", ".zip", ".7z"]

    /// `nil` for a name that is not a log's (hidden, no log extension before the rotation).
    init?(_ name: String) {
        guard !name.hasPrefix(".") else { return nil }
        var rest = Substring(name)
        let lowered = name.lowercased()
        let suffix = ([".gz"] + RotatedLogName.unreadSuffixes).first { lowered.hasSuffix($0) }
        if let suffix { rest = rest.dropLast(suffix.count) }
        hasUnreadCompressionSuffix = suffix.map(RotatedLogName.unreadSuffixes.contains) ?? false
        // The longest log name the rest starts with and a rotation or nothing ends: `a.log.2`
        // is `a.log` rotated, `a.log.json` is a log of its own.
        for end in [rest.endIndex] + rest.indices.reversed() where RotatedLogName.isLogBase(rest[..<end]) {
            guard let tail = RotatedLogName.tail(rest[end...]) else { continue }
            self.base = String(rest[..<end])
            if case .rotated(let rotation) = tail { self.rotation = rotation } else { self.rotation = nil }
            self.name = name
            return
        }
        return nil
    }

    /// Oldest first within one log; different logs in name order (`access.log` before
    /// `error.log`), whole names last.
    static func < (a: RotatedLogName, b: RotatedLogName) -> Bool {
        if a.base != b.base { return a.base < b.base }
        switch (a.rotation, b.rotation) {
        case (let x?, let y?) where x != y: return x < y
        case (_?, nil): return true
        case (nil, _?): return false
        default: return a.name < b.name
        }
    }

    private static func isLogBase(_ base: Substring) -> Bool {
        let lowered = base.lowercased()
        return logExtensions.contains { lowered.hasSuffix($0) } || (lowered.hasSuffix("_log") && lowered.count > 4)
    }

    /// What may follow a log's name, before a compression suffix.
    private enum Tail {
        case nothing
        case rotated(Rotation)
    }

    /// Nothing, `.N` (1 to 9 digits), or `-`, `_` or `.` and a date; `nil` for anything else.
    private static func tail(_ text: Substring) -> Tail? {
        guard let separator = text.first else { return .nothing }
        let body = text.dropFirst()
        if "-_.".contains(separator), let date = dated(body) { return .rotated(.dated(date)) }
        if separator == ".", (1...9).contains(body.utf8.count), body.utf8.allSatisfy(isDigit), let number = Int(body) {
            return .rotated(.numbered(number))
        }
        return nil
    }

    /// The digits of a date-stamped rotation (`20261001`, `2026-10-01`, then an hour, a time or
    /// a Unix time in groups of digits, each perhaps after `-` or `_`), or `nil`.
    private static func dated(_ text: Substring) -> String? {
        let bytes = Array(text.utf8)
        var digits: [UInt8]
        var index: Int
        if bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") {
            digits = Array(bytes[0..<4] + bytes[5..<7] + bytes[8..<10])
            index = 10
        } else {
            digits = Array(bytes.prefix(8))
            index = 8
        }
        guard digits.count == 8, digits.allSatisfy(isDigit) else { return nil }
        func number(_ range: Range<Int>) -> Int { digits[range].reduce(0) { $0 * 10 + Int($1 - 0x30) } }
        guard (1970...2099).contains(number(0..<4)), (1...12).contains(number(4..<6)), (1...31).contains(number(6..<8)) else { return nil }
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "_") { index += 1 }
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > start else { return nil }
            digits += bytes[start..<index]
        }
        return String(decoding: digits, as: UTF8.self)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte)
    }
}
