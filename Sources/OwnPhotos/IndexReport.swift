import Foundation
import Translations

/// How many of the user's photo files the index holds, by outcome, and what the last scan did.
public struct IndexReport: Equatable, Sendable {
    /// Indexed with a position, in all.
    public var photos: Int
    /// Files read this scan (new or changed, including those skipped as too large).
    public var read: Int
    /// Skipped this scan because path, size and modification time matched the index.
    public var unchanged: Int
    /// Rows removed this scan: files gone from disk or from the folders.
    public var removed: Int
    /// Images without a position, in all.
    public var noPosition: Int
    /// Broken files and non-images with a photo's name, in all.
    public var unreadable: Int
    /// Files over `PhotoMetadataReader.maximumFileBytes`, in all.
    public var tooLarge: Int

    public init(photos: Int = 0, read: Int = 0, unchanged: Int = 0, removed: Int = 0,
                noPosition: Int = 0, unreadable: Int = 0, tooLarge: Int = 0) {
        self.photos = photos
        self.read = read
        self.unchanged = unchanged
        self.removed = removed
        self.noPosition = noPosition
        self.unreadable = unreadable
        self.tooLarge = tooLarge
    }

    /// For the settings page, e.g. "1,234 photos · 56 without a position · 3 unreadable"; the zero parts left out.
    public var summary: String {
        let locale = Translations.formattingLocale
        func number(_ value: Int) -> String { value.formatted(.number.locale(locale)) }
        // Translators: how many of the user's own photos have a position, e.g. "1,234 photos".
        var parts = [formatted(trn("%@ photo", "%@ photos", photos), number(photos))]
        if noPosition > 0 {
            // Translators: photos whose files hold no GPS position, e.g. "56 without a position".
            parts.append(formatted(trn("%@ without a position", "%@ without a position", noPosition), number(noPosition)))
        }
        if unreadable > 0 {
            // Translators: photo files that could not be read (broken or not images), e.g. "3 unreadable".
            parts.append(formatted(trn("%@ unreadable", "%@ unreadable", unreadable), number(unreadable)))
        }
        if tooLarge > 0 {
            // Translators: photo files skipped for their size, e.g. "2 too large".
            parts.append(formatted(trn("%@ too large", "%@ too large", tooLarge), number(tooLarge)))
        }
        return parts.joined(separator: " · ")
    }
}
