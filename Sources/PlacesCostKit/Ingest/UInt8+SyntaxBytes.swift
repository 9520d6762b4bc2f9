/// The bytes of JSON, CSV and timestamp syntax the decoders compare against, written once for the module.
///
/// Computed rather than stored so that no use pays a lazy-global check.
extension UInt8 {
    static var quote: UInt8 { 0x22 }
    static var backslash: UInt8 { 0x5C }
    static var openBrace: UInt8 { 0x7B }
    static var closeBrace: UInt8 { 0x7D }
    static var openBracket: UInt8 { 0x5B }
    static var closeBracket: UInt8 { 0x5D }
    static var colon: UInt8 { 0x3A }
    static var comma: UInt8 { 0x2C }
    static var letterN: UInt8 { 0x6E }
    static var newline: UInt8 { 0x0A }
    static var carriageReturn: UInt8 { 0x0D }

    var isDigit: Bool {
        self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9")
    }
}
