import Foundation
import Testing
@testable import PlacesCostKit

/// Field names as clients really send them bill as their documented names: the legacy service's
/// older singular names (Google's own Python client sends `address_component`, `photo`, `review`)
/// and Places API (New) field masks written as proto paths (`display_name`), in every case.
@Suite("Field catalog")
struct FieldCatalogTests {
    /// (the name sent, the documented name it is).
    static let spellings: [(sent: String, documented: String)] = [
        ("address_component", "address_components"), ("photo", "photos"), ("review", "reviews"),
        ("permanently_closed", "business_status"),
        ("display_name", "displayName"), ("short_formatted_address", "shortFormattedAddress"),
        ("regular_opening_hours", "regularOpeningHours"), ("national_phone_number", "nationalPhoneNumber"),
        ("user_rating_count", "userRatingCount"), ("website_uri", "websiteUri"), ("adr_format_address", "adrFormatAddress"),
        ("editorial_summary", "editorialSummary"), ("good_for_children", "goodForChildren"), ("serves_beer", "servesBeer"),
        ("places.display_name", "displayName"), ("Formatted_Address", "formattedAddress"), ("geometry/location", "geometry"),
    ]

    @Test("Each spelling bills what its documented name bills, in both generations")
    func spellings() throws {
        for (sent, documented) in Self.spellings {
            let sentEntry = try #require(FieldCatalog.lookup(sent), "\(sent) unknown")
            let documentedEntry = try #require(FieldCatalog.lookup(documented), "\(documented) unknown")
            #expect(sentEntry.0 == documentedEntry.0 && sentEntry.1 == documentedEntry.1, "\(sent) against \(documented)")
        }
        // The New SKUs of the proto paths, as Google's table has the camelCase names.
        #expect(FieldCatalog.newSKU(["short_formatted_address", "location"]) == .essentials)
        #expect(FieldCatalog.newSKU(["display_name", "regular_opening_hours"]) == .enterprise)
        #expect(FieldCatalog.legacyCategories(["name", "review"]) == [.basic, .atmosphere])
    }

    @Test("An address-and-location mask in the older singular spelling needs no Place Details")
    func singularAddressOnly() {
        #expect(DetailsNeed.needsDetails(fields: ["address_component", "geometry"]) == false)
        #expect(DetailsNeed.needsDetails(fields: ["places.formatted_address", "location"]) == false)
        #expect(DetailsNeed.needsDetails(fields: ["address_component", "review"]) == true)
    }

    @Test("A legacy details call with the Python client's singular fields is priced and advised as the plural one")
    func pythonClientLog() throws {
        let directory = TemporaryDirectory()
        func log(_ fields: String) -> String {
            let records = (0..<3).flatMap { index -> [String] in
                let at = 600 * index
                return [
                    #"{"timestamp":"2026-10-01T09:\#(String(format: "%02d", at / 60)):01Z","api":"autocomplete","session_token":"t\#(index)","input_length":1}"#,
                    #"{"timestamp":"2026-10-01T09:\#(String(format: "%02d", at / 60)):02Z","api":"autocomplete","session_token":"t\#(index)","input_length":2}"#,
                    #"{"timestamp":"2026-10-01T09:\#(String(format: "%02d", at / 60)):05Z","api":"place_details","session_token":"t\#(index)","fields":\#(fields)}"#,
                ]
            }
            return directory.write("log-\(fields.count).jsonl", records.joined(separator: "\n") + "\n")
        }
        let singular = runCLI(["analyze", log(#"["address_component","geometry"]"#), "--pricing", "legacy-list", "--json", "--quiet"])
        let plural = runCLI(["analyze", log(#"["address_components","geometry/location"]"#), "--pricing", "legacy-list", "--json", "--quiet"])
        let a = try JSONSerialization.jsonObject(with: Data(singular.stdout.utf8)) as? [String: Any]
        let b = try JSONSerialization.jsonObject(with: Data(plural.stdout.utf8)) as? [String: Any]
        #expect((a?["recommendation"] as? NSDictionary)?["strategy"] as? String == "per_request_geocoding")
        #expect(a?["recommendation"] as? NSDictionary == b?["recommendation"] as? NSDictionary)
        #expect(a?["strategies"] as? NSArray == b?["strategies"] as? NSArray)
    }

    @Test("Unknown field names are noted with their calls, most first; only names shaped as fields are quoted")
    func unknownFieldsNoted() {
        let directory = TemporaryDirectory()
        let log = directory.write("log.jsonl", [
            #"{"timestamp":"2026-10-01T09:00:00Z","api":"autocomplete","session_token":"a","input_length":3}"#,
            #"{"timestamp":"2026-10-01T09:00:02Z","api":"place_details","session_token":"a","fields":["formatted_address","foo_bar","Geheimstrasse 4"]}"#,
            #"{"timestamp":"2026-10-01T09:10:02Z","api":"place_details","fields":["foo_bar","openning_hours"]}"#,
            #"{"timestamp":"2026-10-01T09:20:02Z","api":"place_details","fields":["display_name","review","*"]}"#,
        ].joined(separator: "\n") + "\n")
        let run = runCLI(["analyze", log, "--json"])
        #expect(run.code == .success, "\(run.stderr)")
        #expect(run.stderr.contains("Place Details field masks name fields no Google field list has: `foo_bar` (2 calls), `openning_hours` (1 call) and 1 more."), "\(run.stderr)")
        #expect(!run.stderr.contains("Geheimstrasse"))
        #expect(!runCLI(["analyze", log, "--json", "--quiet"]).stderr.contains("field list"))
        #expect(FieldCatalog.looksLikeFieldName("places.displayName") && FieldCatalog.looksLikeFieldName("geometry/location"))
        #expect(!FieldCatalog.looksLikeFieldName("Geheimstrasse 4") && !FieldCatalog.looksLikeFieldName("_x") && !FieldCatalog.looksLikeFieldName(""))
    }
}
