import Foundation

/// A list answer (`{"results": [{…}, {…}, …`) cut off part-way, made into JSON again: every entry that was whole
/// by the cut is kept and the list closed, so a service that sends far too much still shows a class.
enum CutOffList {
    /// The start of `body` up to its last whole entry of the top-level `results` array, closed with `]}`; nil
    /// when no entry was whole by the cut, or the text isn't such an object.
    static func closed(_ body: Data) -> Data? {
        guard let end = endOfLastWholeEntry(body) else { return nil }
        return body.prefix(end) + Data("]}".utf8)
    }

    /// Reads the JSON's structure only (brackets, strings and their escapes): one pass, no values built.
    private static func endOfLastWholeEntry(_ body: Data) -> Int? {
        body.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Int? in
            var depth = 0
            var inString = false
            var escaped = false
            var keyStart = 0 // where the last string at depth 1 began, so `[` can tell whose value it is
            var keyEnd = 0
            var inResults = false
            var lastEnd: Int?
            for (offset, byte) in bytes.enumerated() {
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                        if depth == 1 { keyEnd = offset }
                    }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""):
                    inString = true
                    if depth == 1 { keyStart = offset + 1 }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    if depth == 0 && byte != UInt8(ascii: "{") { return nil }
                    if depth == 1 && byte == UInt8(ascii: "[") {
                        inResults = keyEnd > keyStart && bytes[keyStart..<keyEnd].elementsEqual("results".utf8)
                    }
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 2 && inResults { lastEnd = offset + 1 }
                    if depth == 1 { inResults = false }
                    if depth < 0 { return nil }
                default:
                    break
                }
            }
            return lastEnd
        }
    }
}
