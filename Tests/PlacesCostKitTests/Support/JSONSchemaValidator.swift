import Foundation

/// Checks a `JSONTree` against a JSON Schema (draft 2020-12), for the subset of the draft that
/// `docs/schema/*.schema.json` use.
///
/// The subset: `type` (a name or a list of names), `properties`, `required`,
/// `additionalProperties` (a boolean or a schema), `propertyNames`, `items`, `minItems`, `enum`,
/// `const`, `minimum`, `maximum`, `pattern`, `anyOf`, `$ref` to `#/$defs/NAME` of the same
/// document, boolean schemas, and the annotations `$schema`, `$id`, `$comment`, `title` and
/// `description`. Any other keyword is refused when the validator is made, never skipped: a
/// schema cannot promise a check this validator would silently not make.
struct JSONSchemaValidator {
    /// Why a schema is not one this validator can apply.
    enum SchemaError: Error, Equatable, CustomStringConvertible {
        case notASchema(path: String)
        case unsupportedKeyword(path: String, keyword: String)
        case malformedKeyword(path: String, keyword: String, expected: String)
        case misplacedKeyword(path: String, keyword: String)
        case unresolvedReference(path: String, reference: String)

        var description: String {
            switch self {
            case .notASchema(let path):
                "The schema at `\(path)` is neither an object nor a boolean."
            case .unsupportedKeyword(let path, let keyword):
                "The schema at `\(path)` uses `\(keyword)`, which this validator does not implement."
            case .malformedKeyword(let path, let keyword, let expected):
                "The keyword `\(keyword)` of the schema at `\(path)` must be \(expected)."
            case .misplacedKeyword(let path, let keyword):
                "The keyword `\(keyword)` is only taken at the root of the document, not at `\(path)`."
            case .unresolvedReference(let path, let reference):
                "The schema at `\(path)` refers to `\(reference)`, which is not a `#/$defs/NAME` of this document."
            }
        }
    }

    /// One way a document breaks the schema: where (a JSON Pointer) and what.
    struct Violation: Equatable, CustomStringConvertible {
        var path: String
        var message: String

        var description: String { "\(path.isEmpty ? "the document" : "`\(path)`"): \(message)" }
    }

    static let keywords: Set<String> = [
        "$schema", "$id", "$defs", "$ref", "$comment", "title", "description",
        "type", "properties", "required", "additionalProperties", "propertyNames", "items", "minItems",
        "enum", "const", "minimum", "maximum", "pattern", "anyOf",
    ]
    static let rootKeywords: Set<String> = ["$schema", "$id", "$defs"]
    static let typeNames: Set<String> = ["null", "boolean", "object", "array", "number", "integer", "string"]
    /// More nested references than any schema of ours has: a cycle of bare `$ref`s.
    static let maximumReferenceDepth = 64

    let schema: JSONTree
    private let definitions: [String: JSONTree]
    private let patterns: [String: NSRegularExpression]

    /// - Throws: `SchemaError` for a keyword outside the subset, a malformed keyword or a
    ///   reference that does not resolve.
    init(schema: JSONTree) throws {
        self.schema = schema
        var definitions: [String: JSONTree] = [:]
        if case .object = schema, let defs = schema["$defs"] {
            guard case .object(let members) = defs else { throw SchemaError.malformedKeyword(path: "", keyword: "$defs", expected: "an object of schemas") }
            for member in members { definitions[member.key] = member.value }
        }
        self.definitions = definitions
        var patterns: [String: NSRegularExpression] = [:]
        try JSONSchemaValidator.check(schema, path: "", isRoot: true, definitions: definitions, patterns: &patterns)
        self.patterns = patterns
    }

    /// Every violation of the schema by `instance`; empty when it is valid.
    func validate(_ instance: JSONTree) -> [Violation] {
        var violations: [Violation] = []
        validate(instance, against: schema, path: "", depth: 0, into: &violations)
        return violations
    }

    // MARK: - Checking the schema

    private static func check(
        _ node: JSONTree, path: String, isRoot: Bool, definitions: [String: JSONTree], patterns: inout [String: NSRegularExpression]
    ) throws {
        if case .bool = node { return }
        guard case .object(let members) = node else { throw SchemaError.notASchema(path: path) }
        func malformed(_ keyword: String, _ expected: String) -> SchemaError {
            .malformedKeyword(path: path, keyword: keyword, expected: expected)
        }
        func subschema(_ child: JSONTree, _ suffix: String) throws {
            try check(child, path: path + suffix, isRoot: false, definitions: definitions, patterns: &patterns)
        }
        for (keyword, value) in members {
            guard keywords.contains(keyword) else { throw SchemaError.unsupportedKeyword(path: path, keyword: keyword) }
            if rootKeywords.contains(keyword), !isRoot { throw SchemaError.misplacedKeyword(path: path, keyword: keyword) }
            switch keyword {
            case "$schema", "$id", "$comment", "title", "description":
                guard case .string = value else { throw malformed(keyword, "a string") }
            case "$defs":
                for member in value.members { try subschema(member.value, "/$defs/" + pointerToken(member.key)) }
            case "$ref":
                guard let reference = value.string else { throw malformed(keyword, "a string") }
                guard reference.hasPrefix("#/$defs/"), definitions[String(reference.dropFirst(8))] != nil else {
                    throw SchemaError.unresolvedReference(path: path, reference: reference)
                }
            case "type":
                let names: [JSONTree]
                if case .array(let elements) = value { names = elements } else { names = [value] }
                guard !names.isEmpty, names.allSatisfy({ $0.string.map(typeNames.contains) ?? false }) else {
                    throw malformed(keyword, "a type name or a non-empty list of them")
                }
            case "properties":
                guard case .object(let properties) = value else { throw malformed(keyword, "an object of schemas") }
                for property in properties { try subschema(property.value, "/properties/" + pointerToken(property.key)) }
            case "required":
                guard case .array(let names) = value, names.allSatisfy({ $0.string != nil }) else { throw malformed(keyword, "a list of strings") }
            case "additionalProperties", "propertyNames", "items":
                try subschema(value, "/" + keyword)
            case "anyOf":
                guard case .array(let branches) = value, !branches.isEmpty else { throw malformed(keyword, "a non-empty list of schemas") }
                for (index, branch) in branches.enumerated() { try subschema(branch, "/anyOf/\(index)") }
            case "enum":
                guard case .array(let options) = value, !options.isEmpty else { throw malformed(keyword, "a non-empty list") }
            case "minimum", "maximum":
                guard case .number = value else { throw malformed(keyword, "a number") }
            case "minItems":
                guard case .number(let count) = value, count >= 0, count.rounded() == count else { throw malformed(keyword, "a whole number") }
            case "pattern":
                guard let pattern = value.string, let expression = try? NSRegularExpression(pattern: pattern) else {
                    throw malformed(keyword, "a regular expression")
                }
                patterns[pattern] = expression
            default:  // const: any value
                break
            }
        }
    }

    /// `key` escaped for a JSON Pointer (RFC 6901).
    static func pointerToken(_ key: String) -> String {
        key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    // MARK: - Checking a document

    private func validate(_ instance: JSONTree, against node: JSONTree, path: String, depth: Int, into violations: inout [Violation]) {
        func violation(_ message: String) { violations.append(Violation(path: path, message: message)) }
        if case .bool(let accepts) = node {
            if !accepts { violation("no value is allowed here") }
            return
        }
        if let reference = node["$ref"]?.string, let target = definitions[String(reference.dropFirst(8))] {
            guard depth < JSONSchemaValidator.maximumReferenceDepth else { return violation("`\(reference)` refers to itself without end") }
            validate(instance, against: target, path: path, depth: depth + 1, into: &violations)
        }
        if let type = node["type"] {
            let names: [String]
            if case .array(let elements) = type { names = elements.compactMap(\.string) } else { names = [type.string!] }
            let actual = instance.typeName
            let matches = names.contains(actual) || (actual == "integer" && names.contains("number"))
            guard matches else {
                return violation("expected \(names.joined(separator: " or ")), found \(actual) \(abbreviated(instance))")
            }
        }
        if let options = node["enum"], case .array(let allowed) = options, !allowed.contains(instance) {
            violation("\(abbreviated(instance)) is not one of \(options)")
        }
        if let constant = node["const"], constant != instance {
            violation("expected \(constant), found \(abbreviated(instance))")
        }
        if case .number(let value) = instance {
            if case .number(let minimum)? = node["minimum"], value < minimum { violation("\(instance) is below the minimum \(node["minimum"]!)") }
            if case .number(let maximum)? = node["maximum"], value > maximum { violation("\(instance) is above the maximum \(node["maximum"]!)") }
        }
        if case .string(let text) = instance, let pattern = node["pattern"]?.string, let expression = patterns[pattern] {
            if expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil {
                violation("\(instance) does not match the pattern `\(pattern)`")
            }
        }
        if case .array(let elements) = instance {
            if case .number(let minimum)? = node["minItems"], Double(elements.count) < minimum {
                violation("expected at least \(node["minItems"]!) elements, found \(elements.count)")
            }
            if let items = node["items"] {
                for (index, element) in elements.enumerated() {
                    validate(element, against: items, path: path + "/\(index)", depth: depth, into: &violations)
                }
            }
        }
        if case .object(let members) = instance {
            let properties = node["properties"]
            for name in node["required"].map({ required -> [String] in
                guard case .array(let names) = required else { return [] }
                return names.compactMap(\.string)
            }) ?? [] where !members.contains(where: { $0.key == name }) {
                violation("the required key `\(name)` is missing")
            }
            for (key, value) in members {
                let memberPath = path + "/" + JSONSchemaValidator.pointerToken(key)
                if let propertyNames = node["propertyNames"] {
                    var keyViolations: [Violation] = []
                    validate(.string(key), against: propertyNames, path: memberPath, depth: depth, into: &keyViolations)
                    violations += keyViolations.map { Violation(path: $0.path, message: "the key: " + $0.message) }
                }
                if let property = properties?[key] {
                    validate(value, against: property, path: memberPath, depth: depth, into: &violations)
                } else if let additional = node["additionalProperties"] {
                    if case .bool(false) = additional {
                        violations.append(Violation(path: memberPath, message: "the key `\(key)` is not in the schema"))
                    } else {
                        validate(value, against: additional, path: memberPath, depth: depth, into: &violations)
                    }
                }
            }
        }
        if case .array(let branches)? = node["anyOf"] {
            var firstFailures: [Violation]?
            for branch in branches {
                var branchViolations: [Violation] = []
                validate(instance, against: branch, path: path, depth: depth, into: &branchViolations)
                if branchViolations.isEmpty { return }
                firstFailures = firstFailures ?? branchViolations
            }
            violation("matches none of the \(branches.count) schemas of `anyOf` (the first says: \(firstFailures!.map(\.description).joined(separator: "; ")))")
        }
    }

    /// `value` for a message, cut short.
    private func abbreviated(_ value: JSONTree) -> String {
        let text = value.description
        return text.count <= 80 ? text : String(text.prefix(77)) + "..."
    }
}
