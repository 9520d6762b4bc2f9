/// Whole JSON values, for the records that are not calls (`AnyJSON`): the same strict scanner,
/// keeping every member where `parse` keeps only the known keys.
extension JSONLineParser {
    /// The line's JSON object, or why it is not one.
    package static func parseTree(_ line: UnsafeBufferPointer<UInt8>) -> Result<[String: AnyJSON], Failure> {
        var scanner = Scanner(bytes: line)
        do {
            scanner.skipWhitespace()
            guard scanner.position < line.count, line[scanner.position] == UInt8(ascii: "{"),
                  case .object(let members) = try scanner.parseTree(depth: 0)
            else { return .failure(Failure(reason: "not a JSON object (a record must be one object per line)")) }
            scanner.skipWhitespace()
            guard scanner.position == line.count else { throw scanner.fail("unexpected text after the object") }
            return .success(members)
        } catch let failure as Failure {
            return .failure(failure)
        } catch {
            return .failure(Failure(reason: "\(error)"))
        }
    }
}

extension JSONLineParser.Scanner {
    mutating func parseTree(depth: Int) throws -> AnyJSON {
        guard depth <= JSONLineParser.maxDepth else { throw fail("nesting deeper than \(JSONLineParser.maxDepth)") }
        guard position < bytes.count else { throw fail("expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            position += 1
            var members: [String: AnyJSON] = [:]
            var first = true
            while let key = try nextMember(first: &first) {
                members[String(decoding: key, as: UTF8.self)] = try parseTree(depth: depth + 1)
            }
            return .object(members)
        case UInt8(ascii: "["):
            var elements: [AnyJSON] = []
            try parseElements { scanner in elements.append(try scanner.parseTree(depth: depth + 1)) }
            return .array(elements)
        default:
            // Scalars as the record parser reads them.
            switch try parseValue(depth: depth, keep: true) {
            case .string(let string): return .string(string)
            case .number(let literal): return .number(literal)
            case .bool(let value): return .bool(value)
            default: return .null
            }
        }
    }
}
