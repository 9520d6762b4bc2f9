import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A rendered chart read back with Foundation's `XMLParser`, so tests look at elements and
/// attributes rather than at substrings.
final class ParsedSVG: NSObject, XMLParserDelegate {
    struct Element {
        var name: String
        var attributes: [String: String]
        /// The character data directly inside the element, unescaped by the parser.
        var text: String

        func number(_ attribute: String) -> Double? {
            attributes[attribute].flatMap(Double.init)
        }
    }

    private(set) var elements: [Element] = []
    /// The parser's error; nil for a well-formed document.
    private(set) var error: (any Error)?
    private var open: [Int] = []

    init(_ svg: String) {
        super.init()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = self
        if !parser.parse() {
            error = parser.parserError ?? CocoaError(.coderReadCorrupt)
        }
    }

    /// The elements named `name` whose `class` attribute is `className` (any class when nil).
    func elements(_ name: String, class className: String? = nil) -> [Element] {
        elements.filter { $0.name == name && (className == nil || $0.attributes["class"] == className) }
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        open.append(elements.count)
        elements.append(Element(name: elementName, attributes: attributeDict, text: ""))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let current = open.last { elements[current].text += string }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        open.removeLast()
    }
}
