import Foundation
import PlacesCostKit

extension HARReader {
    /// Reads every entry of a whole HAR document with `JSONSerialization`: the slow,
    /// obviously-correct twin of `forEachEntry(fileDescriptor:_:)`.
    ///
    /// It builds the whole object tree, so it is only for tests (`HARReaderTests` checks that both
    /// read the same entries from generated captures); the ingest path never calls it. It applies
    /// the same rules, in the same order, with the same reasons (`HAREntryParser.Fields`). It differs
    /// only where a whole-document parser must: an invalid or cut-off document throws instead of
    /// delivering the entries before the problem.
    ///
    /// - Throws: `Error.notHAR` when the document has no `log.entries` array, `Error.invalidJSON`
    ///   when it is not JSON.
    static func entriesWithFoundation(data: Data) throws -> [Entry] {
        let document: Any
        do {
            document = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw Error.invalidJSON(byteOffset: 0, reason: "JSONSerialization rejects the document")
        }
        guard let top = document as? [String: Any] else {
            throw Error.notHAR(reason: "it does not start with a JSON object")
        }
        guard let log = top["log"] else { throw Error.notHAR(reason: "it has no log object") }
        guard let log = log as? [String: Any] else { throw Error.notHAR(reason: "its log member is not an object") }
        guard let entries = log["entries"] else { throw Error.notHAR(reason: "its log object has no entries array") }
        guard let entries = entries as? [Any] else {
            throw Error.notHAR(reason: "its log.entries member is not an array")
        }
        return entries.enumerated().map { offset, element in
            let index = offset + 1
            guard let entry = element as? [String: Any] else {
                return .malformed(reason: HAREntryParser.Reason.notAnObject, index: index)
            }
            var fields = HAREntryParser.Fields()
            fields.startedDateTime = entry["startedDateTime"] as? String
            if let request = entry["request"] as? [String: Any] {
                fields.sawRequest = true
                fields.method = request["method"] as? String
                fields.url = request["url"] as? String
                for header in request["headers"] as? [Any] ?? [] {
                    if let header = header as? [String: Any], let name = header["name"] as? String,
                       let value = header["value"] as? String {
                        fields.headers.append((name, value))
                    }
                }
                fields.body = (request["postData"] as? [String: Any])?["text"] as? String
            }
            if let response = entry["response"] as? [String: Any], let number = response["status"] as? NSNumber {
                fields.status = HARReader.status(fromNumber: number.doubleValue)
            }
            return fields.entry(index: index)
        }
    }
}
