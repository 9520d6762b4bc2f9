/// Reading a top-level key and naming the known key it spells: keys are matched a word at a
/// time, never byte by byte, and an escaped key is never taken as a known one.
extension FastJSONLineDecoder.Scanner {
    /// Reads a top-level key at its opening quote, without escapes (an escaped key could
    /// spell a known one), and sets `key` to the known key it spells, if any.
    ///
    /// A key of up to 15 plain ASCII bytes is found and matched in one or two 8-byte words,
    /// never byte by byte: every line has several keys. Others (and keys near the end of the
    /// line) take the general string reader.
    ///
    /// - Returns: `false` to decline the line.
    @inline(__always)
    mutating func key(into key: inout RawRecord.Key?) -> Bool {
        let start = position &+ 1
        if start &+ 16 <= count {
            let raw = UnsafeRawPointer(base + start)
            let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            let firstStops = Self.stops(in: first)
            if firstStops != 0 {
                let length = firstStops.trailingZeroBitCount >> 3
                if base[start &+ length] == .quote {
                    position = start &+ length &+ 1
                    key = Self.knownKey(length: length, first: first & ((1 << UInt64(length &* 8)) &- 1), second: 0)
                    return true
                }
            } else {
                let second = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                let secondStops = Self.stops(in: second)
                if secondStops != 0 {
                    let tail = secondStops.trailingZeroBitCount >> 3
                    if base[start &+ 8 &+ tail] == .quote {
                        position = start &+ 8 &+ tail &+ 1
                        key = Self.knownKey(length: 8 &+ tail, first: first, second: second & ((1 << UInt64(tail &* 8)) &- 1))
                        return true
                    }
                }
            }
        }
        guard let (span, ascii) = plainStringReportingASCII() else { return false }
        key = ascii ? knownKey(start: Int(span.start), length: Int(span.count)) : nil
        return true
    }

    /// The known key whose bytes, little-endian, are `first` and `second` (zero past the end).
    @inline(__always)
    static func knownKey(length: Int, first: UInt64, second: UInt64) -> RawRecord.Key? {
        switch length {
        case 3: return first == 0x69_7061 ? .api : nil  // "api"
        case 5: return first == 0x74_7570_6E69 ? .input : nil  // "input"
        case 6:
            switch first {
            case 0x7364_6C65_6966: return .fields  // "fields"
            case 0x6449_7265_7375: return .userID  // "userId"
            case 0x7375_7461_7473: return .status  // "status"
            default: return nil
            }
        case 7:
            switch first {
            case 0x64_695F_7265_7375: return .userID  // "user_id"
            case 0x74_6365_6A6F_7270: return .project  // "project"
            case 0x64_4965_6361_6C70: return .placeID  // "placeId"
            default: return nil
            }
        case 8:
            switch first {
            case 0x6D72_6F66_7461_6C70: return .platform  // "platform"
            case 0x6469_5F65_6361_6C70: return .placeID  // "place_id"
            default: return nil
            }
        case 9: return first == 0x6D61_7473_656D_6974 && second == 0x70 ? .timestamp : nil  // "timestamp"
        case 10: return first == 0x6973_7265_5669_7061 && second == 0x6E6F ? .apiVersion : nil  // "apiVersion"
        case 11:
            if first == 0x7372_6576_5F69_7061 && second == 0x6E_6F69 { return .apiVersion }  // "api_version"
            return first == 0x6E65_4C74_7570_6E69 && second == 0x68_7467 ? .inputLength : nil  // "inputLength"
        case 12:
            if first == 0x546E_6F69_7373_6573 && second == 0x6E65_6B6F { return .sessionToken }  // "sessionToken"
            return first == 0x656C_5F74_7570_6E69 && second == 0x6874_676E ? .inputLength : nil  // "input_length"
        case 13: return first == 0x5F6E_6F69_7373_6573 && second == 0x6E_656B_6F74 ? .sessionToken : nil  // "session_token"
        default: return nil
        }
    }

    /// Which known key the raw bytes spell, by length first so most keys cost one comparison.
    @inline(__always)
    func knownKey(start: Int, length: Int) -> RawRecord.Key? {
        switch length {
        case 3: return matches(start, "api") ? .api : nil
        case 5: return matches(start, "input") ? .input : nil
        case 6:
            switch base[start] {
            case UInt8(ascii: "f"): return matches(start, "fields") ? .fields : nil
            case UInt8(ascii: "u"): return matches(start, "userId") ? .userID : nil
            case UInt8(ascii: "s"): return matches(start, "status") ? .status : nil
            default: return nil
            }
        case 7:
            switch base[start] {
            case UInt8(ascii: "u"): return matches(start, "user_id") ? .userID : nil
            case UInt8(ascii: "p"):
                if matches(start, "project") { return .project }
                return matches(start, "placeId") ? .placeID : nil
            default: return nil
            }
        case 8:
            if matches(start, "platform") { return .platform }
            return matches(start, "place_id") ? .placeID : nil
        case 9: return matches(start, "timestamp") ? .timestamp : nil
        case 10: return matches(start, "apiVersion") ? .apiVersion : nil
        case 11:
            if matches(start, "api_version") { return .apiVersion }
            return matches(start, "inputLength") ? .inputLength : nil
        case 12:
            if matches(start, "sessionToken") { return .sessionToken }
            return matches(start, "input_length") ? .inputLength : nil
        case 13: return matches(start, "session_token") ? .sessionToken : nil
        default: return nil
        }
    }

    /// Whether the bytes at `start` are `literal` (the caller has checked the length).
    ///
    /// Compares two overlapping words, never byte by byte: it runs for every key of every
    /// line. Keep it inlined, so the literal's words are constants.
    @inline(__always)
    func matches(_ start: Int, _ literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        let expected = UnsafeRawPointer(literal.utf8Start)
        let actual = UnsafeRawPointer(base + start)
        func equal<Word: FixedWidthInteger>(_: Word.Type, at offset: Int) -> Bool {
            actual.loadUnaligned(fromByteOffset: offset, as: Word.self) == expected.loadUnaligned(fromByteOffset: offset, as: Word.self)
        }
        switch length {
        case 8...16: return equal(UInt64.self, at: 0) && equal(UInt64.self, at: length - 8)
        case 4..<8: return equal(UInt32.self, at: 0) && equal(UInt32.self, at: length - 4)
        case 2..<4: return equal(UInt16.self, at: 0) && equal(UInt16.self, at: length - 2)
        default:
            for offset in 0..<length where actual.load(fromByteOffset: offset, as: UInt8.self) != literal.utf8Start[offset] {
                return false
            }
            return true
        }
    }
}
