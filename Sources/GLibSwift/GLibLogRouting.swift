import CGtk
import Foundation
import Logging

/// Sends a GLib log domain's messages to a swift-log logger instead of the terminal.
public enum GLibLogRouting {
    private final class Route: @unchecked Sendable {
        // @unchecked: immutable after init; Logger is Sendable.
        let logger: Logger
        let warningLevel: Logger.Level
        let criticalLevel: Logger.Level
        init(logger: Logger, warningLevel: Logger.Level, criticalLevel: Logger.Level) {
            self.logger = logger
            self.warningLevel = warningLevel
            self.criticalLevel = criticalLevel
        }
    }

    /// Routes `domain` to `logger`. GLib warnings and messages are logged at `warningLevel`
    /// (libraries that warn about routine events, like a missing map tile, get `.debug`);
    /// criticals and errors go at `criticalLevel` (`.error` unless a library's criticals are known
    /// noise). Install it after the library has installed its own handler: GLib asks the newest
    /// handler for a domain first.
    ///
    /// Debug and info messages follow GLib's convention: they are routed (at `.debug`) only when
    /// `G_MESSAGES_DEBUG` names the domain or `all`, and otherwise dropped by GLib before they cost
    /// anything here (osm-gps-map sends several per tile on every redraw).
    public static func route(domain: String, to logger: Logger, warningLevel: Logger.Level,
                             criticalLevel: Logger.Level = .error,
                             environment: [String: String] = ProcessInfo.processInfo.environment) {
        let route = Unmanaged.passRetained(Route(logger: logger, warningLevel: warningLevel,
                                                 criticalLevel: criticalLevel)).toOpaque()
        var levels = G_LOG_LEVEL_MASK.rawValue | G_LOG_FLAG_FATAL.rawValue | G_LOG_FLAG_RECURSION.rawValue
        if !debugMessagesWanted(for: domain, environment: environment) {
            levels &= ~(G_LOG_LEVEL_DEBUG.rawValue | G_LOG_LEVEL_INFO.rawValue)
        }
        g_log_set_handler(domain, GLogLevelFlags(rawValue: levels), { domain, flags, message, data in
            let route = Unmanaged<Route>.fromOpaque(data!).takeUnretainedValue()
            let text = message.map { String(cString: $0) } ?? ""
            let domainName = domain.map { String(cString: $0) } ?? "GLib"
            let level: Logger.Level
            if flags.rawValue & G_LOG_LEVEL_ERROR.rawValue != 0 {
                level = .error
            } else if flags.rawValue & G_LOG_LEVEL_CRITICAL.rawValue != 0 {
                level = route.criticalLevel
            } else if flags.rawValue & (G_LOG_LEVEL_WARNING.rawValue | G_LOG_LEVEL_MESSAGE.rawValue) != 0 {
                level = route.warningLevel
            } else {
                level = .debug
            }
            route.logger.log(level: level, "\(text)", metadata: ["domain": "\(domainName)"])
        }, route)
    }

    /// Whether `G_MESSAGES_DEBUG` (space- or comma-separated domains, or `all`) asks for `domain`'s
    /// debug messages.
    public static func debugMessagesWanted(for domain: String, environment: [String: String]) -> Bool {
        guard let wanted = environment["G_MESSAGES_DEBUG"] else { return false }
        let domains = wanted.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        return domains.contains("all") || domains.contains(domain)
    }
}
