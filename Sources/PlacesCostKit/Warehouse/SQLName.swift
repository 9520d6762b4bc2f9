/// A table or column name given on the command line, checked before it goes into SQL.
///
/// A name is one to three parts separated by dots (`calls`, `logs.calls`,
/// `my-project.logs.calls`). Each part is quoted on its own in the dialect's way, so a part may
/// be a reserved word or hold a dash or a space; a part may not be empty or hold a quote, a
/// backtick, a backslash or a control character, so no name can end the quoting early.
struct SQLName: Sendable, Equatable {
    let parts: [String]

    /// - Parameters:
    ///   - text: the name as given.
    ///   - maxParts: 3 for a table (`project.dataset.table`), 1 for a column.
    ///   - option: the option that gave it, for the message.
    /// - Throws: `WarehouseError.invalidName` with the reason.
    init(_ text: String, maxParts: Int, option: String) throws {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        func invalid(_ reason: String) -> WarehouseError {
            .invalidName(option: option, name: text, reason: reason)
        }
        guard !text.isEmpty else { throw invalid("the name is empty") }
        guard parts.count <= maxParts else {
            throw invalid(maxParts == 1 ? "a column name has no dots" : "a table name has at most \(maxParts) parts separated by dots")
        }
        for part in parts {
            guard !part.isEmpty else { throw invalid("a part between dots is empty") }
            for scalar in part.unicodeScalars {
                let named: String? = switch scalar {
                case "\"": "a double quote"
                case "`": "a backtick"
                case "\\": "a backslash"
                case _ where scalar.value < 0x20 || scalar.value == 0x7F: "a control character"
                default: nil
                }
                if let named { throw invalid("it holds \(named), which would end its quoting") }
            }
        }
        self.parts = parts
    }

    /// The name quoted for `dialect`, part by part.
    func quoted(in dialect: SQLDialect) -> String {
        parts.map(dialect.quote).joined(separator: ".")
    }
}
