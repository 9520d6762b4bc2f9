import Foundation

/// Reads one JSON document (RFC 8259) into a `JSONTree`, strictly: no trailing text, no control
/// character inside a string, no key twice in one object (a report with a repeated key would
/// mean different things to different readers), numbers only in JSON's own spelling.
struct JSONTreeParser {
    /// Why a text is not one JSON document; `offset` counts UTF-8 bytes from 0.
    enum Failure: Error, Equatable, CustomStringConvertible {
        case unexpected(offset: Int, expected: String)
        case duplicateKey(offset: Int, key: String)
        case trailingText(offset: Int)

        var description: String {
            switch self {
            case .unexpected(let offset, let expected):
                "The text is not JSON: at byte \(offset) the parser expected \(expected)."
            case .duplicateKey(let offset, let key):
                "An object holds the key `\(key)` twice (the second member ends at byte \(offset))."
            case .trailingText(let offset):
                "The JSON document ends before byte \(offset), but more text follows it."
            }
        }
    }

    private let bytes: [UInt8]
    private var position = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// The whole text as one value.
    mutating func document() throws -> JSONTree {
        let value = try self.value()
        skipWhitespace()
        guard position == bytes.count else { throw Failure.trailingText(offset: position) }
        return value
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws {
        guard current == byte else { throw Failure.unexpected(offset: position, expected: what) }
        position += 1
    }

    private mutating func value() throws -> JSONTree {
        skipWhitespace()
        switch current {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return .number(try number())
        }
    }

    private mutating func literal(_ word: String) throws {
        for byte in word.utf8 { try expect(byte, "`\(word)`") }
    }

    private mutating func object() throws -> JSONTree {
        try expect(UInt8(ascii: "{"), "`{`")
        var members: [(key: String, value: JSONTree)] = []
        var keys = Set<String>()
        skipWhitespace()
        if current == UInt8(ascii: "}") { position += 1; return .object([]) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw Failure.unexpected(offset: position, expected: "a key in quotes") }
            let key = try string()
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "`:` after a key")
            let member = try value()
            guard keys.insert(key).inserted else { throw Failure.duplicateKey(offset: position, key: key) }
            members.append((key, member))
            skipWhitespace()
            if current == UInt8(ascii: ",") { position += 1; continue }
            try expect(UInt8(ascii: "}"), "`,` or `}` in an object")
            return .object(members)
        }
    }

    private mutating func array() throws -> JSONTree {
        try expect(UInt8(ascii: "["), "`[`")
        var elements: [JSONTree] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { position += 1; return .array([]) }
        while true {
            elements.append(try value())
            skipWhitespace()
            if current == UInt8(ascii: ",") { position += 1; continue }
            try expect(UInt8(ascii: "]"), "`,` or `]` in an array")
            return .array(elements)
        }
    }

    private mutating func string() throws -> String {
        try expect(UInt8(ascii: "\""), "`\"`")
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
            run.removeAll(keepingCapacity: true)
        }
        while true {
            guard let byte = current else { throw Failure.unexpected(offset: position, expected: "the end of the string") }
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush()
                guard let escape = current else { throw Failure.unexpected(offset: position, expected: "an escape") }
                position += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"): scalars.append(try escapedScalar())
                default: throw Failure.unexpected(offset: position - 1, expected: "one of `\"\\/bfnrtu` after `\\`")
                }
            case 0..<0x20:
                throw Failure.unexpected(offset: position - 1, expected: "no control character inside a string")
            default:
                run.append(byte)
            }
        }
    }

    /// The scalar of `\uXXXX` (the `\u` read), joining a surrogate pair.
    private mutating func escapedScalar() throws -> Unicode.Scalar {
        let first = try hexQuad()
        if (0xD800..<0xDC00).contains(first) {
            try expect(UInt8(ascii: "\\"), "the low half of a surrogate pair")
            try expect(UInt8(ascii: "u"), "the low half of a surrogate pair")
            let second = try hexQuad()
            guard (0xDC00..<0xE000).contains(second) else { throw Failure.unexpected(offset: position - 4, expected: "the low half of a surrogate pair") }
            return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
        }
        guard let scalar = Unicode.Scalar(first) else { throw Failure.unexpected(offset: position - 4, expected: "a scalar, not a lone low surrogate") }
        return scalar
    }

    private mutating func hexQuad() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = UInt32(String(UnicodeScalar(byte)), radix: 16) else {
                throw Failure.unexpected(offset: position, expected: "four hexadecimal digits after `\\u`")
            }
            value = value * 16 + digit
            position += 1
        }
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, read by `Double`.
    private mutating func number() throws -> Double {
        let start = position
        func digits() -> Int {
            let from = position
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
            return position - from
        }
        if current == UInt8(ascii: "-") { position += 1 }
        if current == UInt8(ascii: "0") {
            position += 1
        } else if digits() == 0 {
            throw Failure.unexpected(offset: position, expected: "a value")
        }
        if current == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw Failure.unexpected(offset: position, expected: "a digit after `.`") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { throw Failure.unexpected(offset: position, expected: "a digit in the exponent") }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw Failure.unexpected(offset: start, expected: "a number a Double holds") }
        return value
    }
}
