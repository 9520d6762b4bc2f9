/// Writes generated calls as a canonical JSON Lines or CSV log, an nginx combined access log, or
/// a browser's HAR capture of a web page on the Maps JavaScript API (`+BrowserHAR`).
///
/// Records are built as bytes into one buffer handed to `flush` in chunks of about 1 MiB: a
/// `String` per record through `OutputSink.write(_:)` would cost an allocation and a copy for
/// each of the ~7.6 M records of a 1 M-search log. Text comes from the catalog as UTF-8 and is
/// escaped per format (JSON string, RFC 4180 cell, URL query with `+` for spaces).
struct GeneratedLogWriter {
    enum Format: String, CaseIterable, Sendable {
        case jsonl
        case csv
        case accessLog = "access-log"
        /// A HAR saved from a browser's dev tools on pages that use the Maps JavaScript API.
        case browserHAR = "har"
    }

    /// A fake API key, so the access log has the shape of a real one; the analyzer must never print it.
    static let apiKey = "AIzaSyGENERATED-not-a-key"
    static let csvHeader = "timestamp,api,session_token,input,place_id,fields,api_version,user_id,platform,status\n"
    /// The header of a privacy-first CSV log: the input's length where the text was.
    static let privacyCSVHeader = "timestamp,api,session_token,input_length,place_id,fields,api_version,user_id,platform,status\n"
    static let chunkSize = 1 << 20

    let format: Format
    /// A privacy-first log (`generate --privacy`, canonical formats only): `input_length` in
    /// place of the typed text, and each session token as the SHA-256 of the token the plain
    /// log carries (64 hex digits), so both logs analyze to the same figures.
    let privacy: Bool
    let catalog: TrafficCatalog
    let flush: (UnsafeRawBufferPointer) -> Void
    var buffer: [UInt8] = []
    var cachedDay: Int64 = -1
    var dayPrefix: [UInt8] = []
    /// HAR entries written so far (the first has no comma before it).
    var entries = 0
    /// Field masks per format: JSON array body, CSV cell, URL value.
    let masks: [[UInt8]]

    init(format: Format, privacy: Bool = false, catalog: TrafficCatalog, flush: @escaping (UnsafeRawBufferPointer) -> Void) {
        precondition(!privacy || format == .jsonl || format == .csv, "only canonical logs have privacy-first fields")
        self.format = format
        self.privacy = privacy
        self.catalog = catalog
        self.flush = flush
        buffer.reserveCapacity(GeneratedLogWriter.chunkSize + 4096)
        masks = TrafficCatalog.masks.map { mask in
            switch format {
            case .jsonl: Array(mask.sdk.map { "\"\($0)\"" }.joined(separator: ",").utf8)
            case .csv: Array(mask.sdk.joined(separator: "|").utf8)
            case .accessLog, .browserHAR: Array(mask.web.joined(separator: ",").utf8)
            }
        }
        if format == .csv { buffer.append(contentsOf: (privacy ? GeneratedLogWriter.privacyCSVHeader : GeneratedLogWriter.csvHeader).utf8) }
        if format == .browserHAR { append(GeneratedLogWriter.harHeader) }
    }

    mutating func write(_ call: GeneratedCall) {
        switch format {
        case .jsonl: writeJSON(call)
        case .csv: writeCSV(call)
        case .accessLog: writeAccessLog(call)
        case .browserHAR: writeBrowserHAR(call)
        }
        if buffer.count >= GeneratedLogWriter.chunkSize { drain() }
    }

    /// Closes what the format opened (a HAR's JSON) and hands the rest to `flush`; call once at the end.
    mutating func finish() {
        if format == .browserHAR { append(GeneratedLogWriter.harFooter) }
        drain()
    }

    /// Hands the buffered bytes to `flush`.
    mutating func drain() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { flush($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    // MARK: Formats

    private mutating func writeJSON(_ call: GeneratedCall) {
        append("{\"timestamp\":\"")
        appendRFC3339(call.time)
        append("\",\"api\":\"")
        append(apiName(call))
        append("\"")
        if let token = call.token {
            append(",\"session_token\":\"")
            appendToken(token)
            append("\"")
        }
        if call.kind == .autocomplete, privacy {
            append(",\"input_length\":")
            appendNumber(inputLength(call), width: 1)
        } else if call.kind == .autocomplete {
            append(",\"input\":\"")
            appendInput(call) { writer, bytes in writer.appendJSONEscaped(bytes) }
            append("\"")
        } else {
            append(",\"place_id\":\"")
            buffer.append(contentsOf: catalog.queries[Int(call.query)].placeID)
            append("\"")
            if call.kind == .placeDetails, call.mask >= 0 {
                append(",\"fields\":[")
                buffer.append(contentsOf: masks[Int(call.mask)])
                append("]")
            }
        }
        append(",\"api_version\":\"legacy\",\"user_id\":\"")
        appendUser(call.user)
        append("\",\"platform\":\"")
        append(TrafficGenerator.platforms[Int(call.platform)])
        append(call.zeroResults ? "\",\"status\":\"ZERO_RESULTS\"}\n" : "\",\"status\":\"OK\"}\n")
    }

    private mutating func writeCSV(_ call: GeneratedCall) {
        appendRFC3339(call.time)
        buffer.append(UInt8(ascii: ","))
        append(apiName(call))
        buffer.append(UInt8(ascii: ","))
        if let token = call.token { appendToken(token) }
        buffer.append(UInt8(ascii: ","))
        if call.kind == .autocomplete, privacy {
            // An empty cell is an absent value, as an empty `input` cell is: no `0` for it.
            let length = inputLength(call)
            if length > 0 { appendNumber(length, width: 1) }
            append(",,")
        } else if call.kind == .autocomplete {
            appendInput(call) { writer, bytes in writer.appendCSVCell(bytes) }
            append(",,")
        } else {
            append(",")
            buffer.append(contentsOf: catalog.queries[Int(call.query)].placeID)
            buffer.append(UInt8(ascii: ","))
            if call.kind == .placeDetails, call.mask >= 0 { buffer.append(contentsOf: masks[Int(call.mask)]) }
        }
        append(",legacy,")
        appendUser(call.user)
        buffer.append(UInt8(ascii: ","))
        append(TrafficGenerator.platforms[Int(call.platform)])
        append(call.zeroResults ? ",ZERO_RESULTS\n" : ",OK\n")
    }

    static let userAgents = [
        "PlacesDemo/3.2 CFNetwork/1410.0.3 Darwin/22.4.0",
        "okhttp/4.12.0",
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0.0.0 Safari/537.36",
    ]

    private mutating func writeAccessLog(_ call: GeneratedCall) {
        // Client address from a documentation range (RFC 5737), one per user.
        let user = Int(call.user)
        append(user & 1 == 0 ? "203.0.113." : "198.51.100.")
        appendNumber((user >> 1) % 254 + 1, width: 1)
        append(" - ")
        appendUser(call.user)
        append(" [")
        appendTimeLocal(call.time)
        append("] \"GET ")
        switch call.kind {
        case .autocomplete:
            append("/maps/api/place/autocomplete/json?input=")
            appendInput(call) { writer, bytes in writer.appendURLEncoded(bytes) }
        case .placeDetails:
            append("/maps/api/place/details/json?place_id=")
            buffer.append(contentsOf: catalog.queries[Int(call.query)].placeID)
            if call.mask >= 0 {
                append("&fields=")
                buffer.append(contentsOf: masks[Int(call.mask)])
            }
        case .geocoding:
            append("/maps/api/geocode/json?place_id=")
            buffer.append(contentsOf: catalog.queries[Int(call.query)].placeID)
        }
        if let token = call.token {
            append("&sessiontoken=")
            appendUUID(token)
        }
        append("&key=")
        append(GeneratedLogWriter.apiKey)
        append(" HTTP/1.1\" 200 ")
        appendNumber(300 + Int(UInt64(bitPattern: call.time &* 0x9E37_79B9) % 2700), width: 1)
        append(" \"-\" \"")
        append(GeneratedLogWriter.userAgents[Int(call.platform)])
        append("\"\n")
    }

    // MARK: Pieces

    func apiName(_ call: GeneratedCall) -> StaticString {
        switch call.kind {
        case .autocomplete: call.sdkSpelling ? "findAutocompletePredictions" : "autocomplete"
        case .placeDetails: call.sdkSpelling ? "fetchPlace" : "place_details"
        case .geocoding: "geocoding"
        }
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    mutating func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
    }

    mutating func appendInput(_ call: GeneratedCall, _ escape: (inout GeneratedLogWriter, ArraySlice<UInt8>) -> Void) {
        let utf8 = catalog.queries[Int(call.query)].utf8
        escape(&self, utf8[0..<Int(call.inputBytes)])
        if call.typo != 0 { escape(&self, [call.typo][...]) }
    }

    /// The typed text's length in Unicode code points (the bytes that are not UTF-8
    /// continuation bytes), as `CallDecoder` counts it.
    func inputLength(_ call: GeneratedCall) -> Int {
        let utf8 = catalog.queries[Int(call.query)].utf8
        var length = call.typo != 0 && call.typo & 0xC0 != 0x80 ? 1 : 0
        for byte in utf8[0..<Int(call.inputBytes)] where byte & 0xC0 != 0x80 { length += 1 }
        return length
    }

    mutating func appendJSONEscaped(_ bytes: ArraySlice<UInt8>) {
        GeneratedLogWriter.escapeJSON(bytes, into: &buffer)
    }

    /// The bytes of a JSON string's content: `"` and `\\` escaped, control bytes as `\\u00XX`.
    static func escapeJSON(_ bytes: ArraySlice<UInt8>, into output: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                output.append(UInt8(ascii: "\\"))
                output.append(byte)
            case 0..<0x20:
                output += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")]
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 15)])
            default:
                output.append(byte)
            }
        }
    }

    private mutating func appendCSVCell(_ bytes: ArraySlice<UInt8>) {
        let special: (UInt8) -> Bool = { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }
        guard bytes.contains(where: special) else {
            buffer.append(contentsOf: bytes)
            return
        }
        buffer.append(UInt8(ascii: "\""))
        for byte in bytes {
            if byte == UInt8(ascii: "\"") { buffer.append(byte) }
            buffer.append(byte)
        }
        buffer.append(UInt8(ascii: "\""))
    }

    /// Percent-encodes all but unreserved bytes; a space is `+` in a web service's query, `%20` in
    /// the Maps JavaScript API's (`spaceAsPlus: false`).
    mutating func appendURLEncoded(_ bytes: ArraySlice<UInt8>, spaceAsPlus: Bool = true) {
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                buffer.append(byte)
            case UInt8(ascii: " ") where spaceAsPlus:
                buffer.append(UInt8(ascii: "+"))
            default:
                buffer.append(UInt8(ascii: "%"))
                buffer.append(hex[Int(byte >> 4)])
                buffer.append(hex[Int(byte & 15)])
            }
        }
    }

    mutating func appendNumber(_ value: Int, width: Int) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { raw in
            repeat {
                raw[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0 && count < 12
            for _ in count..<max(count, width) { buffer.append(UInt8(ascii: "0")) }
            for index in stride(from: count - 1, through: 0, by: -1) { buffer.append(raw[index]) }
        }
    }

    private mutating func appendUser(_ user: Int32) {
        append("u-")
        appendNumber(Int(user), width: 6)
    }

    /// A UUID v4 (`6513270e-269e-4d37-b2a7-4de452e6b438`) from 128 random bits.
    /// A session token: its UUID, or in a privacy-first log the UUID's SHA-256 in hex.
    private mutating func appendToken(_ token: (UInt64, UInt64)) {
        guard privacy else { return appendUUID(token) }
        let start = buffer.count
        appendUUID(token)
        let digest = SHA256.digest(buffer[start...])
        buffer.removeSubrange(start...)
        let hex = Array("0123456789abcdef".utf8)
        for byte in digest {
            buffer.append(hex[Int(byte >> 4)])
            buffer.append(hex[Int(byte & 0x0F)])
        }
    }

    private mutating func appendUUID(_ token: (UInt64, UInt64)) {
        let hex = Array("0123456789abcdef".utf8)
        let high = token.0 & ~0xF000 | 0x4000
        let low = token.1 & ~(UInt64(0xC) << 60) | (UInt64(0x8) << 60)
        for index in 0..<16 {
            buffer.append(hex[Int(high >> UInt64(60 - 4 * index) & 15)])
            if index == 7 || index == 11 { buffer.append(UInt8(ascii: "-")) }
        }
        buffer.append(UInt8(ascii: "-"))
        for index in 0..<16 {
            buffer.append(hex[Int(low >> UInt64(60 - 4 * index) & 15)])
            if index == 3 { buffer.append(UInt8(ascii: "-")) }
        }
    }

    private mutating func updateDay(_ day: Int64, accessLog: Bool) {
        guard day != cachedDay else { return }
        cachedDay = day
        let date = CivilDate(daysSinceEpoch: Int(day))
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        dayPrefix = Array((accessLog
            ? "\(pad(date.day, 2))/\(months[date.month - 1])/\(pad(date.year, 4)):"
            : "\(pad(date.year, 4))-\(pad(date.month, 2))-\(pad(date.day, 2))T").utf8)
    }

    /// `2026-10-01T09:00:03.730Z`.
    mutating func appendRFC3339(_ time: Int64) {
        updateDay(time / 86_400_000, accessLog: false)
        buffer.append(contentsOf: dayPrefix)
        let inDay = Int(time % 86_400_000)
        appendClock(inDay / 1000)
        buffer.append(UInt8(ascii: "."))
        appendNumber(inDay % 1000, width: 3)
        buffer.append(UInt8(ascii: "Z"))
    }

    /// `01/Oct/2026:09:00:03 +0000`: whole seconds, as nginx writes them.
    private mutating func appendTimeLocal(_ time: Int64) {
        updateDay(time / 86_400_000, accessLog: true)
        buffer.append(contentsOf: dayPrefix)
        appendClock(Int(time % 86_400_000) / 1000)
        append(" +0000")
    }

    private mutating func appendClock(_ seconds: Int) {
        appendNumber(seconds / 3600, width: 2)
        buffer.append(UInt8(ascii: ":"))
        appendNumber(seconds / 60 % 60, width: 2)
        buffer.append(UInt8(ascii: ":"))
        appendNumber(seconds % 60, width: 2)
    }
}
