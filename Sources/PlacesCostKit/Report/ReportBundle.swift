/// Every file `analyze --out DIR` writes, rendered in memory: `report.md`, `report.json`,
/// `searches.csv`, `costs.csv` and the charts `report.md` links to.
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

    /// Keyed for `searches.csv`'s pseudonyms; only `files` needs it.
    var pseudonymizer: Pseudonymizer?

    init(pseudonymizer: Pseudonymizer? = nil) {
        self.pseudonymizer = pseudonymizer
    }

    /// What `--report format` prints: the same text `--out` writes to `format.fileName`.
    func render(_ analysis: Analysis, as format: Format) -> String {
        switch format {
        case .md: MarkdownReportRenderer().render(analysis) + "\n"
        case .json: JSONReportRenderer().render(analysis)
        case .csv: CostsCSVRenderer().render(analysis.pricing)
        }
    }

    /// Every file, as (path relative to the output directory, contents).
    ///
    /// - Precondition: `pseudonymizer` is set.
    func files(_ analysis: Analysis) -> [(path: String, contents: String)] {
        guard let pseudonymizer else { preconditionFailure("ReportBundle.files needs the pseudonym key of searches.csv") }
        var files: [(String, String)] = [
            ("report.md", render(analysis, as: .md)),
            ("report.json", render(analysis, as: .json)),
            ("searches.csv", SearchesCSVRenderer(pseudonymizer: pseudonymizer).render(analysis.sessions.keptSearches, listCosts: analysis.searchListCosts)),
            ("costs.csv", render(analysis, as: .csv)),
        ]
        let renderer = SVGChartRenderer()
        for (path, chart) in ReportCharts.charts(analysis) {
            files.append((path, renderer.render(chart)))
        }
        return files
    }
}
