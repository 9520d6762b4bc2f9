import Testing
@testable import PlacesCostKit

/// `--table` and `--order-column` go into SQL: each part is quoted, and names that could end the
/// quoting early are refused.
@Suite("SQL names")
struct SQLNameTests {
    @Test("each part is quoted in the dialect's way")
    func quoting() throws {
        let table = try SQLName("my-project.logs.calls", maxParts: 3, option: "--table")
        #expect(table.parts == ["my-project", "logs", "calls"])
        #expect(table.quoted(in: .bigquery) == "`my-project`.`logs`.`calls`")
        #expect(table.quoted(in: .duckdb) == "\"my-project\".\"logs\".\"calls\"")
        #expect(try SQLName("select", maxParts: 1, option: "--order-column").quoted(in: .duckdb) == "\"select\"")
        #expect(try SQLName("call log", maxParts: 3, option: "--table").quoted(in: .bigquery) == "`call log`")
    }

    @Test("names that are empty, too long or hold quotes, backslashes or control characters are refused", arguments: [
        "", "a..b", ".calls", "calls.", "a.b.c.d", "x`y", "x\"y", "x\\y", "x\ny", "calls;\tDROP",
    ])
    func refused(name: String) {
        #expect(throws: WarehouseError.self) { try SQLName(name, maxParts: 3, option: "--table") }
    }

    @Test("a column name has one part")
    func column() {
        #expect(throws: WarehouseError.invalidName(option: "--order-column", name: "t.line", reason: "a column name has no dots")) {
            try SQLName("t.line", maxParts: 1, option: "--order-column")
        }
    }

    @Test("the message names the option, the name and the reason")
    func message() {
        #expect(throws: WarehouseError.invalidName(option: "--table", name: "x`y", reason: "it holds a backtick, which would end its quoting")) {
            try SQLName("x`y", maxParts: 3, option: "--table")
        }
        let error = WarehouseError.invalidName(option: "--table", name: "a..b", reason: "a part between dots is empty")
        #expect(error.description == "--table `a..b` cannot be used: a part between dots is empty.")
    }
}
