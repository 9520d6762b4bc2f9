#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the common access-log line straight to byte spans, or declines.
///
/// `AccessLogParser` + `PlacesRequestDecoder` build a table of fields, an `HTTPRequest` of
/// `String`s and a `RequestTarget` with every query parameter decoded into `String`s for each
/// line; this path must allocate nothing per line. This decoder matches the line to
/// the compiled `AccessLogFormat` with `memchr`, reads the time, status and request line from
/// bytes, and looks only at the query parameters a `Call` needs, decoding `input`'s percent
/// escapes on the fly to count its Unicode scalars. It allocates nothing.
///
/// It is the slow path's twin, not a second parser: it answers only when it is sure to give
/// what `AccessLogParser` and `PlacesRequestDecoder` give (the same `Call`, or "not a Places
/// request"), and returns `nil` for anything else, which the slow path then decides and words:
/// bytes outside ASCII, a field the slow path would reject, a target that is not a path, `%` in
/// a path, a parameter name or the session token, `input` that does not decode to UTF-8, an API
/// outside the seven known ones. It never reports errors itself.
///
/// The tests generate tens of thousands of valid and mutated lines in combined, common and
/// custom formats and check that every line this decoder answers gets the same `Call` (and the
/// same fingerprint) on the slow path.
package struct FastAccessLogLineDecoder: Sendable {
    /// The format's plan, then for `combined` the `common` plan, tried when a line does not have
    /// the combined shape (as `AccessLogParser.parse` falls back).
    private let plans: [Plan]
    /// Paths the user routed or strips a prefix from (`RequestRoutes.prefixes`): lines whose path
    /// starts with one are left to the slow path.
    private let leftPrefixes: [[UInt8]]

    package init(format: AccessLogFormat, userHeader: String = LogReader.defaultUserHeader, leaving prefixes: [String] = []) {
        var plans: [Plan] = []
        if let plan = Plan(format, userHeader: userHeader) { plans.append(plan) }
        if format == .combined, !plans.isEmpty, let common = Plan(.common, userHeader: userHeader) { plans.append(common) }
        self.plans = plans
        self.leftPrefixes = prefixes.map { Array($0.utf8) }
    }

    /// Decodes one line.
    ///
    /// - Parameter line: the line's bytes, without its `\n` and trailing `\r`.
    /// - Returns: the record, or `nil` when the slow path must decide.
    package func decode(_ line: UnsafeBufferPointer<UInt8>) -> FastAccessLogRecord? {
        // Servers escape bytes outside printable ASCII (nginx writes `\xFF`); a line with raw
        // ones, or a NUL, is rare, and the slow path checks it and says what is wrong.
        guard let base = line.baseAddress, line.count < Int(Int32.max), UTF8Validation.isASCIIWithoutNUL(UnsafeRawBufferPointer(line)) else {
            return nil
        }
        for plan in plans {
            guard let fields = plan.match(base, line.count) else { continue }
            // A line of this plan's shape is this plan's, whatever its fields hold.
            return plan.read(fields, base, leaving: leftPrefixes)
        }
        return nil
    }

    /// The field names of a `fields` parameter's value as written: decoded and split exactly as
    /// `PlacesRequestDecoder` does (once per distinct text: callers cache the result).
    package static func fieldNames(_ value: UnsafeRawBufferPointer) -> [String]? {
        let text = String(decoding: value, as: UTF8.self)
        return PlacesRequestDecoder.fieldList(RequestTarget.percentDecode(Substring(text), plusIsSpace: true))
    }

    // MARK: - Matching the format

    /// Where the needed values were found in a line (start and end offsets).
    struct Fields {
        var time = 0 ..< 0
        var request = 0 ..< 0
        var method = 0 ..< 0
        var uri = 0 ..< 0
        var status = 0 ..< 0
        var user = 0 ..< 0
        var userHeader = 0 ..< 0
        /// A logged header or body holds a value (`-` and nothing mean none): the slow path reads it.
        var sendsMore = false
    }

    /// An `AccessLogFormat` compiled for matching: a literal the line starts with, then fields,
    /// each ending at the first occurrence of the literal after it (or at the line's end).
    struct Plan: Sendable {
        /// `userHeader`: the header that carries the user id; `more`: any other header or the body.
        enum Slot: UInt8 { case none, time, request, method, uri, status, user, userHeader, more }
        enum TimeKind: UInt8 { case msec, iso8601, local }

        struct Step {
            var slot: Slot
            /// The literal that ends the field, in `text`; count 0 for a field that ends the line.
            var terminatorStart: Int
            var terminatorCount: Int
        }

        /// Every literal of the format, back to back.
        let text: [UInt8]
        let leadingCount: Int
        let steps: [Step]
        let timeKind: TimeKind
        let hasRequestLine: Bool
        let hasStatus: Bool
        let hasUser: Bool
        let hasUserHeader: Bool

        /// `nil` for a format whose elements do not alternate between fields and literals
        /// (`AccessLogFormat` never makes one): no line is then answered fast.
        init?(_ format: AccessLogFormat, userHeader: String) {
            let singles = Set(format.singleFields)
            timeKind = singles.contains(.msec) ? .msec : singles.contains(.timeISO8601) ? .iso8601 : .local
            let timeVariable: AccessLogFormat.Variable = switch timeKind {
            case .msec: .msec
            case .iso8601: .timeISO8601
            case .local: .timeLocal
            }
            hasRequestLine = singles.contains(.request)
            hasStatus = singles.contains(.status)
            hasUser = singles.contains(.remoteUser)
            hasUserHeader = singles.contains(.httpHeader(userHeader))
            guard singles.contains(timeVariable), hasRequestLine || (singles.contains(.requestMethod) && singles.contains(.requestURI)) else {
                return nil
            }

            var text: [UInt8] = []
            var steps: [Step] = []
            let elements = format.elements
            var index = 0
            if case .literal(let leading)? = elements.first {
                text = leading
                index = 1
            }
            leadingCount = text.count
            while index < elements.count {
                guard case .field(let group) = elements[index] else { return nil }
                var slot = Slot.none
                // Later fields of one variable overwrite earlier ones, as in the slow path's table.
                if group.count == 1 {
                    switch group[0] {
                    case timeVariable: slot = .time
                    case .request: slot = .request
                    case .requestMethod: slot = .method
                    case .requestURI: slot = .uri
                    case .status: slot = .status
                    case .remoteUser: slot = .user
                    case .httpHeader(userHeader): slot = .userHeader
                    case .httpHeader, .requestBody: slot = .more
                    default: slot = .none
                    }
                }
                var step = Step(slot: slot, terminatorStart: text.count, terminatorCount: 0)
                if index + 1 < elements.count {
                    guard case .literal(let terminator) = elements[index + 1], !terminator.isEmpty else { return nil }
                    step.terminatorCount = terminator.count
                    text += terminator
                    index += 2
                } else {
                    index += 1
                }
                steps.append(step)
            }
            self.text = text
            self.steps = steps
        }

        /// The fields of a line of this shape, found as `AccessLogFormat.match` finds them, or
        /// `nil` when the line does not have the shape.
        @inline(__always)
        func match(_ line: UnsafePointer<UInt8>, _ count: Int) -> Fields? {
            text.withUnsafeBufferPointer { text -> Fields? in
                guard let literals = text.baseAddress else { return nil }
                guard leadingCount <= count, memcmp(line, literals, leadingCount) == 0 else { return nil }
                var fields = Fields()
                var cursor = leadingCount
                for step in steps {
                    var end = count
                    var next = count
                    if step.terminatorCount > 0 {
                        guard let found = FastAccessLogLineDecoder.find(literals + step.terminatorStart, step.terminatorCount,
                                                                        in: line, from: cursor, to: count)
                        else { return nil }
                        end = found
                        next = found + step.terminatorCount
                    }
                    switch step.slot {
                    case .none: break
                    case .time: fields.time = cursor ..< end
                    case .request: fields.request = cursor ..< end
                    case .method: fields.method = cursor ..< end
                    case .uri: fields.uri = cursor ..< end
                    case .status: fields.status = cursor ..< end
                    case .user: fields.user = cursor ..< end
                    case .userHeader: fields.userHeader = cursor ..< end
                    case .more:
                        if end > cursor, !(end - cursor == 1 && line[cursor] == UInt8(ascii: "-")) { fields.sendsMore = true }
                    }
                    cursor = next
                }
                return fields
            }
        }

        /// The record of a line of this shape, or `nil` when a field is not what the slow path
        /// accepts (it then says what is wrong) or the request is one the fast path leaves to it.
        @inline(__always)
        func read(_ fields: Fields, _ line: UnsafePointer<UInt8>, leaving prefixes: [[UInt8]]) -> FastAccessLogRecord? {
            guard !fields.sendsMore else { return nil }
            let time: Timestamp?
            let timeField = UnsafeBufferPointer(start: line + fields.time.lowerBound, count: fields.time.count)
            var wholeSeconds = true
            switch timeKind {
            case .msec:
                time = AccessLogParser.parseMsec(timeField)
                wholeSeconds = false
            case .iso8601:
                // nginx's spelling read here; any other (a fraction of a second, an AWS load
                // balancer's) by the slow path's own parser.
                if let whole = FastAccessLogLineDecoder.timeISO8601(line + fields.time.lowerBound, fields.time.count) {
                    time = whole
                } else if timeField.contains(UInt8(ascii: "-")), case .success(let parsed) = TimestampParser.parse(bytes: timeField) {
                    time = parsed
                    wholeSeconds = !timeField.contains(UInt8(ascii: "."))
                } else {
                    time = nil
                }
            case .local: time = FastAccessLogLineDecoder.timeLocal(line + fields.time.lowerBound, fields.time.count)
            }
            guard let time else { return nil }

            let method: Range<Int>
            let target: Range<Int>
            if hasRequestLine {
                guard let (requestMethod, requestTarget) = FastAccessLogLineDecoder.requestLine(line, fields.request) else { return nil }
                method = requestMethod
                target = requestTarget
            } else {
                guard !fields.method.isEmpty, FastAccessLogLineDecoder.allLetters(line, fields.method),
                      !fields.uri.isEmpty, !(fields.uri.count == 1 && line[fields.uri.lowerBound] == UInt8(ascii: "-"))
                else { return nil }
                method = fields.method
                target = fields.uri
            }

            var status: ByteSpan?
            if hasStatus, !(fields.status.count == 1 && line[fields.status.lowerBound] == UInt8(ascii: "-")) {
                // `Int(text)` takes more spellings (`+200`, `0200`); those go to the slow path.
                let digits = fields.status
                guard digits.count == 3, line[digits.lowerBound] >= UInt8(ascii: "1"), line[digits.lowerBound] <= UInt8(ascii: "9"),
                      line[digits.lowerBound + 1].isASCIIDigit, line[digits.lowerBound + 2].isASCIIDigit
                else { return nil }
                status = ByteSpan(digits)
            }
            var user: ByteSpan?
            if hasUser, !fields.user.isEmpty, !(fields.user.count == 1 && line[fields.user.lowerBound] == UInt8(ascii: "-")) {
                user = ByteSpan(fields.user)
            }
            if hasUserHeader, !fields.userHeader.isEmpty, !(fields.userHeader.count == 1 && line[fields.userHeader.lowerBound] == UInt8(ascii: "-")) {
                // nginx's escapes are the slow path's to undo.
                for index in fields.userHeader where line[index] == UInt8(ascii: "\\") { return nil }
                user = ByteSpan(fields.userHeader)
            }

            var record = FastAccessLogRecord(time: time, method: ByteSpan(method), target: ByteSpan(target), user: user, status: status, wholeSecondTime: wholeSeconds)
            guard FastAccessLogLineDecoder.placesCall(line, target, leaving: prefixes, into: &record) else { return nil }
            // A Places request that is no call (a preflight, a redirect) is the slow path's to count.
            guard record.call == nil || !record.isNotBilled(in: line) else { return nil }
            return record
        }
    }

    /// The first occurrence of `needle` in `line[from..<to]`, as `AccessLogFormat` searches.
    @inline(__always)
    static func find(_ needle: UnsafePointer<UInt8>, _ needleCount: Int, in line: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int? {
        let first = Int32(needle[0])
        var index = from
        while end - index >= needleCount {
            guard let hit = memchr(line + index, first, end - index - needleCount + 1) else { return nil }
            index = line.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if needleCount == 1 || memcmp(line + index + 1, needle + 1, needleCount - 1) == 0,
               !AccessLogFormat.isEscapedQuote(line, at: index, fieldStart: from) {
                return index
            }
            index += 1
        }
        return nil
    }

    // MARK: - Times

    /// `01/Oct/2026:09:00:03 +0200`, read as `AccessLogParser.parseTimeLocal` reads it, without
    /// its `String` for the month's name.
    static func timeLocal(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Timestamp? {
        guard count == 26, bytes[2] == UInt8(ascii: "/"), bytes[6] == UInt8(ascii: "/"), bytes[11] == UInt8(ascii: ":"),
              bytes[14] == UInt8(ascii: ":"), bytes[17] == UInt8(ascii: ":"), bytes[20] == UInt8(ascii: " "),
              bytes[21] == UInt8(ascii: "+") || bytes[21] == UInt8(ascii: "-"),
              let day = number(bytes, 0, 2), let year = number(bytes, 7, 4), let hour = number(bytes, 12, 2),
              let minute = number(bytes, 15, 2), let second = number(bytes, 18, 2), let offsetHours = number(bytes, 22, 2),
              let offsetMinutes = number(bytes, 24, 2)
        else { return nil }
        // The name in lowercase (`| 0x20` lowercases letters and turns nothing else into one).
        let name = UInt32(bytes[3] | 0x20) << 16 | UInt32(bytes[4] | 0x20) << 8 | UInt32(bytes[5] | 0x20)
        let month: Int
        switch name {
        case 0x6A616E: month = 1  // jan
        case 0x666562: month = 2  // feb
        case 0x6D6172: month = 3  // mar
        case 0x617072: month = 4  // apr
        case 0x6D6179: month = 5  // may
        case 0x6A756E: month = 6  // jun
        case 0x6A756C: month = 7  // jul
        case 0x617567: month = 8  // aug
        case 0x736570: month = 9  // sep
        case 0x6F6374: month = 10  // oct
        case 0x6E6F76: month = 11  // nov
        case 0x646563: month = 12  // dec
        default: return nil
        }
        guard year >= 1, day >= 1, day <= CivilDate.daysInMonth(year: year, month: month), hour <= 23, minute <= 59,
              second <= 60, offsetHours <= 23, offsetMinutes <= 59
        else { return nil }
        let (clockSecond, clockMicroseconds) = Timestamp.clock(second: second, microseconds: 0)
        let offset = (bytes[21] == UInt8(ascii: "-") ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60)
        let days = CivilDate.daysSinceEpoch(year: year, month: month, day: day)
        return Timestamp(microseconds: (Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + clockSecond - offset)) * 1_000_000 + Int64(clockMicroseconds))
    }

    /// nginx's `$time_iso8601`, `2026-10-01T11:00:03+02:00` (or with `Z`); other RFC 3339
    /// spellings `TimestampParser` takes (fractions, `t`, a space) go to the slow path.
    static func timeISO8601(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Timestamp? {
        guard count == 25 || count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
              let hour = number(bytes, 11, 2), let minute = number(bytes, 14, 2), let second = number(bytes, 17, 2)
        else { return nil }
        var offset = 0
        if count == 20 {
            guard bytes[19] == UInt8(ascii: "Z") else { return nil }
        } else {
            guard bytes[19] == UInt8(ascii: "+") || bytes[19] == UInt8(ascii: "-"), bytes[22] == UInt8(ascii: ":"),
                  let offsetHours = number(bytes, 20, 2), let offsetMinutes = number(bytes, 23, 2),
                  offsetHours <= 23, offsetMinutes <= 59
            else { return nil }
            offset = (bytes[19] == UInt8(ascii: "-") ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60)
        }
        guard year >= 1, month >= 1, month <= 12, day >= 1, day <= CivilDate.daysInMonth(year: year, month: month),
              hour <= 23, minute <= 59, second <= 60
        else { return nil }
        let (clockSecond, clockMicroseconds) = Timestamp.clock(second: second, microseconds: 0)
        let days = CivilDate.daysSinceEpoch(year: year, month: month, day: day)
        return Timestamp(microseconds: (Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + clockSecond - offset)) * 1_000_000 + Int64(clockMicroseconds))
    }

    @inline(__always)
    private static func number(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for index in start ..< start + count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
        }
        return value
    }

    // MARK: - The request

    /// `$request` split on spaces into two or three parts, the first all letters: the method's
    /// and the target's ranges.
    @inline(__always)
    static func requestLine(_ line: UnsafePointer<UInt8>, _ request: Range<Int>) -> (Range<Int>, Range<Int>)? {
        var parts = 0
        var method = 0 ..< 0
        var target = 0 ..< 0
        var index = request.lowerBound
        let end = request.upperBound
        while true {
            while index < end, line[index] == UInt8(ascii: " ") { index += 1 }
            guard index < end else { break }
            let start = index
            // `memchr`, never a byte loop: the target is most of the line.
            index = memchr(line + index, Int32(UInt8(ascii: " ")), end - index)
                .map { line.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? end
            parts += 1
            switch parts {
            case 1: method = start ..< index
            case 2: target = start ..< index
            case 3: break
            default: return nil
            }
        }
        guard parts >= 2, allLetters(line, method) else { return nil }
        return (method, target)
    }

    @inline(__always)
    static func allLetters(_ line: UnsafePointer<UInt8>, _ range: Range<Int>) -> Bool {
        for index in range where (line[index] | 0x20) &- UInt8(ascii: "a") >= 26 { return false }
        return true
    }

    /// Fills `record.call` as `PlacesRequestDecoder.decode` would read the target; `false` when
    /// the slow path must decide.
    @inline(__always)
    static func placesCall(_ line: UnsafePointer<UInt8>, _ target: Range<Int>, leaving prefixes: [[UInt8]] = [], into record: inout FastAccessLogRecord) -> Bool {
        var target = target
        // An absolute URL (a forward proxy's, a load balancer's): its host, then its path as an
        // origin-form target's.
        if let (host, pathStart) = absoluteHost(line, target) {
            record.host = host
            target = pathStart ..< target.upperBound
        }
        guard !target.isEmpty, line[target.lowerBound] == UInt8(ascii: "/") else { return false }
        var pathEnd = target.lowerBound
        while pathEnd < target.upperBound {
            let byte = line[pathEnd]
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            // The slow path decodes the path (`/maps%2Fapi/...` is a Places path).
            if byte == UInt8(ascii: "%") { return false }
            pathEnd += 1
        }
        var query = pathEnd ..< pathEnd
        if pathEnd < target.upperBound, line[pathEnd] == UInt8(ascii: "?") {
            let start = pathEnd + 1
            let fragment = memchr(line + start, Int32(UInt8(ascii: "#")), target.upperBound - start)
            query = start ..< (fragment.map { line.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? target.upperBound)
        }
        let path = UnsafeBufferPointer(start: line + target.lowerBound, count: pathEnd - target.lowerBound)
        for prefix in prefixes where path.starts(with: prefix) { return false }

        var call = FastAccessLogRecord.Places(api: .other, generation: nil, bodyUnknown: false)
        if let endpoint = path.dropping(prefix: "/maps/api/") {
            let name: UnsafeBufferPointer<UInt8>
            if let json = endpoint.dropping(suffix: "/json") {
                name = json
            } else if let xml = endpoint.dropping(suffix: "/xml") {
                name = xml
            } else {
                // The Maps JavaScript API's requests are the slow path's to read.
                return !(endpoint.starts(with: "js/") || endpoint.starts(with: "place/js/"))
            }
            call.generation = .legacy
            let needsPlaceID: Bool
            let needsQuery: Bool
            if name.equals("place/autocomplete") {
                (call.api, needsPlaceID, needsQuery) = (.autocomplete, false, false)
            } else if name.equals("place/details") {
                (call.api, needsPlaceID, needsQuery) = (.placeDetails, true, false)
            } else if name.equals("geocode") {
                (call.api, needsPlaceID, needsQuery) = (.geocoding, false, true)
                // One product for both generations: its SKU does not depend on it.
                call.generation = nil
            } else if name.equals("place/queryautocomplete") {
                (call.api, needsPlaceID, needsQuery) = (.queryAutocomplete, false, false)
            } else if name.equals("place/findplacefromtext") {
                (call.api, needsPlaceID, needsQuery) = (.findPlace, false, false)
            } else if name.equals("place/textsearch") {
                (call.api, needsPlaceID, needsQuery) = (.textSearch, false, false)
            } else {
                return true
            }
            guard let parameters = QueryParameters(line, query) else { return false }
            // Without them the slow path rejects the request, and says why.
            if needsPlaceID, parameters.placeid.isEmptyOrAbsent, parameters.placeUnderscoreID.isEmptyOrAbsent { return false }
            if needsQuery, parameters.placeUnderscoreID.isEmptyOrAbsent, parameters.address.isEmptyOrAbsent,
               parameters.latlng.isEmptyOrAbsent, parameters.components.isEmptyOrAbsent { return false }
            guard let token = plainToken(line, parameters.sessiontoken, parameters.sessionToken) else { return false }
            call.sessionToken = token
            if let input = parameters.input {
                guard let length = scalarCount(line, input) else { return false }
                call.inputLength = length
            }
            call.fields = parameters.fields
        } else if path.starts(with: "/v1/places") {
            call.generation = .new
            if path.equals("/v1/places:autocomplete") {
                call.api = .autocomplete
                call.bodyUnknown = true
            } else if path.equals("/v1/places:searchText") {
                call.api = .textSearch
                guard let parameters = QueryParameters(line, query) else { return false }
                call.fields = parameters.fields ?? parameters.dollarFields
            } else if path.equals("/v1/places:searchNearby") {
                return false  // an `other` API: its label is the slow path's
            } else if let placeID = path.dropping(prefix: "/v1/places/"), !placeID.isEmpty, !placeID.contains(UInt8(ascii: "/")) {
                call.api = .placeDetails
                guard let parameters = QueryParameters(line, query),
                      let token = plainToken(line, parameters.sessionToken, parameters.sessiontoken)
                else { return false }
                call.sessionToken = token
                call.fields = parameters.fields ?? parameters.dollarFields
            } else {
                return true
            }
        } else if path.equals("/v1:validateAddress") {
            call.api = .addressValidation
            call.generation = .new
            call.bodyUnknown = true
        } else {
            // The Maps JavaScript API's Places (New) requests are the slow path's to read.
            return !path.starts(with: "/$rpc/")
        }
        record.call = call
        return true
    }

    /// The host of an absolute `http://` or `https://` target (the scheme in any case) and where
    /// its path starts, as `RequestTarget` reads them: the authority runs to the first `/`, `?`
    /// or `#`, without user info (up to the last `@`), port (from the last `:`, unless the
    /// authority ends with `]`) or one trailing `.`; `nil` for an origin-form target.
    static func absoluteHost(_ line: UnsafePointer<UInt8>, _ target: Range<Int>) -> (host: ByteSpan, pathStart: Int)? {
        func lower(_ index: Int) -> UInt8 { line[index] | 0x20 }
        var start = target.lowerBound
        guard target.count >= 7, lower(start) == UInt8(ascii: "h"), lower(start + 1) == UInt8(ascii: "t"), lower(start + 2) == UInt8(ascii: "t"),
              lower(start + 3) == UInt8(ascii: "p")
        else { return nil }
        start += 4
        if lower(start) == UInt8(ascii: "s") { start += 1 }
        guard target.upperBound - start >= 3, line[start] == UInt8(ascii: ":"), line[start + 1] == UInt8(ascii: "/"), line[start + 2] == UInt8(ascii: "/")
        else { return nil }
        start += 3
        var end = start
        while end < target.upperBound, line[end] != UInt8(ascii: "/"), line[end] != UInt8(ascii: "?"), line[end] != UInt8(ascii: "#") { end += 1 }
        let pathStart = end
        var hostStart = start
        for index in start ..< end where line[index] == UInt8(ascii: "@") { hostStart = index + 1 }
        if end > hostStart, line[end - 1] != UInt8(ascii: "]") {
            var colon = end - 1
            while colon >= hostStart, line[colon] != UInt8(ascii: ":") { colon -= 1 }
            if colon >= hostStart { end = colon }
        }
        if end > hostStart, line[end - 1] == UInt8(ascii: ".") { end -= 1 }
        return (ByteSpan(hostStart ..< end), pathStart)
    }

    /// The first non-empty of two parameters' values, as the token; `.some(nil)` for none,
    /// `nil` when the chosen value holds an escape or a `+` (the slow path decodes it).
    @inline(__always)
    static func plainToken(_ line: UnsafePointer<UInt8>, _ first: ByteSpan?, _ second: ByteSpan?) -> ByteSpan?? {
        let chosen: ByteSpan
        if let first, first.count > 0 {
            chosen = first
        } else if let second, second.count > 0 {
            chosen = second
        } else {
            return .some(nil)
        }
        for index in Int(chosen.start) ..< Int(chosen.start + chosen.count) {
            if line[index] == UInt8(ascii: "%") || line[index] == UInt8(ascii: "+") { return nil }
        }
        return .some(chosen)
    }

    /// The Unicode scalars of a query value once `%XX` escapes are decoded (a `%` not followed by
    /// two hex digits stays as it is) and `+` is a space, as `RequestTarget.percentDecode` does;
    /// `nil` when the decoded bytes are not UTF-8 (the slow path's replacement characters are
    /// its own to count).
    static func scalarCount(_ line: UnsafePointer<UInt8>, _ value: ByteSpan) -> Int32? {
        var index = Int(value.start)
        let end = index + Int(value.count)
        var scalars: Int32 = 0
        // UTF-8 validation as in the Unicode standard's table 3-7: continuation bytes still
        // expected, and the range the next one must fall in.
        var pending = 0
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        while index < end {
            var byte = line[index]
            if byte == UInt8(ascii: "%"), index + 2 < end, let high = hexValue(line[index + 1]), let low = hexValue(line[index + 2]) {
                byte = high << 4 | low
                index += 3
            } else {
                index += 1
            }
            if pending > 0 {
                guard byte >= lower, byte <= upper else { return nil }
                lower = 0x80
                upper = 0xBF
                pending -= 1
                continue
            }
            scalars += 1
            switch byte {
            case 0x00 ... 0x7F: break
            case 0xC2 ... 0xDF: pending = 1
            case 0xE0: (pending, lower) = (2, 0xA0)
            case 0xE1 ... 0xEC, 0xEE ... 0xEF: pending = 2
            case 0xED: (pending, upper) = (2, 0x9F)
            case 0xF0: (pending, lower) = (3, 0x90)
            case 0xF1 ... 0xF3: pending = 3
            case 0xF4: (pending, upper) = (3, 0x8F)
            default: return nil
            }
        }
        return pending == 0 ? scalars : nil
    }

    /// The value of a hexadecimal digit in either case; `nil` for any other byte.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
        default: nil
        }
    }

    /// The first value of each query parameter a Places call needs, as written (`RequestTarget`
    /// keeps the first of a repeated parameter, and a name without `=` has the empty value).
    struct QueryParameters {
        var input: ByteSpan?
        var sessiontoken: ByteSpan?
        var sessionToken: ByteSpan?
        var fields: ByteSpan?
        var dollarFields: ByteSpan?
        var placeid: ByteSpan?
        var placeUnderscoreID: ByteSpan?
        var address: ByteSpan?
        var latlng: ByteSpan?
        var components: ByteSpan?

        /// `nil` when a parameter's name holds `%`: decoded, it might be one of these names.
        @inline(__always)
        init?(_ line: UnsafePointer<UInt8>, _ query: Range<Int>) {
            var start = query.lowerBound
            while start < query.upperBound {
                let end = memchr(line + start, Int32(UInt8(ascii: "&")), query.upperBound - start)
                    .map { line.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? query.upperBound
                if end > start {
                    var nameEnd = start
                    while nameEnd < end, line[nameEnd] != UInt8(ascii: "=") {
                        if line[nameEnd] == UInt8(ascii: "%") { return nil }
                        nameEnd += 1
                    }
                    let valueStart = min(nameEnd + 1, end)
                    let value = ByteSpan(start: Int32(valueStart), count: Int32(end - valueStart))
                    let name = UnsafeBufferPointer(start: line + start, count: nameEnd - start)
                    switch name.count {
                    case 5 where name.equals("input"): if input == nil { input = value }
                    case 12 where name.equals("sessiontoken"): if sessiontoken == nil { sessiontoken = value }
                    case 12 where name.equals("sessionToken"): if sessionToken == nil { sessionToken = value }
                    case 6 where name.equals("fields"): if fields == nil { fields = value }
                    case 7 where name.equals("$fields"): if dollarFields == nil { dollarFields = value }
                    case 7 where name.equals("placeid"): if placeid == nil { placeid = value }
                    case 8 where name.equals("place_id"): if placeUnderscoreID == nil { placeUnderscoreID = value }
                    case 7 where name.equals("address"): if address == nil { address = value }
                    case 6 where name.equals("latlng"): if latlng == nil { latlng = value }
                    case 10 where name.equals("components"): if components == nil { components = value }
                    default: break
                    }
                }
                start = end + 1
            }
        }
    }
}

extension ByteSpan {
    init(_ range: Range<Int>) {
        self.init(start: Int32(range.lowerBound), count: Int32(range.count))
    }
}

extension Optional where Wrapped == ByteSpan {
    var isEmptyOrAbsent: Bool { (self?.count ?? 0) == 0 }
}

private extension UInt8 {
    var isASCIIDigit: Bool { self &- UInt8(ascii: "0") < 10 }
}

private extension UnsafeBufferPointer where Element == UInt8 {
    @inline(__always)
    func equals(_ text: StaticString) -> Bool {
        guard let base = baseAddress, count == text.utf8CodeUnitCount else { return false }
        return memcmp(base, text.utf8Start, count) == 0
    }

    @inline(__always)
    func starts(with text: StaticString) -> Bool {
        guard let base = baseAddress, count >= text.utf8CodeUnitCount else { return false }
        return memcmp(base, text.utf8Start, text.utf8CodeUnitCount) == 0
    }

    /// The rest after `prefix`, or `nil` when the bytes do not start with it.
    @inline(__always)
    func dropping(prefix: StaticString) -> UnsafeBufferPointer<UInt8>? {
        guard starts(with: prefix) else { return nil }
        return UnsafeBufferPointer(rebasing: self[prefix.utf8CodeUnitCount...])
    }

    /// The bytes before `suffix`, or `nil` when they do not end with it.
    @inline(__always)
    func dropping(suffix: StaticString) -> UnsafeBufferPointer<UInt8>? {
        let length = suffix.utf8CodeUnitCount
        guard let base = baseAddress, count >= length, memcmp(base + (count - length), suffix.utf8Start, length) == 0 else { return nil }
        return UnsafeBufferPointer(rebasing: self[..<(count - length)])
    }
}
