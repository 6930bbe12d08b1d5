import CFlickrBuildKey
import Foundation
import GLibSwift
import Logging
import TouristStore
import TouristUI

let arguments = CommandLine.arguments
if arguments.contains("--version") {
    print("\(AppInfo.programName) \(AppInfo.version)")
    exit(0)
}
if arguments.contains("--help") || arguments.contains("-h") {
    print("""
    Usage: \(AppInfo.programName) [--version]

    \(AppInfo.name): drop pins on a world map and see the photos people took there.

    Environment:
      VIRTUAL_TOURIST_TILE_URL  map tile URL template (#Z/#X/#Y), default OpenStreetMap
      VIRTUAL_TOURIST_FLICKR_URL  Flickr REST endpoint, default https://api.flickr.com/services/rest/
      VIRTUAL_TOURIST_GEOCODER_URL  Nominatim server for place names, default https://nominatim.openstreetmap.org/
      FLICKR_API_KEY            Flickr API key (overrides the one saved in Preferences)
      VIRTUAL_TOURIST_LOG       log level: trace, debug, info, notice, warning (default), error
    """)
    exit(0)
}

let environment = ProcessInfo.processInfo.environment
let logLevel = environment["VIRTUAL_TOURIST_LOG"].flatMap { Logger.Level(rawValue: $0.lowercased()) } ?? .warning
LoggingSystem.bootstrap { label in
    var handler = StampedLogHandler(label: label)
    handler.logLevel = logLevel
    return handler
}
let logger = Logger(label: AppInfo.programName)

let application = TouristApplication(paths: AppPaths(environment: environment), environment: environment,
                                     builtInFlickrKey: String(cString: vt_build_flickr_api_key()), logger: logger)
exit(application.run())
