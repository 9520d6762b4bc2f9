import PlacesCostKit

/// The two ways a CSV row becomes a `Call`, side by side, for the tests and the fuzzer that hold
/// the fast path to the slow one.
///
/// `slowCall` is the obviously-correct path (`CSVRecordParser` cells into a `RawRecord`, then
/// `CallDecoder`); `fastCall` is `FastCSVRowDecoder`'s spans turned into a `Call` by
/// `CallDecoder`'s rules, as `CallBlockBuilder` uses them.
enum CSVRowTwins {
    /// What the slow path makes of one row after the header: a call, a diagnostic, or `nil`
    /// when the row opens a quoted cell that the line does not close (it would take the next lines).
    static func slowCall(_ line: UnsafeBufferPointer<UInt8>, columns: [RawRecord.Key?]) -> Result<Call, DecodeFailure>? {
        var parser = CSVRecordParser(columns: columns)
        var result: Result<Call, DecodeFailure>?
        do {
            try parser.feed(line, number: 1) { event in
                switch event {
                case .header: break
                case .record(let record, _, _): result = CallDecoder(fieldsAsDelimitedCell: true).decode(record)
                case .malformed(let reason, _): result = .failure(DecodeFailure(reason: reason))
                }
            }
        } catch {
            return .failure(DecodeFailure(reason: "\(error)"))
        }
        return result
    }

    static func fastCall(_ line: UnsafeBufferPointer<UInt8>, columns: [RawRecord.Key?]) -> Call? {
        guard let record = columns.withUnsafeBufferPointer({ FastCSVRowDecoder.decode(line, columns: $0) }) else { return nil }
        func text(_ span: ByteSpan) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: line[Int(span.start)..<Int(span.start + span.count)]), as: UTF8.self)
        }
        func label(_ span: ByteSpan?) -> String? {
            span.map(text).flatMap { $0.isEmpty ? nil : $0 }
        }
        let (api, impliedGeneration) = API.parse(text(record.api))
        let fields = record.fields.flatMap { try? CallDecoder.fieldNames(.string(text($0)), delimitedCell: true) }
        return Call(
            time: record.time,
            api: api,
            sessionToken: label(record.sessionToken),
            inputLength: record.inputLength.map(Int.init),
            fields: fields,
            generation: record.apiVersion.flatMap { CallBlockBuilder.generation(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(line)[Int($0.start)..<Int($0.start + $0.count)])) }
                ?? impliedGeneration,
            userID: label(record.userID),
            project: label(record.project),
            platform: label(record.platform),
            status: label(record.status)
        )
    }

    /// Where the fast path answers, how its `Call` differs from the slow path's; `nil` when they
    /// agree or the fast path declines.
    static func disagreement(_ line: UnsafeBufferPointer<UInt8>, columns: [RawRecord.Key?]) -> String? {
        guard let fast = fastCall(line, columns: columns) else { return nil }
        switch slowCall(line, columns: columns) {
        case nil:
            return "the fast path accepts a row the slow path holds open for the next line"
        case .failure(let failure)?:
            return "the fast path accepts a row the slow path rejects (\(failure.reason))"
        case .success(let slow)?:
            // `==` on `String` equates canonically equivalent text; the bytes must match too.
            if fast != slow || Array(String(reflecting: fast).utf8) != Array(String(reflecting: slow).utf8) {
                return "fast \(fast) != slow \(slow)"
            }
            return nil
        }
    }
}
