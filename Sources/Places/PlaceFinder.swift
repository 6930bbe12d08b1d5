import Foundation
import Logging

/// Turns what a person typed into one place: a city offline (no request spent), anything else through Nominatim,
/// falling back to a city the text names when Nominatim can't answer.
public final class PlaceFinder: Sendable {
    private let offline: OfflineCities
    private let online: NominatimGeocoder?
    private let logger: Logger

    /// `online` nil means cities only (no geocoder configured).
    public init(offline: OfflineCities, online: NominatimGeocoder?,
                logger: Logger = Logger(label: "places.finder")) {
        self.offline = offline
        self.online = online
        self.logger = logger
    }

    /// The best match for `text`, or throws `PlaceSearchError` (or `CancellationError`).
    /// `@concurrent` because the offline search blocks for a moment: never on the caller's (main) actor.
    @concurrent public func find(_ text: String) async throws -> Place {
        let query = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !query.isEmpty else { throw PlaceSearchError.notFound(query: query) }

        if let city = offline.search(query, limit: 1).first {
            logger.debug("Found offline", metadata: ["source": "offlineCities"])
            return city
        }
        guard let online else {
            if let city = cityNamed(within: query) { return city }
            throw PlaceSearchError.geocoderUnreachable(query: query)
        }
        do {
            if let place = try await online.search(query, limit: 1).first { return place }
            throw PlaceSearchError.notFound(query: query)
        } catch let error as PlaceSearchError {
            switch error {
            case .notFound:
                throw error
            case .geocoderUnreachable, .geocoderFailed:
                // The case only: the message holds what the person typed, which may be their address.
                let reason = if case .geocoderUnreachable = error { "unreachable" } else { "failed" }
                logger.info("Nominatim unavailable; looking for a city in the text", metadata: ["reason": "\(reason)"])
                if let city = cityNamed(within: query) { return city }
                throw error
            }
        }
    }

    /// Cities starting like `text`, offline and at once: suggestions while a person types (never Nominatim,
    /// whose usage policy forbids autocomplete against the public server).
    @concurrent public func suggestions(for text: String, limit: Int = 6) async -> [Place] {
        let query = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !query.isEmpty else { return [] }
        return offline.completions(for: query, limit: limit)
    }

    /// Everything `text` may mean, for a search the person asked for (Enter): Nominatim's places (addresses,
    /// landmarks, cities) first, then cities from `OfflineCities` that Nominatim did not already give. When
    /// Nominatim can't be reached or fails, the cities alone, saying so. Throws only `CancellationError`.
    @concurrent public func search(_ text: String, limit: Int = 8) async throws -> PlaceSearchResults {
        let query = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !query.isEmpty else { return PlaceSearchResults(places: [], online: .answered) }
        let exact = offline.search(query, limit: limit)
        let cities = exact + offline.completions(for: query, limit: limit).filter { city in
            !exact.contains { $0.isSamePlace(as: city) }
        }
        guard let online else { return PlaceSearchResults(places: Array(cities.prefix(limit)), online: .notAsked) }
        var places: [Place] = []
        var status = PlaceSearchResults.Online.answered
        do {
            places = try await online.search(query, limit: limit)
        } catch let error as PlaceSearchError {
            let reason = if case .geocoderUnreachable = error { "unreachable" } else { "failed" }
            logger.info("Nominatim unavailable; showing cities only", metadata: ["reason": "\(reason)"])
            status = .unavailable
        }
        places += cities.filter { city in !places.contains { $0.isSamePlace(as: city) } }
        return PlaceSearchResults(places: Array(places.prefix(limit)), online: status)
    }

    /// The first city named by a trailing part of an address: "1600 Amphitheatre Parkway, Mountain View, CA"
    /// tries "Amphitheatre…, Mountain View, CA", then "Mountain View, CA" (found), then "CA".
    private func cityNamed(within query: String) -> Place? {
        let parts = query.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count > 1 else { return nil }
        for start in 1..<parts.count {
            let tail = parts[start...].joined(separator: ", ")
            if let city = offline.search(tail, limit: 1).first { return city }
        }
        return nil
    }
}

/// What a search found, and whether the online geocoder had its say.
public struct PlaceSearchResults: Sendable, Equatable {
    public var places: [Place]
    public var online: Online

    public enum Online: Sendable, Equatable {
        /// Nominatim answered (its places, if any, come first).
        case answered
        /// Nominatim could not be reached or failed: the places are offline cities only.
        case unavailable
        /// No online geocoder is configured.
        case notAsked
    }

    public init(places: [Place], online: Online) {
        self.places = places
        self.online = online
    }
}

extension Place {
    /// The same place found twice (Nominatim's "Paris" and libgeonames' Paris): close by, and the same
    /// first word of the name.
    func isSamePlace(as other: Place) -> Bool {
        let closeBy = abs(latitude - other.latitude) < 0.1 && abs(longitude - other.longitude) < 0.1
        func head(_ name: String) -> Substring {
            name.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) }.map { Substring($0.lowercased()) } ?? ""
        }
        return closeBy && head(name) == head(other.name)
    }
}
