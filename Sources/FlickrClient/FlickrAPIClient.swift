import Foundation
import Logging
import Translations
import WebAccess

/// The live `FlickrSearching`: `flickr.photos.search` through the app's HTTP stack (`WebClient`), with the
/// proxies and trust roots photo downloads use.
public final class FlickrAPIClient: FlickrSearching {
    public static let searchMethod = "flickr.photos.search"
    /// Sizes and fields every search asks for.
    public static let extras = "url_q,url_n,url_z,url_b,owner_name,license"

    public let configuration: FlickrConfiguration
    private let apiKey: @Sendable () -> FlickrAPIKey?
    private let web: WebClient
    private let logger: Logger

    /// - Parameter apiKey: asked before every search, so a key changed in Preferences applies at once.
    public init(configuration: FlickrConfiguration, apiKey: @escaping @Sendable () -> FlickrAPIKey?,
                logger: Logger = Logger(label: "virtual-tourist.flickr")) {
        self.configuration = configuration
        self.apiKey = apiKey
        self.logger = logger
        web = WebClient(trustRoots: configuration.trustRoots, proxies: configuration.proxies)
    }

    /// Resolves the key with `keyResolver` before every search.
    public convenience init(configuration: FlickrConfiguration, keyResolver: FlickrAPIKeyResolver,
                            logger: Logger = Logger(label: "virtual-tourist.flickr")) {
        self.init(configuration: configuration, apiKey: { keyResolver.resolve().key }, logger: logger)
    }

    /// Always uses `apiKey` (empty means none).
    public convenience init(configuration: FlickrConfiguration, apiKey: String,
                            logger: Logger = Logger(label: "virtual-tourist.flickr")) {
        let key = FlickrAPIKey(apiKey)
        self.init(configuration: configuration, apiKey: { key }, logger: logger)
    }

    public func searchPhotos(_ query: FlickrSearchQuery) async throws(FlickrError) -> FlickrSearchPage {
        guard let key = apiKey() else {
            logger.warning("Flickr search not sent: no API key")
            throw .missingAPIKey
        }
        let url = try searchURL(for: query, apiKey: key)
        let perPage = query.perPage ?? configuration.albumSize
        logger.debug("Flickr search", metadata: ["request": "GET \(Redaction.redactedDescription(of: url))"])

        let host = url.host ?? "Flickr"
        let body: Data
        do {
            if Task.isCancelled { throw CancellationError() }
            let headers = [("Accept", "application/json"), ("User-Agent", configuration.userAgent)]
            let response = try await web.get(url, headers: headers, timeout: configuration.searchTimeout)
            guard (200..<300).contains(response.status) else { throw FlickrError.httpStatus(response.status) }
            body = response.body
        } catch {
            let failure = FlickrError.from(clientError: error, host: host)
            log(failure)
            throw failure
        }

        do {
            let page = try SearchResponseDecoding.decode(body, requestedPage: query.page, requestedPerPage: perPage)
            logger.debug("Flickr search answered", metadata: [
                "page": "\(page.page)/\(page.pages)", "total": "\(page.total)",
                "photos": "\(page.photos.count)", "skipped": "\(page.skippedCount)",
            ])
            return page
        } catch {
            var failure = error
            // Flickr's own message text could in principle echo the key back.
            if case .apiFailure(let code, let message) = error {
                failure = .apiFailure(code: code, message: Redaction.scrub(message, removing: key.value))
            }
            log(failure)
            throw failure
        }
    }

    /// The address to GET for `query`; throws for a search Flickr would refuse or an insecure endpoint,
    /// before anything is sent.
    func searchURL(for query: FlickrSearchQuery, apiKey: FlickrAPIKey) throws(FlickrError) -> URL {
        try TransportSecurity.check(configuration.endpoint)
        let radius = query.radiusKilometers ?? configuration.radiusKilometers
        let perPage = query.perPage ?? configuration.albumSize
        try FlickrConfiguration.validate(radiusKilometers: radius)
        try FlickrConfiguration.validate(perPage: perPage)
        guard query.page >= 1 else { throw .invalidSearch(tr("the page must be 1 or more")) }
        guard (-90.0...90.0).contains(query.latitude), (-180.0...180.0).contains(query.longitude) else {
            throw .invalidSearch(tr("the coordinate is off the map"))
        }
        guard var components = URLComponents(url: configuration.endpoint, resolvingAgainstBaseURL: false) else {
            throw .invalidEndpoint(Redaction.redactedDescription(of: configuration.endpoint))
        }
        let kept = (components.queryItems ?? []).filter { !Self.ownParameters.contains($0.name) }
        var takenDates: [URLQueryItem] = []
        if let years = query.takenYears {
            guard (1...9999).contains(years.lowerBound), (1...9999).contains(years.upperBound) else {
                throw .invalidSearch(tr("the years must be between 1 and 9999"))
            }
            // MySQL datetimes in Flickr's own form; both ends are inclusive.
            takenDates = [
                URLQueryItem(name: "min_taken_date", value: String(format: "%04d-01-01 00:00:00", years.lowerBound)),
                URLQueryItem(name: "max_taken_date", value: String(format: "%04d-12-31 23:59:59", years.upperBound)),
            ]
        }
        components.queryItems = kept + [
            URLQueryItem(name: "method", value: Self.searchMethod),
            URLQueryItem(name: "api_key", value: apiKey.value),
            URLQueryItem(name: "lat", value: Self.coordinate(query.latitude)),
            URLQueryItem(name: "lon", value: Self.coordinate(query.longitude)),
            URLQueryItem(name: "radius", value: Self.decimal(radius)),
            URLQueryItem(name: "radius_units", value: "km"),
            URLQueryItem(name: "min_upload_date", value: String(configuration.minimumUploadDate)),
            URLQueryItem(name: "safe_search", value: "1"),
            URLQueryItem(name: "content_type", value: "1"),
            URLQueryItem(name: "media", value: "photos"),
            URLQueryItem(name: "extras", value: Self.extras),
            URLQueryItem(name: "per_page", value: String(perPage)),
            URLQueryItem(name: "page", value: String(query.page)),
            URLQueryItem(name: "format", value: "json"),
            URLQueryItem(name: "nojsoncallback", value: "1"),
        ] + takenDates
        // URLComponents leaves "+" alone in queries, but servers read it as a space.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        guard let url = components.url else {
            throw .invalidEndpoint(Redaction.redactedDescription(of: configuration.endpoint))
        }
        return url
    }

    private static let ownParameters: Set<String> = [
        "method", "api_key", "lat", "lon", "radius", "radius_units", "min_upload_date", "safe_search",
        "content_type", "media", "extras", "per_page", "page", "format", "nojsoncallback", "min_taken_date",
        "max_taken_date",
    ]

    /// Six decimals (about 10 cm), never in exponent notation.
    static func coordinate(_ value: Double) -> String {
        String(format: "%.6f", locale: Locale(identifier: "en_US_POSIX"), value)
    }

    /// Up to three decimals without trailing zeros: 5 → "5", 2.5 → "2.5".
    static func decimal(_ value: Double) -> String {
        var text = String(format: "%.3f", locale: Locale(identifier: "en_US_POSIX"), value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    private func log(_ error: FlickrError) {
        if case .cancelled = error {
            logger.debug("Flickr search cancelled")
        } else if error.isTransient || error.isConnectivityProblem {
            logger.info("Flickr search failed", metadata: ["error": "\(error.userMessage)"])
        } else {
            logger.warning("Flickr search failed", metadata: ["error": "\(error.userMessage)"])
        }
    }
}
