import Foundation

/// A JSON document as the tests read it, independent of the renderers' `JSONValue`: the
/// schema tests check the renderers' output, so they must not read it with the renderers' types.
///
/// Object members keep their document order (a key appears once: `JSONTreeParser` rejects
/// duplicates); numbers are `Double`, which holds every integer a report prints exactly.
indirect enum JSONTree: Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONTree])
    case object([(key: String, value: JSONTree)])

    /// Parses `text`.
    ///
    /// - Throws: `JSONTreeParser.Failure` when `text` is not one JSON document.
    init(parsing text: String) throws {
        var parser = JSONTreeParser(text)
        self = try parser.document()
    }

    /// JSON's equality: numbers by value, arrays in order, objects as sets of members.
    static func == (lhs: JSONTree, rhs: JSONTree) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let left), .bool(let right)): left == right
        case (.number(let left), .number(let right)): left == right
        case (.string(let left), .string(let right)): left == right
        case (.array(let left), .array(let right)): left == right
        case (.object(let left), .object(let right)):
            left.count == right.count && left.allSatisfy { member in right.contains { $0.key == member.key && $0.value == member.value } }
        default: false
        }
    }

    /// The member `key` of an object; nil for a missing key or a value that is not an object.
    subscript(key: String) -> JSONTree? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The element at `index` of an array; nil out of range or for a value that is not an array.
    subscript(index: Int) -> JSONTree? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    var string: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    var members: [(key: String, value: JSONTree)] {
        guard case .object(let members) = self else { return [] }
        return members
    }

    /// The JSON type names of JSON Schema; an integral number is both `integer` and `number`.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number(let value): value.rounded() == value ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The value with the member at `path` (object keys and array indices) replaced by
    /// `replacement`, or removed when `replacement` is nil; for the tests' mutated documents.
    func replacing(_ path: [String], with replacement: JSONTree?) -> JSONTree {
        guard let head = path.first else { return replacement ?? .null }
        let rest = Array(path.dropFirst())
        switch self {
        case .object(var members):
            guard let position = members.firstIndex(where: { $0.key == head }) else {
                if rest.isEmpty, let replacement { members.append((head, replacement)) }
                return .object(members)
            }
            if rest.isEmpty, replacement == nil {
                members.remove(at: position)
            } else {
                members[position].value = members[position].value.replacing(rest, with: replacement)
            }
            return .object(members)
        case .array(var elements):
            guard let index = Int(head), elements.indices.contains(index) else { return self }
            if rest.isEmpty, replacement == nil {
                elements.remove(at: index)
            } else {
                elements[index] = elements[index].replacing(rest, with: replacement)
            }
            return .array(elements)
        default:
            return self
        }
    }

    /// Compact JSON, for messages.
    var description: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .string(let value):
            let data = try! JSONSerialization.data(withJSONObject: [value], options: [.withoutEscapingSlashes])
            return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
        case .array(let elements): return "[" + elements.map(\.description).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { JSONTree.string($0.key).description + ":" + $0.value.description }.joined(separator: ",") + "}"
        }
    }
}
