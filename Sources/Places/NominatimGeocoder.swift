import Foundation
import Logging
import Translations
import WebAccess

/// A GET to Nominatim: its address and headers.
public struct GeocoderRequest: Sendable {
    public var url: URL
    public var headers: [(String, String)]

    public func value(forHTTPHeaderField name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }
}

/// Finds addresses and places through a Nominatim server (`/search?format=jsonv2`), within
/// OpenStreetMap's usage policy: an identifying User-Agent, at most one request per second for the
/// whole app (the shared `RequestRateLimiter`), and every answer cached.
public final class NominatimGeocoder: Sendable {
    /// The server's base address, e.g. `https://nominatim.openstreetmap.org/`.
    public let endpoint: URL
    private let userAgent: String
    private let timeout: TimeInterval
    private let web: WebClient
    private let limiter: RequestRateLimiter
    private let cache = SearchCache()
    private let logger: Logger

    public static let defaultEndpoint = URL(string: "https://nominatim.openstreetmap.org/")!
    /// Long enough for a busy public server, short enough that a person isn't left waiting.
    public static let requestTimeout: TimeInterval = 10

    /// `userAgent` names the app and a contact, e.g. "OnTheMap/0.1 (+https://github.com/virtualtourist)":
    /// the public server refuses stock agents. `timeout` bounds each request whole; `web` is how it goes out
    /// (the environment's proxies and trust roots unless told otherwise).
    public init(endpoint: URL, userAgent: String, timeout: TimeInterval = NominatimGeocoder.requestTimeout,
                web: WebClient = .environment, limiter: RequestRateLimiter = .shared,
                logger: Logger = Logger(label: "places.nominatim")) {
        self.endpoint = endpoint
        self.userAgent = userAgent
        self.timeout = timeout
        self.web = web
        self.limiter = limiter
        self.logger = logger
    }

    /// The server named by `environment[variable]`, else the public one; a value that is not an http(s)
    /// address falls back to the public server, with a sentence saying so for the user.
    public static func endpoint(from environment: [String: String],
                                variable: String) -> (endpoint: URL, problem: String?) {
        guard let value = environment[variable], !value.isEmpty else { return (defaultEndpoint, nil) }
        if let url = URL(string: value), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil {
            return (url, nil)
        }
        // Translators: %1$@=%2$@ is an environment variable and its value, %3$@ the address used instead.
        return (defaultEndpoint, formatted(tr("%1$@=%2$@ is not an http(s) address; using %3$@."), variable, value,
                                        defaultEndpoint.absoluteString))
    }

    /// Up to `limit` places for `query`, best first; empty when Nominatim knows none.
    /// Throws `PlaceSearchError.geocoderUnreachable` or `.geocoderFailed`, or `CancellationError`.
    public func search(_ query: String, limit: Int = 5) async throws -> [Place] {
        let key = SearchCache.Key(query: query, limit: limit)
        if let cached = await cache[key] { return cached }
        await limiter.wait()
        try Task.checkCancellation()
        // Another search for the same text may have finished while this one waited its turn.
        if let cached = await cache[key] { return cached }

        let places = try await fetch(query, limit: limit)
        await cache.store(places, for: key)
        return places
    }

    /// The request `search` sends (exposed for tests and logs).
    public func request(for query: String, limit: Int) -> GeocoderRequest {
        request(path: "search", items: [
            URLQueryItem(name: "q", value: query.trimmingCharacters(in: .whitespacesAndNewlines)),
            URLQueryItem(name: "format", value: "jsonv2"),
            URLQueryItem(name: "limit", value: String(max(1, min(limit, 40)))),
        ])
    }

    /// What is at a point (`/reverse?format=jsonv2`), named the way a traveller says it: "Montmartre, Paris,
    /// France" rather than the street address. Nil when Nominatim has nothing there (open sea).
    /// Throws like `search`, with the coordinates as the query.
    public func reverse(latitude: Double, longitude: Double) async throws -> Place? {
        let label = Place.coordinatesText(latitude: latitude, longitude: longitude, decimals: 5)
        await limiter.wait()
        try Task.checkCancellation()
        let data = try await send(reverseRequest(latitude: latitude, longitude: longitude), query: label)
        if let refusal = try? JSONDecoder().decode(NominatimRefusal.self, from: data), refusal.error != nil {
            return nil
        }
        guard let result = try? JSONDecoder().decode(NominatimResult.self, from: data),
              let place = result.place else {
            logger.info("Nominatim answer is not its JSON", metadata: ["bytes": "\(data.count)"])
            throw PlaceSearchError.geocoderFailed(query: label, detail: tr("its answer was not the expected JSON"))
        }
        return Place(name: result.travellersName ?? place.name, latitude: latitude, longitude: longitude,
                     source: .nominatim)
    }

    /// The request `reverse` sends. Zoom 14 asks for the neighbourhood, not the house.
    public func reverseRequest(latitude: Double, longitude: Double) -> GeocoderRequest {
        request(path: "reverse", items: [
            URLQueryItem(name: "lat", value: String(format: "%.6f", locale: Locale(identifier: "en_US_POSIX"), latitude)),
            URLQueryItem(name: "lon", value: String(format: "%.6f", locale: Locale(identifier: "en_US_POSIX"), longitude)),
            URLQueryItem(name: "zoom", value: "14"),
            URLQueryItem(name: "addressdetails", value: "1"),
            URLQueryItem(name: "format", value: "jsonv2"),
        ])
    }

    /// `path` under the endpoint (or the endpoint itself when it already names it), with `items` as its
    /// query and the identifying User-Agent.
    private func request(path: String, items: [URLQueryItem]) -> GeocoderRequest {
        let base = endpoint.lastPathComponent == path ? endpoint : endpoint.appendingPathComponent(path)
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false)!
        components.queryItems = items
        // URLComponents leaves "+" as is, which servers read as a space: "Paris+Texas" would lose its meaning.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        var headers = [("User-Agent", userAgent), ("Accept", "application/json")]
        if let languages = Self.acceptLanguage() { headers.append(("Accept-Language", languages)) }
        return GeocoderRequest(url: components.url!, headers: headers)
    }

    /// The body of a 200 answer, or the error a person can act on.
    private func send(_ request: GeocoderRequest, query: String) async throws -> Data {
        let response: WebResponse
        do {
            response = try await web.get(request.url, headers: request.headers, timeout: timeout)
        } catch {
            let failure = WebFailure(error)
            if failure == .cancelled { throw CancellationError() }
            logger.info("Nominatim request failed", metadata: ["reason": "\(failure)", "host": "\(endpoint.host ?? "")"])
            throw failure.isConnectivityProblem
                ? PlaceSearchError.geocoderUnreachable(query: query)
                // Translators: %@ says how, e.g. "no secure connection could be made".
                : PlaceSearchError.geocoderFailed(query: query, detail: formatted(tr("the connection failed: %@"),
                                                                                failure.description))
        }
        guard response.status == 200 else {
            logger.info("Nominatim answered with an error", metadata: ["status": "\(response.status)"])
            throw PlaceSearchError.geocoderFailed(query: query, detail: Self.detail(forStatus: response.status))
        }
        return response.body
    }

    private func fetch(_ query: String, limit: Int) async throws -> [Place] {
        let data = try await send(request(for: query, limit: limit), query: query)
        guard let results = try? JSONDecoder().decode([NominatimResult].self, from: data) else {
            logger.info("Nominatim answer is not its JSON", metadata: ["bytes": "\(data.count)"])
            throw PlaceSearchError.geocoderFailed(query: query, detail: tr("its answer was not the expected JSON"))
        }
        return Array(results.compactMap(\.place).prefix(limit))
    }

    static func detail(forStatus status: Int) -> String {
        switch status {
        case 403, 429:
            // Translators: %d is an HTTP status code: 403 or 429.
            return formatted(tr("the server refused the request with HTTP %d: too many searches, or it does not accept this app"), status)
        case 500...599:
            // Translators: %d is an HTTP status code such as 503.
            return formatted(tr("the server had a problem: HTTP %d"), status)
        default:
            // Translators: %d is an HTTP status code such as 404.
            return formatted(tr("the server answered HTTP %d"), status)
        }
    }

    /// "de-DE, de;q=0.9, en;q=0.8" from the person's preferred languages, so names come in their language.
    static func acceptLanguage() -> String? {
        let languages = Locale.preferredLanguages.prefix(4).filter { !$0.isEmpty }
        guard !languages.isEmpty else { return nil }
        return languages.enumerated().map { index, language in
            index == 0 ? language : "\(language);q=\(String(format: "%.1f", 1.0 - Double(index) * 0.1))"
        }.joined(separator: ", ")
    }
}

/// One entry of Nominatim's jsonv2 answer; lat and lon are strings (numbers are accepted too).
struct NominatimResult: Decodable {
    var latitude: Double?
    var longitude: Double?
    var displayName: String?
    /// `/reverse`'s parts of the place (`addressdetails=1`): "suburb", "city", "country", …
    var address: [String: String]

    private enum CodingKeys: String, CodingKey {
        case lat, lon, address
        case displayName = "display_name"
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        latitude = Self.coordinate(container, .lat)
        longitude = Self.coordinate(container, .lon)
        displayName = try? container.decode(String.self, forKey: .displayName)
        address = (try? container.decode([String: String].self, forKey: .address)) ?? [:]
    }

    /// "Montmartre, Paris, France": the neighbourhood, the town and the country, each once; a US or Canadian
    /// town also gets its state ("Springfield, Illinois, United States"). Nil without an address.
    var travellersName: String? {
        func first(_ keys: [String]) -> String? {
            keys.lazy.compactMap { address[$0]?.trimmingCharacters(in: .whitespacesAndNewlines) }.first { !$0.isEmpty }
        }
        let town = first(["city", "town", "village", "hamlet", "municipality"])
        let area = first(["neighbourhood", "quarter", "suburb", "city_district", "island", "county"])
        let country = first(["country"])
        let code = address["country_code"]?.lowercased()
        let state = code == "us" || code == "ca" ? first(["state"]) : nil
        var parts: [String] = []
        for part in [area, town, state, country].compactMap({ $0 }) where !parts.contains(part) {
            parts.append(part)
        }
        // A district named after its town and a number ("Paris 18e Arrondissement") says less than the town.
        if let area, let town, area != town, area.hasPrefix(town + " "), parts.count > 1 { parts.removeAll { $0 == area } }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    private static func coordinate(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) -> Double? {
        if let text = try? container.decode(String.self, forKey: key) { return Double(text) }
        return try? container.decode(Double.self, forKey: key)
    }

    /// Nil for entries without usable coordinates, which are skipped rather than failing the search.
    var place: Place? {
        guard let latitude, let longitude, (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            return nil
        }
        let name = displayName?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return Place(name: name.isEmpty ? Place.coordinatesText(latitude: latitude, longitude: longitude, decimals: 4) : name,
                     latitude: latitude, longitude: longitude, source: .nominatim)
    }
}

/// `/reverse`'s answer where nothing is known: `{"error": "Unable to geocode"}`.
struct NominatimRefusal: Decodable {
    var error: String?
}

/// Answers per normalized query, including "nothing found", so a repeated search costs no request.
actor SearchCache {
    struct Key: Hashable {
        var query: String
        var limit: Int

        init(query: String, limit: Int) {
            self.query = query.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
                .split(whereSeparator: \.isWhitespace).joined(separator: " ")
            self.limit = limit
        }
    }

    /// Bounds memory in a long session; the oldest answers go first.
    private let capacity = 500
    private var entries: [Key: [Place]] = [:]
    private var order: [Key] = []

    subscript(key: Key) -> [Place]? { entries[key] }

    func store(_ places: [Place], for key: Key) {
        if entries.updateValue(places, forKey: key) == nil { order.append(key) }
        if order.count > capacity { entries[order.removeFirst()] = nil }
    }
}
