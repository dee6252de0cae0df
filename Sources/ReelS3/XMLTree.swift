import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A small element tree from Foundation's `XMLParser`: S3 responses are a few nested elements
/// with text, no attributes we need, no mixed content.
struct XMLTree: Sendable {
    var name: String
    var text: String
    var children: [XMLTree]

    /// The first child named `name`.
    func child(_ name: String) -> XMLTree? { children.first { $0.name == name } }
    func all(_ name: String) -> [XMLTree] { children.filter { $0.name == name } }
    /// The text of the first child named `name`.
    func text(_ name: String) -> String? { child(name)?.text }

    static func parse(_ data: Data) -> XMLTree? {
        guard !data.isEmpty else { return nil }
        let parser = XMLParser(data: data)
        let builder = Builder()
        parser.delegate = builder
        parser.shouldProcessNamespaces = true
        guard parser.parse() else { return nil }
        return builder.root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var stack: [XMLTree] = []
        var root: XMLTree?

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            stack.append(XMLTree(name: elementName, text: "", children: []))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += string
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            guard var node = stack.popLast() else { return }
            node.text = node.children.isEmpty ? node.text : node.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if stack.isEmpty { root = node } else { stack[stack.count - 1].children.append(node) }
        }
    }

    /// Escapes text for an element body we write (keys in DeleteObjects).
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
