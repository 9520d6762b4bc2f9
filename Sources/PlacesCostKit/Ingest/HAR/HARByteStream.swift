#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The refillable byte window `HARReader` walks a HAR document through.
///
/// It reads the file descriptor `chunkSize` bytes at a time and drops bytes once they are
/// consumed, except from `retainFrom` on: while an entry is being skipped its bytes are kept so
/// the entry can be parsed whole afterwards. Memory is thus the largest entry plus one chunk,
/// whatever the size of the file. Reads are at most `chunkSize` long whatever the buffer size, so
/// a tiny chunk size puts read boundaries everywhere (the tests use 1 and 7 bytes).
struct HARByteStream {
    /// Input ran out in the middle of the document.
    struct EndOfInput: Error {}

    let fileDescriptor: Int32
    let chunkSize: Int
    var buffer: [UInt8]
    /// Next unread byte.
    var position = 0
    /// End of the valid bytes in `buffer`.
    var end = 0
    /// Bytes from here on are kept across refills (`nil`: only unread bytes are kept).
    var retainFrom: Int?
    /// Bytes dropped from the front of `buffer` so far, to report absolute offsets.
    var discarded = 0
    private var atEndOfInput = false
    /// The most bytes kept from `retainFrom` on: past it, retaining stops (`retainOverflowed`),
    /// so one entry of any size never takes more memory than this.
    let maxRetained: Int
    /// Set when the bytes from `retainFrom` grew past `maxRetained` and were dropped.
    var retainOverflowed = false
    /// Line ends in `buffer[..<countedTo]` and in the bytes dropped before it. Every byte is
    /// counted once, before it is dropped, so `line(at:)` is exact whatever the read sizes.
    private var newlinesCounted = 0
    private var countedTo = 0

    /// Keys are short; a longer one is damage, not read whole.
    static let maxKeyLength = 64 << 10
    struct KeyTooLong: Error {}

    /// - Parameter prefix: bytes already read from the descriptor (a format sniff), read first.
    init(fileDescriptor: Int32, chunkSize: Int, prefix: [UInt8] = [], maxRetained: Int = Int.max) {
        self.fileDescriptor = fileDescriptor
        self.maxRetained = maxRetained
        self.chunkSize = max(chunkSize, 1)
        self.buffer = prefix + [UInt8](repeating: 0, count: max(chunkSize, 64))
        self.end = prefix.count
    }

    /// Offset of the next unread byte from the start of the input.
    var offset: Int { discarded + position }

    /// The 1-based line of the byte at `index` in `buffer`; the indexes asked for never go back.
    mutating func line(at index: Int) -> Int {
        countNewlines(upTo: index)
        return newlinesCounted + 1
    }

    private mutating func countNewlines(upTo index: Int) {
        guard index > countedTo else { return }
        let from = countedTo
        newlinesCounted += buffer.withUnsafeBufferPointer { bytes -> Int in
            let base = bytes.baseAddress!
            var count = 0
            var next = from
            while next < index, let found = memchr(base + next, 0x0A, index - next) {
                count += 1
                next = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found)) + 1
            }
            return count
        }
        countedTo = index
    }

    /// Gives back the memory a long entry grew the buffer to, keeping the unread bytes.
    mutating func shrink() {
        let size = max(chunkSize, 64)
        guard retainFrom == nil, buffer.count > 2 * size, end - position <= size else { return }
        countNewlines(upTo: position)
        var fresh = [UInt8](repeating: 0, count: size)
        fresh.withUnsafeMutableBytes { target in
            buffer.withUnsafeBytes { source in
                if end > position { target.baseAddress!.copyMemory(from: source.baseAddress! + position, byteCount: end - position) }
            }
        }
        discarded += position
        countedTo -= position
        end -= position
        position = 0
        buffer = fresh
    }

    /// Reads more input; false at the end of input.
    mutating func fill() throws -> Bool {
        if atEndOfInput { return false }
        if let start = retainFrom, end - start >= maxRetained {
            retainFrom = nil
            retainOverflowed = true
        }
        let keep = retainFrom ?? position
        countNewlines(upTo: keep)
        countedTo -= keep
        if keep > 0 {
            if keep < end {
                buffer.withUnsafeMutableBytes { raw in
                    let base = raw.baseAddress!
                    memmove(base, base + keep, end - keep)
                }
            }
            end -= keep
            position -= keep
            if retainFrom != nil { retainFrom = 0 }
            discarded += keep
        }
        if end == buffer.count {
            // A ready-made array: appending a lazy `repeatElement` is ~100x slower in debug builds.
            buffer += [UInt8](repeating: 0, count: buffer.count)
        }
        while true {
            let wanted = min(chunkSize, buffer.count - end)
            let count = buffer.withUnsafeMutableBytes { raw in
                read(fileDescriptor, raw.baseAddress! + end, wanted)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw IngestError.readFailed(path: "", reason: String(cString: strerror(errno)))
            }
            if count == 0 {
                atEndOfInput = true
                return false
            }
            end += count
            return true
        }
    }

    /// The next byte without consuming it; throws `EndOfInput` when there is none.
    mutating func peek() throws -> UInt8 {
        if position == end, !(try fill()) { throw EndOfInput() }
        return buffer[position]
    }

    /// Whether any byte is left (reads to find out).
    mutating func hasMore() throws -> Bool {
        if position < end { return true }
        return try fill()
    }

    mutating func skipWhitespace() throws {
        while true {
            while position < end {
                switch buffer[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
            if !(try fill()) { return }
        }
    }

    /// Skips a UTF-8 byte-order mark at the very start of the input.
    mutating func skipByteOrderMark() throws {
        while end - position < 3, try fill() {}
        if end - position >= 3, buffer[position] == 0xEF, buffer[position + 1] == 0xBB, buffer[position + 2] == 0xBF {
            position += 3
        }
    }

    /// Reads a string starting at its opening quote and returns its bytes including both quotes,
    /// still escaped. Used for keys, which are short.
    mutating func rawString() throws -> [UInt8] {
        var raw: [UInt8] = [try peek()]
        position += 1
        var escaped = false
        while true {
            let byte = try peek()
            position += 1
            raw.append(byte)
            if raw.count > HARByteStream.maxKeyLength { throw KeyTooLong() }
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                return raw
            }
        }
    }

    /// Skips one JSON value of any size, starting at its first byte, without building it.
    ///
    /// This is the hot loop of a HAR read (a capture is mostly response bodies and other values
    /// skipped here), so it scans the buffer through a raw pointer and only tracks what finding
    /// the value's end needs: string state and bracket depth. It does not validate the value;
    /// an entry's bytes are validated when the entry is parsed.
    mutating func skipValue() throws {
        var depth = 0
        var inString = false
        var escaped = false
        var started = false
        while true {
            if position == end, !(try fill()) { throw EndOfInput() }
            var done = false
            let stop: Int = buffer.withUnsafeBufferPointer { bytes in
                var index = position
                while index < end {
                    let byte = bytes[index]
                    if inString {
                        if escaped {
                            escaped = false
                        } else if byte == UInt8(ascii: "\\") {
                            escaped = true
                        } else if byte == UInt8(ascii: "\"") {
                            inString = false
                            if depth == 0 { done = true; return index + 1 }
                        }
                    } else {
                        switch byte {
                        case UInt8(ascii: "\""):
                            inString = true
                        case UInt8(ascii: "{"), UInt8(ascii: "["):
                            depth += 1
                        case UInt8(ascii: "}"), UInt8(ascii: "]"):
                            if depth == 0 { done = true; return index }  // ends a bare number or literal
                            depth -= 1
                            if depth == 0 { done = true; return index + 1 }
                        case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D:
                            if depth == 0, started { done = true; return index }
                        default:
                            break
                        }
                    }
                    started = true
                    index += 1
                }
                return index
            }
            position = stop
            if done { return }
        }
    }
}
