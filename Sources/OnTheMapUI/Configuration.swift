import Foundation
import MapView
import Places
import StudentLocations
import Translations

/// Where On the Map finds its servers and keeps its files, from the environment (XDG folders and
/// `ON_THE_MAP_*` variables); a bad value falls back to the default and says why.
public struct OnTheMapConfiguration: Sendable {
    public static let apiVariable = "ON_THE_MAP_API_URL"
    public static let geocoderVariable = "ON_THE_MAP_GEOCODER_URL"
    public static let tileVariable = "ON_THE_MAP_TILE_URL"
    public static let nominatim = NominatimGeocoder.defaultEndpoint

    /// The server the login page offers: the environment's, else the one last logged in to, else Udacity's.
    public var server: URL
    /// Set when the environment names the server: the login page then starts with it.
    public var serverFromEnvironment: Bool
    public var geocoder: URL
    public var tileSource: TileSource
    public var tileCacheFolder: URL
    public var configFolder: URL
    /// Settings that were replaced by defaults, told to the user once the window is up.
    public var problems: [String] = []

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        func xdg(_ variable: String, _ fallback: String) -> URL {
            if let value = environment[variable], value.hasPrefix("/") { return URL(fileURLWithPath: value, isDirectory: true) }
            return home.appendingPathComponent(fallback, isDirectory: true)
        }
        configFolder = xdg("XDG_CONFIG_HOME", ".config").appendingPathComponent(OnTheMapInfo.programName, isDirectory: true)
        tileCacheFolder = xdg("XDG_CACHE_HOME", ".cache").appendingPathComponent(OnTheMapInfo.programName, isDirectory: true)
            .appendingPathComponent("tiles", isDirectory: true)

        let (source, tileProblem) = TileSource.fromEnvironment(environment, variable: Self.tileVariable)
        tileSource = source
        if let tileProblem { problems.append(tileProblem.description(variable: Self.tileVariable)) }

        server = ServerAddress.udacity
        serverFromEnvironment = false
        if let value = environment[Self.apiVariable], !value.isEmpty {
            do {
                server = try ServerAddress.resolve(value)
                serverFromEnvironment = true
            } catch {
                // Translators: %1$@=%2$@ is an environment variable and its value, e.g. ON_THE_MAP_API_URL=http://example.org;
                // %3$@ says why it can't be used; %4$@ is the server used instead.
                problems.append(formatted(tr("%1$@=%2$@ is not usable (%3$@); using %4$@."),
                                       Self.apiVariable, value, error.description, ServerAddress.udacity.absoluteString))
            }
        } else if let saved = try? String(contentsOf: Self.savedServerFile(in: configFolder), encoding: .utf8),
                  let url = try? ServerAddress.resolve(saved.trimmingCharacters(in: .whitespacesAndNewlines)) {
            server = url
        }

        let geocoder = NominatimGeocoder.endpoint(from: environment, variable: Self.geocoderVariable)
        self.geocoder = geocoder.endpoint
        if let problem = geocoder.problem { problems.append(problem) }
    }

    private static func savedServerFile(in folder: URL) -> URL { folder.appendingPathComponent("server") }

    /// Remembers the server a login succeeded on, for the next start (written atomically, never the password).
    public func rememberServer(_ url: URL) {
        try? FileManager.default.createDirectory(at: configFolder, withIntermediateDirectories: true)
        try? Data(url.absoluteString.utf8).write(to: Self.savedServerFile(in: configFolder), options: .atomic)
    }
}
