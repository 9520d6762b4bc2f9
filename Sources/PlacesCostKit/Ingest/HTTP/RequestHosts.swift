/// The hosts of requests read from a capture or an access log, for two messages: the hosts taken
/// as proxies of Google's APIs (a Google path under another host), and, when no request at all
/// is a Places call, the hosts seen most (so a capture of the wrong thing shows at once).
///
/// Bounded: at most `maxHosts` names each, later new ones counted together.
package struct RequestHosts: Sendable, Equatable {
    package private(set) var proxies: [String: Int] = [:]
    package private(set) var skipped: [String: Int] = [:]
    /// Skipped requests whose host was not kept (past `maxHosts` names), or that named none
    /// (an access log's origin-form target).
    package private(set) var skippedUnnamed = 0
    static let maxHosts = 256
    /// Path prefixes seen before Google's API paths in skipped requests (`/api/google` in
    /// `/api/google/maps/api/place/...`): what `--strip-prefix` would take.
    package private(set) var prefixes: [String: Int] = [:]

    package init() {}

    /// Notes the prefix before a Google API path in a skipped request's target (an absolute URL
    /// or a path), if there is one.
    mutating func notePrefix(ofTarget target: String) {
        var target = target
        target.withUTF8 { notePrefix(ofPath: RequestHosts.path(ofTarget: UnsafeRawBufferPointer($0))) }
    }

    /// The same for a path's bytes; allocates only when the path holds a Google API path.
    mutating func notePrefix(ofPath path: UnsafeRawBufferPointer.SubSequence) {
        guard let prefix = RequestHosts.prefixBeforeGooglePath(path), prefixes[prefix] != nil || prefixes.count < RequestHosts.maxHosts else { return }
        prefixes[prefix, default: 0] += 1
    }

    /// The path of a request target as written: itself in origin form (`/a/b?c`), the part from
    /// the first `/` after the host of an absolute URL.
    static func path(ofTarget target: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer.SubSequence {
        guard target.first != UInt8(ascii: "/") else { return target[...] }
        let scheme = Array("://".utf8)
        guard target.count > 3, let mark = (0...(target.count - 3)).first(where: { target[$0] == scheme[0] && target[$0 + 1] == scheme[1] && target[$0 + 2] == scheme[2] }),
              let slash = target[(mark + 3)...].firstIndex(of: UInt8(ascii: "/")) else { return target[target.endIndex...] }
        return target[slash...]
    }

    /// The paths Google's APIs answer under, which a proxy's own prefix may come before.
    static let googlePaths = [Array("/maps/api/".utf8), Array("/v1/places".utf8), Array("/v1:validateAddress".utf8)]

    /// `/api/google` of `/api/google/maps/api/place/autocomplete/json?...`: the part of a path
    /// before Google's, when there is one and it is a plain path (letters, digits, `/._-`, up to
    /// 64 bytes) safe to print; `nil` otherwise.
    static func prefixBeforeGooglePath(_ path: UnsafeRawBufferPointer.SubSequence) -> String? {
        guard path.first == UInt8(ascii: "/") else { return nil }
        var index = path.startIndex + 1
        while index < path.endIndex, path[index] != UInt8(ascii: "?"), path[index] != UInt8(ascii: "#") {
            defer { index += 1 }
            guard path[index] == UInt8(ascii: "/"), index - path.startIndex <= 64 else { continue }
            for google in googlePaths where path.endIndex - index >= google.count {
                guard zip(path[index...], google).allSatisfy({ $0 == $1 }) else { continue }
                let prefix = path[path.startIndex..<index]
                guard prefix.allSatisfy({ byte in
                    (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte.isDigit
                        || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                }) else { return nil }
                return String(decoding: prefix, as: UTF8.self)
            }
        }
        return nil
    }

    mutating func noteProxy(_ host: String) {
        guard RequestHosts.isPrintable(host) else { return }
        if proxies[host] != nil || proxies.count < RequestHosts.maxHosts { proxies[host, default: 0] += 1 }
    }

    mutating func noteSkipped(_ host: String?) {
        if let host, RequestHosts.isPrintable(host), skipped[host] != nil || skipped.count < RequestHosts.maxHosts {
            skipped[host, default: 0] += 1
        } else {
            skippedUnnamed += 1
        }
    }

    mutating func merge(_ other: RequestHosts) {
        for (host, count) in other.proxies {
            if proxies[host] != nil || proxies.count < RequestHosts.maxHosts { proxies[host, default: 0] += count }
        }
        for (host, count) in other.skipped {
            if skipped[host] != nil || skipped.count < RequestHosts.maxHosts {
                skipped[host, default: 0] += count
            } else {
                skippedUnnamed += count
            }
        }
        skippedUnnamed += other.skippedUnnamed
        for (prefix, count) in other.prefixes where prefixes[prefix] != nil || prefixes.count < RequestHosts.maxHosts {
            prefixes[prefix, default: 0] += count
        }
    }

    /// Whether a host is a plain name or address that is safe to print in a terminal (a HAR may
    /// hold anything there, escape sequences included): letters, digits, `.`, `-`, `_`, `:`, `[`, `]`.
    static func isPrintable(_ host: String) -> Bool {
        !host.isEmpty && host.utf8.count <= 253 && host.utf8.allSatisfy { byte in
            (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte.isDigit
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
        }
    }

    /// The `count` hosts with the most requests, most first, ties by name.
    static func most(_ hosts: [String: Int], _ count: Int) -> [(host: String, requests: Int)] {
        hosts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(count).map { ($0.key, $0.value) }
    }
}
