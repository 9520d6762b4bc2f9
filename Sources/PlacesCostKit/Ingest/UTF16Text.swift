import Foundation

/// Text in UTF-16, as Windows PowerShell's `>` and spreadsheets' "Unicode text" save it. Logs
/// are read as UTF-8: such a log is refused with the command that converts it; a billing export,
/// small enough to hold, is decoded.
package enum UTF16Text: Sendable, Equatable {
    /// After a byte order mark (FF FE or FE FF), which says the byte order.
    case byteOrderMarked
    /// Without a mark: ASCII with a zero byte after each character, or before it.
    case littleEndian, bigEndian

    /// How `head`, a file's first bytes, is UTF-16; `nil` when it is not (UTF-8 included).
    static func detect(_ head: some Collection<UInt8>) -> UTF16Text? {
        let head = Array(head.prefix(64))
        if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) { return .byteOrderMarked }
        let pairs = head.count / 2
        guard pairs >= 4 else { return nil }
        let even = (0..<pairs).map { head[2 * $0] }, odd = (0..<pairs).map { head[2 * $0 + 1] }
        let ascii = { (bytes: [UInt8]) in bytes.allSatisfy { $0 != 0 && $0 < 0x80 } }
        if odd.allSatisfy({ $0 == 0 }), ascii(even) { return .littleEndian }
        if even.allSatisfy({ $0 == 0 }), ascii(odd) { return .bigEndian }
        return nil
    }

    /// The name `iconv -f` takes for it.
    var iconvName: String {
        switch self {
        case .byteOrderMarked: "UTF-16"
        case .littleEndian: "UTF-16LE"
        case .bigEndian: "UTF-16BE"
        }
    }

    /// Foundation's encoding for it.
    var encoding: String.Encoding {
        switch self {
        case .byteOrderMarked: .utf16
        case .littleEndian: .utf16LittleEndian
        case .bigEndian: .utf16BigEndian
        }
    }
}
