/// Renders `costs.csv` (`docs/cli.md`): one row per month, strategy, delay and SKU, sorted in
/// that order (months by date, strategy ids and SKU names as text, delays as numbers).
///
/// A month billed under the 2018 legacy prices gets a `Monthly credit` row with a negative
/// `cost_usd`, so each strategy's rows add up to its `cost_usd` in `report.json`. `count` is the
/// log's; `billed_count` the events the money is for, `count` times `--scale`, so that
/// `billed_count` at the SKU's prices gives the row's cost.
///
/// The first seven columns are the contract's (`month,strategy,delay,sku,count,list_cost_usd,
/// cost_usd`), in its order, so a reader that takes them by position reads them right; what this
/// tool adds comes after them.
struct CostsCSVRenderer: Sendable {
    static let header = ["month", "strategy", "delay", "sku", "count", "list_cost_usd", "cost_usd", "billed_count"]
    static let creditRow = "Monthly credit"

    init() {}

    func render(_ pricing: PricingResult) -> String {
        struct Row {
            var month: Int
            var strategy: String
            var delay: Int
            var sku: String
            var cells: [String]
        }
        var monthOrder: [String: Int] = [:]
        for cost in pricing.strategies {
            for month in cost.months where monthOrder[month.month] == nil {
                monthOrder[month.month] = monthOrder.count
            }
        }
        var rows: [Row] = []
        for cost in pricing.strategies {
            for month in cost.months {
                var merged: [String: (count: Int, list: Double, billed: Double)] = [:]
                for line in month.lines {
                    let sum = merged[line.sku] ?? (0, 0, 0)
                    merged[line.sku] = (sum.count + line.count, sum.list + line.listCostUSD, sum.billed + line.costUSD)
                }
                if month.creditUSD > 0 { merged[CostsCSVRenderer.creditRow] = (0, 0, -month.creditUSD) }
                for (sku, sum) in merged {
                    rows.append(Row(
                        month: monthOrder[month.month]!, strategy: cost.strategy.rawValue, delay: cost.delay, sku: sku,
                        cells: [month.month, cost.strategy.rawValue, String(cost.delay), sku, String(sum.count),
                                JSONValue.format(sum.list), JSONValue.format(sum.billed), JSONValue.format(Double(sum.count) * pricing.scale)]
                    ))
                }
            }
        }
        rows.sort { ($0.month, $0.strategy, $0.delay, $0.sku) < ($1.month, $1.strategy, $1.delay, $1.sku) }
        return CSVText.document(header: CostsCSVRenderer.header, rows: rows.map(\.cells))
    }
}
