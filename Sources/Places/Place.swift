import Foundation
import Translations

/// A named point on Earth: what a search for a place finds.
public struct Place: Sendable, Equatable {
    /// What people read and what On the Map posts as `mapString`: "Mountain View, California, United States".
    public var name: String
    public var latitude: Double
    public var longitude: Double
    /// Which geocoder found it, so the UI can credit OpenStreetMap when it was Nominatim.
    public var source: Source

    public enum Source: Sendable, Equatable {
        /// libgeonames' cities database on this computer.
        case offlineCities
        /// A Nominatim server (OpenStreetMap data).
        case nominatim
    }

    public init(name: String, latitude: Double, longitude: Double, source: Source) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.source = source
    }

    /// A point as people read it where it has no name: "48.85660, 2.35220", or "48,85660; 2,35220" where the
    /// locale writes a decimal comma (a comma between the two would then be ambiguous).
    public static func coordinatesText(latitude: Double, longitude: Double, decimals: Int) -> String {
        let locale = Translations.formattingLocale
        let format = "%.\(decimals)f"
        let separator = locale.decimalSeparator == "," ? "; " : ", "
        return String(format: format, locale: locale, latitude) + separator + String(format: format, locale: locale, longitude)
    }
}

/// Why a place search found nothing, with a message a person can act on.
public enum PlaceSearchError: Error, Equatable, CustomStringConvertible, Sendable {
    /// Every geocoder that was asked answered, and none knows `query`.
    case notFound(query: String)
    /// The online geocoder could not be reached (offline, DNS, refused, timed out) and `query` is not a known city.
    case geocoderUnreachable(query: String)
    /// The online geocoder answered, but with an error or something that is not its JSON; `detail` says which.
    case geocoderFailed(query: String, detail: String)

    /// The text the person searched for.
    public var query: String {
        switch self {
        case .notFound(let query), .geocoderUnreachable(let query), .geocoderFailed(let query, _): return query
        }
    }

    public var description: String {
        switch self {
        case .notFound(let query):
            // Translators: %@ is what the person searched for.
            return formatted(tr("No place called “%@” was found. Check the spelling, or add the city or country."), query)
        case .geocoderUnreachable(let query):
            // Translators: %@ is what the person searched for.
            return formatted(tr("The place search service can't be reached, so only cities can be found right now, and “%@” is not one. Check your internet connection and try again, or enter a city such as “Mountain View, California”."), query)
        case .geocoderFailed(let query, let detail):
            // Translators: %1$@ is what the person searched for, %2$@ what went wrong, e.g. "the server answered HTTP 404".
            return formatted(tr("The place search service could not look up “%1$@” (%2$@). Try again in a minute, or enter a city such as “Mountain View, California”, which works offline."), query, detail)
        }
    }
}

// So `error.localizedDescription` shows the same sentence in dialogs.
extension PlaceSearchError: LocalizedError {
    public var errorDescription: String? { description }
}
