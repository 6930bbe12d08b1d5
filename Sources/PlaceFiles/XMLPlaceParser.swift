import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Translations

/// The XML side shared by GPX and KML: SAX parsing with the element path and text at hand, aborted by any
/// declaration or failure. Subclasses pick places out of the elements.
class XMLPlaceParser: NSObject, XMLParserDelegate {
    /// The local names of the open elements, outermost first.
    private(set) var path: [String] = []
    private var namespaces: [String?] = []
    private var text = ""
    private var failure: PlaceFileError?
    private var rootClosed = false
    private weak var parser: XMLParser?
    var collector = PlaceCollector()

    /// Parses `data` (already screened by `XMLScreen.refuseDeclarations`), stopping at the first failure.
    func parse(_ data: Data) throws(PlaceFileError) {
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.delegate = self
        self.parser = parser
        let finished = parser.parse()
        if let failure { throw failure }
        guard finished else {
            throw .malformed(Self.describe(parser.parserError, line: parser.lineNumber))
        }
        // FoundationXML reports no error for a document cut short; an unclosed root tells.
        guard rootClosed else {
            throw .malformed(formatted(tr("line %d: %@"), parser.lineNumber,
                                    tr("the file ends too early")))
        }
    }

    /// Stops the parse; the first failure is the one reported.
    func fail(_ error: PlaceFileError) {
        if failure == nil { failure = error }
        parser?.abortParsing()
    }

    /// Whether an element belongs to the format rather than an extension (gx:, mwm:, another app's).
    func isOwnNamespace(_ namespace: String?) -> Bool { true }

    /// Whether the open element `depth` levels from the innermost (0) is `name` in the format's namespace.
    func isOpen(_ name: String, at depth: Int = 0) -> Bool {
        let index = path.count - 1 - depth
        return index >= 0 && path[index] == name && isOwnNamespace(namespaces[index])
    }

    func didStart(_ name: String, attributes: [String: String]) throws(PlaceFileError) {}
    func didEnd(_ name: String, text: String) throws(PlaceFileError) {}

    // MARK: XMLParserDelegate

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        guard failure == nil else { return }
        path.append(elementName)
        namespaces.append(namespaceURI)
        text = ""
        guard isOwnNamespace(namespaceURI) else { return }
        do { try didStart(elementName, attributes: attributeDict) } catch { fail(error) }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard failure == nil else { return }
        if isOwnNamespace(namespaceURI) {
            do { try didEnd(elementName, text: text) } catch { fail(error) }
        }
        text = ""
        rootClosed = path.count == 1
        path.removeLast()
        namespaces.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        // Bounded: a name or a coordinate, not a novel.
        if text.utf8.count < 1 << 20 { text += string }
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        if text.utf8.count < 1 << 20 { text += String(decoding: CDATABlock, as: UTF8.self) }
    }

    // The byte screen has refused these already; the parser refuses them again should one slip past it.
    // (FoundationXML on Linux reports element and attribute declarations but not entity ones, and expands no
    // entity while shouldResolveExternalEntities is false; the screen is what refuses.)
    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        fail(.declarationsRefused)
    }

    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
        fail(.declarationsRefused)
    }

    func parser(_ parser: XMLParser, foundUnparsedEntityDeclarationWithName name: String, publicID: String?,
                systemID: String?, notationName: String?) {
        fail(.declarationsRefused)
    }

    func parser(_ parser: XMLParser, foundNotationDeclarationWithName name: String, publicID: String?, systemID: String?) {
        fail(.declarationsRefused)
    }

    func parser(_ parser: XMLParser, foundElementDeclarationWithName elementName: String, model: String) {
        fail(.declarationsRefused)
    }

    func parser(_ parser: XMLParser, foundAttributeDeclarationWithName attributeName: String, forElement elementName: String,
                type: String?, defaultValue: String?) {
        fail(.declarationsRefused)
    }

    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
        fail(.declarationsRefused)
        return nil
    }

    private static func describe(_ error: Error?, line: Int) -> String {
        let code = (error as NSError?)?.code ?? 0
        let what: String
        switch XMLParser.ErrorCode(rawValue: code) {
        case .prematureDocumentEndError?: what = tr("the file ends too early")
        case .tagNameMismatchError?, .notWellBalancedError?: what = tr("an element is not closed")
        case .emptyDocumentError?: what = tr("the file is empty")
        case .documentStartError?: what = tr("the file is not XML")
        default: what = formatted(tr("XML error %d"), code)
        }
        return formatted(tr("line %d: %@"), line, what)
    }
}
