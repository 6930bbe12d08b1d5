import AppLogging
import CFlickrBuildKey
import Foundation
import GLibSwift
import Layouts
import FlickrClient
import Logging
import MapTiles
import Places
import TouristStore
import TouristUI
import Translations

Translations.setUp()

DesktopApplication.answerInformationOptions(
    CommandLine.arguments, programName: AppInfo.programName, version: AppInfo.version,
    // Translators: the first line of --help; %@ is the app's name, "Virtual Tourist".
    about: formatted(tr("%@: drop pins on a world map and see the photos people took there."), AppInfo.name),
    // One-line literals: xgettext, reading this file as C for the line above, cannot read multi-line ones.
    environment: [
        "  VIRTUAL_TOURIST_TILE_URL  map tile URL template (#Z/#X/#Y), default OpenStreetMap",
        "  VIRTUAL_TOURIST_FLICKR_URL  Flickr REST endpoint, default https://api.flickr.com/services/rest/",
        "  VIRTUAL_TOURIST_GEOCODER_URL  Nominatim server for place names, default https://nominatim.openstreetmap.org/",
        "  FLICKR_API_KEY            Flickr API key (overrides the one saved in Preferences)",
        "  VIRTUAL_TOURIST_LOG       log level: trace, debug, info, notice, warning (default), error",
    ].joined(separator: "\n"))

let environment = ProcessInfo.processInfo.environment
Layouts.register()
StampedLogHandler.bootstrap(levelVariable: "VIRTUAL_TOURIST_LOG", environment: environment)
let logger = Logger(label: AppInfo.programName)

let paths = AppPaths(environment: environment)
let configuration = TouristConfiguration(environment: environment)
// The key meson baked in (`-Dflickr_api_key`), or "": the environment's and Preferences' keys come first.
let keyResolver = FlickrAPIKeyResolver(configFolder: paths.configFolder,
                                       builtInKey: String(cString: vt_build_flickr_api_key()), environment: environment)
// The live clients; the UI sees them only through their protocols.
let services = TouristServices(
    flickr: FlickrAPIClient(configuration: configuration.flickr, keyResolver: keyResolver, logger: logger),
    makeDownloader: { [flickr = configuration.flickr] stagingFolder, validator in
        PhotoDownloader(configuration: flickr, stagingFolder: stagingFolder, validator: validator, logger: logger)
    },
    geocoder: NominatimGeocoder(endpoint: configuration.geocoder, userAgent: AppInfo.userAgent, logger: logger),
    tiles: { TileLoader($0, onEvent: $1) })
let application = TouristApplication(paths: paths, configuration: configuration, keyResolver: keyResolver,
                                     services: services, environment: environment, logger: logger)
exit(application.run())
