import AppLogging
import Foundation
import GLibSwift
import Layouts
import Logging
import MapTiles
import OnTheMapUI
import Places
import StudentLocations
import Translations

Translations.setUp()
DesktopApplication.answerInformationOptions(
    CommandLine.arguments, programName: OnTheMapInfo.programName, version: OnTheMapInfo.version,
    // Translators: %@ is the app's name, "On the Map"; the first line of --help.
    about: formatted(tr("%@: see where your classmates are studying, and share your own place."), OnTheMapInfo.name),
    // One-line literals: xgettext, reading this file as C for the line above, cannot read multi-line ones.
    environment: [
        "  ON_THE_MAP_API_URL       the On the Map server, default https://onthemap-api.udacity.com/v1/",
        "                           (plain http:// only on this computer: 127.0.0.1, ::1, localhost)",
        "  ON_THE_MAP_GEOCODER_URL  a Nominatim server for addresses, default https://nominatim.openstreetmap.org/",
        "  ON_THE_MAP_TILE_URL      map tile URL template (#Z/#X/#Y), default OpenStreetMap",
        "  ON_THE_MAP_LOG           log level: trace, debug, info, notice, warning (default), error",
    ].joined(separator: "\n"))

let environment = ProcessInfo.processInfo.environment
Layouts.register()
StampedLogHandler.bootstrap(levelVariable: "ON_THE_MAP_LOG", environment: environment)
let logger = Logger(label: OnTheMapInfo.programName)
let configuration = OnTheMapConfiguration(environment: environment)
// The live clients; the UI sees them only through their protocols.
let services = OnTheMapServices(
    makeClient: { server in OnTheMapClient(baseURL: server, logger: logger) },
    geocoder: NominatimGeocoder(endpoint: configuration.geocoder, userAgent: OnTheMapInfo.userAgent, logger: logger),
    tiles: { TileLoader($0, onEvent: $1) },
    sessionKeeper: KeyringSessionKeeper())
let application = OnTheMapApplication(configuration: configuration, services: services, logger: logger)
exit(application.run())
