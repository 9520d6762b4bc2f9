/// Turns a `RawRecord` into a `Call`, or says why the record is malformed.
///
/// The one place that decides what a valid record is, for every input format:
/// - `timestamp` (required): RFC 3339 with an offset, or epoch milliseconds (a number, or digits).
/// - `api` (required): a non-empty string; unknown names are kept (they are not malformed).
/// - `session_token`, `input`, `place_id`, `api_version`: a string or null.
/// - `fields`: an array of strings or null; in CSV one cell, `a,b` or `a|b`.
/// - `user_id`, `project`, `platform`, `status`: a string, a number or null.
/// Empty strings and empty field lists mean "absent", so a CSV empty cell and a JSON null agree.
package struct CallDecoder: Sendable {
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

    private func decodeCall(_ record: RawRecord) throws -> Call {
        let time = try decodeTimestamp(record[.timestamp])
        guard let apiValue = record[.api] else { throw DecodeFailure(reason: "missing required key `api`") }
        guard case .string(let apiName) = apiValue, !apiName.isEmpty else {
            throw DecodeFailure(reason: "`api` must be a non-empty string, found \(apiValue.typeName)")
        }
        let (api, impliedGeneration) = API.parse(apiName)
        let token = try optionalString(record, .sessionToken)
        let input = try optionalString(record, .input)
        _ = try optionalString(record, .placeID)
        let version = try optionalString(record, .apiVersion)
        let generation = version.flatMap { APIGeneration(rawValue: $0.lowercased()) } ?? impliedGeneration
        return Call(
            time: time,
            api: api,
            sessionToken: token.flatMap { $0.isEmpty ? nil : $0 },
            inputLength: input.map { $0.unicodeScalars.count },
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

/// Why a record is malformed, as a sentence fragment for `FILE:LINE: warning:`.
package struct DecodeFailure: Error, Equatable {
    package var reason: String

    package init(reason: String) {
        self.reason = reason
    }
}
