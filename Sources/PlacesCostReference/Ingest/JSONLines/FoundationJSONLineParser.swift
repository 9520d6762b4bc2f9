import Foundation
import PlacesCostKit

/// Parses one JSON Lines record with Foundation's `JSONSerialization`: the slow,
/// obviously-correct twin of `JSONLineParser`.
///
/// It exists as the reference the fast byte parser is tested against (`JSONLineParserTests` feeds
/// both thousands of generated and mutated lines and checks that they accept and reject the same
/// lines and read the same values); the ingest path never calls it. Known keys are mapped to
/// `RawRecord.Value` as the fast parser maps them, except that a `.number` holds Foundation's
/// spelling of the value (`1e5` reads back as `100000.0`), so compare numbers by value.
///
/// Where `JSONSerialization` departs from RFC 8259, or from a limit the fast parser documents, the
/// difference is normalised here, never by loosening the fast parser:
/// - Trailing commas: Foundation accepts `[1,]` and `{"a":1,}`; RFC 8259 does not. After Foundation
///   accepts a line, a scan for a `,` whose next non-blank byte is `]` or `}` rejects it.
/// - Byte-order mark: Foundation skips a leading U+FEFF. `LineReader` drops the one at the start of
///   a file, so one at the start of a line is stray text: rejected.
/// - U+FEFF in strings: Foundation drops a raw U+FEFF that starts a string or follows an escape
///   (`"\u00e9<U+FEFF>x"` reads as `"éx"`), though it is an ordinary character there. Each raw
///   U+FEFF is handed to Foundation as the escape `\uFEFF`, which it keeps (outside a string both
///   spellings are equally invalid).
/// - Encoding: Foundation reads UTF-16 or UTF-32 when it sees NUL bytes (`{\0"\0a\0...` is accepted
///   as UTF-16LE); RFC 8259 §8.1 requires UTF-8. The line is validated as UTF-8 by the standard
///   library, and a NUL byte, which valid JSON text never holds raw, rejects it.
/// - Nesting: Foundation allows 512 levels, the fast parser `JSONLineParser.maxDepth` (RFC 8259 §9
///   lets a parser limit depth). The same limit is checked here on the parsed tree.
/// - Long numbers: a number with more digits than an `Int64` or `Double` holds becomes an
///   `NSDecimalNumber`, whose `doubleValue` is not correctly rounded (`0.30000000000000004441`
///   gives 0.3000000000000001, not 0.30000000000000004). Its decimal text is kept instead.
/// - Numbers beyond `Double` (`1e400`): Foundation rejects the whole line, while the fast parser
///   keeps the literal (RFC 8259 §9 allows both; `CallDecoder` then rejects it as a timestamp).
///   Foundation gives nothing back to normalise, so the twin fails with
///   `numberOutOfRangeReason` and a comparison must treat that one answer apart.
/// - A key spelled two ways in one line (`session_token` and `sessionToken`): the fast parser keeps
///   the later one, but a Foundation dictionary has no order. The twin keeps the snake_case one, so
///   it is a reference for such lines only when that spelling comes last.
enum FoundationJSONLineParser {
    /// The failure reason for a number Foundation cannot hold (see the type's documentation).
    static let numberOutOfRangeReason = "invalid JSON: a number beyond the range of Double (Foundation cannot read it)"

    static func parse(_ line: String) -> Result<RawRecord, JSONLineParser.Failure> {
        parse(Data(line.utf8))
    }

    static func parse(_ line: UnsafeBufferPointer<UInt8>) -> Result<RawRecord, JSONLineParser.Failure> {
        parse(Data(line))
    }

    static func parse(_ data: Data) -> Result<RawRecord, JSONLineParser.Failure> {
        func failure(_ reason: String) -> Result<RawRecord, JSONLineParser.Failure> {
            .failure(JSONLineParser.Failure(reason: reason))
        }
        guard String(validating: data, as: UTF8.self) != nil else { return failure("invalid JSON: invalid UTF-8") }
        guard !data.contains(0) else { return failure("invalid JSON: a NUL byte") }
        guard !data.starts(with: byteOrderMark) else { return failure("invalid JSON: a byte-order mark inside a line") }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: escapingByteOrderMarks(data), options: [])
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            if detail.contains("is not representable") { return failure(numberOutOfRangeReason) }
            return failure("invalid JSON: \(detail)")
        }
        guard let members = object as? [String: Any] else {
            return failure("not a JSON object (a record must be one object per line)")
        }
        guard !hasTrailingComma(data) else { return failure("invalid JSON: a trailing comma") }
        guard deepestLevel(members, level: 0) <= JSONLineParser.maxDepth else {
            return failure("invalid JSON: nesting deeper than \(JSONLineParser.maxDepth)")
        }
        var record = RawRecord()
        for (name, value) in members {
            guard let key = RawRecord.Key(name: name) else { continue }
            if record[key] != nil, name != key.name { continue }  // the snake_case spelling wins
            record[key] = rawValue(value)
        }
        return .success(record)
    }

    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// `data` with each U+FEFF written as `\uFEFF`. In valid UTF-8, `EF BB BF` is always that
    /// character: `EF` is never a continuation byte. One after an odd run of backslashes would be
    /// the letter of an (invalid) escape, and stays as it is so that the line stays invalid.
    static func escapingByteOrderMarks(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        var escaped: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index...].starts(with: byteOrderMark), escaped.reversed().prefix(while: { $0 == UInt8(ascii: "\\") }).count % 2 == 0 {
                escaped += Array(#"\uFEFF"#.utf8)
                index += byteOrderMark.count
            } else {
                escaped.append(bytes[index])
                index += 1
            }
        }
        return Data(escaped)
    }

    static func rawValue(_ value: Any) -> RawRecord.Value {
        switch value {
        case is NSNull:
            return .null
        case let text as String:
            return .string(text)
        case let decimal as NSDecimalNumber:
            return .number(decimal.description)
        case let number as NSNumber:
            // JSONSerialization makes booleans the CFBoolean singletons, whose type code is `c`
            // (char); it never makes a char-sized number, so `c` means true or false.
            if String(cString: number.objCType) == "c" { return .bool(number.boolValue) }
            return .number(number.stringValue)
        case let elements as [Any]:
            return .array(elements.map(rawValue))
        default:
            return .object
        }
    }

    /// The deepest level under `value`, counted as `JSONLineParser` counts: the record's own
    /// values are at level 1, the elements or members of a container at level `n` at `n + 1`.
    static func deepestLevel(_ value: Any, level: Int) -> Int {
        switch value {
        case let elements as [Any]:
            elements.reduce(level) { max($0, deepestLevel($1, level: level + 1)) }
        case let members as [String: Any]:
            members.values.reduce(level) { max($0, deepestLevel($1, level: level + 1)) }
        default:
            level
        }
    }

    /// Whether a `,` outside any string is followed, past blanks, by `]` or `}`.
    ///
    /// Only called on text Foundation accepted, so every string is closed and `\` always starts an
    /// escape of at least one more byte.
    static func hasTrailingComma(_ data: Data) -> Bool {
        var inString = false
        var escaped = false
        var afterComma = false
        for byte in data {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D:
                continue
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if afterComma { return true }
            case UInt8(ascii: "\""):
                inString = true
            default:
                break
            }
            afterComma = byte == UInt8(ascii: ",")
        }
        return false
    }
}
