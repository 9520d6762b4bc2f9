/// Turns a `RawRecord` into a `Call`, or says why the record is malformed.
///
/// The one place that decides what a valid record is, for every input format:
/// - `timestamp` (required): RFC 3339 with an offset, or epoch milliseconds (a number, or digits).
/// - `api` (required): a non-empty string; unknown names are kept (they are not malformed).
/// - `session_token`, `input`, `place_id`, `api_version`: a string or null. Any string is a
///   token: a UUID, or one already hashed (hex, base64); only equality between tokens matters.
/// - `input_length`: the typed text's length in Unicode code points, logged instead of `input`:
///   a non-negative integer (a JSON number without fraction or exponent, or a string of ASCII
///   digits, as a CSV cell is) up to `maxInputLength`, or null. With both keys, the two must
///   agree. An empty string is absent, as everywhere. The value is never quoted in a reason.
/// - `fields`: an array of strings or null; in CSV one cell, `a,b` or `a|b`.
/// - `user_id`, `project`, `platform`, `status`: a string, a number or null.
/// Empty strings and empty field lists mean "absent", so a CSV empty cell and a JSON null agree.
package struct CallDecoder: Sendable {
    /// The largest `input_length` read: a call's length is kept in 32 bits (`GroupCall`), and no
    /// line holds longer text.
    package static let maxInputLength = Int(Int32.max)

    /// Whether `fields` arrives as one delimited cell (CSV) rather than a JSON array.
    package var fieldsAsDelimitedCell: Bool

    package init(fieldsAsDelimitedCell: Bool) {
        self.fieldsAsDelimitedCell = fieldsAsDelimitedCell
    }

    package func decode(_ record: RawRecord) -> Result<Call, DecodeFailure> {
        do {
            return .success(try decodeCall(record))
        } catch let failure as DecodeFailure {
            return .failure(failure)
        } catch {
            return .failure(DecodeFailure(reason: "\(error)"))
        }
    }

    /// The reason for a web server's JSON access log record, which has neither key of a call.
    /// Readers take such a record as the request it logs (`JSONAccessRecord`) before it gets here.
    static let webServerRecord = "a web server's JSON access log record (it names the request, not the `api` called): it is read as the request it logs, not as a call (docs/formats.md section 2)"

    private func decodeCall(_ record: RawRecord) throws -> Call {
        if record.isWebServerRecord {
            throw DecodeFailure(reason: CallDecoder.webServerRecord)
        }
        let time = try decodeTimestamp(record[.timestamp])
        guard let apiValue = record[.api] else { throw DecodeFailure(reason: "missing required key `api`") }
        guard case .string(let apiName) = apiValue, !apiName.isEmpty else {
            throw DecodeFailure(reason: "`api` must be a non-empty string, found \(apiValue.typeName)")
        }
        let (api, impliedGeneration) = API.parse(apiName)
        let token = try optionalString(record, .sessionToken)
        let input = try optionalString(record, .input)
        let declaredLength = try decodeInputLength(record[.inputLength])
        let textLength = input.map { $0.unicodeScalars.count }
        if let textLength, let declaredLength, textLength != declaredLength {
            throw DecodeFailure(reason: "`input` has \(textLength) code points but `input_length` says \(declaredLength); log one of the two")
        }
        _ = try optionalString(record, .placeID)
        let version = try optionalString(record, .apiVersion)
        let generation = version.flatMap { APIGeneration(rawValue: $0.lowercased()) } ?? impliedGeneration
        return Call(
            time: time,
            api: api,
            sessionToken: token.flatMap { $0.isEmpty ? nil : $0 },
            inputLength: textLength ?? declaredLength,
            fields: try decodeFields(record[.fields]),
            generation: generation,
            userID: try optionalLabel(record, .userID),
            project: try optionalLabel(record, .project),
            platform: try optionalLabel(record, .platform),
            status: try optionalLabel(record, .status)
        )
    }

    private func decodeTimestamp(_ value: RawRecord.Value?) throws -> Timestamp {
        let result: Result<Timestamp, TimestampError>
        switch value {
        case nil: throw DecodeFailure(reason: "missing required key `timestamp`")
        case .string(let text)?: result = TimestampParser.parse(text)
        case .number(let literal)?: result = TimestampParser.parseEpochMilliseconds(literal: literal)
        case let other?: throw DecodeFailure(reason: "`timestamp` must be an RFC 3339 string or epoch milliseconds, found \(other.typeName)")
        }
        switch result {
        case .success(let time): return time
        case .failure(let error): throw DecodeFailure(reason: error.description)
        }
    }

    private func optionalString(_ record: RawRecord, _ key: RawRecord.Key) throws -> String? {
        switch record[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?: throw DecodeFailure(reason: "`\(key.name)` must be a string or null, found \(other.typeName)")
        }
    }

    /// An `input_length` value: `nil` when absent, null or an empty string.
    private func decodeInputLength(_ value: RawRecord.Value?) throws -> Int? {
        let digits: String
        switch value {
        case nil, .null?: return nil
        case .number(let literal)?:
            if literal.hasPrefix("-") { throw InputLengthFailure.negative.failure }
            guard literal.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                throw InputLengthFailure.notWhole.failure
            }
            digits = literal
        case .string(let text)?:
            if text.isEmpty { return nil }
            guard text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                throw InputLengthFailure.notDigits.failure
            }
            digits = text
        case let other?:
            throw DecodeFailure(reason: "`input_length` must be a non-negative integer (code points) or null, found \(other.typeName)")
        }
        guard let length = Int32(digits) else { throw InputLengthFailure.tooLarge.failure }
        return Int(length)
    }

    /// Why an `input_length` is malformed; the reasons name the value's kind, never the value.
    private enum InputLengthFailure {
        case negative, notWhole, notDigits, tooLarge

        var failure: DecodeFailure {
            switch self {
            case .negative:
                DecodeFailure(reason: "`input_length` must be a non-negative integer (code points), found a negative number")
            case .notWhole:
                DecodeFailure(reason: "`input_length` must be a whole number of code points, found a number with a fraction or an exponent")
            case .notDigits:
                DecodeFailure(reason: "`input_length` must be a non-negative integer (code points), found a string that is not one")
            case .tooLarge:
                DecodeFailure(reason: "`input_length` is larger than \(CallDecoder.maxInputLength), the most a record can hold")
            }
        }
    }

    /// A grouping label: ids are strings in most logs, numbers in some; both mean the same.
    private func optionalLabel(_ record: RawRecord, _ key: RawRecord.Key) throws -> String? {
        switch record[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text.isEmpty ? nil : text
        case .number(let literal)?: return literal
        case let other?: throw DecodeFailure(reason: "`\(key.name)` must be a string, a number or null, found \(other.typeName)")
        }
    }

    private func decodeFields(_ value: RawRecord.Value?) throws -> [String]? {
        try CallDecoder.fieldNames(value, delimitedCell: fieldsAsDelimitedCell)
    }

    /// The cleaned field names of a `fields` value: trimmed, empties dropped, `nil` when none.
    package static func fieldNames(_ value: RawRecord.Value?, delimitedCell fieldsAsDelimitedCell: Bool) throws -> [String]? {
        var names: [String]
        switch value {
        case nil, .null?:
            return nil
        case .string(let cell)? where fieldsAsDelimitedCell:
            let separator: Character = cell.contains("|") ? "|" : ","
            names = cell.split(separator: separator).map { String($0).trimmingSpaces() }
        case .array(let elements)?:
            names = try elements.map { element in
                guard case .string(let name) = element else {
                    throw DecodeFailure(reason: "`fields` must be an array of strings, found an element that is \(element.typeName)")
                }
                return name.trimmingSpaces()
            }
        case let other?:
            throw DecodeFailure(reason: "`fields` must be an array of strings or null, found \(other.typeName)")
        }
        names.removeAll { $0.isEmpty }
        return names.isEmpty ? nil : names
    }
}
