import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging

/// Finds addresses and places through a Nominatim server (`/search?format=jsonv2`), within
/// OpenStreetMap's usage policy: an identifying User-Agent, at most one request per second for the
/// whole app (the shared `RequestRateLimiter`), and every answer cached.
public final class NominatimGeocoder: Sendable {
    /// The server's base address, e.g. `https://nominatim.openstreetmap.org/`.
    public let endpoint: URL
    private let userAgent: String
    private let session: URLSession
    private let limiter: RequestRateLimiter
    private let cache = SearchCache()
    private let logger: Logger

    public static let defaultEndpoint = URL(string: "https://nominatim.openstreetmap.org/")!
    /// Long enough for a busy public server, short enough that a person isn't left waiting.
    public static let requestTimeout: TimeInterval = 10

    /// `userAgent` names the app and a contact, e.g. "OnTheMap/0.1 (+https://github.com/virtualtourist)":
    /// the public server refuses stock agents.
    public init(endpoint: URL, userAgent: String, session: URLSession = NominatimGeocoder.makeSession(),
                limiter: RequestRateLimiter = .shared, logger: Logger = Logger(label: "places.nominatim")) {
        self.endpoint = endpoint
        self.userAgent = userAgent
        self.session = session
        self.limiter = limiter
        self.logger = logger
    }

    /// An ephemeral session with the 10 s time-out and no HTTP cache (answers are cached per query here).
    public static func makeSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = requestTimeout
        configuration.timeoutIntervalForResource = requestTimeout * 2
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
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
    public func request(for query: String, limit: Int) -> URLRequest {
        let base = endpoint.lastPathComponent == "search" ? endpoint : endpoint.appendingPathComponent("search")
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "q", value: query.trimmingCharacters(in: .whitespacesAndNewlines)),
            URLQueryItem(name: "format", value: "jsonv2"),
            URLQueryItem(name: "limit", value: String(max(1, min(limit, 40)))),
        ]
        // URLComponents leaves "+" as is, which servers read as a space: "Paris+Texas" would lose its meaning.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        var request = URLRequest(url: components.url!, cachePolicy: .reloadIgnoringLocalCacheData,
                                 timeoutInterval: Self.requestTimeout)
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let languages = Self.acceptLanguage() {
            request.setValue(languages, forHTTPHeaderField: "Accept-Language")
        }
        return request
    }

    private func fetch(_ query: String, limit: Int) async throws -> [Place] {
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request(for: query, limit: limit))
        } catch let error as URLError where error.code == .cancelled {
            throw CancellationError()
        } catch let error as URLError {
            logger.info("Nominatim request failed", metadata: ["code": "\(error.code.rawValue)", "host": "\(endpoint.host ?? "")"])
            throw Self.isConnectivityProblem(error)
                ? PlaceSearchError.geocoderUnreachable(query: query)
                : PlaceSearchError.geocoderFailed(query: query, detail: "the connection failed: \(error.localizedDescription)")
        }
        guard let http = response as? HTTPURLResponse else {
            throw PlaceSearchError.geocoderFailed(query: query, detail: "the answer was not HTTP")
        }
        guard http.statusCode == 200 else {
            logger.info("Nominatim answered with an error", metadata: ["status": "\(http.statusCode)"])
            throw PlaceSearchError.geocoderFailed(query: query, detail: Self.detail(forStatus: http.statusCode))
        }
        guard let results = try? JSONDecoder().decode([NominatimResult].self, from: data) else {
            logger.info("Nominatim answer is not its JSON", metadata: ["bytes": "\(data.count)"])
            throw PlaceSearchError.geocoderFailed(query: query, detail: "its answer was not the expected JSON")
        }
        return Array(results.compactMap(\.place).prefix(limit))
    }

    /// Errors that mean "no way to the server right now" rather than "the server misbehaved".
    static func isConnectivityProblem(_ error: URLError) -> Bool {
        switch error.code {
        case .notConnectedToInternet, .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .timedOut,
             .networkConnectionLost, .internationalRoamingOff, .dataNotAllowed, .callIsActive:
            return true
        default:
            return false
        }
    }

    static func detail(forStatus status: Int) -> String {
        switch status {
        case 403, 429:
            return "the server refused the request with HTTP \(status): too many searches, or it does not accept this app"
        case 500...599:
            return "the server had a problem: HTTP \(status)"
        default:
            return "the server answered HTTP \(status)"
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

    private enum CodingKeys: String, CodingKey {
        case lat, lon
        case displayName = "display_name"
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        latitude = Self.coordinate(container, .lat)
        longitude = Self.coordinate(container, .lon)
        displayName = try? container.decode(String.self, forKey: .displayName)
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
        return Place(name: name.isEmpty ? String(format: "%.4f, %.4f", latitude, longitude) : name,
                     latitude: latitude, longitude: longitude, source: .nominatim)
    }
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
