import AppLogging
import CFlickrBuildKey
import Foundation
import GLibSwift
import Logging
import TouristStore
import TouristUI

DesktopApplication.answerInformationOptions(
    CommandLine.arguments, programName: AppInfo.programName, version: AppInfo.version,
    about: "\(AppInfo.name): drop pins on a world map and see the photos people took there.",
    environment: """
      VIRTUAL_TOURIST_TILE_URL  map tile URL template (#Z/#X/#Y), default OpenStreetMap
      VIRTUAL_TOURIST_FLICKR_URL  Flickr REST endpoint, default https://api.flickr.com/services/rest/
      VIRTUAL_TOURIST_GEOCODER_URL  Nominatim server for place names, default https://nominatim.openstreetmap.org/
      FLICKR_API_KEY            Flickr API key (overrides the one saved in Preferences)
      VIRTUAL_TOURIST_LOG       log level: trace, debug, info, notice, warning (default), error
    """)

let environment = ProcessInfo.processInfo.environment
StampedLogHandler.bootstrap(levelVariable: "VIRTUAL_TOURIST_LOG", environment: environment)
let logger = Logger(label: AppInfo.programName)

let application = TouristApplication(paths: AppPaths(environment: environment), environment: environment,
                                     builtInFlickrKey: String(cString: vt_build_flickr_api_key()), logger: logger)
exit(application.run())
