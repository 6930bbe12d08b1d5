import FlickrClient
import Foundation
import MapView
import Places

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
            problems.append(
                "\(FlickrConfiguration.endpointEnvironmentVariable) is not usable (\(error.userMessage)); using Flickr itself.")
        }
        problems += flickr.proxies.problems.map { "\($0). Flickr is reached without that proxy." }
        let (source, problem) = TileSource.fromEnvironment(environment)
        tileSource = source
        if let problem { problems.append(problem.description) }
        let geocoder = NominatimGeocoder.endpoint(from: environment, variable: Self.geocoderVariable)
        self.geocoder = geocoder.endpoint
        if let problem = geocoder.problem { problems.append(problem) }
    }
}
