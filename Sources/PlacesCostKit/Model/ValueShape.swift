/// What a value from the input looks like, told without the value itself.
///
/// Warnings and errors name the field and its shape, never its text: a field holding the wrong
/// thing may hold a session token, typed text, a user id or an API key (`key=AIza...`), and
/// standard error ends up in terminals, CI logs and bug reports.
struct ValueShape: Sendable, Equatable, CustomStringConvertible {
    /// Characters (Unicode scalars) in the value.
    var length: Int
    var hasDigits = false
    var hasLetters = false
    var hasSpaces = false
    var hasPunctuation = false
    /// Characters outside printable ASCII: non-ASCII letters, control characters.
    var hasOtherCharacters = false

    /// The shape of UTF-8 `bytes` (invalid sequences count as other characters).
    init(bytes: UnsafeBufferPointer<UInt8>) {
        length = 0
        for byte in bytes {
            // Continuation bytes belong to the scalar their lead byte started.
            if byte & 0xC0 != 0x80 { length += 1 }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): hasDigits = true
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): hasLetters = true
            case UInt8(ascii: " "): hasSpaces = true
            case 0x21...0x7E: hasPunctuation = true
            default: hasOtherCharacters = true
            }
        }
    }

    init(_ text: String) {
        var text = text
        self = text.withUTF8 { ValueShape(bytes: $0) }
    }

    /// "a 23-digit number", "a 37-character text of letters, digits and punctuation".
    var description: String {
        guard length > 0 else { return "an empty text" }
        if hasDigits, !hasLetters, !hasSpaces, !hasPunctuation, !hasOtherCharacters {
            return "\(Self.article(length)) \(length)-digit number"
        }
        let kinds = [
            hasLetters ? "letters" : nil, hasDigits ? "digits" : nil, hasSpaces ? "spaces" : nil,
            hasPunctuation ? "punctuation" : nil, hasOtherCharacters ? "other characters" : nil,
        ].compactMap { $0 }
        let listed = kinds.count == 1 ? kinds[0] : kinds.dropLast().joined(separator: ", ") + " and " + kinds.last!
        return "\(Self.article(length)) \(length)-character text of \(listed)"
    }

    /// "an" before the numbers read with a leading vowel sound (8, 11, 18, 80-89, 800-899, ...).
    private static func article(_ number: Int) -> String {
        var leading = number
        var digits = 1
        while leading >= 10 {
            leading /= 10
            digits += 1
        }
        if leading == 8 || number == 11 || number == 18 { return "an" }
        // 11,000 and 18,000 (eleven thousand, eighteen thousand) read like 11 and 18.
        if digits % 3 == 2, digits > 3 {
            var two = number
            while two >= 100 { two /= 10 }
            if two == 11 || two == 18 { return "an" }
        }
        return "a"
    }
}
