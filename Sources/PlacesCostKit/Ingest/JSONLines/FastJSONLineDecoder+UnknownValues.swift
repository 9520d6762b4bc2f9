/// Validating and skipping an unknown key's value of any shape: accept exactly the values
/// `JSONLineParser` accepts, depth limit included, without recursion.
extension FastJSONLineDecoder.Scanner {
    /// Validates and skips any JSON value of an unknown key at its first byte.
    @inline(never)
    mutating func skipValue() -> Bool {
        switch base[position] {
        case .quote: return skipString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number() != nil
        case UInt8(ascii: "t"): return skipLiteral("true")
        case UInt8(ascii: "f"): return skipLiteral("false")
        case .letterN: return null()
        case .openBracket, .openBrace: return skipContainer()
        default: return false
        }
    }

    /// Validates and skips a nested array or object at its opening bracket, without recursion.
    ///
    /// `JSONLineParser` rejects any value deeper than `JSONLineParser.maxDepth` (64), counting a
    /// key's value as depth 1; so an open container may hold members only while at most 63
    /// containers are open. That bound also lets one `UInt64` remember which levels are objects.
    mutating func skipContainer() -> Bool {
        var open = 0
        var objectLevels: UInt64 = 0
        nextValue: while true {
            // A value is due at `position`.
            guard position < count else { return false }
            let first = base[position]
            if first == .openBracket || first == .openBrace {
                let isObject = first == .openBrace
                position += 1
                skipWhitespace()
                guard position < count else { return false }
                if base[position] == (isObject ? .closeBrace : .closeBracket) {
                    position += 1
                } else {
                    guard open < JSONLineParser.maxDepth - 1 else { return false }
                    if isObject {
                        objectLevels |= 1 << UInt64(open)
                        guard memberKey() else { return false }
                    }
                    open += 1
                    continue nextValue
                }
            } else {
                guard skipValue() else { return false }
            }
            // After a value: separators and closers until the next value is due.
            while open > 0 {
                skipWhitespace()
                guard position < count else { return false }
                let inObject = objectLevels >> UInt64(open - 1) & 1 == 1
                let byte = base[position]
                if byte == .comma {
                    position += 1
                    skipWhitespace()
                    if inObject {
                        guard memberKey() else { return false }
                    }
                    continue nextValue
                }
                guard byte == (inObject ? .closeBrace : .closeBracket) else { return false }
                position += 1
                open -= 1
                objectLevels &= ~(1 << UInt64(open))
            }
            return true
        }
    }

    /// A nested object's `"key":` and the whitespace after it.
    mutating func memberKey() -> Bool {
        guard position < count, base[position] == .quote, skipString() else { return false }
        skipWhitespace()
        guard position < count, base[position] == .colon else { return false }
        position += 1
        skipWhitespace()
        return true
    }
}
