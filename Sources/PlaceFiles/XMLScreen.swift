import Foundation
import Translations

/// Looks at XML bytes before any parser does.
enum XMLScreen {
    /// Refuses DOCTYPE and ENTITY declarations (billion laughs, external entities) before anything is expanded.
    /// Reads UTF-8, which `TextEncoding` has made of UTF-16; refuses what is still not ASCII-compatible (UTF-32,
    /// UTF-16 without a mark or "<?xml", binary), where it could not see a declaration: such text starts with a
    /// byte other than "<" or holds NUL bytes.
    static func refuseDeclarations(in data: Data) throws(PlaceFileError) {
        let text = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        guard text.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "<") else {
            throw .malformed(tr("the file is not XML in UTF-8 or UTF-16"))
        }
        let verdict = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> PlaceFileError? in
            for index in 0..<bytes.count {
                if bytes[index] == 0 { return .malformed(tr("the file is not XML in UTF-8 or UTF-16")) }
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
