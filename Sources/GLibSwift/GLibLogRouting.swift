import CGtk
import Foundation
import Logging

/// Sends a GLib log domain's messages to a swift-log logger instead of the terminal.
public enum GLibLogRouting {
    /// Where one domain's messages go, and at which levels. Sendable: GLib calls it from whichever thread logs.
    private struct Route: Sendable {
        let logger: Logger
        let warningLevel: Logger.Level
        let criticalLevel: Logger.Level

        func log(_ flags: GLogLevelFlags, domain: String, message: String) {
            let level: Logger.Level
            if flags.rawValue & G_LOG_LEVEL_ERROR.rawValue != 0 {
                level = .error
            } else if flags.rawValue & G_LOG_LEVEL_CRITICAL.rawValue != 0 {
                level = criticalLevel
            } else if flags.rawValue & (G_LOG_LEVEL_WARNING.rawValue | G_LOG_LEVEL_MESSAGE.rawValue) != 0 {
                level = warningLevel
            } else {
                level = .debug
            }
            logger.log(level: level, "\(message)", metadata: ["domain": "\(domain)"])
        }
    }

    /// Each routed domain's GLib handler id, so that routing it again removes the handler it replaces.
    private static let handlers = HandlerIDs()

    private final class HandlerIDs: @unchecked Sendable {
        // @unchecked: `ids` is only touched under `lock`.
        let lock = NSLock()
        var ids: [String: guint] = [:]
    }

    /// Routes `domain` to `logger`. GLib warnings and messages are logged at `warningLevel`
    /// (libraries that warn about routine events, like a missing map tile, get `.debug`);
    /// criticals and errors go at `criticalLevel` (`.error` unless a library's criticals are known
    /// noise). Install it after the library has installed its own handler: GLib asks the newest
    /// handler for a domain first. Routing a domain again replaces its route (GLib would only ever
    /// call the newest), and GLib releases the replaced one.
    ///
    /// Debug and info messages follow GLib's convention: they are routed (at `.debug`) only when
    /// `G_MESSAGES_DEBUG` names the domain or `all`, and otherwise dropped by GLib before they cost
    /// anything here (osm-gps-map sends several per tile on every redraw).
    public static func route(domain: String, to logger: Logger, warningLevel: Logger.Level,
                             criticalLevel: Logger.Level = .error,
                             environment: [String: String] = ProcessInfo.processInfo.environment) {
        let box = ClosureBox(Route(logger: logger, warningLevel: warningLevel, criticalLevel: criticalLevel))
        var levels = G_LOG_LEVEL_MASK.rawValue | G_LOG_FLAG_FATAL.rawValue | G_LOG_FLAG_RECURSION.rawValue
        if !debugMessagesWanted(for: domain, environment: environment) {
            levels &= ~(G_LOG_LEVEL_DEBUG.rawValue | G_LOG_LEVEL_INFO.rawValue)
        }
        handlers.lock.lock()
        defer { handlers.lock.unlock() }
        let id = g_log_set_handler_full(domain, GLogLevelFlags(rawValue: levels), { domain, flags, message, data in
            ClosureBox<Route>.from(data).body.log(flags, domain: domain.map { String(cString: $0) } ?? "GLib",
                                                  message: message.map { String(cString: $0) } ?? "")
        }, box.retainedPointer(), ClosureBox<Route>.destroyNotify)
        if let replaced = handlers.ids.updateValue(id, forKey: domain) {
            g_log_remove_handler(domain, replaced)
        }
    }

    /// Whether `G_MESSAGES_DEBUG` (space- or comma-separated domains, or `all`) asks for `domain`'s
    /// debug messages.
    public static func debugMessagesWanted(for domain: String, environment: [String: String]) -> Bool {
        guard let wanted = environment["G_MESSAGES_DEBUG"] else { return false }
        let domains = wanted.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        return domains.contains("all") || domains.contains(domain)
    }
}
