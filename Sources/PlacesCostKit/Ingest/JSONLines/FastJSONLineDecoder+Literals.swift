/// JSON numbers by the grammar and the literals `true`, `false`, `null`: each reader accepts
/// exactly what `JSONLineParser` accepts, or declines.
extension FastJSONLineDecoder.Scanner {
    /// Reads a number by the JSON grammar at its first byte (`-` or a digit).
    ///
    /// - Returns: the literal's span and whether it is a plain non-negative integer (no sign,
    ///   fraction or exponent), or `nil` when it is not a JSON number.
    @inline(never)
    mutating func number() -> (span: ByteSpan, plainInteger: Bool)? {
        let start = position
        var plain = true
        if base[position] == UInt8(ascii: "-") {
            plain = false
            position += 1
        }
        guard position < count, base[position].isDigit else { return nil }
        if base[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            skipDigits()
        }
        if position < count, base[position] == UInt8(ascii: ".") {
            plain = false
            position += 1
            guard position < count, base[position].isDigit else { return nil }
            skipDigits()
        }
        if position < count, base[position] | 0x20 == UInt8(ascii: "e") {
            plain = false
            position += 1
            if position < count, base[position] == UInt8(ascii: "+") || base[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < count, base[position].isDigit else { return nil }
            skipDigits()
        }
        return (ByteSpan(start: Int32(start), count: Int32(position - start)), plain)
    }

    mutating func skipDigits() {
        while position < count, base[position].isDigit { position += 1 }
    }

    /// Skips `literal` (`true`, `false`, `null`) at `position`.
    @inline(__always)
    mutating func skipLiteral(_ literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard position + length <= count, matches(position, literal) else { return false }
        position += length
        return true
    }

    @inline(__always)
    mutating func null() -> Bool {
        skipLiteral("null")
    }
}
