/// Text made safe for XML content and attribute values; characters XML 1.0 cannot carry are dropped.
func xmlEscaped(_ text: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": escaped += "&amp;"
        case "<": escaped += "&lt;"
        case ">": escaped += "&gt;"
        case "\"": escaped += "&quot;"
        case "'": escaped += "&apos;"
        // A parser turns a bare carriage return into a line feed.
        case "\r": escaped += "&#13;"
        case "\t", "\n": escaped.unicodeScalars.append(scalar)
        default:
            let value = scalar.value
            guard value >= 0x20, value != 0xFFFE, value != 0xFFFF else { continue }
            escaped.unicodeScalars.append(scalar)
        }
    }
    return escaped
}
