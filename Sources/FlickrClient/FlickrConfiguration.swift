import Foundation
import Translations
import WebAccess

/// Where Flickr is and how the client talks to it. Plain values; validate with `validate()`.
public struct FlickrConfiguration: Sendable, Equatable {
    public static let defaultEndpoint = URL(string: "https://api.flickr.com/services/rest/")!
    /// Overrides `endpoint` without a rebuild (a local test server, a proxy).
    public static let endpointEnvironmentVariable = "VIRTUAL_TOURIST_FLICKR_URL"
    /// A PEM file of the certificate authorities photo downloads trust instead of the system's (OpenSSL's
    /// convention: a company's TLS proxy, a self-hosted mirror, a test server).
    public static let trustRootsEnvironmentVariable = WebClient.trustRootsVariable
    /// Geo searches without a limiting agent only return the last 12 hours; 2000-01-01 lifts that.
    public static let defaultMinimumUploadDate = 946_684_800
    /// Flickr's maximum `per_page`. Its terms allow showing at most 30 photos per page.
    public static let maximumPerPage = 500
    /// Flickr's radius must be greater than 0 and less than this, in kilometres.
    public static let radiusLimitKilometers = 32.0

    /// The REST endpoint, `https://…/services/rest/`.
    public var endpoint: URL
    /// Search radius around the pin, in kilometres: > 0 and < 32.
    public var radiusKilometers: Double
    /// Photos per album (`per_page`): 1…500; Flickr's terms say show at most 30.
    public var albumSize: Int
    /// `min_upload_date` (Unix time) sent with every search.
    public var minimumUploadDate: Int
    /// Seconds to wait for a search answer.
    public var searchTimeout: TimeInterval
    /// Seconds one photo may take in all, retries included (its deadline).
    public var downloadTimeout: TimeInterval
    /// Seconds a download may go without receiving a byte before it counts as stalled.
    public var stallTimeout: TimeInterval
    /// Largest photo body accepted, in bytes; a larger one is refused before it is read whole.
    public var maxPhotoBytes: Int
    /// Images downloaded at once from an HTTP/1.1 server, across all pins: its connections (the other
    /// requests wait for one, and their clocks have not started).
    public var maxConcurrentDownloads: Int
    /// Image requests asked for at once, across all pins. Over HTTP/2 one connection carries them all, so
    /// a whole album goes at once; over HTTP/1.1 they wait for `maxConcurrentDownloads` connections.
    public var maxRequestsInFlight: Int
    /// The certificate authorities searches and photo downloads trust (a PEM file), or nil for the system's.
    public var trustRoots: String?
    /// The proxies searches and photo downloads go through (`https_proxy`, `http_proxy`, `no_proxy`…).
    public var proxies: ProxySettings = .none
    /// Extra attempts after the first for transient download failures (time-out, connection lost, 5xx, 429).
    public var retryCount: Int
    /// First back-off delay in seconds; doubled each retry, with jitter, capped at `maxRetryDelay`.
    public var retryBaseDelay: TimeInterval
    public var maxRetryDelay: TimeInterval
    /// The app's version, sent as `User-Agent: VirtualTourist/<version>`.
    public var appVersion: String

    public init(endpoint: URL = FlickrConfiguration.defaultEndpoint,
                radiusKilometers: Double = 5,
                albumSize: Int = 30,
                minimumUploadDate: Int = FlickrConfiguration.defaultMinimumUploadDate,
                searchTimeout: TimeInterval = 20,
                downloadTimeout: TimeInterval = 20,
                stallTimeout: TimeInterval = 10,
                maxPhotoBytes: Int = 20 << 20,
                maxConcurrentDownloads: Int = 6,
                maxRequestsInFlight: Int = 30,
                trustRoots: String? = nil,
                retryCount: Int = 3,
                retryBaseDelay: TimeInterval = 0.5,
                maxRetryDelay: TimeInterval = 8,
                appVersion: String = "0") {
        self.endpoint = endpoint
        self.radiusKilometers = radiusKilometers
        self.albumSize = albumSize
        self.minimumUploadDate = minimumUploadDate
        self.searchTimeout = searchTimeout
        self.downloadTimeout = downloadTimeout
        self.stallTimeout = stallTimeout
        self.maxPhotoBytes = maxPhotoBytes
        self.maxConcurrentDownloads = maxConcurrentDownloads
        self.maxRequestsInFlight = maxRequestsInFlight
        self.trustRoots = trustRoots
        self.retryCount = retryCount
        self.retryBaseDelay = retryBaseDelay
        self.maxRetryDelay = maxRetryDelay
        self.appVersion = appVersion
    }

    /// The default configuration with the endpoint taken from `VIRTUAL_TOURIST_FLICKR_URL` when set, and
    /// the trust roots from `SSL_CERT_FILE`, the proxies from `https_proxy` and its kin. Throws
    /// `.invalidEndpoint` / `.insecureEndpoint` for an unusable address.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment,
                                       appVersion: String) throws(FlickrError) -> FlickrConfiguration {
        var configuration = FlickrConfiguration(appVersion: appVersion)
        let override = environment[endpointEnvironmentVariable]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if !override.isEmpty {
            guard let url = URL(string: override) else { throw .invalidEndpoint(override) }
            try TransportSecurity.check(url)
            configuration.endpoint = url
        }
        if let trustRoots = environment[trustRootsEnvironmentVariable], !trustRoots.isEmpty {
            configuration.trustRoots = trustRoots
        }
        configuration.proxies = ProxySettings.fromEnvironment(environment)
        return configuration
    }

    public var userAgent: String { "VirtualTourist/\(appVersion)" }

    /// Throws the first problem that would make every search fail.
    public func validate() throws(FlickrError) {
        try TransportSecurity.check(endpoint)
        try Self.validate(radiusKilometers: radiusKilometers)
        try Self.validate(perPage: albumSize)
        guard maxConcurrentDownloads >= 1 else { throw .invalidSearch(tr("at least one download must be allowed at a time")) }
    }

    static func validate(radiusKilometers: Double) throws(FlickrError) {
        guard radiusKilometers > 0, radiusKilometers < radiusLimitKilometers else {
            throw .invalidSearch(tr("the radius must be above 0 and below 32 km"))
        }
    }

    static func validate(perPage: Int) throws(FlickrError) {
        guard (1...maximumPerPage).contains(perPage) else {
            // Translators: %d is the largest album size Flickr allows, 500.
            throw .invalidSearch(formatted(tr("the album size must be from 1 to %d photos"), maximumPerPage))
        }
    }
}

/// Plain HTTP is allowed only to this computer; everything else must be HTTPS.
public enum TransportSecurity {
    /// Throws `.insecureEndpoint` for `http://` to a non-loopback host, `.invalidEndpoint` for anything
    /// that isn't an http(s) URL with a host.
    public static func check(_ url: URL) throws(FlickrError) {
        let scheme = url.scheme?.lowercased() ?? ""
        guard let host = url.host, !host.isEmpty, scheme == "https" || scheme == "http" else {
            throw .invalidEndpoint(Redaction.redactedDescription(of: url))
        }
        if scheme == "http" && !isLoopback(host: host) {
            throw .insecureEndpoint(host: host)
        }
    }

    /// Whether `url` is usable (http(s) with a host, plain http only on loopback).
    public static func isAllowed(_ url: URL) -> Bool {
        do { try check(url); return true } catch { return false }
    }

    /// `localhost`, 127.0.0.0/8 and ::1 (with or without brackets).
    public static func isLoopback(host rawHost: String) -> Bool {
        var host = rawHost.lowercased()
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host = String(host.dropLast()) }
        if host == "localhost" { return true }
        if host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4,
              octets.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy({ ("0"..."9").contains($0) }) && UInt8($0) != nil })
        else { return false }
        return octets[0] == "127"
    }
}
