extension FastJSONAccessRecordDecoder {
    /// One walk of a record's object: where each member the decoder reads is, the members of
    /// Caddy's nested `request` and of Cloud Logging's `httpRequest`, and the headers.
    ///
    /// It accepts only what `JSONLineParser.parseTree` accepts (`Values`) and less: no escape in
    /// a key or in a value it reads, no member it reads given twice, no header with two values.
    /// Whatever it declines, the slow path decides.
    struct Scan {
        let line: UnsafePointer<UInt8>
        let count: Int
        private let members: UnsafeMutablePointer<Member>
        private let headers: UnsafeMutablePointer<Header>
        /// Headers logged, with a value or not, sorted by name once the walk is done.
        private var headerCount = 0
        /// The user header's value (`--user-header`), when logged with one.
        private(set) var userFromHeader: Range<Int>?
        /// `request.method` and `request.uri` of a nested `request` (Caddy's).
        private(set) var nestedMethod = Member.absent
        private(set) var nestedURI = Member.absent
        /// Cloud Logging's `httpRequest`.
        private(set) var logged = LoggedRequest()

        /// The members of Cloud Logging's `httpRequest` the slow path reads as the request.
        struct LoggedRequest {
            var method = Member.absent
            var url = Member.absent
            var status = Member.absent
        }

        init(line: UnsafePointer<UInt8>, count: Int, members: UnsafeMutablePointer<Member>, headers: UnsafeMutablePointer<Header>) {
            self.line = line
            self.count = count
            self.members = members
            self.headers = headers
        }

        subscript(key: Member.Key) -> Member {
            members[key.rawValue]
        }

        /// The first of `keys` present, as `JSONAccessRecord`'s `??` chains pick a member.
        func first(_ keys: Member.Key...) -> Member {
            for key in keys where self[key].isPresent { return self[key] }
            return .absent
        }

        /// `JSONAccessRecord.isWebServerRecord`: a web server's key, and no `timestamp` or no `api`.
        var isWebServerRecord: Bool {
            guard !self[.timestamp].isPresent || !self[.api].isPresent else { return false }
            return Member.Key.webServerKeys.contains { self[$0].isPresent }
        }

        // MARK: - The walk

        /// Walks the line's object; `false` when the slow path must decide.
        mutating func object(userHeader: [UInt8]) -> Bool {
            let (line, count) = (self.line, self.count)
            let values = Values(line: line, count: count)
            let start = values.skipWhitespace(0)
            guard start < count, line[start] == UInt8(ascii: "{") else { return false }
            var found = Found(members: members, headers: headers)
            let end = values.forEachMember(ofObjectAt: start, depth: 0) { key, value in
                if let known = Member.Key.named(line + key.lowerBound, key.count) {
                    guard !found.members[known.rawValue].isPresent, value.kind != .escaped else { return false }
                    found.members[known.rawValue] = value
                }
                guard let header = Header(key: key, value: value, in: line) else { return true }
                return found.add(header, line: line, userHeader: userHeader)
            }
            guard let end, values.skipWhitespace(end) == count else { return false }
            // Caddy's request: its method, target and headers.
            let request = found.members[Member.Key.request.rawValue]
            if request.kind == .object {
                let nested = values.forEachMember(ofObjectAt: request.range.lowerBound, depth: 1) { key, value in
                    switch UnsafeBufferPointer(start: line + key.lowerBound, count: key.count) {
                    case let name where name.elementsEqual("method".utf8):
                        guard !found.nestedMethod.isPresent, value.kind != .escaped else { return false }
                        found.nestedMethod = value
                    case let name where name.elementsEqual("uri".utf8):
                        guard !found.nestedURI.isPresent, value.kind != .escaped else { return false }
                        found.nestedURI = value
                    case let name where name.elementsEqual("headers".utf8):
                        guard !found.sawHeaders else { return false }
                        found.sawHeaders = true
                        guard value.kind == .object else { return true }
                        return values.forEachMember(ofObjectAt: value.range.lowerBound, depth: 2) { name, sent in
                            guard let single = values.singleText(sent, depth: 3) else { return false }
                            return found.add(Header(key: name, prefixCount: 0, value: single), line: line, userHeader: userHeader)
                        } != nil
                    default: break
                    }
                    return true
                }
                guard nested != nil else { return false }
            }
            // Cloud Logging's request: its method, URL, status, user agent and referrer.
            let logged = found.members[Member.Key.httpRequest.rawValue]
            if logged.kind == .object {
                let walked = values.forEachMember(ofObjectAt: logged.range.lowerBound, depth: 1) { key, value in
                    let name = UnsafeBufferPointer(start: line + key.lowerBound, count: key.count)
                    func note(_ member: inout Member) -> Bool {
                        guard !member.isPresent, value.kind != .escaped else { return false }
                        member = value
                        return true
                    }
                    if name.elementsEqual("requestMethod".utf8) { return note(&found.logged.method) }
                    if name.elementsEqual("requestUrl".utf8) { return note(&found.logged.url) }
                    if name.elementsEqual("status".utf8) { return note(&found.logged.status) }
                    if name.elementsEqual("userAgent".utf8) { return found.add(Header(named: "user-agent", value: value), line: line, userHeader: userHeader) }
                    if name.elementsEqual("referer".utf8) { return found.add(Header(named: "referer", value: value), line: line, userHeader: userHeader) }
                    return true
                }
                guard walked != nil else { return false }
            }
            guard found.userHeaderKeys <= 1 else { return false }
            headerCount = found.headerCount
            userFromHeader = found.userFromHeader
            nestedMethod = found.nestedMethod
            nestedURI = found.nestedURI
            self.logged = found.logged
            return sortHeaders()
        }

        /// What the walk has found so far.
        private struct Found {
            let members: UnsafeMutablePointer<Member>
            let headers: UnsafeMutablePointer<Header>
            var headerCount = 0
            var userHeaderKeys = 0
            var userFromHeader: Range<Int>?
            var nestedMethod = Member.absent
            var nestedURI = Member.absent
            var logged = LoggedRequest()
            var sawHeaders = false

            /// Notes a header; `false` when the slow path must decide (too many headers, a
            /// field mask, a value with an escape).
            mutating func add(_ header: Header, line: UnsafePointer<UInt8>, userHeader: [UInt8]) -> Bool {
                guard header.value.kind != .escaped else { return false }
                if header.nameEquals(userHeader, in: line) {
                    userHeaderKeys += 1
                    userFromHeader = header.value.text(in: line)
                    return true
                }
                guard headerCount < FastJSONAccessRecordDecoder.maxHeaders else { return false }
                headers[headerCount] = header
                headerCount += 1
                // The slow path reads a field mask from the headers: it decides.
                return header.value.text(in: line) == nil || !header.nameEquals(Scan.fieldMaskHeader, in: line)
            }
        }

        static let fieldMaskHeader = Array("x-goog-fieldmask".utf8)

        /// Sorts the headers by name, as the slow path does; `false` when two share a name (a key
        /// given twice keeps its last value there; two keys of one name keep an order of their own).
        private mutating func sortHeaders() -> Bool {
            guard headerCount > 1 else { return true }
            for index in 1 ..< headerCount {
                let header = headers[index]
                var slot = index
                while slot > 0 {
                    let order = headers[slot - 1].nameOrder(header, in: line)
                    if order == 0 { return false }
                    if order < 0 { break }
                    headers[slot] = headers[slot - 1]
                    slot -= 1
                }
                headers[slot] = header
            }
            return true
        }

        /// Adds each header with a value, name then value, in the order of the slow path's list.
        func combineHeaders(into fingerprint: inout Fingerprint) {
            for index in 0 ..< headerCount {
                let header = headers[index]
                guard let value = header.value.text(in: line) else { continue }
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: header.nameCount) { name in
                    for offset in 0 ..< header.nameCount { name[offset] = header.nameByte(offset, in: line) }
                    fingerprint.combine(UnsafeRawBufferPointer(name))
                }
                fingerprint.combine(UnsafeRawBufferPointer(start: line + value.lowerBound, count: value.count))
            }
        }
    }
}

extension FastJSONAccessRecordDecoder.Values {
    /// A Caddy header's value as the slow path joins it: an array's elements with a text, joined
    /// by `, `, or a scalar's text. The one element (or scalar) with a text, `.noText` when none
    /// has one, `nil` for two or more (their join is not a span of the line) or an escape.
    func singleText(_ value: FastJSONAccessRecordDecoder.Member, depth: Int) -> FastJSONAccessRecordDecoder.Member? {
        guard value.kind == .array else { return value }
        var single = FastJSONAccessRecordDecoder.Member.noText
        let end = forEachElement(ofArrayAt: value.range.lowerBound, depth: depth) { element in
            if element.kind == .escaped { return false }
            guard element.text(in: line) != nil else { return true }
            guard single.text(in: line) == nil else { return false }
            single = element
            return true
        }
        return end == nil ? nil : single
    }
}
