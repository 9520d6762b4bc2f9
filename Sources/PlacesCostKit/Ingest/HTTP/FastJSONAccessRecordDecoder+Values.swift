#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FastJSONAccessRecordDecoder {
    /// A line's JSON values as spans of its bytes, read by the rules of `JSONLineParser`'s strict
    /// scanner (the same whitespace, numbers, literals and escapes), or declined.
    ///
    /// A value is read whole or not at all: a string with an escape is declined where its text
    /// is read (a key, a member the decoder reads), and only checked where it is skipped; a
    /// value nested deeper than `maxDepth` is declined.
    struct Values {
        let line: UnsafePointer<UInt8>
        let count: Int

        /// Objects and arrays nested deeper than this are declined (the strict scanner takes 64).
        static let maxDepth = 16

        /// Calls `member` with each key (inside its quotes) and value of the object whose `{` is
        /// at `position`; returns the position after the object, or `nil` to decline (an invalid
        /// object, or `member` returned `false`).
        func forEachMember(ofObjectAt position: Int, depth: Int, _ member: (Range<Int>, Member) -> Bool) -> Int? {
            var position = skipWhitespace(position + 1)
            guard position < count else { return nil }
            if line[position] == UInt8(ascii: "}") { return position + 1 }
            while true {
                guard position < count, line[position] == UInt8(ascii: "\""), let keyEnd = stringEnd(from: position + 1, escapes: false) else {
                    return nil
                }
                let key = position + 1 ..< keyEnd
                position = skipWhitespace(keyEnd + 1)
                guard position < count, line[position] == UInt8(ascii: ":") else { return nil }
                guard let (value, end) = self.value(at: skipWhitespace(position + 1), depth: depth + 1), member(key, value) else { return nil }
                position = skipWhitespace(end)
                guard position < count else { return nil }
                if line[position] == UInt8(ascii: "}") { return position + 1 }
                guard line[position] == UInt8(ascii: ",") else { return nil }
                position = skipWhitespace(position + 1)
            }
        }

        /// Calls `element` with each element of the array whose `[` is at `position`, as
        /// `forEachMember` does for an object.
        func forEachElement(ofArrayAt position: Int, depth: Int, _ element: (Member) -> Bool) -> Int? {
            var position = skipWhitespace(position + 1)
            guard position < count else { return nil }
            if line[position] == UInt8(ascii: "]") { return position + 1 }
            while true {
                guard let (value, end) = self.value(at: position, depth: depth + 1), element(value) else { return nil }
                position = skipWhitespace(end)
                guard position < count else { return nil }
                if line[position] == UInt8(ascii: "]") { return position + 1 }
                guard line[position] == UInt8(ascii: ",") else { return nil }
                position = skipWhitespace(position + 1)
            }
        }

        /// The value at `position` and the position after it. An object or an array is checked
        /// whole and spans its brackets; a string spans its text and is `.escaped` when it holds an
        /// escape (its text is then not its bytes).
        func value(at position: Int, depth: Int) -> (Member, end: Int)? {
            guard position < count else { return nil }
            switch line[position] {
            case UInt8(ascii: "\""):
                guard let end = stringEnd(from: position + 1, escapes: false) else {
                    guard let end = stringEnd(from: position + 1, escapes: true) else { return nil }
                    return (Member(range: position + 1 ..< end, kind: .escaped), end + 1)
                }
                return (Member(range: position + 1 ..< end, kind: .string), end + 1)
            case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"):
                guard let end = numberEnd(from: position) else { return nil }
                return (Member(range: position ..< end, kind: .number), end)
            case UInt8(ascii: "t"): return literal("true", at: position)
            case UInt8(ascii: "f"): return literal("false", at: position)
            case UInt8(ascii: "n"): return literal("null", at: position)
            case UInt8(ascii: "{"):
                guard depth < Self.maxDepth, let end = forEachMember(ofObjectAt: position, depth: depth, { _, _ in true }) else { return nil }
                return (Member(range: position ..< end, kind: .object), end)
            case UInt8(ascii: "["):
                guard depth < Self.maxDepth, let end = forEachElement(ofArrayAt: position, depth: depth, { _ in true }) else { return nil }
                return (Member(range: position ..< end, kind: .array), end)
            default:
                return nil
            }
        }

        private func literal(_ text: StaticString, at position: Int) -> (Member, end: Int)? {
            let length = text.utf8CodeUnitCount
            guard count - position >= length, memcmp(line + position, text.utf8Start, length) == 0 else { return nil }
            return (Member(range: position ..< position + length, kind: .literal), position + length)
        }

        /// The closing quote of a string whose text starts at `start`; `nil` for a control
        /// character, no closing quote, or an escape when `escapes` is false or the escape is one
        /// the strict scanner rejects.
        @inline(__always)
        func stringEnd(from start: Int, escapes: Bool) -> Int? {
            var index = start
            while index < count {
                let byte = line[index]
                if byte == UInt8(ascii: "\"") { return index }
                if byte < 0x20 { return nil }
                if byte == UInt8(ascii: "\\") {
                    guard escapes, let next = escapeEnd(at: index) else { return nil }
                    index = next
                } else {
                    index += 1
                }
            }
            return nil
        }

        /// The position after the escape whose backslash is at `position`, checked as
        /// `JSONLineParser.Scanner.parseEscape` checks it (a `\u` surrogate only in a pair).
        private func escapeEnd(at position: Int) -> Int? {
            guard position + 1 < count else { return nil }
            switch line[position + 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
                 UInt8(ascii: "r"), UInt8(ascii: "t"):
                return position + 2
            case UInt8(ascii: "u"):
                guard let scalar = hex4(at: position + 2) else { return nil }
                switch scalar {
                case 0xD800 ... 0xDBFF:
                    guard position + 7 < count, line[position + 6] == UInt8(ascii: "\\"), line[position + 7] == UInt8(ascii: "u"),
                          let low = hex4(at: position + 8), (0xDC00 ... 0xDFFF).contains(low)
                    else { return nil }
                    return position + 12
                case 0xDC00 ... 0xDFFF: return nil
                default: return position + 6
                }
            default:
                return nil
            }
        }

        private func hex4(at position: Int) -> UInt32? {
            guard count - position >= 4 else { return nil }
            var value: UInt32 = 0
            for index in position ..< position + 4 {
                guard let digit = FastAccessLogLineDecoder.hexValue(line[index]) else { return nil }
                value = value << 4 | UInt32(digit)
            }
            return value
        }

        /// The end of a JSON number starting at `start` (the strict scanner's `skipNumber`);
        /// `nil` when it is not one.
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
        func skipWhitespace(_ position: Int) -> Int {
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
