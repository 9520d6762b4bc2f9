#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every file `analyze --out DIR` writes, rendered in memory: `report.md`, `report.html`,
/// `report.json`, `searches.csv`, `costs.csv` and the charts `report.md` links to
/// (`report.html` holds them inline).
struct ReportBundle: Sendable {
    enum Format: String, Sendable, CaseIterable {
        case md, csv, json

        /// The file whose contents `--report FORMAT` prints on standard output.
        var fileName: String {
            switch self {
            case .md: "report.md"
            case .csv: "costs.csv"
            case .json: "report.json"
            }
        }
    }

    init() {}

    /// What `--report format` prints: the same text `--out` writes to `format.fileName`.
    func render(_ analysis: Analysis, as format: Format) -> String {
        switch format {
        case .md: MarkdownReportRenderer().render(analysis) + "\n"
        case .json: JSONReportRenderer().render(analysis)
        case .csv: CostsCSVRenderer().render(analysis.pricing)
        }
    }

    /// Where `searches.csv` stands among the files: after `report.json`.
    private static let searchesPosition = 3

    /// The paths of every file, `searches.csv` in its place, given the others (`reportFiles`).
    static func paths(_ reportFiles: [ReportFile]) -> [String] {
        var paths = reportFiles.map(\.path)
        paths.insert(searchesPath, at: searchesPosition)
        return paths
    }

    static let searchesPath = "searches.csv"

    /// Every file any `analyze --out` writes: those a new report does not write are an earlier
    /// report's, and are removed as it is swapped in (`ReportDirectoryWriter.replaces`).
    static let anyPaths = ["report.md", "report.html", "report.json", searchesPath, "costs.csv"] + ReportCharts.anyFiles

    /// Every file but `searches.csv`: what is rendered from the priced analysis.
    func reportFiles(_ analysis: Analysis) -> [ReportFile] {
        var files = [
            ReportFile(path: "report.md") { render(analysis, as: .md) },
            ReportFile(path: "report.html") { HTMLReportRenderer().render(analysis) },
            ReportFile(path: "report.json") { render(analysis, as: .json) },
            ReportFile(path: "costs.csv") { render(analysis, as: .csv) },
        ]
        for (path, chart) in ReportCharts.charts(analysis) {
            files.append(ReportFile(path: path) { SVGChartRenderer().render(chart) })
        }
        return files
    }

    /// `searches.csv`, streamed from the walks' rows: it can be written as soon as the walks are
    /// done, while the searches are priced (`Analyzer.Options.rowsReady`).
    /// Throws when the rows could not all be kept (a spill write failed).
    private static func checkKept(_ rows: SearchRows) throws {
        if let failure = rows.failure {
            throw SearchRowsError.notKept(directory: failure.directory, reason: String(cString: strerror(failure.errno)))
        }
    }

    static func searchesFile(_ rows: SearchRows, progress: (@Sendable (_ rows: Int, _ bytes: Int) -> Void)? = nil) -> ReportFile {
        guard rows.speculated != nil else {
            return ReportFile(path: searchesPath) { write in
                try checkKept(rows)
                try SearchesCSVWriter().write(rows, flush: write, progress: progress)
            }
        }
        return ReportFile(path: searchesPath, contents: .resumed { resume, write in
            try checkKept(rows)
            try withoutActuallyEscaping(resume) { resume in
                _ = try SearchesCSVWriter().write(rows, resume: resume, flush: write, progress: progress)
            }
        })
    }
}
