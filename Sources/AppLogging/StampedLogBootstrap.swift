import Logging

extension StampedLogHandler {
    /// Makes every logger of the process a stamped one on standard error, at the level `levelVariable` names.
    public static func bootstrap(levelVariable: String, environment: [String: String]) {
        let level = level(named: environment[levelVariable])
        LoggingSystem.bootstrap { label in
            var handler = StampedLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
    }

    /// trace, debug, info, notice, warning, error or critical in any case; `.warning` when unset or unknown.
    static func level(named name: String?) -> Logger.Level {
        name.flatMap { Logger.Level(rawValue: $0.lowercased()) } ?? .warning
    }
}
