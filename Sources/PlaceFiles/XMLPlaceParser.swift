import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Translations

/// The XML side shared by GPX and KML: declarations refused, the root named, SAX parsing with the
/// element path and text at hand. Subclasses pick places out of the elements.
class XMLPlaceParser: NSObject, XMLParserDelegate {
    /// The local names of the open elements, outermost first.
    private(set) var path: [String] = []
    private var namespaces: [String?] = []
    private var text = ""
    private var failure: PlaceFileError?
    private var rootClosed = false
    private weak var parser: XMLParser?
    var collector = PlaceCollector()

    /// Parses `data` (already screened by `refuseDeclarations`), stopping at the first failure.
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
            throw .malformed(String(format: tr("line %d: %@"), locale: Translations.formattingLocale, parser.lineNumber,
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
        default: what = String(format: tr("XML error %d"), locale: Translations.formattingLocale, code)
        }
        return String(format: tr("line %d: %@"), locale: Translations.formattingLocale, line, what)
    }
}

/// Looks at XML bytes before any parser does.
enum XMLScreen {
    /// Refuses DOCTYPE and ENTITY declarations (billion laughs, external entities) before anything is expanded.
    /// Also refuses what is not XML in an ASCII-compatible encoding (UTF-16, UTF-32, binary), where this
    /// screen could not see a declaration: such text starts with a byte other than "<" or holds NUL bytes.
    static func refuseDeclarations(in data: Data) throws(PlaceFileError) {
        let text = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        guard text.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "<") else {
            throw .malformed(tr("the file is not XML in UTF-8"))
        }
        let verdict = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> PlaceFileError? in
            for index in 0..<bytes.count {
                if bytes[index] == 0 { return .malformed(tr("the file is not XML in UTF-8")) }
                guard bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "!") else { continue }
                let word = bytes[(index + 2)..<min(bytes.count, index + 9)].map { $0 | 0x20 }
                if word.starts(with: Array("doctype".utf8)) || word.starts(with: Array("entity".utf8)) { return .declarationsRefused }
            }
            return nil
        }
        if let verdict { throw verdict }
    }

    /// The local name of the root element, past the XML declaration, comments and processing instructions.
    static func rootName(of data: Data) -> String? {
        let bytes = data
        var index = bytes.startIndex
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            let next = bytes.index(after: open)
            guard next < bytes.endIndex else { return nil }
            if let comment = bytes[next...].firstRange(of: Array("!--".utf8)), comment.lowerBound == next {
                guard let end = bytes[comment.upperBound...].firstRange(of: Array("-->".utf8)) else { return nil }
                index = end.upperBound
                continue
            }
            if bytes[next] == UInt8(ascii: "?") || bytes[next] == UInt8(ascii: "!") {
                guard let close = bytes[next...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
                index = bytes.index(after: close)
                continue
            }
            let name = bytes[next...].prefix { byte in
                !(byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D)
            }
            let qualified = String(decoding: name, as: UTF8.self)
            return qualified.split(separator: ":").last.map(String.init)
        }
        return nil
    }
}
