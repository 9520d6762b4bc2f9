/// Streams the entries of a HAR (HTTP Archive 1.2) capture as `HTTPRequest`s.
///
/// HAR captures run to hundreds of MB, mostly response bodies, in one JSON document, so the file
/// is never loaded as an object tree. A byte-level walk finds `log.entries` (the keys of the top
/// object and of `log` may come in any order; other values, such as `pages`, are skipped unbuilt)
/// and holds each entry's bytes only while `HAREntryParser` reads it. Memory is the largest entry
/// plus one read chunk. `entriesWithFoundation(data:)` is the slow twin the tests compare it with.
///
/// Kept from each entry: `startedDateTime`, `request.method`, `request.url`, `request.headers`
/// (elements with string `name` and `value`), `request.postData.text` and `response.status`
/// (when an integral number). An entry without a valid `startedDateTime`, a `request` object, or
/// string `method` and `url` is `.malformed`; so is an entry that is not valid JSON. Reasons never
/// quote URLs, headers or bodies, which can hold API keys.
///
/// A capture cut off mid-way (a proxy stopped while writing) delivers every complete entry and
/// then throws `Error.truncated`: the entries read are sound, and the caller decides whether a
/// partial capture is acceptable.
///
/// Captures one after another (`cat a.har b.har`) are read one after another, as JSON arrays
/// one after another are: a text after the top-level object that is again an object with a `log`
/// object is a capture, its entries numbered from 1 as in its own `log.entries`. Anything else
/// after it (trailing garbage, an object without `log`) is not read: it throws
/// `Error.textAfterCapture` at the line it starts on, after every entry before it, and never
/// quotes it.
package struct HARReader {
    package enum Entry: Equatable, Sendable {
        /// A complete entry; `index` is its 1-based position in `log.entries`.
        case request(HTTPRequest, index: Int)
        /// An entry that cannot become a request; `reason` is a full sentence safe to print.
        case malformed(reason: String, index: Int)

        /// The 1-based position in `log.entries`, used as the line of diagnostics.
        package var index: Int {
            switch self {
            case .request(_, let index), .malformed(_, let index): index
            }
        }
    }

    /// Problems that stop reading the capture.
    package enum Error: Swift.Error, Equatable, CustomStringConvertible {
        /// The input has no `log` object with an `entries` array.
        case notHAR(reason: String)
        /// The input ends inside the document; `entriesRead` entries were delivered before.
        case truncated(entriesRead: Int)
        /// The document's structure outside the entries is not JSON.
        case invalidJSON(byteOffset: Int, reason: String)
        /// Text that is not a HAR capture follows the top-level object; `entriesRead` entries
        /// were delivered before it.
        case textAfterCapture(entriesRead: Int)

        package var description: String {
            switch self {
            case .notHAR(let reason):
                "the input is not a HAR capture: \(reason). A HAR file is one JSON object {\"log\":{\"entries\":[...]}}, as browser developer tools, Charles and Proxyman export it."
            case .truncated(let entriesRead):
                "the HAR capture is cut off after \(entriesRead) complete \(entriesRead == 1 ? "entry" : "entries"); those were read. Export the capture again if it was still being written."
            case .invalidJSON(let byteOffset, let reason):
                "the HAR capture is not valid JSON at byte \(byteOffset): \(reason)."
            case .textAfterCapture(let entriesRead):
                "the file goes on after its HAR capture with text that is not another capture; it is not read; the \(entriesRead) \(entriesRead == 1 ? "entry before it was" : "entries before it were"). A HAR file is one JSON object, or captures one after another."
            }
        }
    }

    /// An `Error` and the 1-based line of the file it concerns: where the entry cut off starts,
    /// or where the invalid JSON is.
    package struct PositionedError: Swift.Error, Equatable {
        package var error: Error
        package var line: Int
    }

    let chunkSize: Int
    /// The longest entry read: a longer one is reported `.malformed` and skipped, never held.
    let maxEntryLength: Int

    /// No entry a HAR tool writes comes near it (a response body is a few MB at most); its bytes
    /// are the memory a HAR read takes, beyond one read chunk.
    package static let defaultMaxEntryLength = 64 << 20

    package init() {
        self.chunkSize = 1 << 20
        self.maxEntryLength = HARReader.defaultMaxEntryLength
    }

    /// - Parameter chunkSize: the most bytes one `read(2)` asks for; tiny sizes test read boundaries.
    init(chunkSize: Int, maxEntryLength: Int = HARReader.defaultMaxEntryLength) {
        self.chunkSize = chunkSize
        self.maxEntryLength = maxEntryLength
    }

    /// Calls `body` for every entry of the capture read from `fileDescriptor`, in file order.
    ///
    /// - Throws: `Error` when the input is not a HAR or is cut off (after delivering the complete
    ///   entries), `IngestError.readFailed` when a read fails, and whatever `body` throws.
    /// - Parameter prefix: bytes already read from `fileDescriptor` (by a format sniff), read first.
    package func forEachEntry(fileDescriptor: Int32, prefix: [UInt8] = [], _ body: (Entry) throws -> Void) throws {
        do {
            try forEachEntry(fileDescriptor: fileDescriptor, prefix: prefix) { entry, _ in try body(entry) }
        } catch let error as PositionedError {
            throw error.error
        }
    }

    /// `forEachEntry(fileDescriptor:prefix:_:)`, handing `body` each entry with the 1-based line of
    /// the file where it starts: the line diagnostics give, as for every other format.
    ///
    /// - Throws: `PositionedError` where the other throws `Error`.
    func forEachEntry(fileDescriptor: Int32, prefix: [UInt8] = [], _ body: (Entry, Int) throws -> Void) throws {
        var walk = Walk(stream: HARByteStream(fileDescriptor: fileDescriptor, chunkSize: chunkSize, prefix: prefix, maxRetained: maxEntryLength))
        try capture(&walk, body)
        // Every entry delivered so far, over all the captures read.
        var entriesBefore = walk.entriesRead
        while true {
            try walk.stream.skipWhitespace()
            guard try walk.stream.hasMore() else { return }
            let start = walk.stream.line(at: walk.stream.position)
            walk.startCapture()
            do {
                try capture(&walk, body)
            } catch is PositionedError where !walk.sawLog {
                // Not a capture: no entry of it was delivered, and its text is not quoted.
                throw PositionedError(error: .textAfterCapture(entriesRead: entriesBefore), line: start)
            }
            entriesBefore += walk.entriesRead
        }
    }

    /// Reads one capture, from the stream's position, with `walk`.
    ///
    /// - Throws: `PositionedError` where the capture is cut off, not a HAR or not JSON.
    private func capture(_ walk: inout Walk, _ body: (Entry, Int) throws -> Void) throws {
        do {
            try walk.document(body)
        } catch is HARByteStream.EndOfInput {
            let line = walk.entryLine ?? walk.stream.line(at: walk.stream.position)
            if walk.sawLog {
                throw PositionedError(error: .truncated(entriesRead: walk.entriesRead), line: line)
            }
            throw PositionedError(error: .notHAR(reason: walk.stream.offset == 0 ? "it is empty" : "it ends before any log object"), line: line)
        } catch let error as Error {
            throw PositionedError(error: error, line: walk.stream.line(at: walk.stream.position))
        }
    }

    /// Whether `head`, the first bytes of a file (64 KiB is plenty), looks like a HAR capture.
    ///
    /// The rule: after an optional byte-order mark and blanks the first byte is `{`, a key of that
    /// top-level object is `"log"` whose value is an object, and a key of that object is one of
    /// `version`, `creator`, `browser`, `pages` or `entries` (the HAR 1.2 members of `log`), all
    /// before the top-level object closes. Keys are found by walking the JSON structure, not by
    /// searching text, so a JSON Lines file, whose first object closes at the end of the first line
    /// without a `log` member, is never taken for a HAR, even if a string in it mentions `"log"`.
    package static func sniff(_ head: [UInt8]) -> Bool {
        var index = 0
        if head.count >= 3, head[0] == 0xEF, head[1] == 0xBB, head[2] == 0xBF { index = 3 }
        while index < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[index]) { index += 1 }
        guard index < head.count, head[index] == UInt8(ascii: "{") else { return false }
        let logMembers: [[UInt8]] = ["version", "creator", "browser", "pages", "entries"].map { Array($0.utf8) }
        var containers: [Bool] = []  // true for an object
        var expectingKey = false
        var topKey: [UInt8] = []  // the last key of the top-level object
        var logDepth: Int?  // the depth of the `log` object's members once it is entered
        while index < head.count {
            let byte = head[index]
            switch byte {
            case UInt8(ascii: "\""):
                var end = index + 1
                while end < head.count, head[end] != UInt8(ascii: "\"") {
                    end += head[end] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard end < head.count else { return false }
                if expectingKey {
                    let key = Array(head[(index + 1)..<end])
                    if containers.count == 1 { topKey = key }
                    if containers.count == logDepth, logMembers.contains(key) { return true }
                }
                expectingKey = false
                index = end
            case UInt8(ascii: "{"):
                containers.append(true)
                if containers.count == 2, logDepth == nil, topKey == Array("log".utf8) { logDepth = 2 }
                expectingKey = true
            case UInt8(ascii: "["):
                containers.append(false)
                expectingKey = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                containers.removeLast()
                // The top-level object (or `log`) closed without the members looked for: not a HAR.
                if containers.isEmpty { return false }
                if let logDepth, containers.count < logDepth { return false }
                expectingKey = false
            case UInt8(ascii: ","):
                expectingKey = containers.last == true
            case UInt8(ascii: ":"):
                expectingKey = false
            default:
                break
            }
            index += 1
        }
        return false
    }

    /// The reason for an entry longer than `limit` bytes.
    static func overlongReason(limit: Int) -> String {
        "the entry is longer than \(limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit) bytes"), longer than any entry a capture tool writes; skipped"
    }

    /// `response.status` as an `Int` when the JSON number is integral and plausible.
    package static func status(fromNumber number: Double?) -> Int? {
        guard let number, number.rounded() == number, abs(number) < 1_000_000 else { return nil }
        return Int(number)
    }
}

extension HARReader {
    /// The walk over the document's structure down to `log.entries`.
    struct Walk {
        var stream: HARByteStream
        var sawLog = false
        var sawEntries = false
        var entriesRead = 0
        /// The line where the entry being read starts, while it is read.
        var entryLine: Int?

        init(stream: HARByteStream) {
            self.stream = stream
        }

        /// Starts the walk over another capture that follows the one read.
        mutating func startCapture() {
            sawLog = false
            sawEntries = false
            entriesRead = 0
            entryLine = nil
        }

        func invalid(_ reason: String) -> HARReader.Error {
            .invalidJSON(byteOffset: stream.offset, reason: reason)
        }

        mutating func document(_ body: (Entry, Int) throws -> Void) throws {
            try stream.skipByteOrderMark()
            try stream.skipWhitespace()
            guard try stream.hasMore() else { throw HARReader.Error.notHAR(reason: "it is empty") }
            guard try stream.peek() == UInt8(ascii: "{") else {
                throw HARReader.Error.notHAR(reason: "it does not start with a JSON object")
            }
            stream.position += 1
            var first = true
            while let key = try nextMember(first: &first) {
                if key == Array("log".utf8), !sawLog {
                    guard try stream.peek() == UInt8(ascii: "{") else {
                        throw HARReader.Error.notHAR(reason: "its log member is not an object")
                    }
                    stream.position += 1
                    sawLog = true
                    try log(body)
                } else {
                    try stream.skipValue()
                }
            }
            guard sawLog else { throw HARReader.Error.notHAR(reason: "it has no log object") }
            guard sawEntries else { throw HARReader.Error.notHAR(reason: "its log object has no entries array") }
        }

        /// The members of `log`, after its `{`.
        mutating func log(_ body: (Entry, Int) throws -> Void) throws {
            var first = true
            while let key = try nextMember(first: &first) {
                if key == Array("entries".utf8), !sawEntries {
                    guard try stream.peek() == UInt8(ascii: "[") else {
                        throw HARReader.Error.notHAR(reason: "its log.entries member is not an array")
                    }
                    stream.position += 1
                    sawEntries = true
                    try entries(body)
                } else {
                    try stream.skipValue()
                }
            }
        }

        /// The elements of `log.entries`, after its `[`.
        mutating func entries(_ body: (Entry, Int) throws -> Void) throws {
            try stream.skipWhitespace()
            if try stream.peek() == UInt8(ascii: "]") {
                stream.position += 1
                return
            }
            while true {
                try stream.skipWhitespace()
                let separator = try stream.peek()
                guard separator != UInt8(ascii: ","), separator != UInt8(ascii: "]") else { throw invalid("expected an entry") }
                let line = stream.line(at: stream.position)
                entryLine = line
                stream.retainFrom = stream.position
                try stream.skipValue()
                let retained = stream.retainFrom
                stream.retainFrom = nil
                let index = entriesRead + 1
                let entry: Entry
                if let start = retained {
                    entry = stream.buffer.withUnsafeBufferPointer { all in
                        HAREntryParser.parse(UnsafeBufferPointer(rebasing: all[start..<stream.position]), index: index)
                    }
                } else {
                    // Longer than the limit: skipped to its end without being held.
                    stream.retainOverflowed = false
                    stream.shrink()
                    entry = .malformed(reason: HARReader.overlongReason(limit: stream.maxRetained), index: index)
                }
                entriesRead = index
                entryLine = nil
                try body(entry, line)
                try stream.skipWhitespace()
                switch try stream.peek() {
                case UInt8(ascii: ","):
                    stream.position += 1
                case UInt8(ascii: "]"):
                    stream.position += 1
                    return
                default:
                    throw invalid("expected ',' or ']' after an entry")
                }
            }
        }

        /// Starts a member of an object: consumes `,` (after the first), the key and its `:`.
        ///
        /// - Returns: the key's decoded bytes, or `nil` after the closing `}`.
        mutating func nextMember(first: inout Bool) throws -> [UInt8]? {
            try stream.skipWhitespace()
            var byte = try stream.peek()
            if byte == UInt8(ascii: "}") {  // `{}`, or the end after a member
                stream.position += 1
                return nil
            }
            if !first {
                guard byte == UInt8(ascii: ",") else { throw invalid("expected ',' or '}'") }
                stream.position += 1
                try stream.skipWhitespace()
                byte = try stream.peek()
            }
            first = false
            guard byte == UInt8(ascii: "\"") else { throw invalid("expected a key") }
            let raw: [UInt8]
            do {
                raw = try stream.rawString()
            } catch is HARByteStream.KeyTooLong {
                throw invalid("a key is longer than \(HARByteStream.maxKeyLength >> 10) KiB")
            }
            let key: [UInt8]
            if raw.contains(UInt8(ascii: "\\")) {
                key = try raw.withUnsafeBufferPointer { bytes in
                    var local = JSONLineParser.Scanner(bytes: bytes)
                    do { return try local.parseStringBytes() } catch { throw invalid("a key has an invalid escape") }
                }
            } else {
                key = Array(raw.dropFirst().dropLast())
            }
            try stream.skipWhitespace()
            guard try stream.peek() == UInt8(ascii: ":") else { throw invalid("expected ':' after a key") }
            stream.position += 1
            try stream.skipWhitespace()
            return key
        }
    }
}
