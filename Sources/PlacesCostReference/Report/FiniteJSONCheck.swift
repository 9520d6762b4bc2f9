import Foundation

/// Why `text` is not a JSON document whose numbers are all finite, or nil when it is one.
///
/// `JSONSerialization` refuses bare `inf` and `nan`; a number too large for a `Double` (`1e400`)
/// parses as an infinity and is reported here too.
package func nonFiniteJSONProblem(_ text: String) -> String? {
    guard let document = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else {
        return "not JSON: \(text.prefix(300))"
    }
    var found: String?
    func walk(_ value: Any, _ path: String) {
        guard found == nil else { return }
        switch value {
        case let object as [String: Any]:
            for (key, member) in object {
                if member is NSNull, ["list_cost_usd", "cost_usd", "estimated_cost_usd", "billed_cost_usd"].contains(key) {
                    found = "\(path).\(key) is null"
                }
                walk(member, path + "." + key)
            }
        case let array as [Any]:
            for (index, element) in array.enumerated() { walk(element, "\(path)[\(index)]") }
        case let number as NSNumber:
            if !number.doubleValue.isFinite { found = "\(path) is \(number)" }
        default:
            break
        }
    }
    walk(document, "")
    return found
}
