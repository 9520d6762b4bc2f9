import PlacesCostKit

/// The two ways a JSON Lines record becomes a `Call`, side by side, for the tests and the fuzzer
/// that hold the fast path to the slow one.
///
/// `slowCall` is the obviously-correct path (the whole line parsed into a `RawRecord`, then
/// decoded); `fastCall` is the fast decoder's spans turned into a `Call` by `CallDecoder`'s
/// rules, as `CallBlockBuilder` uses them.
enum JSONLineTwins {
    static func slowCall(_ line: UnsafeBufferPointer<UInt8>) -> Result<Call, DecodeFailure> {
        switch JSONLineParser.parse(line) {
        case .failure(let failure): .failure(DecodeFailure(reason: failure.reason))
        case .success(let record): CallDecoder(fieldsAsDelimitedCell: false).decode(record)
        }
    }

    static func fastCall(_ line: UnsafeBufferPointer<UInt8>) -> Call? {
        guard let record = FastJSONLineDecoder.decode(line) else { return nil }
        func text(_ span: ByteSpan) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: line[Int(span.start)..<Int(span.start + span.count)]), as: UTF8.self)
        }
        func label(_ span: ByteSpan?) -> String? {
            span.map(text).flatMap { $0.isEmpty ? nil : $0 }
        }
        let (api, impliedGeneration) = API.parse(text(record.api))
        return Call(
            time: record.time,
            api: api,
            sessionToken: label(record.sessionToken),
            inputLength: record.inputLength.map(Int.init),
            fields: record.fields.flatMap { fieldNames(arrayText: text($0)) },
            generation: record.apiVersion.flatMap { APIGeneration(rawValue: text($0).lowercased()) } ?? impliedGeneration,
            userID: label(record.userID),
            project: label(record.project),
            platform: label(record.platform),
            status: label(record.status)
        )
    }

    /// Where the fast path answers, how its `Call` differs from the slow path's; `nil` when they
    /// agree or the fast path declines.
    static func disagreement(_ line: UnsafeBufferPointer<UInt8>) -> String? {
        guard let fast = fastCall(line) else { return nil }
        switch slowCall(line) {
        case .failure(let failure):
            return "the fast path accepts a line the slow path rejects (\(failure.reason))"
        case .success(let slow):
            // `==` on `String` equates canonically equivalent text; the bytes must match too.
            if fast != slow || Array(String(reflecting: fast).utf8) != Array(String(reflecting: slow).utf8) {
                return "fast \(fast) != slow \(slow)"
            }
            return nil
        }
    }

    /// Where decoding `lines`' lines in turn by the layouts of the lines before them gives a
    /// record other than the general walk's, how; `nil` when every line agrees.
    static func layoutDisagreement(lines: UnsafeBufferPointer<UInt8>) -> String? {
        let layouts = JSONLineLayouts()
        for line in lines.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let bytes = UnsafeBufferPointer(rebasing: line)
            let general = FastJSONLineDecoder.decode(bytes)
            let byLayout = FastJSONLineDecoder.decode(bytes, layouts: layouts)
            if byLayout != general {
                return "\(String(describing: byLayout)) by layout, \(String(describing: general)) by the general walk, for \(Array(bytes))"
            }
        }
        return nil
    }

    /// The names of a `fields` array's text, trimmed, empties dropped, `nil` when none is left.
    private static func fieldNames(arrayText: String) -> [String]? {
        guard case .success(let record) = JSONLineParser.parse("{\"fields\":\(arrayText)}"),
              case .array(let elements)? = record[.fields]
        else { return ["<the fields span is not an array: \(arrayText)>"] }
        let names = elements.map { element -> String in
            guard case .string(let name) = element else { return "<not a string>" }
            return name.trimmingSpaces()
        }.filter { !$0.isEmpty }
        return names.isEmpty ? nil : names
    }
}
