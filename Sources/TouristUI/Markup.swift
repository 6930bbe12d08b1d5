import CGtk

/// Text put into Pango markup (a bold heading, a place's name): a translation or a name may hold `&` or `<`.
enum Markup {
    static func escaped(_ text: String) -> String {
        guard let escaped = g_markup_escape_text(text, -1) else { return "" }
        defer { g_free(escaped) }
        return String(cString: escaped)
    }

    /// `text` in bold.
    static func bold(_ text: String) -> String {
        "<b>\(escaped(text))</b>"
    }
}
