import Foundation
import Testing
@testable import PlacesCostKit

@Suite("CSV reports")
struct CSVReportTests {
    func analyze(_ records: [TestRecord], pricing: String? = nil, scale: Double = 1) throws -> Analysis {
        let directory = TemporaryDirectory()
        let file = directory.write("log.jsonl", records.map(\.jsonLine).joined(separator: "\n") + "\n")
        var options = Analyzer.Options()
        options.pricing = pricing
        options.costs.scale = scale
        options.keepSearches = true
        return try Analyzer(options: options).analyze(paths: [file]).0
    }

    /// Splits a CSV written by the renderers (no quoted line breaks in these tests).
    func rows(_ text: String) -> [[String]] {
        text.split(separator: "\n").map { line in
            var fields: [String] = []
            var field = ""
            var quoted = false
            var previous: Character = " "
            for character in line {
                if character == "\"" {
                    if quoted, previous == "\"" { field.append("\"") }
                    quoted.toggle()
                } else if character == ",", !quoted {
                    fields.append(field)
                    field = ""
                } else {
                    field.append(character)
                }
                previous = character
            }
            fields.append(field)
            return fields
        }
    }

    var log: [TestRecord] {
        [
            ac(0, "secret-token-1", "1600 Am", user: "alice@example.com"), ac(1, "secret-token-1", "1600 Amp", user: "alice@example.com"),
            details(2, "secret-token-1", fields: nil),
            ac(10, "secret-token-1", "again"),  // reused
            ac(100, nil, "pizza", user: "bob"), geocode(101, user: "bob"),
            ac(40 * 86_400, "secret-token-2", "x"),  // the next month, abandoned
        ]
    }

    @Test("searches.csv: one row per search, keyed pseudonyms of ids, no typed text or raw token")
    func searches() throws {
        let analysis = try analyze(log)
        let text = SearchesCSVRenderer(pseudonymizer: Pseudonymizer(key: Array("team secret".utf8))).render(analysis.sessions.keptSearches, listCosts: analysis.searchListCosts)
        let table = rows(text)
        #expect(table[0] == SearchesCSVRenderer.header)
        #expect(table.count - 1 == analysis.statistics.total)
        for secret in ["secret-token", "alice", "1600", "pizza", "again"] {
            #expect(!text.contains(secret), "\(secret) leaked")
        }
        let first = table[1]
        #expect(first[0] == "1")
        let keyed = Pseudonymizer(key: Array("team secret".utf8))
        #expect(first[1] == keyed.pseudonym("secret-token-1"))
        #expect(first[2] == keyed.pseudonym("alice@example.com"))
        // Not the plain hash, which anyone could compute from a guessed id.
        #expect(first[2] != String(SHA256.hex("alice@example.com").prefix(16)))
        // Another key, other pseudonyms: nothing about them follows from the ids alone.
        let other = SearchesCSVRenderer(pseudonymizer: Pseudonymizer(key: PseudonymKeyStore.randomKey()))
            .render(analysis.sessions.keptSearches, listCosts: analysis.searchListCosts)
        #expect(rows(other)[1][2] != first[2] && rows(other)[1][2].count == 16)
        #expect(first[3] == "2026-10-01T09:00:00.000Z" && first[4] == "2026-10-01T09:00:02.000Z")
        #expect(first[5] == "2" && first[6] == "8" && first[7] == "true" && first[8] == "" && first[9] == "fields_unspecified")
        // Legacy 2025 list: Places Details 17 + Contact 3 + Atmosphere 5 per 1,000; the session itself is free.
        #expect(first[10] == "0.025")
        let kinds = table.dropFirst().map { $0[9] }
        #expect(kinds.contains("token_reused") && kinds.contains("no_token_requests"))
        let sum = table.dropFirst().reduce(0.0) { $0 + Double($1[10])! }
        #expect(abs(sum - analysis.searchListCosts.reduce(0, +)) < 1e-9)
    }

    @Test("costs.csv: sorted rows that add up to every strategy's bill and list cost, month by month")
    func costs() throws {
        let analysis = try analyze(log, pricing: "legacy-2018")
        let table = rows(CostsCSVRenderer().render(analysis.pricing))
        #expect(table[0] == CostsCSVRenderer.header)
        // The contract's seven columns first, in its order (a reader by position reads them right).
        #expect(Array(table[0].prefix(7)) == ["month", "strategy", "delay", "sku", "count", "list_cost_usd", "cost_usd"])
        let body = Array(table.dropFirst())
        let keys = body.map { ($0[0], $0[1], Int($0[2])!, $0[3]) }
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 }, "rows sorted by month, strategy, delay, sku, and unique")
        for cost in analysis.pricing.strategies {
            for month in cost.months {
                let lines = body.filter { $0[0] == month.month && $0[1] == cost.strategy.rawValue && Int($0[2]) == cost.delay }
                #expect(abs(lines.reduce(0.0) { $0 + Double($1[6])! } - month.costUSD) < 1e-5)
                #expect(abs(lines.reduce(0.0) { $0 + Double($1[5])! } - month.listCostUSD) < 1e-5)
            }
        }
        // The 2018 table's $200 credit covers this small bill: a negative credit row balances it.
        let credit = try #require(body.first { $0[1] == "current" && $0[2] == "0" && $0[3] == CostsCSVRenderer.creditRow })
        #expect(Double(credit[6])! < 0)
        #expect(Set(body.map(\.[0])) == ["2026-10", "2026-11"])
    }

    @Test("costs.csv under --scale: billed_count is the log's count times the scale, and at the list price gives the list cost")
    func scaledCounts() throws {
        let analysis = try analyze(log, pricing: "legacy-2025", scale: 300)
        let body = rows(CostsCSVRenderer().render(analysis.pricing)).dropFirst()
        let table = try #require(analysis.pricing.tables["legacy-2025"])
        #expect(!body.isEmpty)
        for row in body where row[3] != CostsCSVRenderer.creditRow {
            let count = try #require(Double(row[4])), billed = try #require(Double(row[7]))
            #expect(billed == count * 300, "\(row)")
            // Inside the first tier, billed_count events at the SKU's list price are the list cost.
            let sku = try #require(table.skus.first { $0.name == row[3] })
            #expect(abs(billed * sku.tiers[0].usdPer1000 / 1000 - Double(row[5])!) < 1e-9, "\(row)")
        }
    }
}
