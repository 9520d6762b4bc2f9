/// Reads one HAR entry object (`log.entries[i]`) from its bytes into a `HARReader.Entry`.
///
/// Works on the bytes with `JSONLineParser.Scanner`'s strict RFC 8259 primitives rather than
/// `JSONSerialization`: it runs once per entry of captures with hundreds of thousands of entries,
/// and most of an entry (timings, cache, response headers and content) is only validated and
/// skipped, never built. `HARReader.entriesWithFoundation(data:)` is its slow twin.
package enum HAREntryParser {
    /// The reasons of `.malformed`, each read after "entry N of log.entries: " (so in lower case,
    /// ending with a period); they never quote a URL, header or body, which can hold API keys.
    /// Shared with the Foundation twin so both say the same thing.
    package enum Reason {
        package static let notAnObject = "the entry is not a JSON object."
        static let noStartedDateTime = "the entry has no startedDateTime string."
        static func badStartedDateTime(_ error: TimestampError) -> String {
            "the entry's startedDateTime is not an RFC 3339 time: \(error)."
        }
        static let noRequest = "the entry has no request object."
        static let noMethod = "the entry's request has no method string."
        static let noURL = "the entry's request has no url string."
        static func invalidJSON(_ failure: JSONLineParser.Failure) -> String {
            "the entry is not valid JSON (\(failure.reason) of the entry)."
        }
    }

    /// The fields kept from an entry, before the required ones are checked.
    package struct Fields {
        package var startedDateTime: String?
        package var sawRequest = false
        package var method: String?
        package var url: String?
        package var headers: [(name: String, value: String)] = []
        package var body: String?
        package var status: Int?

        package init() {}

        /// The entry these fields make, checking required fields in a fixed order.
        package func entry(index: Int) -> HARReader.Entry {
            guard let startedDateTime else { return .malformed(reason: Reason.noStartedDateTime, index: index) }
            let time: Timestamp
            switch TimestampParser.parse(startedDateTime) {
            case .success(let parsed): time = parsed
            case .failure(let error): return .malformed(reason: Reason.badStartedDateTime(error), index: index)
            }
            guard sawRequest else { return .malformed(reason: Reason.noRequest, index: index) }
            guard let method else { return .malformed(reason: Reason.noMethod, index: index) }
            guard let url else { return .malformed(reason: Reason.noURL, index: index) }
            return .request(
                HTTPRequest(time: time, method: method, target: url, headers: headers, body: body, status: status),
                index: index)
        }
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, index: Int) -> HARReader.Entry {
        // A capture's binary body may hold bytes that are no UTF-8, escaped as Python writes them.
        var scanner = JSONLineParser.Scanner(bytes: bytes, surrogateEscapes: true)
        do {
            scanner.skipWhitespace()
            guard scanner.position < bytes.count, bytes[scanner.position] == UInt8(ascii: "{") else {
                // Still validate, so that garbage is reported as invalid JSON rather than "not an object".
                try scanner.skipAny(depth: 0)
                return .malformed(reason: Reason.notAnObject, index: index)
            }
            var fields = Fields()
            try scanner.parseEntry(into: &fields)
            scanner.skipWhitespace()
            guard scanner.position == bytes.count else { throw scanner.fail("unexpected text after the entry") }
            return fields.entry(index: index)
        } catch let failure as JSONLineParser.Failure {
            return .malformed(reason: Reason.invalidJSON(failure), index: index)
        } catch {
            return .malformed(reason: Reason.invalidJSON(JSONLineParser.Failure(reason: "\(error)")), index: index)
        }
    }
}

extension JSONLineParser.Scanner {
    /// Starts an array element: consumes `,` (after the first). Returns false after the closing `]`.
    mutating func nextElement(first: inout Bool) throws -> Bool {
        skipWhitespace()
        guard position < bytes.count else { throw fail("the array is cut off") }
        if bytes[position] == UInt8(ascii: "]") {
            // `[]` or the end after an element; `[1,]` fails later, as a missing value.
            position += 1
            return false
        }
        if first {
            first = false
            return true
        }
        guard bytes[position] == UInt8(ascii: ",") else { throw fail("expected ',' or ']'") }
        position += 1
        skipWhitespace()
        return true
    }

    /// Validates and skips any value without building it (response bodies can be megabytes).
    mutating func skipAny(depth: Int) throws {
        guard depth <= JSONLineParser.maxDepth else { throw fail("nesting deeper than \(JSONLineParser.maxDepth)") }
        guard position < bytes.count else { throw fail("expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "{"):
            position += 1
            var first = true
            while try nextMember(first: &first) != nil {
                try skipAny(depth: depth + 1)
            }
        case UInt8(ascii: "["):
            position += 1
            var first = true
            while try nextElement(first: &first) {
                try skipAny(depth: depth + 1)
            }
        default:
            _ = try parseValue(depth: depth, keep: false)
        }
    }

    /// The string at the cursor, or `nil` (the value skipped) when the value is not a string.
    mutating func stringOrSkip(depth: Int) throws -> String? {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
            try skipAny(depth: depth)
            return nil
        }
        return String(decoding: try parseStringBytes(), as: UTF8.self)
    }

    /// Whether the value at the cursor is an object; when it is not, it is skipped.
    mutating func isObjectOrSkip(depth: Int) throws -> Bool {
        if position < bytes.count, bytes[position] == UInt8(ascii: "{") {
            position += 1
            return true
        }
        try skipAny(depth: depth)
        return false
    }

    /// Reads the entry object starting at its `{`.
    mutating func parseEntry(into fields: inout HAREntryParser.Fields) throws {
        position += 1
        var first = true
        while let key = try nextMember(first: &first) {
            if key.elementsEqual("startedDateTime".utf8) {
                fields.startedDateTime = try stringOrSkip(depth: 1)
            } else if key.elementsEqual("request".utf8) {
                fields.sawRequest = try isObjectOrSkip(depth: 1)
                if fields.sawRequest {
                    fields.method = nil
                    fields.url = nil
                    fields.headers = []
                    fields.body = nil
                    try parseRequest(into: &fields)
                }
            } else if key.elementsEqual("response".utf8) {
                fields.status = nil
                if try isObjectOrSkip(depth: 1) { try parseResponse(into: &fields) }
            } else {
                try skipAny(depth: 1)
            }
        }
    }

    /// Reads `request` after its `{`.
    mutating func parseRequest(into fields: inout HAREntryParser.Fields) throws {
        var first = true
        while let key = try nextMember(first: &first) {
            if key.elementsEqual("method".utf8) {
                fields.method = try stringOrSkip(depth: 2)
            } else if key.elementsEqual("url".utf8) {
                fields.url = try stringOrSkip(depth: 2)
            } else if key.elementsEqual("headers".utf8) {
                fields.headers = []
                guard position < bytes.count, bytes[position] == UInt8(ascii: "[") else {
                    try skipAny(depth: 2)
                    continue
                }
                position += 1
                var firstHeader = true
                while try nextElement(first: &firstHeader) {
                    if let header = try header() { fields.headers.append(header) }
                }
            } else if key.elementsEqual("postData".utf8) {
                fields.body = nil
                guard try isObjectOrSkip(depth: 2) else { continue }
                var firstMember = true
                while let member = try nextMember(first: &firstMember) {
                    if member.elementsEqual("text".utf8) {
                        fields.body = try stringOrSkip(depth: 3)
                    } else {
                        try skipAny(depth: 3)
                    }
                }
            } else {
                try skipAny(depth: 2)
            }
        }
    }

    /// One element of `request.headers`; `nil` unless it is an object with string `name` and `value`.
    mutating func header() throws -> (name: String, value: String)? {
        guard try isObjectOrSkip(depth: 3) else { return nil }
        var name: String?
        var value: String?
        var first = true
        while let key = try nextMember(first: &first) {
            if key.elementsEqual("name".utf8) {
                name = try stringOrSkip(depth: 4)
            } else if key.elementsEqual("value".utf8) {
                value = try stringOrSkip(depth: 4)
            } else {
                try skipAny(depth: 4)
            }
        }
        guard let name, let value else { return nil }
        return (name, value)
    }

    /// Reads `response` after its `{`: only `status`; the content is skipped unbuilt.
    mutating func parseResponse(into fields: inout HAREntryParser.Fields) throws {
        var first = true
        while let key = try nextMember(first: &first) {
            if key.elementsEqual("status".utf8) {
                fields.status = nil
                let start = position
                guard position < bytes.count, bytes[position] == UInt8(ascii: "-") || isDigit(bytes[position]) else {
                    try skipAny(depth: 2)
                    continue
                }
                try skipNumber()
                let literal = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                fields.status = HARReader.status(fromNumber: Double(literal))
            } else {
                try skipAny(depth: 2)
            }
        }
    }
}
