/// Reads one access log line into an `HTTPRequest`, by an `AccessLogFormat`.
///
/// The time comes from `$msec`, `$time_iso8601` or `$time_local` (the most precise one present);
/// method and target from `$request`, else `$request_method` and `$request_uri`; the user from
/// the user header's `$http_...` variable, else `$remote_user` (never the client address: behind a
/// load balancer it is shared by everyone). Headers and the body are those the format logs
/// (`$http_x_goog_fieldmask`, `$request_body`), with nginx's escapes (`\x22`, or JSON's under
/// `escape=json`) undone; `-` or nothing means not sent. With `combined`, a line that does not match is tried
/// as `common`, so a file of either kind (nginx or Apache) reads with the default format.
///
/// Works on the line's bytes so that `LineReader`'s buffers need no `String` per line. Reasons
/// for malformed lines never quote the line: its URL may hold an API key.
package struct AccessLogParser: Sendable {
    package enum Result: Sendable, Equatable {
        case request(HTTPRequest)
        /// A sentence fragment for `FILE:LINE: warning:`.
        case malformed(String)
    }

    package let format: AccessLogFormat
    /// The request header whose `$http_...` variable holds the user id, lowercased.
    package let userHeader: String

    package init(format: AccessLogFormat, userHeader: String = LogReader.defaultUserHeader) {
        self.format = format
        self.userHeader = userHeader
    }

    package func parse(_ line: String) -> Result {
        var line = line
        return line.withUTF8 { parse($0) }
    }

    package func parse(_ line: [UInt8]) -> Result {
        line.withUnsafeBufferPointer { parse($0) }
    }

    package func parse(_ line: UnsafeBufferPointer<UInt8>) -> Result {
        // Servers escape bytes outside printable ASCII (nginx writes `\xFF`), so raw bytes that
        // are not UTF-8 mean a corrupted line, not a request.
        guard UTF8Validation.isValid(line) else { return .malformed("the line is not valid UTF-8") }
        // No server writes a NUL: a line holding one is damage (a file written past a crash).
        guard !line.contains(0) else { return .malformed("the line holds NUL bytes, which no server writes (a file written past a crash?)") }
        let result = AccessLogParser.parse(line, as: format, userHeader: userHeader)
        guard case .malformed = result, format == .combined, !format.matches(line) else { return result }
        // The line is not combined-shaped: if it is common-shaped, common's verdict (a request, or
        // what is wrong with one of its fields) says more than "does not match".
        return AccessLogFormat.common.matches(line) ? AccessLogParser.parse(line, as: .common, userHeader: userHeader) : result
    }

    /// Whether the first non-blank line of `head` reads as an access log line of a layout known
    /// without `--log-format` (`layout(of:)`).
    package static func sniff(_ head: [UInt8]) -> Bool {
        layout(of: head) != nil
    }

    /// The layout the first non-blank line of `head` reads in: `combined` (which takes `common`
    /// lines too), else an AWS load balancer's (`AccessLogFormat.awsALB`); `nil` for neither.
    package static func layout(of head: [UInt8]) -> AccessLogFormat? {
        var start = 0
        while start < head.count {
            var end = head[start...].firstIndex(of: UInt8(ascii: "\n")) ?? head.count
            let next = end + 1
            if end > start, head[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            let line = Array(head[start..<end])
            if !LineReader.isBlank(line) {
                for layout in [AccessLogFormat.combined, .awsALB] {
                    if case .request = AccessLogParser(format: layout).parse(line) { return layout }
                }
                return nil
            }
            start = next
        }
        return nil
    }

    private static func parse(_ line: UnsafeBufferPointer<UInt8>, as format: AccessLogFormat, userHeader: String) -> Result {
        let values: [AccessLogFormat.Variable: Range<Int>]
        switch format.match(line) {
        case .success(let found): values = found
        case .failure(let failure): return .malformed(failure.reason)
        }
        func text(_ variable: AccessLogFormat.Variable) -> String? {
            values[variable].map { String(decoding: UnsafeBufferPointer(rebasing: line[$0]), as: UTF8.self) }
        }

        let time: Timestamp
        if let range = values[.msec] {
            guard let parsed = parseMsec(UnsafeBufferPointer(rebasing: line[range])) else {
                return .malformed("the $msec field is not a time in seconds since 1970, like 1790845203.123")
            }
            time = parsed
        } else if let range = values[.timeISO8601] {
            let field = UnsafeBufferPointer(rebasing: line[range])
            guard field.contains(UInt8(ascii: "-")), case .success(let parsed) = TimestampParser.parse(bytes: field) else {
                return .malformed("the $time_iso8601 field is not a time like 2026-10-01T09:00:03+00:00")
            }
            time = parsed
        } else if let range = values[.timeLocal] {
            guard let parsed = parseTimeLocal(UnsafeBufferPointer(rebasing: line[range])) else {
                return .malformed("the $time_local field is not a time like 01/Oct/2026:09:00:03 +0000")
            }
            time = parsed
        } else {
            return .malformed("the log format records no time")  // unreachable: `AccessLogFormat.init` checks
        }

        let method: String
        let target: String
        if let request = text(.request) {
            switch AccessLogParser.requestLine(request, field: "the $request field") {
            case .success(let parts): (method, target) = parts
            case .failure(let failure): return .malformed(failure.reason)
            }
        } else if let requestMethod = text(.requestMethod), let uri = text(.requestURI) {
            guard !requestMethod.isEmpty, requestMethod.allSatisfy({ $0.isLetter }) else {
                return .malformed("the $request_method field is not an HTTP method")
            }
            guard !uri.isEmpty, uri != "-" else { return .malformed("the $request_uri field is empty") }
            method = requestMethod
            target = uri
        } else {
            return .malformed("the log format records no request")  // unreachable: `AccessLogFormat.init` checks
        }

        var status: Int?
        if let statusText = text(.status), statusText != "-" {
            guard let code = Int(statusText), (100...999).contains(code) else {
                return .malformed("the $status field is not an HTTP status code")
            }
            status = code
        }
        /// A header's or the body's value: `nil` for `-` or nothing.
        func sent(_ range: Range<Int>) -> String? {
            let bytes = UnsafeBufferPointer(rebasing: line[range])
            guard !bytes.isEmpty, !(bytes.count == 1 && bytes[0] == UInt8(ascii: "-")) else { return nil }
            return AccessLogParser.unescaped(bytes)
        }
        var headers: [(name: String, value: String)] = []
        var userFromHeader: String?
        var body: String?
        for case .field(let group) in format.elements where group.count == 1 {
            guard let range = values[group[0]] else { continue }
            switch group[0] {
            case .httpHeader(let name):
                guard let value = sent(range) else { continue }
                if name == userHeader { userFromHeader = value } else { headers.append((name, value)) }
            case .requestBody:
                body = sent(range)
            default:
                continue
            }
        }
        let user = userFromHeader ?? text(.remoteUser).flatMap { $0 == "-" || $0.isEmpty ? nil : $0 }
        var request = HTTPRequest(time: time, method: method, target: target, headers: headers, body: body, userID: user, status: status)
        // nginx's `$time_iso8601` has whole seconds; a layout that logs a fraction (an AWS load
        // balancer's) is checked for duplicates like `$msec`.
        request.wholeSecondTime = values[.msec] == nil && !(values[.timeISO8601].map { line[$0].contains(UInt8(ascii: ".")) } ?? false)
        return .request(request)
    }

    /// The method and target of a logged request line (`GET /path HTTP/1.1`), or why it is
    /// none, with `field` (`the $request field`) naming where it was.
    static func requestLine(_ line: String, field: String) -> Swift.Result<(method: String, target: String), DecodeFailure> {
        // Split on the space byte: the request line's syntax is ASCII (splitting on the
        // `Character` cost grapheme breaking on every line).
        let parts = line.utf8.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true).map { Substring($0) }
        guard parts.count == 2 || parts.count == 3, parts[0].allSatisfy({ $0.isLetter }) else {
            return .failure(DecodeFailure(reason: line == "-" || line.isEmpty
                ? "the request line is empty (nginx writes - for a connection closed before a request)"
                : "\(field) is not an HTTP request line (method, target, protocol)"))
        }
        return .success((String(parts[0]), String(parts[1])))
    }

    /// A logged value with nginx's escapes undone: `\xHH` (nginx's default for `"`, `\\` and bytes
    /// outside printable ASCII) and JSON's `\"`, `\\`, `\n`, `\uXXXX` (`escape=json`). Bytes
    /// that are not UTF-8 become U+FFFD.
    static func unescaped(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.contains(UInt8(ascii: "\\")) else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        func hex(_ start: Int, _ count: Int) -> UInt32? {
            guard start + count <= bytes.count else { return nil }
            var value: UInt32 = 0
            for offset in 0..<count {
                let byte = bytes[start + offset]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
            }
            return value
        }
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < bytes.count else {
                out.append(byte)
                index += 1
                continue
            }
            let kind = bytes[index + 1]
            switch kind {
            case UInt8(ascii: "x"):
                if let value = hex(index + 2, 2) {
                    out.append(UInt8(value))
                    index += 4
                    continue
                }
            case UInt8(ascii: "u"):
                if let value = hex(index + 2, 4), let scalar = Unicode.Scalar(value) {
                    out += Array(String(Character(scalar)).utf8)
                    index += 6
                    continue
                }
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                out.append(kind)
                index += 2
                continue
            case UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"), UInt8(ascii: "b"), UInt8(ascii: "f"):
                let controls: [UInt8: UInt8] = [
                    UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09, UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C,
                ]
                out.append(controls[kind]!)
                index += 2
                continue
            default:
                break
            }
            out.append(byte)
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `1790845203.123`: seconds since 1970 with up to microsecond digits.
    static func parseMsec(_ bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        var seconds: Int64 = 0
        var microseconds: Int64 = 0
        var index = 0
        var digits = 0
        while index < bytes.count, let digit = digitValue(bytes[index]) {
            guard digits < 12 else { return nil }
            seconds = seconds * 10 + Int64(digit)
            digits += 1
            index += 1
        }
        guard digits > 0 else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale: Int64 = 100_000
            let fractionStart = index
            while index < bytes.count, let digit = digitValue(bytes[index]) {
                microseconds += Int64(digit) * scale
                scale /= 10
                index += 1
            }
            guard index > fractionStart else { return nil }
        }
        guard index == bytes.count else { return nil }
        return Timestamp(microseconds: seconds * 1_000_000 + microseconds)
    }

    /// `01/Oct/2026:09:00:03 +0200` (nginx `$time_local`, Apache `%t`).
    static func parseTimeLocal(_ bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        guard bytes.count == 26 else { return nil }
        func number(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for index in start..<(start + count) {
                guard let digit = digitValue(bytes[index]) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        let monthName = String(decoding: UnsafeBufferPointer(rebasing: bytes[3..<6]), as: UTF8.self).lowercased()
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        guard let monthIndex = months.firstIndex(of: monthName),
              bytes[2] == UInt8(ascii: "/"), bytes[6] == UInt8(ascii: "/"), bytes[11] == UInt8(ascii: ":"),
              bytes[14] == UInt8(ascii: ":"), bytes[17] == UInt8(ascii: ":"), bytes[20] == UInt8(ascii: " "),
              bytes[21] == UInt8(ascii: "+") || bytes[21] == UInt8(ascii: "-"),
              let day = number(0, 2), let year = number(7, 4), let hour = number(12, 2), let minute = number(15, 2),
              let second = number(18, 2), let offsetHours = number(22, 2), let offsetMinutes = number(24, 2)
        else { return nil }
        let month = monthIndex + 1
        guard year >= 1, day >= 1, day <= CivilDate.daysInMonth(year: year, month: month), hour <= 23, minute <= 59,
              second <= 60, offsetHours <= 23, offsetMinutes <= 59
        else { return nil }
        let (clockSecond, clockMicroseconds) = Timestamp.clock(second: second, microseconds: 0)
        let offset = (bytes[21] == UInt8(ascii: "-") ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60)
        let days = CivilDate.daysSinceEpoch(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + clockSecond - offset)
        return Timestamp(microseconds: seconds * 1_000_000 + Int64(clockMicroseconds))
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }
}
