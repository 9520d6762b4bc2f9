/// The hosts of the absolute targets a worker has read, each as `RequestTarget.host` names it
/// (in lowercase): a log names a handful of hosts, so a line's host is found among the last few
/// by its bytes, and a `String` is made once per host, not once per line.
struct HostNames {
    /// Hosts kept; a new one replaces the oldest.
    static let capacity = 8

    private var kept: [(bytes: [UInt8], name: String)] = []
    private var next = 0

    /// The name of the host written as `bytes` (ASCII: the fast decoders read only such lines).
    mutating func name(_ bytes: UnsafeRawBufferPointer) -> String {
        for entry in kept where entry.bytes.elementsEqual(bytes) { return entry.name }
        let entry = (bytes: Array(bytes), name: String(decoding: bytes, as: UTF8.self).lowercased())
        if kept.count < Self.capacity {
            kept.append(entry)
        } else {
            kept[next] = entry
            next = (next + 1) % Self.capacity
        }
        return entry.name
    }
}
