/// What is wrong with a piece of text a client sent. Length is counted in Unicode scalars (what the database stores),
/// not grapheme clusters, which one letter and ten thousand accents make one of; NUL is refused everywhere, because
/// SQLite binds text only up to it, PostgreSQL refuses it and bcrypt stops at it.
enum InputText: Equatable {
    case containsNUL
    case tooLong(maximum: Int)

    static func problem(_ text: String, maximum: Int) -> InputText? {
        if text.unicodeScalars.contains("\0") { return .containsNUL }
        if text.unicodeScalars.count > maximum { return .tooLong(maximum: maximum) }
        return nil
    }

    /// The sentence a client reads, naming the field as `field` (e.g. "firstName" or "The first name").
    func message(_ field: String) -> String {
        switch self {
        case .containsNUL: "\(field) contains a NUL character (U+0000), which no text here may."
        case .tooLong(let maximum): "\(field) is too long: at most \(maximum) characters."
        }
    }
}
