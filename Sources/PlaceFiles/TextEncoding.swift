import Foundation
import Translations

/// A places file's text in UTF-8, the one encoding the entity screen and the parsers read. XML processors must read
/// UTF-16 too (XML 1.0 §4.3.3), and Google Earth writes it on some systems.
enum TextEncoding {
    /// `data` as UTF-8: UTF-16 (little- or big-endian, known by its byte-order mark or, without one, by "<?xml" as
    /// XML 1.0 Appendix F has it) transcoded, its XML declaration dropped since it names UTF-16; anything else
    /// (UTF-8 with or without a BOM, zip, binary) as it is, for the screen and the sniffing to judge.
    static func utf8(_ data: Data) throws(PlaceFileError) -> Data {
        guard let (bigEndian, start) = utf16Layout(of: data) else { return data }
        guard var text = transcoded(data, from: start, bigEndian: bigEndian) else {
            throw .malformed(tr("the file’s UTF-16 text is damaged"))
        }
        dropDeclaration(from: &text)
        return text
    }

    private static func utf16Layout(of data: Data) -> (bigEndian: Bool, start: Int)? {
        let declaration = Array("<?xml".utf16)
        // FF FE 00 00 is UTF-32's mark, left for the screen to refuse.
        if data.starts(with: [0xFF, 0xFE]) && !data.starts(with: [0xFF, 0xFE, 0, 0]) { return (false, 2) }
        if data.starts(with: [0xFE, 0xFF]) { return (true, 2) }
        if data.starts(with: declaration.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }) { return (false, 0) }
        if data.starts(with: declaration.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }) { return (true, 0) }
        return nil
    }

    /// The UTF-8, or nil where the UTF-16 is cut mid-unit or a surrogate is unpaired. Counted first and written
    /// once at its size: at most 1.5 times the UTF-16 bytes (96 MiB for a 64 MiB file), with no copy between.
    private static func transcoded(_ data: Data, from start: Int, bigEndian: Bool) -> Data? {
        guard (data.count - start) % 2 == 0 else { return nil }
        return data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Data? in
            let units = stride(from: start, to: bytes.count, by: 2).lazy.map { offset in
                let unit = bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)
                return bigEndian ? UInt16(bigEndian: unit) : UInt16(littleEndian: unit)
            }
            // A surrogate pair's two units make four bytes, two each.
            let length = units.reduce(0) { $0 + ($1 < 0x80 ? 1 : $1 < 0x800 || UTF16.isSurrogate($1) ? 2 : 3) }
            var text = Data(count: length)
            let complete = text.withUnsafeMutableBytes { (out: UnsafeMutableRawBufferPointer) -> Bool in
                var written = 0
                let failed = transcode(units.makeIterator(), from: UTF16.self, to: UTF8.self, stoppingOnError: true) { byte in
                    out[written] = byte
                    written += 1
                }
                return !failed && written == length
            }
            return complete ? text : nil
        }
    }

    /// Drops `<?xml … ?>`, keeping its line breaks so the parser's line numbers still match the file's.
    private static func dropDeclaration(from text: inout Data) {
        let whitespace: [UInt8] = [0x20, 0x09, 0x0A, 0x0D]
        guard text.starts(with: Array("<?xml".utf8)), text.count > 5, whitespace.contains(text[5]),
              let end = text.firstRange(of: Array("?>".utf8)) else { return }
        text.replaceSubrange(0..<end.upperBound, with: text[..<end.upperBound].filter { $0 == 0x0A })
    }
}
