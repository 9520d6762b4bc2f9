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

    package init() {}

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
