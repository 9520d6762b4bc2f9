import Foundation
import Testing
@testable import PlacesCostKit

@Suite("Price tables")
struct PriceTableLoaderTests {
    let loader = PriceTableLoader()

    @Test("Every file in Pricing/ decodes, and the embedded copy is the same text")
    func bundledTables() throws {
        let directory = packageRoot + "/Pricing"
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }.sorted()
        #expect(names == ["legacy-2018.json", "legacy-2025.json", "legacy-list.json", "places-new-2025.json"])
        for name in names {
            let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
            let table = try loader.decode(Data(text.utf8), source: name)
            #expect(table.id + ".json" == name)
            let embedded = BundledPriceTables.files.first { $0.id == table.id }?.json
            #expect(embedded.map { $0 + "\n" } == text, "Pricing/\(name) changed: run python3 scripts/embed-pricing.py")
            // A price is confirmed exactly when it comes from the seeds or Google's own page
            // (docs/billing.md): `[seed]` and `[G]` are; `[T]`, a third party's copy, and
            // `[inferred]`, a band Google does not publish, are not.
            for sku in table.skus {
                for tier in sku.tiers {
                    let tag = tier.source.prefix { $0 != "]" } + "]"
                    #expect(["[seed]", "[G]", "[T]", "[inferred]"].contains(tag), "\(name) \(sku.name): \(tier.source)")
                    #expect(tier.confirmed == (tag == "[seed]" || tag == "[G]"), "\(name) \(sku.name): \(tag) but confirmed \(tier.confirmed)")
                }
            }
        }
    }

    func rejection(_ edit: (inout [String: Any]) -> Void) throws -> String {
        let text = try String(contentsOfFile: packageRoot + "/Pricing/legacy-list.json", encoding: .utf8)
        var object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        edit(&object)
        let data = try JSONSerialization.data(withJSONObject: object)
        do {
            _ = try loader.decode(data, source: "mine.json")
            return "accepted"
        } catch let error as PricingError {
            let advice = " Fix the table (`placescost pricing show legacy-list --json` prints a valid one to start from)."
            #expect(error.description.hasSuffix(advice))
            return String(error.description.dropLast(advice.count))
        }
    }

    @Test("Schema errors name the key path")
    func errors() throws {
        #expect(try rejection { $0["discount"] = 0.1 } .hasPrefix("mine.json: at `discount`: unknown key"))
        #expect(try rejection { $0["schema_version"] = 2 } == "mine.json: at `schema_version`: version 2 is not supported; this placescost reads version 1.")
        #expect(try rejection { $0["currency"] = "EUR" } .hasPrefix("mine.json: at `currency`: must be USD"))
        #expect(try rejection { $0["effective_to"] = "2017-01-01" } .hasPrefix("mine.json: at `effective_to`: the table's last day, 2017-01-01, comes before its first, 2018-07-16."))
        // Words shown as they are may not break or rearrange their line.
        for text in ["Mine\n# Injected heading", "tab\there", "\u{202E}gnp.exe", "bell\u{07}", "nel\u{85}"] {
            #expect(try rejection { $0["title"] = text } .hasPrefix("mine.json: at `title`: holds a line break"), "\(text.debugDescription)")
            #expect(try rejection { $0["notes"] = ["fine", text] } .hasPrefix("mine.json: at `notes[1]`: holds a line break"))
            #expect(try rejection { object in
                var skus = object["skus"] as! [[String: Any]]
                var tiers = skus[2]["tiers"] as! [[String: Any]]
                tiers[0]["source"] = text
                skus[2]["tiers"] = tiers
                object["skus"] = skus
            } .hasPrefix("mine.json: at `skus[2].tiers[0].source`: holds a line break"))
        }
        #expect(try rejection { $0["title"] = "Négocié <b>prix</b> | 東京 🚀" } == "accepted")
        #expect(try rejection { object in
            var skus = object["skus"] as! [[String: Any]]
            var tiers = skus[3]["tiers"] as! [[String: Any]]
            tiers[0]["usd_per_1000"] = "cheap"
            skus[3]["tiers"] = tiers
            object["skus"] = skus
        } == "mine.json: at `skus[3].tiers[0].usd_per_1000`: expected a number.")
        #expect(try rejection { object in
            var skus = object["skus"] as! [[String: Any]]
            skus[0]["price"] = 1
            object["skus"] = skus
        } .hasPrefix("mine.json: at `skus[0].price`: unknown key"))
        #expect(try rejection { object in
            var skus = object["skus"] as! [[String: Any]]
            skus.removeLast()
            object["skus"] = skus
        } == "mine.json: at `skus`: a legacy table must bill geocoding.")
    }

    @Test("A user's table with discounted prices is used by --pricing FILE")
    func userTable() throws {
        let directory = TemporaryDirectory()
        var text = try String(contentsOfFile: packageRoot + "/Pricing/legacy-list.json", encoding: .utf8)
        text = text.replacingOccurrences(of: "\"id\": \"legacy-list\"", with: "\"id\": \"negotiated\"")
            .replacingOccurrences(of: "\"usd_per_1000\": 2.83", with: "\"usd_per_1000\": 1.415")
        let file = directory.write("negotiated.json", text)
        let result = runCLI(["simulate", "--pricing", file, "--chars", "4", "--completion-rate", "0", "--searches", "1000", "--json"])
        #expect(result.code == .success)
        #expect(result.stdout.contains("\"id\": \"negotiated\""))
        #expect(result.stdout.contains("\"list_cost_usd\": 5.66"))  // 4,000 requests at $1.415
        #expect(runCLI(["simulate", "--pricing", "nonesuch"]).code == .usage)
        // A path that is not there is a missing input (66), in every command that takes a table.
        for missing in [directory.path + "/gone.json", "gone.json", "tables/gone"] {
            for command in [["simulate"], ["analyze", "SampleLogs"], ["sql", "--dialect", "duckdb"], ["pricing", "show"]] {
                let arguments = command == ["pricing", "show"] ? command + [missing] : command + ["--pricing", missing]
                let result = runCLI(arguments, workingDirectory: packageRoot)
                #expect(result.code == .noInput, "\(arguments)")
                #expect(result.stderr == "placescost: error: cannot read the price table \(missing): there is no such file. Check the --pricing path, or pass a bundled table id (`placescost pricing list`).\n", "\(arguments)")
            }
        }
        // A `|` in the table's words stays in its cell of `pricing show`.
        let piped = directory.write("piped.json", text.replacingOccurrences(of: "[seed] Places SDK for iOS guide, cost optimization example", with: "ours | negotiated"))
        let shown = runCLI(["pricing", "show", piped]).stdout
        #expect(shown.contains("| 1.415 | yes | ours \\| negotiated |") && !shown.contains("ours | negotiated"))
        let broken = directory.write("broken.json", "{\"schema_version\": 1}")
        #expect(runCLI(["simulate", "--pricing", broken]).code == .dataError)
    }

    @Test("pricing list and pricing show")
    func commands() {
        let list = runCLI(["pricing", "list"])
        #expect(list.code == .success)
        #expect(list.stdout.contains("| `places-new-2025` | new | 2025-03-01 | in force |"))
        let show = runCLI(["pricing", "show", "legacy-2018"])
        #expect(show.stdout.contains("| Places Details | 0 | 0-100,000 | 17 | yes |"))
        #expect(show.stdout.contains("Break-even: 4.24 autocomplete calls per search."))
        #expect(runCLI(["pricing", "show"]).code == .usage)
    }

    @Test("pricing show ID --json prints a table that loads back as the same table: the start of your own, as the table errors advise")
    func showJSONLoadsBack() throws {
        let loader = PriceTableLoader()
        let directory = TemporaryDirectory()
        for table in try loader.bundled() {
            let run = runCLI(["pricing", "show", table.id, "--json"])
            #expect(run.code == .success, "\(run.stderr)")
            let path = directory.write("\(table.id).json", run.stdout)
            #expect(try loader.load(path) == table, "\(table.id)")
        }
    }
}
