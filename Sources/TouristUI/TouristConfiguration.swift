import FlickrClient
import Foundation
import MapView
import Places
import Translations

/// Where Virtual Tourist finds Flickr, the geocoder and the map tiles, from the environment; a bad value falls
/// back to the default and says why.
public struct TouristConfiguration: Sendable {
    public static let geocoderVariable = "VIRTUAL_TOURIST_GEOCODER_URL"

    public var flickr: FlickrConfiguration
    public var tileSource: TileSource
    /// Where pins' place names are refined online (Nominatim's API).
    public var geocoder: URL
    /// Bad settings that were replaced by defaults, told to the user once the window is up.
    public var problems: [String] = []

    public init(environment: [String: String]) {
        do {
            flickr = try FlickrConfiguration.fromEnvironment(environment, appVersion: AppInfo.version)
        } catch {
            flickr = FlickrConfiguration(appVersion: AppInfo.version)
            // Translators: %1$@ is an environment variable's name, VIRTUAL_TOURIST_FLICKR_URL; %2$@ says what is wrong.
            problems.append(formatted(tr("%1$@ is not usable (%2$@); using Flickr itself."),
                                   FlickrConfiguration.endpointEnvironmentVariable, error.userMessage))
        }
        problems += flickr.proxies.problems.map {
            // Translators: %@ names a proxy setting and what is wrong with it, e.g. "https_proxy: …".
            formatted(tr("%@. Flickr is reached without that proxy."), $0)
        }
        let (source, problem) = TileSource.fromEnvironment(environment)
        tileSource = source
        if let problem { problems.append(problem.description) }
        let geocoder = NominatimGeocoder.endpoint(from: environment, variable: Self.geocoderVariable)
        self.geocoder = geocoder.endpoint
        if let problem = geocoder.problem { problems.append(problem) }
    }
}
