import Foundation
import GLibSwift
import Logging
import OnTheMapUI

let arguments = CommandLine.arguments
if arguments.contains("--version") {
    print("\(OnTheMapInfo.programName) \(OnTheMapInfo.version)")
    exit(0)
}
if arguments.contains("--help") || arguments.contains("-h") {
    print("""
    Usage: \(OnTheMapInfo.programName) [--version]

    \(OnTheMapInfo.name): see where your classmates are studying, and share your own place.

    Environment:
      ON_THE_MAP_API_URL       the On the Map server, default https://onthemap-api.udacity.com/v1/
                               (plain http:// only on this computer: 127.0.0.1, ::1, localhost)
      ON_THE_MAP_GEOCODER_URL  a Nominatim server for addresses, default https://nominatim.openstreetmap.org/
      ON_THE_MAP_TILE_URL      map tile URL template (#Z/#X/#Y), default OpenStreetMap
      ON_THE_MAP_LOG           log level: trace, debug, info, notice, warning (default), error
    """)
    exit(0)
}

let environment = ProcessInfo.processInfo.environment
let logLevel = environment["ON_THE_MAP_LOG"].flatMap { Logger.Level(rawValue: $0.lowercased()) } ?? .warning
LoggingSystem.bootstrap { label in
    var handler = StampedLogHandler(label: label)
    handler.logLevel = logLevel
    return handler
}
let logger = Logger(label: OnTheMapInfo.programName)
let application = OnTheMapApplication(configuration: OnTheMapConfiguration(environment: environment), logger: logger)
exit(application.run())
