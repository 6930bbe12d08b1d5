/// A coordinate as the shortest decimal that reads back as the same Double, without an exponent
/// (xsd:decimal, which GPX's lat/lon are, has none).
func decimalText(_ value: Double) -> String {
    let shortest = "\(value)"
    guard let exponentIndex = shortest.firstIndex(where: { $0 == "e" || $0 == "E" }),
          let exponent = Int(shortest[shortest.index(after: exponentIndex)...]) else {
        return shortest
    }
    var mantissa = String(shortest[..<exponentIndex])
    let negative = mantissa.hasPrefix("-")
    if negative { mantissa.removeFirst() }
    let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
    let whole = String(parts[0])
    let fraction = parts.count > 1 ? String(parts[1]) : ""
    let digits = whole + fraction
    let point = whole.count + exponent
    var plain: String
    if point <= 0 {
        plain = "0." + String(repeating: "0", count: -point) + digits
    } else if point >= digits.count {
        plain = digits + String(repeating: "0", count: point - digits.count) + ".0"
    } else {
        plain = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
    }
    return (negative ? "-" : "") + plain
}
