import Foundation
import Testing
@testable import PlacesCostKit

/// The charts stay the size of a chart whatever the log: a search of two billion characters or
/// calls centuries apart (both valid input) draw a bounded number of bars that still add up to
/// what they count, and `analyze --out` writes them in a moment.
@Suite("Report charts")
struct ReportChartsTests {
    static func analysis(_ lines: [String], groupBy: GroupDimension? = nil) throws -> Analysis {
        let directory = TemporaryDirectory()
        let file = directory.write("log.jsonl", lines.joined(separator: "\n") + "\n")
        var options = Analyzer.Options()
        options.groupBy = groupBy
        return try Analyzer(options: options).analyze(paths: [file]).0
    }

    static func chart(_ path: String, of analysis: Analysis) throws -> BarChart {
        try #require(ReportCharts.charts(analysis).first { $0.path == path }?.chart)
    }

    @Test("A histogram past its last bar puts every larger value in that bar, labelled with a +", arguments: [150, 5_000, Int(Int32.max)])
    func histogramTail(longest: Int) throws {
        var lines: [String] = []
        // Searches typing 0...120 characters, and one typing `longest`.
        for (index, length) in (Array(0...120) + [longest]).enumerated() {
            let token = "t\(index)"
            let second = 10 * index
            lines.append(#"{"timestamp":"2026-10-01T10:\#(String(format: "%02d:%02d", second / 60, second % 60))Z","api":"autocomplete","session_token":"\#(token)","input_length":\#(length)}"#)
            lines.append(#"{"timestamp":"2026-10-01T10:\#(String(format: "%02d:%02d", second / 60, second % 60 + 1))Z","api":"place_details","session_token":"\#(token)","fields":["formattedAddress"]}"#)
        }
        let analysis = try Self.analysis(lines)
        let chart = try Self.chart(ReportCharts.charactersAtSelection, of: analysis)
        #expect(chart.bars.count == ReportCharts.maxHistogramBars)
        #expect(chart.bars.first?.label == "0")
        #expect(chart.bars.last?.label == "\(ReportCharts.maxHistogramBars - 1)+")
        // The last bar holds 99...120 and the longest: 23 searches; every search is in a bar.
        #expect(chart.bars.last?.value == 23)
        #expect(chart.bars.reduce(0) { $0 + $1.value } == Double(lines.count / 2))
        // A histogram within the bound is drawn bar for bar, its last bar a plain value.
        let requests = try Self.chart(ReportCharts.requestsPerSearch, of: analysis)
        #expect(requests.bars.map(\.label) == ["1"])
    }

    @Test("Daily charts over a span longer than their bound draw bars of several days, adding up to every call", arguments: [
        ("2026-10-01T10:00:00Z", "2026-10-20T10:00:00Z", 20, 1),
        // 457 days: 2 a bar.
        ("2026-10-01T10:00:00Z", "2027-12-31T10:00:00Z", 229, 2),
        // 2,912,170 days: 7,281 a bar.
        ("2026-10-01T10:00:00Z", "9999-12-31T23:59:59Z", 400, 7_281),
    ])
    func dailySpan(first: String, last: String, bars: Int, daysPerBar: Int) throws {
        let lines = [first, last].enumerated().map { index, time in
            #"{"timestamp":"\#(time)","api":"autocomplete","session_token":"t\#(index)","input_length":3}"#
        }
        let analysis = try Self.analysis(lines, groupBy: .day)
        let calls = try Self.chart(ReportCharts.dailyCalls, of: analysis)
        let cost = try Self.chart(ReportCharts.dailyCostPerSearch, of: analysis)
        #expect(calls.bars.count == bars)
        #expect(cost.bars.count == bars)
        #expect(calls.bars.count <= ReportCharts.maxDailyBars)
        #expect(calls.bars.reduce(0) { $0 + $1.value } == 2)
        #expect(calls.title == (daysPerBar == 1 ? "Calls by day" : "Calls by \(Money.count(daysPerBar, "day", "days"))"))
        #expect(calls.bars.first?.label == (daysPerBar == 1 ? "10-01" : "2026-10-01"))
    }

    @Test("analyze --out on such logs writes charts of the usual size, at once")
    func outIsBounded() throws {
        let directory = TemporaryDirectory()
        let log = directory.write("log.jsonl", [
            #"{"timestamp":"2026-10-01T10:00:00Z","api":"autocomplete","session_token":"a","input_length":2147483647}"#,
            #"{"timestamp":"2026-10-01T10:00:02Z","api":"place_details","session_token":"a","fields":["formattedAddress"]}"#,
            #"{"timestamp":"9999-12-31T23:59:59Z","api":"autocomplete","session_token":"b","input_length":1}"#,
        ].joined(separator: "\n") + "\n")
        let out = directory.path + "/out"
        let run = runCLI(["analyze", log, "--by", "day", "--out", out, "--quiet"])
        #expect(run.code == .success, "\(run.stderr)")
        for file in ["report.html"] + ReportCharts.files + [ReportCharts.dailyCalls, ReportCharts.dailyCostPerSearch] {
            let size = try #require(try FileManager.default.attributesOfItem(atPath: out + "/" + file)[.size] as? Int)
            #expect(size < 400_000, "\(file): \(size) bytes")
        }
    }
}
