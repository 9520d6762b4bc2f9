/// What a Cloud Billing export says was billed for Places-related SKUs, read by
/// `BillingExportReader` and compared with the estimate by `BillReconciler`.
struct BilledUsage: Sendable, Equatable {
    /// The export layouts the reader knows, told from the header row (or the column count).
    enum Layout: String, Sendable, Equatable {
        /// Billing > Reports > cost table download: a `key,value` preamble, then 18 columns.
        case consoleCostTable = "console-cost-table"
        /// Billing > Reports > "Download CSV": 13 columns from `Date` to `Subtotal ($)`.
        case reportsPage = "reports-page"
        /// A BigQuery billing export table saved as CSV (dotted column names).
        case bigQueryCSV = "bigquery-csv"
        /// A BigQuery billing export saved as JSON Lines (nested objects or dotted keys).
        case bigQueryJSONLines = "bigquery-jsonl"
    }

    /// One SKU's usage over the whole file.
    struct SKU: Sendable, Equatable {
        /// The SKU description: the price tables' exact name when it matched one, else as billed.
        var sku: String
        var service: String
        /// The summed usage amount of the SKU's usage rows (credit rows carry none).
        var usageAmount: Double
        /// Cost before credits, in USD, as the bill lists it.
        var costUSD: Double
        /// Credits set against this SKU (zero or negative, as the bill shows them).
        var creditsUSD: Double

        init(sku: String, service: String, usageAmount: Double, costUSD: Double, creditsUSD: Double) {
            self.sku = sku
            self.service = service
            self.usageAmount = usageAmount
            self.costUSD = costUSD
            self.creditsUSD = creditsUSD
        }
    }

    /// The period the file covers: usage dates seen (`YYYY-MM-DD`) and invoice months (`YYYY-MM`).
    struct Period: Sendable, Equatable {
        var firstUsageDate: String?
        var lastUsageDate: String?
        var invoiceMonths: [String]
        /// Whether each row gave one date, the first of a month, and no end date: a reports page
        /// grouped by month, whose `Date` starts the month the row totals.
        var monthlyRows: Bool

        init(firstUsageDate: String? = nil, lastUsageDate: String? = nil, invoiceMonths: [String] = [], monthlyRows: Bool = false) {
            self.firstUsageDate = firstUsageDate
            self.lastUsageDate = lastUsageDate
            self.invoiceMonths = invoiceMonths
            self.monthlyRows = monthlyRows
        }

        /// The days the bill's usage covers, first and last included: its usage dates (through
        /// the end of the last month when its rows are months), else its invoice months whole;
        /// `nil` when it names neither.
        var coveredDays: ClosedRange<CivilDate>? {
            if let first = firstUsageDate.flatMap(Period.civil), let last = lastUsageDate.flatMap(Period.civil), first <= last {
                guard monthlyRows else { return first...last }
                return first...CivilDate(year: last.year, month: last.month, day: CivilDate.daysInMonth(year: last.year, month: last.month))
            }
            guard let first = invoiceMonths.first.flatMap({ Period.civil($0 + "-01") }),
                  let last = invoiceMonths.last.flatMap({ Period.civil($0 + "-01") }) else { return nil }
            return first...CivilDate(year: last.year, month: last.month, day: CivilDate.daysInMonth(year: last.year, month: last.month))
        }

        /// The calendar months (`YYYY-MM`) of `coveredDays`, in order.
        var coveredMonths: [String] {
            guard let days = coveredDays else { return [] }
            var months: [String] = []
            var (year, month) = (days.lowerBound.year, days.lowerBound.month)
            while (year, month) <= (days.upperBound.year, days.upperBound.month) {
                months.append(CivilDate(year: year, month: month, day: 1).monthText)
                (year, month) = month == 12 ? (year + 1, 1) : (year, month + 1)
            }
            return months
        }

        /// `YYYY-MM-DD` as a date; the reader only keeps dates a calendar has.
        static func civil(_ text: String) -> CivilDate? {
            let parts = text.split(separator: "-")
            guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
            return CivilDate(year: year, month: month, day: day)
        }
    }

    var file: String
    var layout: Layout
    /// Whether the columns were found by their English names or, for a localized console export,
    /// by position.
    var matchedByPosition: Bool
    /// Places-related SKUs, sorted by name.
    var skus: [SKU]
    var period: Period
    /// Rows of other services or SKUs (Maps, Routes, Compute...): counted, left out of the comparison.
    var otherServiceRows: Int
    var otherServiceCostUSD: Double
    /// Tax, rounding, total and subtotal rows skipped.
    var ignoredRows: Int
    /// Usage rows left out because a number in them could not be used: a cost that is not a
    /// number, or a cost, credit or usage amount that is not finite or out of the reader's range.
    var skippedRows: Int = 0
    /// `FILE:LINE: warning:` lines for the first skipped rows (`BillingExportReader.maxWarnings`).
    var warnings: [Diagnostic] = []
    /// The bill's currency when the file names one other than US dollars (`EUR` from the console
    /// export's preamble or BigQuery's `currency`, or a sign from a cost column, `€`): its costs
    /// (every `...USD` amount read from it) are then in that currency, and are not compared with
    /// the estimate's dollars. `nil` for US dollars, or a file that names no currency.
    var currency: String?

    /// Credits on Places-related SKUs (zero or negative).
    var creditsUSD: Double { skus.reduce(0) { $0 + $1.creditsUSD } }
    /// Cost of Places-related SKUs before credits.
    var costUSD: Double { skus.reduce(0) { $0 + $1.costUSD } }

    init(file: String, layout: Layout, matchedByPosition: Bool = false, skus: [SKU], period: Period,
                otherServiceRows: Int = 0, otherServiceCostUSD: Double = 0, ignoredRows: Int = 0,
                skippedRows: Int = 0, warnings: [Diagnostic] = [], currency: String? = nil) {
        self.file = file
        self.layout = layout
        self.matchedByPosition = matchedByPosition
        self.skus = skus
        self.period = period
        self.otherServiceRows = otherServiceRows
        self.otherServiceCostUSD = otherServiceCostUSD
        self.ignoredRows = ignoredRows
        self.skippedRows = skippedRows
        self.warnings = warnings
        self.currency = currency
    }
}
