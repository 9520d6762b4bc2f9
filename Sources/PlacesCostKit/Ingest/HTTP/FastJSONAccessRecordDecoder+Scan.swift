#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FastJSONAccessRecordDecoder {
    /// One walk of a record's object: where each member the decoder reads is, and its headers.
    ///
    /// It accepts only what `JSONLineParser.parseTree` accepts (the same whitespace, numbers and
    /// literals, strings without control characters) and less: no escapes, no nested value, no
    /// member it reads given twice. Whatever it declines, the slow path decides.
    struct Scan {
        let line: UnsafePointer<UInt8>
        let count: Int
        private let members: UnsafeMutablePointer<Member>
        private let headers: UnsafeMutablePointer<Header>
        /// Headers logged, with a value or not, sorted by name once the walk is done.
        private var headerCount = 0
        /// The user header's value (`--user-header`), when logged with one.
        private(set) var userFromHeader: Range<Int>?

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
            var position = skipWhitespace(0)
            guard position < count, line[position] == UInt8(ascii: "{") else { return false }
            position = skipWhitespace(position + 1)
            guard position < count, line[position] != UInt8(ascii: "}") else { return false }
            var userHeaderKeys = 0
            while true {
                guard position < count, line[position] == UInt8(ascii: "\""), let keyEnd = stringEnd(from: position + 1) else { return false }
                let key = position + 1 ..< keyEnd
                position = skipWhitespace(keyEnd + 1)
                guard position < count, line[position] == UInt8(ascii: ":") else { return false }
                position = skipWhitespace(position + 1)
                guard let (value, end) = self.value(at: position) else { return false }
                position = skipWhitespace(end)

                if let known = Member.Key.named(line + key.lowerBound, key.count) {
                    guard !members[known.rawValue].isPresent else { return false }
                    members[known.rawValue] = value
                }
                if let header = header(key, value: value) {
                    if header.nameEquals(userHeader, in: line) {
                        userHeaderKeys += 1
                        userFromHeader = value.text(in: line)
                    } else {
                        guard headerCount < FastJSONAccessRecordDecoder.maxHeaders else { return false }
                        headers[headerCount] = header
                        headerCount += 1
                        // The slow path reads a field mask from the headers: it decides.
                        if value.text(in: line) != nil, header.nameEquals(Self.fieldMaskHeader, in: line) { return false }
                    }
                }

                guard position < count else { return false }
                if line[position] == UInt8(ascii: ",") {
                    position = skipWhitespace(position + 1)
                } else if line[position] == UInt8(ascii: "}") {
                    break
                } else {
                    return false
                }
            }
            guard skipWhitespace(position + 1) == count, userHeaderKeys <= 1 else { return false }
            return sortHeaders()
        }

        static let fieldMaskHeader = Array("x-goog-fieldmask".utf8)

        /// A header member, as `JSONAccessRecord` names one: `http_` then a name, or `request_`
        /// then a name with a capital or a hyphen (Traefik's, not nginx's `request_time`).
        private func header(_ key: Range<Int>, value: Member) -> Header? {
            if key.count >= 5, memcmp(line + key.lowerBound, ("http_" as StaticString).utf8Start, 5) == 0 {
                return Header(key: key, prefixCount: 5, value: value)
            }
            guard key.count > 8, memcmp(line + key.lowerBound, ("request_" as StaticString).utf8Start, 8) == 0 else { return nil }
            for index in key.lowerBound + 8 ..< key.upperBound {
                let byte = line[index]
                if byte == UInt8(ascii: "-") || byte &- UInt8(ascii: "A") < 26 { return Header(key: key, prefixCount: 8, value: value) }
            }
            return nil
        }

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

        // MARK: - Values

        /// The value at `position` and the position after it; `nil` for a value the slow path must
        /// read (nested, escaped) or reject.
        private func value(at position: Int) -> (Member, end: Int)? {
            guard position < count else { return nil }
            switch line[position] {
            case UInt8(ascii: "\""):
                guard let end = stringEnd(from: position + 1) else { return nil }
                return (Member(range: position + 1 ..< end, kind: .string), end + 1)
            case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"):
                guard let end = numberEnd(from: position) else { return nil }
                return (Member(range: position ..< end, kind: .number), end)
            case UInt8(ascii: "t"): return literal("true", at: position)
            case UInt8(ascii: "f"): return literal("false", at: position)
            case UInt8(ascii: "n"): return literal("null", at: position)
            default: return nil
            }
        }

        private func literal(_ text: StaticString, at position: Int) -> (Member, end: Int)? {
            let length = text.utf8CodeUnitCount
            guard count - position >= length, memcmp(line + position, text.utf8Start, length) == 0 else { return nil }
            return (Member(range: position ..< position + length, kind: .literal), position + length)
        }

        /// The closing quote of a string whose text starts at `start`; `nil` for an escape, a
        /// control character or no closing quote.
        @inline(__always)
        private func stringEnd(from start: Int) -> Int? {
            var index = start
            while index < count {
                let byte = line[index]
                if byte == UInt8(ascii: "\"") { return index }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                index += 1
            }
            return nil
        }

        /// The end of a JSON number starting at `start` (the slow scanner's `skipNumber`); `nil`
        /// when it is not one.
        private func numberEnd(from start: Int) -> Int? {
            var index = start
            func digits() -> Bool {
                let first = index
                while index < count, line[index] &- UInt8(ascii: "0") < 10 { index += 1 }
                return index > first
            }
            if line[index] == UInt8(ascii: "-") { index += 1 }
            guard index < count, line[index] &- UInt8(ascii: "0") < 10 else { return nil }
            if line[index] == UInt8(ascii: "0") { index += 1 } else { _ = digits() }
            if index < count, line[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() else { return nil }
            }
            if index < count, line[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < count, line[index] == UInt8(ascii: "+") || line[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() else { return nil }
            }
            return index
        }

        @inline(__always)
        private func skipWhitespace(_ position: Int) -> Int {
            var index = position
            while index < count {
                switch line[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return index
                }
            }
            return index
        }
    }
}
