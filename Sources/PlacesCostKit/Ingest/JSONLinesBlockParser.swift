#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Parses a block of JSON Lines into a `CallBlock`.
///
/// Each line goes to `FastJSONLineDecoder` first, which reads the common record without
/// allocating; a line it is not sure of (escapes, unusual types, errors) goes to the slow,
/// strict `JSONLineParser` + `CallDecoder`, which decides and words any diagnostic. The fast
/// path is tested to agree with the slow one wherever it answers.
struct JSONLinesBlockParser {
    static let overlongReason = LineReader.overlongReason

    /// - Parameter maxLineLength: a line this long or longer is rejected unread, as the line
    ///   reader of the other formats does.
    static func parse(_ raw: RawBlock, maxLineLength: Int, into builder: inout CallBlockBuilder, caches: inout CallBlockBuilder.Caches) -> Int {
        var lineNumber = 0
        if raw.followsOverlongLine {
            lineNumber = 1
            builder.reject(overlongReason, line: 1)
        }
        let decoder = CallDecoder(fieldsAsDelimitedCell: false)
        raw.withLines { bytes in
            var start = 0
            let count = bytes.count
            while start < count {
                let end: Int
                if let newline = memchr(bytes.baseAddress! + start, 0x0A, count - start) {
                    end = bytes.baseAddress!.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                } else {
                    end = count
                }
                lineNumber += 1
                var last = end
                if last > start, bytes[last - 1] == 0x0D { last -= 1 }
                let line = UnsafeBufferPointer(rebasing: bytes[start..<last])
                let rawLength = end - start
                start = end + 1
                if rawLength >= maxLineLength {
                    builder.reject(overlongReason, line: lineNumber)
                    continue
                }
                if let record = FastJSONLineDecoder.decode(line) {
                    builder.add(record, line: line, caches: &caches)
                    continue
                }
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                switch JSONLineParser.parse(line) {
                case .success(let record):
                    switch decoder.decode(record) {
                    case .success(let call): builder.add(call, fingerprint: Fingerprint.of(line), caches: &caches)
                    case .failure(let failure): builder.reject(failure.reason, line: lineNumber)
                    }
                case .failure(let failure):
                    builder.reject(failure.reason, line: lineNumber)
                }
            }
        }
        return lineNumber
    }
}
