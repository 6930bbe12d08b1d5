import Foundation

/// ISO 8601 times as GPX, KML and GeoJSON write them (UTC, seconds, milliseconds only when there are some).
struct TimestampText {
    private let withFraction = ISO8601DateFormatter()
    private let withoutFraction = ISO8601DateFormatter()
    private let dateOnly = ISO8601DateFormatter()

    init() {
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        withoutFraction.formatOptions = [.withInternetDateTime]
        dateOnly.formatOptions = [.withFullDate]
    }

    /// A time the file gives; nil for text that is no ISO 8601 time, which costs the place only its date.
    func date(from text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return withoutFraction.date(from: trimmed) ?? withFraction.date(from: trimmed) ?? dateOnly.date(from: trimmed)
    }

    func text(from date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        return seconds.rounded(.down) == seconds ? withoutFraction.string(from: date) : withFraction.string(from: date)
    }
}
