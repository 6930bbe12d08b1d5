/// Text from outside the app — place files, Flickr, On the Map — made fit to store and show as a name: one line,
/// in the reading order it appears in, of a bounded length.
public enum PlainText {
    /// Longer than any real place, person or photo title needs; short enough that a stored name stays a name.
    public static let maximumNameLength = 200
    /// Code points, so a character stacked with thousands of combining marks cannot slip past the cap.
    public static let maximumNameScalars = 4 * maximumNameLength

    /// `text` without bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069: they can
    /// reverse the text around them) or control characters; line breaks and tabs become spaces, runs of
    /// whitespace one space, both ends trimmed, and a name past the cap cut to it, ending in "…".
    /// The directional marks U+200E, U+200F and U+061C stay: they affect nothing past their neighbours.
    /// `name(text)`, or nil where nothing is left (or there was no text): a name that is no name.
    public static func nonEmptyName(_ text: String?) -> String? {
        guard let text else { return nil }
        let plain = name(text)
        return plain.isEmpty ? nil : plain
    }

    public static func name(_ text: String) -> String {
        var line = String.UnicodeScalarView()
        var space: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                // A lone no-break or thin space stays as written; a line break, a tab or a run is one plain space.
                space = space == nil && !isLineOrControl(scalar) ? scalar : " "
            } else if !isDropped(scalar) {
                if let pending = space, !line.isEmpty { line.append(pending) }
                space = nil
                line.append(scalar)
            }
        }
        return capped(String(line))
    }

    private static func isLineOrControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}"
    }

    private static func isDropped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069: true
        default: scalar.properties.generalCategory == .control
        }
    }

    private static func capped(_ text: String) -> String {
        guard text.count > maximumNameLength || text.unicodeScalars.count > maximumNameScalars else { return text }
        var kept = ""
        var characters = 0, scalars = 0
        for character in text {
            characters += 1
            scalars += character.unicodeScalars.count
            guard characters < maximumNameLength, scalars < maximumNameScalars else { break }
            kept.append(character)
        }
        while kept.last?.isWhitespace == true { kept.removeLast() }
        return kept + "…"
    }
}
