import Foundation
import Testing
@testable import PlacesCostKit

/// What follows a HAR file's top-level object: another capture (`cat a.har b.har`) is read as
/// the first is; anything else is one warning at the line it starts on, never quoted.
@Suite("HAR text after the capture")
struct HARTrailingTextTests {
    static let secret = "SECRETTOKEN123"

    @Test("Captures one after another are read one after another, each entry at its line, numbered in its own capture", arguments: [1, 7, 1 << 20])
    func concatenated(_ chunkSize: Int) throws {
        let first = HARLineTests.capture(entries: [HARLineTests.entry(1), HARLineTests.entry(2)])
        let second = HARLineTests.capture(entries: [HARLineTests.entry(3), "      42", HARLineTests.entry(5)])
        // An export may start with a byte-order mark, or on the line the one before ends on.
        let text = first.text + "\n" + "\u{FEFF}" + String(second.text.dropLast()) + String(first.text.dropLast())
        let offset = first.text.filter { $0 == "\n" }.count + 1
        let thirdOffset = offset + second.text.filter { $0 == "\n" }.count - 1
        let read = try HARLineTests.lines(text, chunkSize: chunkSize)
        #expect(read.error == nil)
        #expect(read.entries.map(\.1) == first.lines + second.lines.map { $0 + offset } + first.lines.map { $0 + thirdOffset })
        #expect(read.entries.map(\.0.index) == [1, 2, 1, 2, 3, 1, 2])
        #expect(read.entries.filter { if case .malformed = $0.0 { true } else { false } }.map(\.1) == [second.lines[1] + offset])
    }

    @Test("A second capture cut off keeps the entries before the cut, counted in its own capture")
    func secondCutOff() throws {
        let first = HARLineTests.capture(entries: [HARLineTests.entry(1)])
        let second = HARLineTests.capture(entries: [HARLineTests.entry(2), HARLineTests.entry(3)])
        let cut = String(second.text.utf8.prefix(second.text.utf8.count - 120))!
        let offset = first.text.filter { $0 == "\n" }.count
        let read = try HARLineTests.lines(first.text + cut, chunkSize: 7)
        #expect(read.entries.map(\.1) == first.lines + [second.lines[0] + offset])
        #expect(read.error == HARReader.PositionedError(error: .truncated(entriesRead: 1), line: second.lines[1] + offset))
    }

    @Test("Text after the capture that is not one is a warning at the line it starts on, after every entry", arguments: [
        "\(secret) garbage {\"x\":1}\n",
        "{\"x\":\"\(secret)\"}\n",
        "{\"log\":\"\(secret)\"}",
        "{\"_other\":\"\(secret)",
        "[\"\(secret)\"]\n",
        "\"\(secret)\"",
    ])
    func trailingText(_ tail: String) throws {
        let (text, lines) = HARLineTests.capture(entries: [HARLineTests.entry(1), HARLineTests.entry(2)])
        let start = text.filter { $0 == "\n" }.count + 2
        for chunkSize in [1, 7, 1 << 20] {
            let read = try HARLineTests.lines(text + "\n  " + tail, chunkSize: chunkSize)
            #expect(read.entries.map(\.1) == lines)
            #expect(read.error == HARReader.PositionedError(error: .textAfterCapture(entriesRead: 2), line: start))
        }
        #expect(!"\(HARReader.Error.textAfterCapture(entriesRead: 2))".contains(Self.secret))
    }

    @Test("analyze reads both captures of `cat a.har b.har`, and warns once, counted, without quoting it, of text that is no capture")
    func analyze() throws {
        let first = HARLineTests.capture(entries: [HARLineTests.entry(1)])
        let second = HARLineTests.capture(entries: [HARLineTests.entry(2), HARLineTests.entry(3)])
        let directory = TemporaryDirectory()
        let both = directory.write("both.har", first.text + second.text)
        let run = runCLI(["analyze", both, "--json"])
        #expect(run.code == .success)
        #expect(run.stdout.contains("\"records\": 3,"), "\(run.stdout.prefix(800))")
        #expect(!run.stderr.contains("warning"), "\(run.stderr)")

        let start = first.text.filter { $0 == "\n" }.count + 1
        let garbage = directory.write("garbage.har", first.text + "\(Self.secret) garbage {\"x\":1}\n" + second.text)
        let warned = runCLI(["analyze", garbage, "--json"])
        #expect(warned.code == .success)
        #expect(warned.stdout.contains("\"records\": 1,") && warned.stdout.contains("\"rejected\": 1,"), "\(warned.stdout.prefix(800))")
        let warnings = warned.stderr.split(separator: "\n").filter { $0.contains("warning") }
        #expect(warnings == ["\(garbage):\(start): warning: \(HARReader.Error.textAfterCapture(entriesRead: 1))"], "\(warned.stderr)")
        #expect(!warned.stderr.contains(Self.secret))
        #expect(runCLI(["analyze", garbage, "--strict"]).code != .success)
    }
}
