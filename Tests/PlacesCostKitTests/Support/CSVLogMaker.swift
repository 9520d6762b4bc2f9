import Foundation
@testable import PlacesCostKit

/// Random canonical CSV logs, clean or adversarial, as bytes, for the tests that hold the block
/// path (`CSVBoundaryFinder`, `FastCSVRowDecoder`) to the line reader.
struct CSVLogMaker {
    var random: SeededRandom
    /// The chance that a row is damaged (a stray or unbalanced quote, a bad cell, a wrong cell count...).
    var damage: Double
    private(set) var columns: [String] = []
    private var at = 0

    init(seed: UInt64, damage: Double) {
        random = SeededRandom(seed: seed)
        self.damage = damage
    }

    mutating func pick<T>(_ options: [T]) -> T { options[random.below(options.count)] }

    /// A header: the required columns and a random choice of the others (some by their aliases,
    /// some quoted or padded), and unknown ones, in a random order.
    mutating func header() -> [UInt8] {
        var names = ["timestamp", "api"]
        let optional: [[String]] = [["session_token", "sessionToken"], ["input"], ["place_id", "placeId"], ["fields"],
                                    ["api_version", "apiVersion"], ["user_id", "userId"], ["project"], ["platform"], ["status"], ["note"], ["extra"]]
        for spellings in optional where random.chance(0.75) { names.append(pick(spellings)) }
        for index in names.indices.reversed() {
            names.swapAt(index, random.below(index + 1))
        }
        columns = names
        let cells = names.map { name -> String in
            if random.chance(0.05) { return "\"\(name)\"" }
            if random.chance(0.05) { return " \(name) " }
            return name
        }
        return Array(cells.joined(separator: ",").utf8)
    }

    mutating func timestamp() -> String {
        at += random.below(4000)
        let seconds = 1_790_845_200 + at / 1000
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        let stamp = "\(parts.year!)-\(two(parts.month))-\(two(parts.day))T\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
        switch random.below(10) {
        case 0: return String(1_790_845_200_000 + at)
        case 1: return stamp + "+00:00"
        case 2: return stamp + "." + String(format: "%06d", at % 1_000_000) + "Z"
        case 3: return stamp.replacingOccurrences(of: "T", with: " ") + "Z"
        default: return stamp + "." + String(format: "%03d", at % 1000) + "Z"
        }
    }

    mutating func text(_ alphabet: [String], length: Int) -> String {
        (0..<length).map { _ in pick(alphabet) }.joined()
    }

    /// A cell's text as written: quoted when it must be, sometimes when it need not be.
    mutating func cell(_ text: String) -> String {
        let needs = text.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard needs || random.chance(0.08) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    mutating func value(_ column: String) -> String {
        switch column {
        case "timestamp": return timestamp()
        case "api":
            return pick(["autocomplete", "autocomplete", "autocomplete", "place_details", "place_details", "geocoding",
                         "findAutocompletePredictions", "fetchPlace", "AutocompletePlaces", "text_search", "nearby_search", "Autocomplete"])
        case "session_token", "sessionToken":
            return random.chance(0.15) ? "" : "6513270e-269e-4d37-b2a7-4de452e6b4\(random.below(40) + 10)"
        case "input":
            if random.chance(0.1) { return "" }
            let alphabet = random.chance(0.2) ? ["a", "é", "Ł", ",", "\"", " ", "\n", "\r\n", "🍕", "z"] : ["a", "b", "c", "1", " "]
            return text(alphabet, length: random.below(14))
        case "place_id", "placeId": return random.chance(0.5) ? "" : "ChIJN1t_tDeuEmsRUsoyG83frY\(random.below(9))"
        case "fields":
            return pick(["", "", "formattedAddress", "formattedAddress|coordinate", "place_id,geometry", " a | b ", "|", "displayName, rating", "[\"a\"]"])
        case "api_version", "apiVersion": return pick(["", "", "legacy", "new", "NEW", "Legacy", "v3"])
        case "user_id", "userId": return random.chance(0.3) ? "" : "u-\(random.below(30))"
        case "project": return pick(["", "", "p1", "p2"])
        case "platform": return pick(["", "ios", "android", "web", "IOS"])
        case "status": return pick(["", "OK", "OK", "ZERO_RESULTS", "200"])
        default: return random.chance(0.5) ? "" : text(["x", "y", ",", "\"", "\n", "é"], length: random.below(6))
        }
    }

    /// One row, clean or (with the damage chance) damaged.
    mutating func row() -> [UInt8] {
        var cells = columns.map { cell(value($0)) }
        if random.chance(0.02) {
            // A long row: a long input in a quoted cell.
            if let index = columns.firstIndex(of: "input") { cells[index] = cell(text(["a", "b", ",", "\n", "é"], length: 2000 + random.below(30_000))) }
        }
        guard random.chance(damage) else { return Array(cells.joined(separator: ",").utf8) }
        let target = random.below(cells.count)
        switch random.below(14) {
        case 0: cells[target] = "\"" + cells[target]  // a quote that may never close
        case 1: cells[target] = "x\"" + cells[target]  // a quote inside a plain cell: text
        case 2: cells[target] = "\"ab\"c"  // text after a closing quote
        case 3: cells.removeLast()
        case 4: cells.append("extra")
        case 5: cells[columns.firstIndex(of: "timestamp")!] = pick(["yesterday", "", "2026-13-01T00:00:00Z", "99999999999999999999", "2026-10-01T09:00:00"])
        case 6: cells[columns.firstIndex(of: "api")!] = ""
        case 7: cells[target] = "\"" + cells[target] + "\n"  // a quoted cell spanning into the next row
        case 8: cells[target] += "\"\""  // a doubled quote in a plain cell
        case 9: cells[target] = "\"a\"\"b\""  // an escaped quote
        case 10: cells[target] = "\",\""
        case 11: cells[target] = "\""
        default:
            // Invalid UTF-8 or a NUL byte, in a known or an unknown cell.
            var bytes = Array(cells.joined(separator: ",").utf8)
            let start = cells[..<target].reduce(0) { $0 + $1.utf8.count + 1 }
            let insert: [UInt8] = pick([[0xC3, 0x28], [0xFF], [0x00], [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0x8D]])
            bytes.insert(contentsOf: insert, at: min(bytes.count, start + random.below(cells[target].utf8.count + 1)))
            return bytes
        }
        return Array(cells.joined(separator: ",").utf8)
    }

    /// A whole log: maybe a byte-order mark and blank lines, the header, rows with blank lines,
    /// repeats and CRLF line ends among them, maybe an unbalanced quote at the end, maybe no final newline.
    mutating func log(rows: Int) -> [UInt8] {
        var bytes: [UInt8] = random.chance(0.2) ? [0xEF, 0xBB, 0xBF] : []
        let crlf = random.chance(0.3)
        let end: [UInt8] = crlf ? [0x0D, 0x0A] : [0x0A]
        if random.chance(0.15) { bytes += end + Array("  ".utf8) + end }
        bytes += header() + end
        var previous: [UInt8] = []
        for _ in 0..<rows {
            if random.chance(0.03) {
                bytes += pick([[], Array(" \t".utf8), [0x0D]]) + end
                continue
            }
            let line = random.chance(0.04) && !previous.isEmpty ? previous : row()
            bytes += line + (random.chance(0.05) ? [0x0A] : end)
            previous = line
        }
        if random.chance(0.15) { bytes += Array("\"unbalanced,at the end".utf8) + end }
        if random.chance(0.2), bytes.last == 0x0A { bytes.removeLast() }
        return bytes
    }
}
