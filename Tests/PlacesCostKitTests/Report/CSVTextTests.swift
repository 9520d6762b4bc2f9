import Testing
@testable import PlacesCostKit

@Suite("CSV cells")
struct CSVTextTests {
    @Test("Cells a spreadsheet would run as formulas get a leading quote mark", arguments: [
        ("=HYPERLINK(\"http://x\")", "\"'=HYPERLINK(\"\"http://x\"\")\""),
        ("+1+2", "'+1+2"), ("-2+3", "'-2+3"), ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"), ("\rx", "\"'\rx\""),
        ("-", "'-"), ("+", "'+"), ("- 2", "'- 2"),
    ])
    func neutralised(_ value: String, _ expected: String) {
        #expect(CSVText.field(value) == expected)
    }

    @Test("Numbers, hashes and plain text are left alone", arguments: [
        "-200", "-0.5", "+3", "1e-9", "-1.25E+3", "Places Details", "2026-10", "a=b", "0.025", "c0ffee",
    ])
    func untouched(_ value: String) {
        #expect(CSVText.field(value) == value)
    }
}
