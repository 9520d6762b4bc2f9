/// An HTTP request target split into host, path and query parameters, URL-decoded.
///
/// Accepts both forms logs hold: absolute (`https://maps.googleapis.com/maps/api/...`, HAR and
/// forward proxies) and origin-form (`/maps/api/...?input=...`, a reverse proxy's access log).
/// The fragment is dropped. Values may hold secrets (`key=`): callers read only the parameters
/// they need and never print this value.
struct RequestTarget {
    /// Lowercased, without user info, port or trailing dot; `nil` for an origin-form target.
    var host: String?
    /// Percent-decoded (but `+` kept: it means a space only in a query).
    var path: String
    /// Parameters in order, names and values decoded (`+` is a space, `%XX` a UTF-8 byte).
    var query: [(name: String, value: String)]

    /// The delimiters are found as bytes, not `Character`s: a URL's syntax is ASCII, and
    /// grapheme breaking was most of the time spent reading an access log.
    init(_ target: String) {
        var rest = Substring(target)
        if let hash = rest.utf8.firstIndex(of: UInt8(ascii: "#")) { rest = rest[..<hash] }
        var queryText: Substring = ""
        if let question = rest.utf8.firstIndex(of: UInt8(ascii: "?")) {
            queryText = rest[rest.utf8.index(after: question)...]
            rest = rest[..<question]
        }
        host = nil
        let lowered = rest.prefix(8).lowercased()
        for scheme in ["https://", "http://"] where lowered.hasPrefix(scheme) {
            rest = rest.dropFirst(scheme.count)
            let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
            var authority = rest[..<authorityEnd]
            if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
            if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") { authority = authority[..<colon] }
            if authority.hasSuffix(".") { authority = authority.dropLast() }
            host = authority.lowercased()
            rest = rest[authorityEnd...]
            break
        }
        path = rest.isEmpty ? "/" : RequestTarget.percentDecode(rest, plusIsSpace: false)
        query = queryText.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map { bytes in
            let pair = Substring(bytes)
            guard let equals = pair.utf8.firstIndex(of: UInt8(ascii: "=")) else {
                return (RequestTarget.percentDecode(pair, plusIsSpace: true), "")
            }
            return (RequestTarget.percentDecode(pair[..<equals], plusIsSpace: true),
                    RequestTarget.percentDecode(pair[pair.utf8.index(after: equals)...], plusIsSpace: true))
        }
    }

    /// The first value of a query parameter named exactly `name`.
    func parameter(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// The first non-empty value among the given parameter names, in the order given.
    func firstNonEmpty(_ names: String...) -> String? {
        for name in names {
            if let value = parameter(name), !value.isEmpty { return value }
        }
        return nil
    }

    /// Decodes `%XX` escapes as UTF-8 bytes (and `+` as a space in queries); an escape that is not
    /// two hex digits is kept literally, and bytes that are not UTF-8 become U+FFFD.
    static func percentDecode(_ text: Substring, plusIsSpace: Bool) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(text)
        }
        let utf8 = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), index + 2 < utf8.count, let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2]) {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
