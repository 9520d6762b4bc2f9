/// Parses one JSON Lines record into a `RawRecord`, working on the line's bytes.
///
/// The input is one flat JSON object per line. Parsing bytes directly (no `JSONDecoder`, no
/// `String` for the line) matters because this runs once per record of logs with millions of
/// records; `JSONSerialization` is the slow, obviously-correct twin the tests compare it with.
/// Values of unknown keys are validated and skipped. The parser is strict JSON (RFC 8259): any
/// syntax error, invalid UTF-8 or raw control character makes the record malformed.
package enum JSONLineParser {
    /// Why a line is not a valid record, as a sentence fragment for `FILE:LINE: warning:`.
    package struct Failure: Error, Equatable {
        package var reason: String

        package init(reason: String) {
            self.reason = reason
        }
    }

    /// Nested arrays or objects deeper than this are rejected rather than risk the stack.
    package static let maxDepth = 64

    package static func parse(_ line: UnsafeBufferPointer<UInt8>) -> Result<RawRecord, Failure> {
        var scanner = Scanner(bytes: line)
        do {
            return .success(try scanner.parseRecord())
        } catch let failure as Failure {
            return .failure(failure)
        } catch {
            return .failure(Failure(reason: "\(error)"))
        }
    }

    package static func parse(_ line: String) -> Result<RawRecord, Failure> {
        var line = line
        return line.withUTF8 { parse($0) }
    }

    struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0
        /// Whether a lone `\\uDC80`...`\\uDCFF` is a byte that was not UTF-8, as Python's
        /// `surrogateescape` writes one (mitmproxy's HAR of a binary body): decoded as U+FFFD,
        /// one per byte. Off for logs, whose records a lone surrogate makes malformed.
        var surrogateEscapes = false

        init(bytes: UnsafeBufferPointer<UInt8>, surrogateEscapes: Bool = false) {
            self.bytes = bytes
            self.surrogateEscapes = surrogateEscapes
        }

        func fail(_ message: String) -> Failure {
            Failure(reason: "invalid JSON: \(message) at column \(position + 1)")
        }

        mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        mutating func parseRecord() throws -> RawRecord {
            skipWhitespace()
            guard position < bytes.count else { throw fail("empty line") }
            guard bytes[position] == UInt8(ascii: "{") else {
                // A file of one JSON array starts so: say what would turn it into records.
                if bytes[position] == UInt8(ascii: "[") {
                    throw Failure(reason: "a JSON array, not an object: a log holds one object per line (jq -c '.[]' turns an array into such lines)")
                }
                throw Failure(reason: "not a JSON object (a record must be one object per line)")
            }
            // Pretty-printed records open with a line of `{` alone.
            if bytes[(position + 1)...].allSatisfy({ [0x20, 0x09, 0x0D].contains($0) }) {
                throw Failure(reason: "a line of `{` alone: the records span several lines, as pretty-printed JSON does, and a log holds one object per line (jq -c . writes them so)")
            }
            var record: RawRecord? = RawRecord()
            try parseObject(depth: 0, keeping: &record)
            skipWhitespace()
            guard position == bytes.count else { throw fail("unexpected text after the object") }
            return record!
        }

        /// Parses any JSON value; when `keep` is false the value is only validated.
        mutating func parseValue(depth: Int, keep: Bool) throws -> RawRecord.Value {
            guard depth <= JSONLineParser.maxDepth else { throw fail("nesting deeper than \(JSONLineParser.maxDepth)") }
            guard position < bytes.count else { throw fail("expected a value") }
            switch bytes[position] {
            case UInt8(ascii: "\""):
                guard keep else {
                    try skipString()
                    return .null
                }
                return .string(String(decoding: try parseStringBytes(), as: UTF8.self))
            case UInt8(ascii: "{"):
                var ignored: RawRecord? = nil
                try parseObject(depth: depth, keeping: &ignored)
                return .object
            case UInt8(ascii: "["):
                return try parseArray(depth: depth, keep: keep)
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = position
                try skipNumber()
                return keep ? .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)) : .null
            default:
                throw fail("expected a value")
            }
        }

        mutating func expectLiteral(_ literal: StaticString) throws {
            let count = literal.utf8CodeUnitCount
            guard position + count <= bytes.count else { throw fail("invalid literal") }
            let matches = literal.withUTF8Buffer { expected in
                (0..<count).allSatisfy { bytes[position + $0] == expected[$0] }
            }
            guard matches else { throw fail("invalid literal") }
            position += count
        }

        mutating func parseArray(depth: Int, keep: Bool) throws -> RawRecord.Value {
            var elements: [RawRecord.Value] = []
            try parseElements { scanner in
                let element = try scanner.parseValue(depth: depth + 1, keep: keep)
                if keep { elements.append(element) }
            }
            return .array(elements)
        }

        /// Parses an array starting at its `[`, `element` reading each element from its start.
        mutating func parseElements(_ element: (inout Scanner) throws -> Void) throws {
            position += 1  // [
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                return
            }
            while true {
                skipWhitespace()
                try element(&self)
                skipWhitespace()
                guard position < bytes.count else { throw fail("the array is cut off") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                guard bytes[position] == UInt8(ascii: "]") else { throw fail("expected ',' or ']'") }
                position += 1
                return
            }
        }

        /// Parses an object starting at its `{`. With a `record`, the values of known keys are kept
        /// in it; with `nil`, the object is only validated (an unknown key's value).
        mutating func parseObject(depth: Int, keeping record: inout RawRecord?) throws {
            position += 1  // {
            var first = true
            while let keyBytes = try nextMember(first: &first) {
                let name = record == nil ? nil : String(decoding: keyBytes, as: UTF8.self)
                let key = name.flatMap(RawRecord.Key.init(name:))
                if depth == 0, key == nil, let name, RawRecord.webServerKeys.contains(name) { record!.hasWebServerKey = true }
                let value = try parseValue(depth: depth + 1, keep: key != nil)
                if let key { record![key] = value }
            }
        }

        /// Starts an object member: consumes `,` (after the first), the key and its `:`.
        ///
        /// - Returns: the key's decoded bytes, or `nil` after the closing `}`.
        mutating func nextMember(first: inout Bool) throws -> [UInt8]? {
            skipWhitespace()
            guard position < bytes.count else { throw fail("the object is cut off") }
            if first {
                first = false
                if bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    return nil
                }
            } else if bytes[position] == UInt8(ascii: "}") {
                position += 1
                return nil
            } else if bytes[position] == UInt8(ascii: ",") {
                position += 1
                skipWhitespace()
            } else {
                throw fail("expected ',' or '}'")
            }
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw fail(position < bytes.count ? "expected a key" : "the object is cut off")
            }
            let key = try parseStringBytes()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw fail("expected ':' after a key") }
            position += 1
            skipWhitespace()
            return key
        }

        mutating func skipNumber() throws {
            if bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else { throw fail("invalid number") }
            if bytes[position] == UInt8(ascii: "0") {
                position += 1
            } else {
                while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                guard position < bytes.count, isDigit(bytes[position]) else { throw fail("invalid number") }
                while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            }
            if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                    position += 1
                }
                guard position < bytes.count, isDigit(bytes[position]) else { throw fail("invalid number") }
                while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            }
        }

        func isDigit(_ byte: UInt8) -> Bool {
            byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }

        /// Validates and skips a string starting at its opening quote, keeping none of it.
        mutating func skipString() throws {
            position += 1
            var scratch: [UInt8] = []
            while true {
                guard position < bytes.count else { throw fail("a string is cut off") }
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: "\""):
                    position += 1
                    return
                case UInt8(ascii: "\\"):
                    scratch.removeAll(keepingCapacity: true)
                    try parseEscape(into: &scratch)
                case 0x00..<0x20:
                    throw fail(byte == 0 ? "a NUL byte in a string" : "a raw control character in a string")
                case 0x20..<0x80:
                    position += 1
                default:
                    try skipUTF8Sequence()
                }
            }
        }

        /// Parses a string starting at its opening quote into its decoded UTF-8 bytes.
        mutating func parseStringBytes() throws -> [UInt8] {
            position += 1  // opening quote
            var decoded: [UInt8] = []
            var runStart = position
            while true {
                guard position < bytes.count else { throw fail("a string is cut off") }
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: "\""):
                    decoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                    position += 1
                    return decoded
                case UInt8(ascii: "\\"):
                    decoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                    try parseEscape(into: &decoded)
                    runStart = position
                case 0x00..<0x20:
                    throw fail(byte == 0 ? "a NUL byte in a string" : "a raw control character in a string")
                case 0x20..<0x80:
                    position += 1
                default:
                    try skipUTF8Sequence()
                }
            }
        }

        /// Validates one multi-byte UTF-8 sequence by the one rule of `UTF8Validation`.
        mutating func skipUTF8Sequence() throws {
            guard let length = UTF8Validation.sequenceLength(bytes.baseAddress!, at: position, end: bytes.count), length > 1 else {
                throw fail("invalid UTF-8")
            }
            position += length
        }

        mutating func parseEscape(into decoded: inout [UInt8]) throws {
            position += 1  // backslash
            guard position < bytes.count else { throw fail("a string is cut off") }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "\""): decoded.append(0x22)
            case UInt8(ascii: "\\"): decoded.append(0x5C)
            case UInt8(ascii: "/"): decoded.append(0x2F)
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try parseHex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                        throw fail("a lone surrogate in a \\u escape")
                    }
                    position += 2
                    let low = try parseHex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw fail("a lone surrogate in a \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if surrogateEscapes, (0xDC80...0xDCFF).contains(scalar) {
                    scalar = 0xFFFD
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw fail("a lone surrogate in a \\u escape")
                }
                decoded.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(scalar)!)!)
            default:
                throw fail("an invalid escape in a string")
            }
        }

        mutating func parseHex4() throws -> UInt32 {
            guard position + 4 <= bytes.count else { throw fail("a \\u escape is cut off") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[position]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw fail("an invalid \\u escape")
                }
                value = value << 4 | digit
                position += 1
            }
            return value
        }
    }
}
