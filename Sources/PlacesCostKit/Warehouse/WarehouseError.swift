/// Problems with the options of `placescost sql`, found before any SQL is written.
enum WarehouseError: Error, Equatable, CustomStringConvertible {
    /// A `--table` or `--order-column` value that cannot be quoted safely.
    case invalidName(option: String, name: String, reason: String)
    /// A `--timezone` that is not an IANA time zone name.
    case unknownTimeZone(String)

    var description: String {
        switch self {
        case .invalidName(let option, let name, let reason):
            "\(option) `\(name)` cannot be used: \(reason)."
        case .unknownTimeZone(let zone):
            "--timezone takes a time zone name such as UTC or Europe/Paris, not `\(zone)`."
        }
    }
}
