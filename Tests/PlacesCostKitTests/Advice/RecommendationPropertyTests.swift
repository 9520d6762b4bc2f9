import Testing
@testable import PlacesCostKit

/// Over generated logs of several shapes, at volumes from inside the free caps to millions of
/// searches a month, with the automatic tables: the headline never recommends paying more, and
/// never an option dearer than the cheapest valid one, the calls as made with a delay included
/// (`docs/recommendation.md`).
@Suite("The recommendation follows the money")
struct RecommendationPropertyTests {
    static let seeds = [3, 17, 29]
    static let scales = [1.0, 25, 400, 6_000]

    /// Kept for the whole run: the directory is removed when released.
    static let directory = TemporaryDirectory()

    static let logs: [String] = {
        seeds.map { seed in
            let result = runCLI(["generate", "--searches", "1500", "--seed", String(seed), "--days", seed == 17 ? "45" : "20"])
            return directory.write("generated-\(seed).jsonl", result.stdout)
        }
    }()

    @Test("never more than the calls as made, never more than the cheapest valid option", arguments: [nil, false] as [Bool?])
    func neverPayMore(needsDetails: Bool?) throws {
        for log in RecommendationPropertyTests.logs {
            for scale in RecommendationPropertyTests.scales {
                var options = Analyzer.Options()
                options.needsDetails = needsDetails
                options.costs.scale = scale
                let analysis = try Analyzer(options: options).analyze(paths: [log]).0
                let advice = analysis.recommendation
                let context = "\(log) at --scale \(scale)"
                let bill = { (strategy: StrategyID, delay: Int) in Money.micros(analysis.pricing.cost(strategy, delay: delay)!.costUSD) }
                let recommended = bill(advice.strategy, advice.delay)
                let current = bill(.current, 0)
                #expect(recommended <= current, "\(context)")
                #expect(advice.recommended.savingsUSDPerMonth >= -1e-9, "\(context)")
                // Every valid option up to --max-delay, the calls as made with a delay included.
                let valid = analysis.pricing.strategies.filter { $0.valid && $0.delay <= advice.evidence.maxDelay }
                let cheapest = valid.map { Money.micros($0.costUSD) }.min()!
                if cheapest < current {
                    #expect(!advice.keepsCurrent && recommended == cheapest, "\(context)")
                    #expect(analysis.pricing.cost(advice.strategy, delay: advice.delay)!.valid, "\(context)")
                    #expect(advice.strategy != .current || advice.delay > 0, "\(context)")
                } else {
                    #expect(advice.keepsCurrent && advice.strategy == .current && advice.delay == 0, "\(context)")
                }
            }
        }
    }

    @Test("a bill re-priced at another scale is the bill priced at that scale")
    func rebilling() throws {
        let log = RecommendationPropertyTests.logs[1]
        var options = Analyzer.Options()
        options.costs.scale = 3
        let base = try Analyzer(options: options).analyze(paths: [log]).0.pricing
        for cost in base.strategies {
            #expect(abs(base.costUSD(of: cost, atScale: 3) - cost.costUSD) <= 1e-9 * max(1, cost.costUSD))
        }
        for scale in [0.5, 70, 2_500] {
            options.costs.scale = scale
            let scaled = try Analyzer(options: options).analyze(paths: [log]).0.pricing
            for (cost, expected) in zip(base.strategies, scaled.strategies) {
                #expect(abs(base.costUSD(of: cost, atScale: scale) - expected.costUSD) <= 1e-9 * max(1, expected.costUSD), "\(cost.strategy) delay \(cost.delay) at \(scale)")
            }
        }
    }

    @Test("the chart shows the ranking table's options, in its order, with its figure")
    func chartFollowsTable() throws {
        for scale in RecommendationPropertyTests.scales {
            var options = Analyzer.Options()
            options.costs.scale = scale
            let analysis = try Analyzer(options: options).analyze(paths: [RecommendationPropertyTests.logs[0]]).0
            let advice = analysis.recommendation
            let chart = ReportCharts.strategyChart(advice)
            let markdown = MarkdownReportRenderer().render(analysis)
            let table = markdown.components(separatedBy: "## Strategies ranked by the bill")[1].components(separatedBy: "![")[0]
            let rows = table.split(separator: "\n").filter { $0.hasPrefix("| ") && $0.contains("`") }
            #expect(rows.count == chart.bars.count)
            let list = ReportCharts.chartsListPrices(advice)
            for (row, (bar, option)) in zip(rows, zip(chart.bars, advice.highlights)) {
                #expect(row.contains("| `\(option.strategy.rawValue)`") && row.contains("| \(option.delay) |"))
                #expect(bar.label.hasPrefix(option.strategy.rawValue + (option.delay > 0 ? ", delay \(option.delay)" : "")))
                #expect(bar.valueLabel == Money.usd(list ? option.listCostUSD : option.costUSD))
            }
            #expect(chart.title.contains("list prices") == list)
            #expect(markdown.contains("![\(chart.title)]"))
        }
    }
}
