/// Problems with a price table or a choice of one.
enum PricingError: Error, Equatable, CustomStringConvertible {
    /// A table file that cannot be read.
    case unreadable(path: String, reason: String)
    /// A table that breaks the schema: `keyPath` is where (`skus[3].tiers`), empty for the whole file.
    case invalidTable(source: String, keyPath: String, reason: String)
    /// `--pricing` named neither a bundled table nor a file.
    case unknownTable(id: String, known: [String])

    var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read the price table \(path): \(reason). Check the --pricing path, or pass a bundled table id (`placescost pricing list`)."
        case .invalidTable(let source, let keyPath, let reason):
            (keyPath.isEmpty ? "\(source): \(reason)." : "\(source): at `\(keyPath)`: \(reason).")
                + " Fix the table (`placescost pricing show legacy-list --json` prints a valid one to start from)."
        case .unknownTable(let id, let known):
            "no price table `\(id)`: pass one of \(known.joined(separator: ", ")) (see `placescost pricing list`) or the path of a JSON price table."
        }
    }
}
