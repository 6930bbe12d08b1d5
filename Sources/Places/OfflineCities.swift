import CGeonames
import Foundation

/// Finds cities by name with no network; the text is split on commas ("Paris, TX") because libgeonames ranks
/// single names only. Lock-free (libgeonames reads an immutable GVariant) but blocking: call off the main thread.
public final class OfflineCities: Sendable {
    public init() {}

    /// Cities named exactly `query`'s first part (ignoring case and accents) whose state, country or
    /// country code matches every further part; the libgeonames ranking (population-weighted) is kept.
    public func search(_ query: String, limit: Int = 5) -> [Place] {
        guard limit > 0, let request = CityQuery(query) else { return [] }
        var named = Self.rankedCities(for: request.name).filter { $0.isNamed(request.name) }
        // libgeonames folds case but not accents in the query: "Zürich" finds nothing, "Zurich" finds Zurich.
        let unaccented = request.name.folding(options: .diacriticInsensitive, locale: nil)
        if named.isEmpty && unaccented != request.name {
            named = Self.rankedCities(for: unaccented).filter { $0.isNamed(request.name) }
        }
        // Exact qualifiers first: "Charleston, Virginia" is not Charleston, West Virginia when both exist.
        let exact = named.filter { request.isSatisfied(by: $0, match: .exact) }
        let loose = named.filter { !request.isSatisfied(by: $0, match: .exact) && request.isSatisfied(by: $0, match: .words) }
        return (exact + loose).prefix(limit).map(\.place)
    }

    /// Cities whose name, or a word of it, starts like `text` (best first): suggestions while a person types, which
    /// Nominatim's usage policy forbids asking the public server for.
    public func completions(for text: String, limit: Int = 5) -> [Place] {
        guard limit > 0, let request = CityQuery(text) else { return [] }
        var places: [Place] = []
        for city in Self.rankedCities(for: request.name) where request.isSatisfied(by: city, match: .prefix) {
            places.append(city.place)
            if places.count == limit { break }
        }
        return places
    }

    /// libgeonames' matches for one name, best first (it matches word prefixes too: "Paris" finds "Parisot").
    static func rankedCities(for name: String) -> [GeonamesCity] {
        var length: guint = 0
        var error: UnsafeMutablePointer<GError>?
        guard let indices = geonames_query_cities_sync(name, GEONAMES_QUERY_DEFAULT, &length, nil, &error) else {
            if let error { g_error_free(error) }
            return []
        }
        defer { g_free(indices) }
        return (0..<Int(min(length, maximumScanned))).compactMap { GeonamesCity(index: indices[$0]) }
    }

    /// Enough to reach every exact match of even a short name, without reading the whole database.
    private static let maximumScanned: guint = 5_000
}

/// One city, copied out of libgeonames (whose strings live only as long as its GVariant).
struct GeonamesCity: Sendable {
    var name: String
    /// The English name when the current locale translates `name` ("Munich" beside "München").
    var englishName: String?
    var state: String
    /// The state's GeoNames code when it is letters (US postal codes: "TX"); numeric codes mean nothing to people.
    var stateCode: String?
    var country: String
    var countryCode: String
    var latitude: Double
    var longitude: Double
    var population: Int

    init?(index: gint) {
        guard index >= 0, let city = geonames_get_city(index) else { return nil }
        defer { geonames_city_free(city) }
        name = String(cString: geonames_city_get_name(city))
        state = String(cString: geonames_city_get_state(city))
        country = String(cString: geonames_city_get_country(city))
        countryCode = String(cString: geonames_city_get_country_code(city))
        latitude = geonames_city_get_latitude(city)
        longitude = geonames_city_get_longitude(city)
        population = Int(geonames_city_get_population(city))
        // The header declares a city to be a GVariant; its English name and state code have no getter,
        // so read them only when the tuple has the layout libgeonames 0.3 documents in its source.
        if String(cString: g_variant_get_type_string(city)) == "(sssssssudd)" {
            let english = Self.string(at: 1, of: city)
            englishName = english == name ? nil : english
            let code = Self.string(at: 2, of: city)
            stateCode = !code.isEmpty && code.allSatisfy(\.isLetter) ? code : nil
        }
    }

    private static func string(at position: Int, of tuple: OpaquePointer) -> String {
        let child = g_variant_get_child_value(tuple, gsize(position))
        defer { g_variant_unref(child) }
        return String(cString: g_variant_get_string(child, nil))
    }

    /// "Mountain View, California, United States": each part once, empty ones left out.
    var displayName: String {
        var parts: [String] = []
        let shownCountry = PlaceNameKey.shortCountryNames[countryCode.uppercased()] ?? country
        for part in [name, state, shownCountry] where !part.isEmpty && parts.last != part {
            parts.append(part)
        }
        return parts.joined(separator: ", ")
    }

    var place: Place {
        Place(name: displayName, latitude: latitude, longitude: longitude, source: .offlineCities)
    }

    func isNamed(_ text: String) -> Bool {
        let wanted = PlaceNameKey(text)
        return PlaceNameKey(name) == wanted || englishName.map { PlaceNameKey($0) == wanted } == true
    }

    /// Everything a person may write after the city's name to say which one they mean.
    var qualifierKeys: [PlaceNameKey] {
        var names = [state, country, countryCode] + (stateCode.map { [$0] } ?? [])
        names += PlaceNameKey.countryAliases[countryCode.uppercased()] ?? []
        return names.filter { !$0.isEmpty }.map(PlaceNameKey.init)
    }
}

/// What a person typed, split into a city's name and what should narrow it down.
struct CityQuery {
    var name: String
    var qualifiers: [PlaceNameKey]

    init?(_ text: String) {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard let first = parts.first, !PlaceNameKey(first).isEmpty else { return nil }
        name = first
        qualifiers = parts.dropFirst().map(PlaceNameKey.init).filter { !$0.isEmpty }
    }

    enum Match {
        /// "TX" is Texas, "US" the United States.
        case exact
        /// Also whole words inside a longer name: "Île-de-France" is "Île-de-France Region".
        case words
        /// Also the start of a name, for suggestions while typing: "Tex" is Texas.
        case prefix
    }

    func isSatisfied(by city: GeonamesCity, match: Match) -> Bool {
        let keys = city.qualifierKeys
        return qualifiers.allSatisfy { wanted in
            keys.contains { key in
                switch match {
                case .exact: return key == wanted
                case .words: return key == wanted || " \(key.text) ".contains(" \(wanted.text) ")
                case .prefix: return key.text.hasPrefix(wanted.text)
                }
            }
        }
    }
}

/// A place name compared the way people write it: case, accents, dots and dashes don't matter
/// ("st. louis" == "St Louis", "U.S.A." == "usa", "Saint-Étienne" == "saint etienne").
struct PlaceNameKey: Hashable, Sendable {
    let text: String

    init(_ name: String) {
        let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .replacingOccurrences(of: ".", with: "")
        text = folded.split { !$0.isLetter && !$0.isNumber }.joined(separator: " ")
    }

    var isEmpty: Bool { text.isEmpty }

    /// Everyday names of countries whose GeoNames name or code people rarely write.
    static let countryAliases: [String: [String]] = [
        "US": ["USA", "United States", "America"],
        "GB": ["UK", "Great Britain", "Britain"],
    ]

    /// How addresses usually write a country whose GeoNames name is long ("United States of America").
    static let shortCountryNames: [String: String] = ["US": "United States"]
}
