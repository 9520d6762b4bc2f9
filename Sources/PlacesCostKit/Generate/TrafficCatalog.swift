/// The places, regions and field masks generated traffic is made of (after `scripts/make_sample_logs.py`).
struct TrafficCatalog: Sendable {
    struct Region: Sendable {
        /// UTC offset in October 2026, in hours.
        var utcOffset: Double
        var share: Double
        /// Indexes into `queries`.
        var queries: [Int]
    }

    struct Query: Sendable {
        var text: String
        var utf8: [UInt8]
        /// The UTF-8 byte length of each prefix of 1, 2, ... Unicode scalars.
        var prefixBytes: [Int32]
        /// The 27-character place ID a selection of this query fetches.
        var placeID: [UInt8]
    }

    /// Field masks with their share of selections, as GMSPlaceProperty names and as the legacy web
    /// service names an access log shows.
    static let masks: [(share: Double, sdk: [String], web: [String])] = [
        (0.45, ["formattedAddress", "coordinate"], ["formatted_address", "geometry/location"]),
        (0.25, ["placeID", "formattedAddress", "addressComponents", "coordinate"], ["place_id", "formatted_address", "address_components", "geometry/location"]),
        (0.12, ["name", "formattedAddress", "coordinate", "openingHours", "phoneNumber"], ["name", "formatted_address", "geometry/location", "opening_hours", "formatted_phone_number"]),
        (0.08, ["name", "rating", "photos"], ["name", "rating", "photos"]),
        (0.07, ["name", "formattedAddress", "coordinate"], ["name", "formatted_address", "geometry/location"]),
    ]
    /// Share of selections that send no field mask at all (bills every field).
    static let noMaskShare = 0.03

    static let regionTable: [(offset: Double, share: Double, queries: [String])] = [
        (-7, 0.12, ["1600 Amphitheatre Pkwy", "1 Infinite Loop", "Golden Gate Bridge", "Pike Place Market", "2211 N First St San Jose", "Ferry Building", "Starbucks Reserve Roastery"]),
        (-4, 0.12, ["350 5th Ave", "JFK Terminal 4", "Union Station Chicago", "500 Boylston St", "Walgreens Mission St", "Grand Central Terminal"]),
        (1, 0.09, ["221B Baker Street", "10 Downing Street", "King's Cross Station", "Tate Modern", "Borough Market", "Heathrow Terminal 5"]),
        (2, 0.08, ["Rue de Rivoli 99", "Café de Flore", "Gare de Lyon", "Musée d'Orsay", "12 rue de la Paix", "Boulangerie Poilâne"]),
        (2, 0.08, ["Brandenburger Tor", "Friedrichstraße 43", "Hauptbahnhof München", "Kölner Dom", "Schönhauser Allee 36"]),
        (2, 0.05, ["Sagrada Família", "Plaça de Catalunya", "Calle de Alcalá 42"]),
        (2, 0.06, ["Kraków Główny", "Rynek Główny 1", "Łazienki Królewskie", "ul. Marszałkowska 104"]),
        (3, 0.07, ["İstiklal Caddesi", "Kadıköy İskele", "Ayasofya", "Bağdat Caddesi 300"]),
        (3, 0.05, ["הכותל המערבי", "דיזנגוף סנטר", "רחוב יפו 97 ירושלים"]),
        (4, 0.06, ["مول الإمارات", "برج خليفة", "دبي مول", "شارع الشيخ زايد"]),
        (5.5, 0.07, ["नई दिल्ली रेलवे स्टेशन", "इंडिया गेट", "चांदनी चौक", "Connaught Place", "MG Road Bengaluru"]),
        (9, 0.07, ["東京タワー", "渋谷駅", "新宿御苑", "大阪城", "東京都港区芝公園4-2-8"]),
        (-3, 0.08, ["São Paulo Museu", "Avenida Paulista 1578", "Praça da Sé", "Estação da Luz"]),
    ]
    /// Typed rarely, by anyone: emoji in the search field.
    static let emojiQueries = ["🍕 Pizza Napoli", "Café ☕️ Central", "🏖️ Copacabana Beach"]

    /// Relative activity by local hour: quiet at night, busy at midday and early evening.
    static let hourWeights: [Double] = [1, 0.5, 0.3, 0.2, 0.2, 0.4, 1.5, 3, 5, 5, 5, 6, 7, 6, 5, 5, 6, 8, 8, 7, 6, 4, 3, 2]

    var regions: [Region] = []
    var queries: [Query] = []
    var emoji: [Int] = []
    /// Relative activity by UTC hour, summed over the regions.
    var utcHourWeights: [Double] = []

    /// - Parameter random: draws the place IDs, so they depend on the seed.
    init(random: inout SeededRandom) {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        func add(_ text: String) -> Int {
            var prefix: [Int32] = []
            var bytes: Int32 = 0
            for scalar in text.unicodeScalars {
                bytes += Int32(String(scalar).utf8.count)
                prefix.append(bytes)
            }
            let placeID = Array("ChIJ".utf8) + (0..<23).map { _ in alphabet[random.below(alphabet.count)] }
            queries.append(Query(text: text, utf8: Array(text.utf8), prefixBytes: prefix, placeID: placeID))
            return queries.count - 1
        }
        for entry in TrafficCatalog.regionTable {
            regions.append(Region(utcOffset: entry.offset, share: entry.share, queries: entry.queries.map(add)))
        }
        emoji = TrafficCatalog.emojiQueries.map(add)
        var weights = [Double](repeating: 0, count: 24)
        for region in regions {
            for hour in 0..<24 {
                let local = Int((Double(hour) + region.utcOffset + 48).rounded(.down)) % 24
                weights[hour] += region.share * TrafficCatalog.hourWeights[local]
            }
        }
        utcHourWeights = weights
    }
}
