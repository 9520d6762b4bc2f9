#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a web server's JSON access record (nginx with a JSON `log_format`, Caddy's and Traefik's
/// JSON access logs) straight to byte spans, or declines: `JSONAccessRecord`'s fast twin, as
/// `FastAccessLogLineDecoder` is `AccessLogParser`'s.
///
/// `JSONAccessRecord` parses each record into a tree of `String`s and a dictionary, then builds an
/// `HTTPRequest` of `String`s; a record costs microseconds. This decoder walks the line once,
/// notes where the members it reads are, and hands the request's spans to the combined decoder's
/// own readers (the request line, the times, the Places target). It allocates nothing.
///
/// It answers only when it is sure to give what `JSONAccessRecord` + `PlacesRequestDecoder` give
/// (the same `Call` and fingerprint, or "not a Places request"), and returns `nil` for anything
/// else, which the slow path then decides and words: bytes outside ASCII, an escape in a key or
/// in a value it reads (escapes elsewhere are checked and skipped), a member it reads given
/// twice, two headers of one name or a Caddy header with two values, a record that is not a web
/// server's, a field-mask header or a request body (read by the slow path), `$uri` that needs
/// `$args` appended, and every value the combined decoder declines. Caddy's nested `request`
/// (its method, target and headers) and Cloud Logging's `httpRequest` (its method, URL, status,
/// user agent and referrer) are read like the top-level keys.
///
/// The tests generate thousands of valid, unusual and mutated records and check that every one
/// this decoder answers gets the slow path's outcome and fingerprint.
package struct FastJSONAccessRecordDecoder: Sendable {
    /// What the decoder read: the request, and its fingerprint (`HTTPRequest.fingerprint` of the
    /// request the slow path makes, headers included).
    package struct Decoded {
        package var record: FastAccessLogRecord
        package var fingerprint: UInt64
    }

    /// The header that carries the user (`--user-header`), as `JSONAccessRecord` compares it.
    private let userHeader: [UInt8]
    /// Paths the user routed or strips a prefix from: left to the slow path.
    private let leftPrefixes: [[UInt8]]

    /// Headers a record may log and this decoder still answer; one with more is declined.
    static let maxHeaders = 32

    package init(userHeader: String = LogReader.defaultUserHeader, leaving prefixes: [String] = []) {
        self.userHeader = Array(userHeader.utf8)
        self.leftPrefixes = prefixes.map { Array($0.utf8) }
    }

    /// Decodes one line.
    ///
    /// - Parameter line: the line's bytes, without its `\n` and trailing `\r`.
    /// - Returns: the request, or `nil` when the slow path must decide.
    package func decode(_ line: UnsafeBufferPointer<UInt8>) -> Decoded? {
        guard let base = line.baseAddress, line.count < Int(Int32.max), UTF8Validation.isASCII(UnsafeRawBufferPointer(line)) else {
            return nil
        }
        return withUnsafeTemporaryAllocation(of: Member.self, capacity: Member.Key.allCases.count) { members in
            withUnsafeTemporaryAllocation(of: Header.self, capacity: Self.maxHeaders) { headers in
                members.initialize(repeating: .absent)
                var scan = Scan(line: base, count: line.count, members: members.baseAddress!, headers: headers.baseAddress!)
                guard scan.object(userHeader: userHeader), scan.isWebServerRecord else { return nil }
                return read(scan)
            }
        }
    }

    /// The request of a record `scan` has walked, as `JSONAccessRecord.request` reads it.
    private func read(_ scan: Scan) -> Decoded? {
        let line = scan.line
        // The first time key present, in `JSONAccessRecord.timeKeys`' order.
        guard let (time, wholeSeconds) = readTime(scan) else { return nil }

        let method: Range<Int>
        let target: Range<Int>
        let request = scan[.request]
        switch request.kind {
        case .string:
            guard let (requestMethod, requestTarget) = FastAccessLogLineDecoder.requestLine(line, request.range) else { return nil }
            (method, target) = (requestMethod, requestTarget)
        case .absent, .object:
            // Caddy's nested `request.method` and `request.uri` first, then Cloud Logging's
            // `httpRequest`, then the top-level keys.
            let methodMember = Member.firstPresent(scan.nestedMethod, scan.logged.method, scan.first(.requestMethod, .method, .requestMethodTraefik))
            let uriMember = Member.firstPresent(scan.nestedURI, scan.logged.url, scan.first(.requestURI, .requestPath, .uri, .path))
            guard let methodText = methodMember.text(in: line), let uri = uriMember.text(in: line),
                  FastAccessLogLineDecoder.allLetters(line, methodText)
            else { return nil }
            // nginx's `$uri` leaves the query in `$args`, which the slow path appends.
            if request.kind == .absent, !scan[.httpRequest].isPresent, !scan[.requestURI].isPresent, memchr(line + uri.lowerBound, Int32(UInt8(ascii: "?")), uri.count) == nil,
               scan.first(.args, .queryString).text(in: line) != nil {
                return nil
            }
            (method, target) = (methodText, uri)
        default:
            return nil
        }

        var status: ByteSpan?
        if let digits = Member.firstPresent(scan.first(.status, .downstreamStatus), scan.logged.status, scan[.responseCode]).text(in: line),
           !(digits.count == 1 && line[digits.lowerBound] == UInt8(ascii: "0")) {
            // `Int(text)` takes more spellings (`+200`, `0200`); those go to the slow path.
            guard digits.count == 3, (UInt8(ascii: "1") ... UInt8(ascii: "9")).contains(line[digits.lowerBound]),
                  line[digits.lowerBound + 1] &- UInt8(ascii: "0") < 10, line[digits.lowerBound + 2] &- UInt8(ascii: "0") < 10
            else { return nil }
            status = ByteSpan(digits)
        }
        guard scan[.requestBody].text(in: line) == nil else { return nil }
        let user = scan.userFromHeader ?? scan[.remoteUser].text(in: line) ?? scan[.userID].text(in: line)

        var record = FastAccessLogRecord(time: time, method: ByteSpan(method), target: ByteSpan(target), user: user.map(ByteSpan.init),
                                         status: status, wholeSecondTime: wholeSeconds)
        guard FastAccessLogLineDecoder.placesCall(line, target, leaving: leftPrefixes, into: &record) else { return nil }
        // A Places request that is no call (a preflight, a redirect) is the slow path's to count.
        guard record.call == nil || !record.isNotBilled(in: line) else { return nil }
        let fingerprint = record.fingerprint(in: UnsafeBufferPointer(start: line, count: scan.count)) { fingerprint in
            scan.combineHeaders(into: &fingerprint)
        }
        return Decoded(record: record, fingerprint: fingerprint)
    }

    /// The record's time and whether it has whole seconds only, as `JSONAccessRecord.readTime`
    /// reads the first time key present; `nil` when the slow path must decide.
    private func readTime(_ scan: Scan) -> (Timestamp, wholeSeconds: Bool)? {
        let line = scan.line
        guard let key = Member.Key.timeKeys.first(where: { scan[$0].isPresent }) else { return nil }
        let value = scan[key]
        let field = UnsafeBufferPointer(start: line + value.range.lowerBound, count: value.range.count)
        let fraction = memchr(field.baseAddress!, Int32(UInt8(ascii: ".")), field.count) != nil
        switch (key, value.kind) {
        case (.msec, .string), (.msec, .number), (.ts, .string), (.ts, .number):
            return AccessLogParser.parseMsec(field).map { ($0, !fraction) }
        case (.timeLocal, .string):
            return FastAccessLogLineDecoder.timeLocal(field.baseAddress!, field.count).map { ($0, true) }
        case (_, .string):
            guard memchr(field.baseAddress!, Int32(UInt8(ascii: "-")), field.count) != nil,
                  case .success(let time) = TimestampParser.parse(bytes: field)
            else { return nil }
            return (time, !fraction)
        default:
            return nil
        }
    }
}

extension FastJSONAccessRecordDecoder {
    /// A member this decoder reads: where its value is and of what kind.
    struct Member {
        /// The keys `JSONAccessRecord` reads, and those that tell a web server's record
        /// (`RawRecord.webServerKeys`).
        enum Key: Int, CaseIterable {
            case msec, ts, startUTC, timeISO8601, atTimestamp, time, timestamp, timeLocal
            case request, requestMethod, method, requestMethodTraefik, requestURI, requestPath, uri, args, queryString
            case status, downstreamStatus, remoteUser, userID, requestBody, api
            case remoteAddr, remoteIP, httpUserAgent, upstreamAddr, clientAddr, httpRequest
            case startTime, path, responseCode

            var name: StaticString {
                switch self {
                case .msec: "msec"
                case .ts: "ts"
                case .startUTC: "StartUTC"
                case .timeISO8601: "time_iso8601"
                case .atTimestamp: "@timestamp"
                case .time: "time"
                case .timestamp: "timestamp"
                case .timeLocal: "time_local"
                case .request: "request"
                case .requestMethod: "request_method"
                case .method: "method"
                case .requestMethodTraefik: "RequestMethod"
                case .requestURI: "request_uri"
                case .requestPath: "RequestPath"
                case .uri: "uri"
                case .args: "args"
                case .queryString: "query_string"
                case .status: "status"
                case .downstreamStatus: "DownstreamStatus"
                case .remoteUser: "remote_user"
                case .userID: "user_id"
                case .requestBody: "request_body"
                case .api: "api"
                case .remoteAddr: "remote_addr"
                case .remoteIP: "remote_ip"
                case .httpUserAgent: "http_user_agent"
                case .upstreamAddr: "upstream_addr"
                case .clientAddr: "ClientAddr"
                case .httpRequest: "httpRequest"
                case .startTime: "start_time"
                case .path: "path"
                case .responseCode: "response_code"
                }
            }

            /// `JSONAccessRecord.timeKeys`, in the order they are read.
            static let timeKeys: [Key] = JSONAccessRecord.timeKeys.map { name in allCases.first { "\($0.name)" == name }! }

            /// `RawRecord.webServerKeys`: any of them tells a web server's record.
            /// Each is a case here (the tests check it).
            static let webServerKeys: [Key] = allCases.filter { RawRecord.webServerKeys.contains("\($0.name)") }

            /// The keys of each length, to match a member's key against.
            static let byLength: [[Key]] = {
                var table = Array(repeating: [Key](), count: 17)
                for key in allCases { table[key.name.utf8CodeUnitCount].append(key) }
                return table
            }()

            /// The key `bytes` spell, if this decoder reads it.
            @inline(__always)
            static func named(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Key? {
                guard count < byLength.count else { return nil }
                for key in byLength[count] where memcmp(bytes, key.name.utf8Start, count) == 0 { return key }
                return nil
            }
        }

        /// `escaped`: a string with an escape, whose text is not its bytes.
        enum Kind: UInt8 {
            case absent, string, escaped, number, literal, object, array
        }

        /// A string's range is inside its quotes; a number's is its literal; an object's or an
        /// array's spans its brackets.
        var range: Range<Int>
        var kind: Kind

        static let absent = Member(range: 0 ..< 0, kind: .absent)
        /// A value present without a text (`null`, say).
        static let noText = Member(range: 0 ..< 0, kind: .literal)

        var isPresent: Bool { kind != .absent }

        /// The first of three members present, as `JSONAccessRecord`'s `??` chains pick one.
        @inline(__always)
        static func firstPresent(_ first: Member, _ second: Member, _ third: Member) -> Member {
            first.isPresent ? first : second.isPresent ? second : third
        }

        /// `AnyJSON.text`: a string unless it is empty or `-`, a number's literal; `nil` otherwise.
        @inline(__always)
        func text(in line: UnsafePointer<UInt8>) -> Range<Int>? {
            switch kind {
            case .number: return range
            case .string: return range.isEmpty || (range.count == 1 && line[range.lowerBound] == UInt8(ascii: "-")) ? nil : range
            case .absent, .escaped, .literal, .object, .array: return nil
            }
        }
    }

    /// A logged header: nginx's `http_x_goog_fieldmask`, Traefik's `request_X-Goog-Fieldmask`,
    /// a key of Caddy's `request.headers`. Its name, as `JSONAccessRecord` makes it, is the key
    /// after the prefix in lowercase, with nginx's `_` as `-`.
    struct Header {
        var key: Range<Int>
        var prefixCount: Int
        var value: Member
        /// A name of the slow path's own (Cloud Logging's `userAgent` is `user-agent`), in place
        /// of one made from the key.
        var fixedName: StaticString?

        init(key: Range<Int>, prefixCount: Int, value: Member) {
            self.key = key
            self.prefixCount = prefixCount
            self.value = value
        }

        init(named name: StaticString, value: Member) {
            self.init(key: 0 ..< 0, prefixCount: 0, value: value)
            fixedName = name
        }

        /// The header a top-level member is, as `JSONAccessRecord` tells one: `http_` then a
        /// name, or `request_` then a name with a capital or a hyphen (Traefik's, not nginx's
        /// `request_time`); `nil` for any other member.
        init?(key: Range<Int>, value: Member, in line: UnsafePointer<UInt8>) {
            if key.count >= 5, memcmp(line + key.lowerBound, ("http_" as StaticString).utf8Start, 5) == 0 {
                self.init(key: key, prefixCount: 5, value: value)
                return
            }
            guard key.count > 8, memcmp(line + key.lowerBound, ("request_" as StaticString).utf8Start, 8) == 0 else { return nil }
            for index in key.lowerBound + 8 ..< key.upperBound {
                let byte = line[index]
                if byte == UInt8(ascii: "-") || byte &- UInt8(ascii: "A") < 26 {
                    self.init(key: key, prefixCount: 8, value: value)
                    return
                }
            }
            return nil
        }

        @inline(__always)
        var nameCount: Int { fixedName?.utf8CodeUnitCount ?? key.count - prefixCount }

        /// Byte `index` of the name.
        @inline(__always)
        func nameByte(_ index: Int, in line: UnsafePointer<UInt8>) -> UInt8 {
            if let fixedName { return fixedName.utf8Start[index] }
            let byte = line[key.lowerBound + prefixCount + index]
            if byte &- UInt8(ascii: "A") < 26 { return byte | 0x20 }
            // Only nginx's names (`http_`) turn `_` into `-`.
            return byte == UInt8(ascii: "_") && prefixCount == 5 ? UInt8(ascii: "-") : byte
        }

        func nameEquals(_ name: [UInt8], in line: UnsafePointer<UInt8>) -> Bool {
            guard nameCount == name.count else { return false }
            for index in 0 ..< name.count where nameByte(index, in: line) != name[index] { return false }
            return true
        }

        /// The names' order, as `String`'s `<` orders ASCII names: byte by byte.
        func nameOrder(_ other: Header, in line: UnsafePointer<UInt8>) -> Int {
            for index in 0 ..< min(nameCount, other.nameCount) {
                let (mine, theirs) = (nameByte(index, in: line), other.nameByte(index, in: line))
                if mine != theirs { return mine < theirs ? -1 : 1 }
            }
            return nameCount - other.nameCount
        }
    }
}
