extension HTTPRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The method and path only: the query, headers and body may hold an API key (`key=`,
    /// `X-Goog-Api-Key`), and a request printed by a test failure, `dump` or a debugger must not
    /// show it.
    package var description: String {
        let path = target.prefix { $0 != "?" && $0 != "#" }
        let redacted = path.count < target.count ? "?…" : ""
        return "HTTPRequest(\(method) \(path)\(redacted), time: \(time.microseconds) µs, status: \(status.map(String.init) ?? "nil"), \(headers.count) headers, body: \(body == nil ? "none" : "redacted"))"
    }

    package var debugDescription: String { description }

    package var customMirror: Mirror {
        Mirror(self, children: ["description": description], displayStyle: .struct)
    }
}
